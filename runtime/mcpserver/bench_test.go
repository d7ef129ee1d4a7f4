package mcpserver_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// BenchmarkTools calls tools through the SDK's in-memory transport on the
// corpus images (skipped without the corpus): the server-side cost of a call
// plus the SDK's encoding, without process or pipe overhead.
//
//	go test ./runtime/mcpserver -run '^$' -bench Tools -benchtime 200x
func BenchmarkTools(b *testing.B) {
	dir, sources := corpusImages(b)
	cs, _ := client(b, dir)
	const cbse = "india-cbse-science-learning-framework-classes-9-10@undated+92cd5087f7e0"
	if _, ok := sources[cbse]; !ok {
		b.Skip("SKIP: the CBSE corpus package is absent")
	}
	fw := "india-cbse-science-learning-framework-classes-9-10"
	node := "0014ea30-7a68-5ae0-bd90-fbfcc93bc711"
	route := func(extra map[string]any) map[string]any {
		return req(merged(map[string]any{"frameworkId": fw, "snapshotId": cbse}, extra))
	}
	sel := map[string]any{"identifierType": "node_id", "nodeId": node}
	cases := []struct {
		name string
		tool string
		args any
	}{
		{"get_capabilities", "get_capabilities", map[string]any{}},
		{"list_frameworks", "list_frameworks", req(map[string]any{})},
		{"get_framework", "get_framework", req(map[string]any{"frameworkId": fw, "snapshotId": cbse})},
		{"get_standard", "get_standard", route(map[string]any{"identifier": sel})},
		{"get_standard_context", "get_standard_context", route(map[string]any{"nodeId": node})},
		{"search_text", "search_standards", req(map[string]any{"snapshotIds": []any{cbse}, "mode": "text", "query": "understand and",
			"match": map[string]any{"matchMode": "tokens", "operator": "any"}})},
		{"search_code", "search_standards", req(map[string]any{"snapshotIds": []any{cbse}, "mode": "code_exact", "query": "LO5"})},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
				if err != nil || res.IsError {
					b.Fatalf("%v %v", err, res.Content[0])
				}
			}
		})
	}
}

// BenchmarkNewServer builds the MCP server over the two sample images (the
// catalog opened once), against an empty go-sdk server in the same run: the
// fixed start-up cost kgmcp adds (tool, resource and prompt registration).
//
//	go test ./runtime/mcpserver -run '^$' -bench NewServer
func BenchmarkNewServer(b *testing.B) {
	cat := imgtest.Catalog(b, images(b))
	b.Run("kgmcp", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			mcpserver.New(cat, mcpserver.Options{})
		}
	})
	b.Run("empty-go-sdk", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			mcp.NewServer(&mcp.Implementation{Name: "empty", Version: "1"}, nil)
		}
	})
}
