package query

import (
	"context"
	"encoding/json"
	"testing"
)

// BenchmarkCalls measures one get_standard and one 25-hit search on the
// mathematics sample, through Call as the MCP adapter calls it (JSON
// arguments, results aliasing the images: ResultsAliasImages) and through the
// typed API as an embedder calls it (results copied out of the images): the
// cost of validating, defaulting and decoding a request, and of detaching
// the result, beside the query itself.
//
//	go test ./runtime/query -run '^$' -bench Calls -benchmem
func BenchmarkCalls(b *testing.B) {
	cat := sampleCatalog(b)
	s := New(cat, Options{})
	server := New(cat, Options{ResultsAliasImages: true})
	ctx := context.Background()
	const maths = "kgc-sample-mathematics-grades-1-3"
	std := "e4c56a5e-8e04-5198-bd96-db37083d400d" // M1.1.1.1
	cases := []struct {
		name, tool, args string
		typed            func() error
	}{
		{"get_standard", "get_standard", `{"request":{"frameworkId":"` + maths + `","identifier":{"identifierType":"node_id","nodeId":"` + std + `"}}}`,
			func() error { _, err := s.Standard(ctx, NewStandardRequest(maths, ByNodeID(std))); return err }},
		{"search_25", "search_standards", `{"request":{"frameworkIds":["` + maths + `"],"mode":"text","query":"step","match":{"matchMode":"tokens","operator":"all"},"limit":25}}`,
			func() error {
				r := NewStandardSearchRequest("step", maths)
				r.Limit = 25
				_, err := s.SearchStandards(ctx, r)
				return err
			}},
	}
	for _, c := range cases {
		b.Run(c.name+"/call", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := server.Call(ctx, c.tool, json.RawMessage(c.args)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/typed", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.typed(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
