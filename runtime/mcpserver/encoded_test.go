package mcpserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEncodedResultsAreTheSDKsBytes: a wrapped tool result encodes to exactly
// what the SDK encodes for the result itself, whatever its parts: characters
// the SDK escapes in structured content, resource links, a second text block,
// _meta set after the handlers ran, a placeholder spelled by another value.
func TestEncodedResultsAreTheSDKsBytes(t *testing.T) {
	size := int64(12)
	cases := map[string]func() *mcp.CallToolResult{
		"plain": func() *mcp.CallToolResult { return result(`{"a":1,"b":"x"}`) },
		"escaped characters": func() *mcp.CallToolResult {
			return result(`{"d":"Number & Operations <b> \u2028 \u2029 é 😀","e":"\"quoted\" \\ back"}`)
		},
		"raw line separators": func() *mcp.CallToolResult { return result("{\"d\":\"a\u2028b\u2029c & <x>\"}") },
		"links and continuation": func() *mcp.CallToolResult {
			r := result(`{"hits":[]}`)
			r.Content = append(r.Content, &mcp.ResourceLink{URI: "kgfegmcp://x", Name: "x & y", Title: "<t>", MIMEType: "application/json", Size: &size},
				&mcp.TextContent{Text: "MCP continuation data:\n{\"cursor\":\"abc\"}"})
			return r
		},
		"plain links": func() *mcp.CallToolResult {
			r := result(`{"hits":[]}`)
			r.Content = append(r.Content, &mcp.ResourceLink{URI: "kgfegmcp://framework/a/snapshot/a%402026%2Bx/manifest", Name: "package_manifest", Title: "Package manifest of a@2026+x", MIMEType: "application/json", Size: &size},
				&mcp.ResourceLink{URI: "kgfegmcp://z", Name: "z", Description: "no size, a description"},
				&mcp.ResourceLink{URI: "kgfegmcp://é", Name: "not ASCII"},
				&mcp.ResourceLink{URI: "kgfegmcp://m", Name: "with meta", Meta: mcp.Meta{"k": "v"}})
			return r
		},
		"meta set later": func() *mcp.CallToolResult { return result(`{"a":[1,2,3]}`) },
		"placeholder in a link name": func() *mcp.CallToolResult {
			r := result(`{"a":1}`)
			r.Content = append(r.Content, &mcp.ResourceLink{URI: "kgfegmcp://y", Name: textPlaceholder})
			return r
		},
	}
	for name, build := range cases {
		t.Run(name, func(t *testing.T) {
			want := build()
			wrapped, err := encodedResults(func(context.Context, string, mcp.Request) (mcp.Result, error) { return build(), nil })(context.Background(), "tools/call", nil)
			if err != nil {
				t.Fatal(err)
			}
			e, ok := wrapped.(*encodedToolResult)
			if !ok {
				t.Fatalf("the result is not wrapped: %T", wrapped)
			}
			if name == "meta set later" {
				// What the SDK does after the handlers for newer clients.
				for _, r := range []mcp.Result{want, wrapped} {
					r.SetMeta(map[string]any{"io.modelcontextprotocol/serverInfo": map[string]string{"name": "kgmcp"}})
				}
			}
			wantBytes, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(wrapped)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(wantBytes) {
				t.Errorf("wrapped result encodes to\n%s\nthe SDK's encoding is\n%s", got, wantBytes)
			}
			// What Direct writes (no SDK middleware has seen the result).
			if direct, err := e.directJSON(); err != nil || string(direct) != string(wantBytes) {
				t.Errorf("directJSON: %v\n%s\nthe SDK's encoding is\n%s", err, direct, wantBytes)
			}
			if e.text != want.Content[0].(*mcp.TextContent).Text {
				t.Error("the wrapped text is not the result's")
			}
		})
	}
	for name, r := range map[string]*mcp.CallToolResult{
		"error result":         {IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "x"}}},
		"no structured result": {Content: []mcp.Content{&mcp.TextContent{Text: "x"}}},
	} {
		got, _ := encodedResults(func(context.Context, string, mcp.Request) (mcp.Result, error) { return r, nil })(context.Background(), "tools/call", nil)
		if got != mcp.Result(r) {
			t.Errorf("%s: wrapped (%T), want it passed on as it is", name, got)
		}
	}
}

func result(structured string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: structured}}, StructuredContent: json.RawMessage(structured)}
}
