package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/explorer"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// connectWith serves srv to an in-memory client with the given capabilities.
func connectWith(t *testing.T, srv *mcpserver.Server, caps *mcp.ClientCapabilities) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "0"}, &mcp.ClientOptions{Capabilities: caps}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// A client that declares the MCP Apps extension sees the explorer linked
// from the tools where a picture helps, listed and readable; a client that
// does not (or declares another media type) sees exactly what it saw before.
func TestTheAppIsOfferedOnlyToClientsThatDeclareIt(t *testing.T) {
	dir := images(t)
	srv := mcpserver.New(imgtest.Catalog(t, dir), mcpserver.Options{})
	ctx := context.Background()
	plain := connectWith(t, srv, nil)
	other := connectWith(t, srv, &mcp.ClientCapabilities{Extensions: map[string]any{"io.modelcontextprotocol/ui": map[string]any{"mimeTypes": []any{"text/html+mcp"}}}})
	host := connectWith(t, srv, &mcp.ClientCapabilities{Extensions: map[string]any{"io.modelcontextprotocol/ui": map[string]any{"mimeTypes": []any{explorer.AppMIMEType}}}})

	list := func(cs *mcp.ClientSession) (string, map[string]any) {
		tl, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(tl.Tools)
		metas := map[string]any{}
		for _, tool := range tl.Tools {
			if tool.Meta != nil {
				metas[tool.Name] = tool.Meta
			}
		}
		return string(b), metas
	}
	plainTools, plainMetas := list(plain)
	otherTools, _ := list(other)
	_, hostMetas := list(host)
	if len(plainMetas) != 0 || plainTools != otherTools {
		t.Errorf("a client without the extension sees tool metadata: %v", plainMetas)
	}
	for _, name := range []string{"get_standard_context", "get_publisher_relations", "traverse_learning_progressions"} {
		m, _ := hostMetas[name].(mcp.Meta)
		ui, _ := m["ui"].(map[string]any)
		if ui == nil || ui["resourceUri"] != explorer.AppURI {
			t.Errorf("%s: %v, want _meta.ui.resourceUri %s", name, hostMetas[name], explorer.AppURI)
		}
	}
	if len(hostMetas) != 3 {
		t.Errorf("%d tools link the App, want 3: %v", len(hostMetas), hostMetas)
	}

	resources := func(cs *mcp.ClientSession) []string {
		rl, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var uris []string
		for _, r := range rl.Resources {
			uris = append(uris, r.URI)
		}
		return uris
	}
	if got := resources(plain); strings.Contains(strings.Join(got, " "), "ui://") {
		t.Errorf("a client without the extension lists %v", got)
	}
	if got := resources(host); !strings.Contains(strings.Join(got, " "), explorer.AppURI) {
		t.Errorf("the host does not list the App: %v", got)
	}
	if _, err := plain.ReadResource(ctx, &mcp.ReadResourceParams{URI: explorer.AppURI}); err == nil {
		t.Error("a client without the extension read the App")
	}
	rr, err := host.ReadResource(ctx, &mcp.ReadResourceParams{URI: explorer.AppURI})
	if err != nil {
		t.Fatal(err)
	}
	if c := rr.Contents[0]; c.MIMEType != explorer.AppMIMEType || !strings.Contains(c.Text, `data-transport="host"`) || !strings.HasPrefix(c.Text, "<!doctype html>") {
		t.Errorf("the App resource: %s %.200s", c.MIMEType, c.Text)
	}
}
