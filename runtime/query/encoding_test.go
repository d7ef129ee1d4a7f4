package query_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/query"
)

// sampleService serves the shipped samples.
func sampleService(t testing.TB) *query.Service {
	paths, _ := catalog.Paths([]string{imgtest.Images(t, nil, nil)})
	cat, err := catalog.Open(paths, catalog.PolicyFail, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cat.Close)
	return query.New(cat, query.Options{})
}

const (
	maths = "kgc-sample-mathematics-grades-1-3"
	ind   = "e4c56a5e-8e04-5198-bd96-db37083d400d"
	lc    = "b5b1b2e8-d7de-5f07-a397-84de51f281c3"
	bts   = "45031a03-9bfd-564b-be80-88ecd5d70e44"
	btt   = "6957550e-394d-5b79-8288-3165c2d544c3"
)

// everyResult calls every typed Service method once on the samples.
func everyResult(t testing.TB, s *query.Service) map[string]any {
	ctx := context.Background()
	out := map[string]any{}
	add := func(name string, v any, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = v
	}
	ctxReq := query.NewContextRequest(maths, ind)
	ctxReq.IncludeDescendants = true
	text := query.StandardSearchRequest{SearchScope: query.SearchScope{FrameworkIDs: []string{maths}}, Mode: "text",
		Query: "counting", Match: query.Words(query.MatchTokens, query.OperatorAny)}
	code := query.StandardSearchRequest{SearchScope: query.SearchScope{FrameworkIDs: []string{maths}}, Mode: "code_prefix", Query: "M1"}
	comps := query.ComponentSearchRequest{SearchScope: query.SearchScope{FrameworkIDs: []string{maths}},
		Mode: "learning_component_supported_code_prefix", Query: "M1.1"}
	v1, e1 := s.Capabilities(ctx)
	add("capabilities", v1, e1)
	v2, e2 := s.ListFrameworks(ctx, query.ListFrameworksRequest{})
	add("list_frameworks", v2, e2)
	v3, e3 := s.GetFramework(ctx, query.FrameworkRequest{FrameworkID: maths})
	add("get_framework", v3, e3)
	v4, e4 := s.FrameworkStatistics(ctx, query.FrameworkRequest{FrameworkID: maths})
	add("statistics", v4, e4)
	v5, e5 := s.Standard(ctx, query.NewStandardRequest(maths, query.ByNodeID(ind)))
	add("standard", v5, e5)
	v6, e6 := s.StandardContext(ctx, ctxReq)
	add("context", v6, e6)
	v7, e7 := s.SearchStandards(ctx, text)
	add("search_text", v7, e7)
	v8, e8 := s.SearchStandards(ctx, code)
	add("search_code", v8, e8)
	v9, e9 := s.SearchComponents(ctx, comps)
	add("search_components", v9, e9)
	v10, e10 := s.Component(ctx, query.NewComponentRequest(maths, lc))
	add("component", v10, e10)
	v11, e11 := s.ComponentContext(ctx, query.NewComponentRequest(maths, lc))
	add("component_context", v11, e11)
	v12, e12 := s.StandardComponents(ctx, query.NewStandardRequest(maths, query.ByNodeID(ind)))
	add("standard_components", v12, e12)
	v13, e13 := s.Progression(ctx, query.ProgressionRequest{ProgressionRoute: query.ProgressionRoute{FrameworkID: maths},
		RelationshipID: "06da5a28-daa4-587b-934a-05c0506f0f36"})
	add("progression", v13, e13)
	v14, e14 := s.StandardProgressions(ctx, query.NewStandardProgressionsRequest(maths, query.ByNodeID(bts)))
	add("standard_progressions", v14, e14)
	v15, e15 := s.SearchProgressions(ctx, query.NewProgressionSearchRequest(maths))
	add("search_progressions", v15, e15)
	v16, e16 := s.Traverse(ctx, query.NewTraverseRequest(maths, query.ByNodeID(bts)))
	add("traverse", v16, e16)
	v17, e17 := s.Paths(ctx, query.NewPathsRequest(maths, query.ByNodeID(bts), query.ByNodeID(btt)))
	add("paths", v17, e17)
	v18, e18 := s.ReadEvidence(ctx, query.NewEvidenceRequest("kgfegmcp://catalog"))
	add("evidence", v18, e18)
	return out
}

// TestTypedResultsEncodeAsTheLongWay walks every result type: its canonical
// encoding (one pass, fields sorted once per type) is the bytes of
// encoding/json followed by a canonical re-encoding, and the tool call by
// name gives the same answer.
func TestTypedResultsEncodeAsTheLongWay(t *testing.T) {
	s := sampleService(t)
	for name, v := range everyResult(t, s) {
		typed, err := canonjson.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		plain, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		tree, errs := jsonv.Parse(plain)
		if tree == nil || len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		if long := canonjson.Encode(tree); string(long) != string(typed) {
			t.Errorf("%s (%s): typed and long encodings differ\ntyped: %.300s\nlong:  %.300s", name, reflect.TypeOf(v), typed, long)
		}
	}
}

// TestTypedCallsMatchToolCalls: the typed API and Call by name answer alike.
func TestTypedCallsMatchToolCalls(t *testing.T) {
	s := sampleService(t)
	ctx := context.Background()
	typed, err := s.StandardContext(ctx, query.NewContextRequest(maths, ind))
	if err != nil {
		t.Fatal(err)
	}
	byName, err := s.Call(ctx, "get_standard_context", json.RawMessage(`{"request":{"frameworkId":"`+maths+`","nodeId":"`+ind+`"}}`))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := canonjson.Marshal(typed)
	b, _ := canonjson.Marshal(byName)
	if string(a) != string(b) {
		t.Fatalf("typed and by-name answers differ")
	}
	// A typed request breaking its schema gets the tool call's input error.
	bad := query.NewContextRequest(maths, ind)
	bad.MaxNodes = 5000
	if _, err := s.StandardContext(ctx, bad); err == nil || err.Error() != "Input validation error: request.maxNodes: must be between 1 and 2000, not 5000" {
		t.Errorf("out-of-range maxNodes: %v", err)
	}
}
