package mcpserver_test

import (
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/pkggen"
)

func TestListFrameworksPagingAndCursors(t *testing.T) {
	second := pkggen.Shipped()[0]
	second.VersionToken = "2027"
	cs, _ := client(t, images(t, second))
	var seen []string
	args := map[string]any{"limit": 1}
	for page := 0; page < 5; page++ {
		out, res := call(t, cs, "list_frameworks", req(args))
		for _, it := range out["items"].([]any) {
			seen = append(seen, it.(map[string]any)["snapshotId"].(string))
		}
		if out["totalMatchingCount"].(float64) != 3 {
			t.Fatalf("totalMatchingCount %v", out["totalMatchingCount"])
		}
		if !out["hasMore"].(bool) {
			if out["nextCursor"] != nil || len(res.Content) != 1 {
				t.Error("the last page has a cursor or a continuation block")
			}
			break
		}
		if len(res.Content) != 2 || !strings.Contains(res.Content[1].(*mcp.TextContent).Text, `"continuationTool":"list_frameworks"`) {
			t.Errorf("no continuation block on page %d", page)
		}
		args = map[string]any{"limit": 1, "cursor": out["nextCursor"]}
	}
	if len(seen) != 3 || !(seen[0] < seen[1] && seen[1] < seen[2]) {
		t.Fatalf("pages returned %v", seen)
	}
	first, _ := call(t, cs, "list_frameworks", req(map[string]any{"limit": 1}))
	cursor := first["nextCursor"].(string)
	for name, bad := range map[string]map[string]any{
		"changed limit":   {"limit": 2, "cursor": cursor},
		"changed filter":  {"limit": 1, "cursor": cursor, "isCurrent": true},
		"tampered cursor": {"limit": 1, "cursor": cursor[:len(cursor)-2] + "AA"},
		"garbage cursor":  {"limit": 1, "cursor": "abc"},
	} {
		if txt := errorText(t, cs, "list_frameworks", req(bad)); !strings.HasPrefix(txt, "invalid_cursor: ") {
			t.Errorf("%s: %q", name, txt)
		}
	}
	filtered, _ := call(t, cs, "list_frameworks", req(map[string]any{"query": "MATHEMATICS sample", "subjects": []any{"mathematics"}}))
	if filtered["returnedCount"].(float64) != 1 {
		t.Errorf("query filter returned %v", filtered["returnedCount"])
	}
}

// mathIndicator returns the node ID of an indicator of the mathematics sample.
func mathIndicator(t *testing.T, cs interface{}) string {
	t.Helper()
	for _, spec := range pkggen.Shipped() {
		if spec.FrameworkID == maths {
			return pkggen.NodeID(spec, 0, 0, 0, 0)
		}
	}
	t.Fatal("no mathematics sample")
	return ""
}

func TestBadInputIsRejectedAndTheServerKeepsServing(t *testing.T) {
	cs, _ := client(t, images(t))
	cases := map[string]struct {
		tool string
		args any
	}{
		"unknown field":        {"list_frameworks", req(map[string]any{"limit": 5, "bogus": true})},
		"numeric string":       {"list_frameworks", req(map[string]any{"limit": "5"})},
		"fraction":             {"list_frameworks", req(map[string]any{"limit": 2.5})},
		"out of range":         {"list_frameworks", req(map[string]any{"limit": 101})},
		"zero":                 {"list_frameworks", req(map[string]any{"limit": 0})},
		"too many filters":     {"list_frameworks", req(map[string]any{"subjects": make([]any, 65)})},
		"duplicate filter":     {"list_frameworks", req(map[string]any{"subjects": []any{"a", "a"}})},
		"blank query":          {"list_frameworks", req(map[string]any{"query": "   "})},
		"bad framework id":     {"get_framework", req(map[string]any{"frameworkId": "Not Valid"})},
		"missing request":      {"get_framework", map[string]any{}},
		"unknown top level":    {"get_capabilities", map[string]any{"x": 1}},
		"bad selector type":    {"get_standard", req(map[string]any{"frameworkId": maths, "identifier": map[string]any{"identifierType": "guess", "nodeId": "x"}})},
		"selector extra field": {"get_standard", req(map[string]any{"frameworkId": maths, "identifier": map[string]any{"identifierType": "node_id", "nodeId": "x", "extra": 1}})},
		"control character":    {"get_learning_component", req(map[string]any{"frameworkId": maths, "nodeId": "a\x01b"})},
		"depth out of range":   {"get_learning_component", req(map[string]any{"frameworkId": maths, "nodeId": "x", "ancestorDepth": 65})},
	}
	for name, c := range cases {
		if txt := errorText(t, cs, c.tool, c.args); !strings.HasPrefix(txt, "Input validation error: ") {
			t.Errorf("%s: %q", name, txt)
		}
	}
	if txt := errorText(t, cs, "get_standard", req(map[string]any{"identifier": map[string]any{"identifierType": "node_id", "nodeId": "x"}})); !strings.HasPrefix(txt, "Input validation error: ") {
		t.Errorf("no route: %q", txt)
	}
	if out, _ := call(t, cs, "get_capabilities", map[string]any{}); out == nil {
		t.Fatal("the server stopped answering after bad input")
	}
}

