package query_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/runtime/query"
)

// BenchmarkResultEncoding encodes a 25-hit search page and a
// get_standard_context result canonically, as the typed results they are
// now and as the maps of maps they were built as before (the same values,
// decoded into map[string]any), in one run:
//
//	go test ./runtime/query -run '^$' -bench ResultEncoding -benchmem
func BenchmarkResultEncoding(b *testing.B) {
	s := sampleService(b)
	ctx := context.Background()
	r := query.NewStandardSearchRequest("numbers grade counting understanding", maths)
	r.Match = query.Words(query.MatchTokens, query.OperatorAny)
	page, err := s.SearchStandards(ctx, r)
	if err != nil || len(page.Page.Hits) != 25 {
		b.Fatalf("search: %v, %d hits", err, len(page.Page.Hits))
	}
	creq := query.NewContextRequest(maths, "6aed1d94-b60f-52b9-ab26-c7ba909c451f")
	creq.IncludeDescendants, creq.ChildDepth = true, 8
	ctxRes, err := s.StandardContext(ctx, creq)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		v    any
	}{{"search_page_25", page}, {"standard_context", ctxRes}} {
		raw, _ := json.Marshal(c.v)
		var asMap map[string]any
		json.Unmarshal(raw, &asMap)
		for _, form := range []struct {
			name string
			v    any
		}{{"typed", c.v}, {"map", asMap}} {
			b.Run(c.name+"/"+form.name, func(b *testing.B) {
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					out, err := canonjson.Marshal(form.v)
					if err != nil {
						b.Fatal(err)
					}
					n = len(out)
				}
				b.SetBytes(int64(n))
			})
		}
	}
}