func TestStandardContext(t *testing.T) {
	cs, _ := client(t, images(t))
	ind := pkggen.NodeID(pkggen.Shipped()[1], 1, 0, 0, 2)
	out, _ := call(t, cs, "get_standard_context", req(map[string]any{"frameworkId": maths, "nodeId": ind, "includeDescendants": true}))
	anc := out["ancestors"].(map[string]any)
	if len(anc["nodes"].([]any)) != 5 || !anc["isComplete"].(bool) {
		t.Errorf("ancestors: %v", anc)
	}
	paths := out["rootPaths"].(map[string]any)["paths"].([]any)
	if len(paths) != 1 || len(paths[0].(map[string]any)["nodeIds"].([]any)) != 5 {
		t.Errorf("root paths: %v", paths)
	}
	if len(out["directParents"].(map[string]any)["neighbors"].([]any)) != 1 || len(out["directChildren"].(map[string]any)["neighbors"].([]any)) != 0 {
		t.Error("direct neighbours")
	}
	ids := map[string]bool{}
	for _, n := range out["nodes"].([]any) {
		ids[n.(map[string]any)["nodeId"].(string)] = true
	}
	for _, n := range anc["nodes"].([]any) {
		if !ids[n.(map[string]any)["nodeId"].(string)] {
			t.Error("an ancestor is missing from the nodes table")
		}
	}
	small, _ := call(t, cs, "get_standard_context", req(map[string]any{"frameworkId": maths, "nodeId": ind, "maxNodes": 2, "maxPaths": 1, "ancestorDepth": 2}))
	if a := small["ancestors"].(map[string]any); a["isComplete"].(bool) || a["truncationReason"] != "max_nodes" {
		t.Errorf("bounded ancestors: %v", a)
	}
	if rp := small["rootPaths"].(map[string]any); rp["isComplete"].(bool) {
		t.Errorf("root paths past the depth bound: %v", rp)
	}
	if txt := errorText(t, cs, "get_standard_context", req(map[string]any{"frameworkId": maths, "nodeId": ind, "includeUnresolved": false})); !strings.HasPrefix(txt, "capability_unavailable") {
		t.Errorf("includeUnresolved false: %q", txt)
	}
	if txt := errorText(t, cs, "get_standard_context", req(map[string]any{"frameworkId": maths, "nodeId": ind, "relationshipTypes": []any{"supports"}})); !strings.HasPrefix(txt, "capability_unavailable") {
		t.Errorf("wrong relationship type: %q", txt)
	}
	if txt := errorText(t, cs, "get_standard_context", req(map[string]any{"frameworkId": maths, "nodeId": "missing"})); !strings.HasPrefix(txt, "graph_node_not_found") {
		t.Errorf("missing node: %q", txt)
	}
}

func TestFrameworkStatistics(t *testing.T) {
	cs, _ := client(t, images(t))
	out, _ := call(t, cs, "get_framework_statistics", req(map[string]any{"frameworkId": maths}))
	st := out["statistics"].(map[string]any)
	want := map[string]float64{"totalItemNodes": 120, "totalFrameworkNodes": 1, "totalNodes": 121, "totalRelationships": 120,
		"maximumStructuralDepth": 4, "unreachableNodeCount": 0}
	for k, v := range want {
		if st[k].(float64) != v {
			t.Errorf("%s = %v, want %v", k, st[k], v)
		}
	}
	lc := st["learningComponents"].(map[string]any)
	if lc["totalLearningComponents"].(float64) != 81 || lc["totalSupportsRelationships"].(float64) != 92 || lc["multiStandardComponentCount"].(float64) != 11 {
		t.Errorf("learning components: %v", lc)
	}
	if cp := st["codePresence"].(map[string]any); cp["codedItemCount"].(float64) != 108 || cp["uncodedItemCount"].(float64) != 12 {
		t.Errorf("code presence: %v", cp)
	}
	eng, _ := call(t, cs, "get_framework_statistics", req(map[string]any{"frameworkId": english}))
	un := eng["statistics"].(map[string]any)["unresolvedRelationships"].(map[string]any)
	if un["unresolvedCount"].(float64) != 1 {
		t.Errorf("unresolved: %v", un)
	}
}

// TestFaultInAHandlerIsAnInternalError truncates a served image under the
// running server: reading its mapped pages then faults (SIGBUS), which the
// server turns into internal_error for that call and keeps serving.
func TestFaultInAHandlerIsAnInternalError(t *testing.T) {
	dir := images(t)
	cs, srv := client(t, dir)
	var path string
	for _, p := range srv.Catalog().Packages {
		if p.FrameworkID() == maths {
			path = p.Path
		}
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	txt := errorText(t, cs, "get_standard", req(map[string]any{"frameworkId": maths,
		"identifier": map[string]any{"identifierType": "node_id", "nodeId": mathIndicator(t, cs)}}))
	if !strings.HasPrefix(txt, "internal_error: ") || strings.Contains(txt, "SIGBUS") || strings.Contains(txt, "goroutine") {
		t.Errorf("fault: %q", txt)
	}
	if out, _ := call(t, cs, "get_framework", req(map[string]any{"frameworkId": english})); out == nil {
		t.Fatal("the server stopped serving the other image")
	}
}
