package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// loadingClient connects an in-memory client to a server whose catalog is
// still to come.
func loadingClient(t *testing.T) (*mcp.ClientSession, func(*catalog.Catalog, error)) {
	t.Helper()
	l, settle := catalog.NewLoading()
	return connect(t, mcpserver.NewLoading(l, mcpserver.Options{})), settle
}

// TestRequestsWaitForTheCatalog: while the images are being verified the
// server answers the handshake and the lists, and every request that reads a
// package waits; once the catalog is settled it gets exactly the answer a
// server started over the verified catalog gives.
func TestRequestsWaitForTheCatalog(t *testing.T) {
	dir := images(t)
	ready, _ := client(t, dir)
	cs, settle := loadingClient(t)
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 20 {
		t.Fatalf("tools/list before the catalog: %v", err)
	}
	readyTools, _ := ready.ListTools(ctx, nil)
	a, _ := json.Marshal(tools)
	b, _ := json.Marshal(readyTools)
	if string(a) != string(b) {
		t.Error("tools/list differs before the catalog is settled")
	}
	if _, err := cs.ListPrompts(ctx, nil); err != nil {
		t.Fatalf("prompts/list before the catalog: %v", err)
	}
	if _, err := cs.ListResourceTemplates(ctx, nil); err != nil {
		t.Fatalf("resources/templates/list before the catalog: %v", err)
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}

	params := &mcp.CallToolParams{Name: "list_frameworks", Arguments: req(map[string]any{})}
	answered := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			t.Error(err)
		}
		answered <- res
	}()
	select {
	case <-answered:
		t.Fatal("a tool call was answered before the catalog was settled")
	case <-time.After(100 * time.Millisecond):
	}
	paths, _ := catalog.Paths([]string{dir})
	cat, err := catalog.Open(paths, catalog.PolicyFail, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cat.Close)
	settle(cat, nil)
	got := <-answered
	want, err := ready.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got.IsError || got.Content[0].(*mcp.TextContent).Text != want.Content[0].(*mcp.TextContent).Text {
		t.Errorf("answer after settling differs:\n%v\nwant\n%v", got.Content[0], want.Content[0])
	}
}

// TestRefusedCatalogRefusesRequests: requests waiting for a catalog that the
// verification refuses get catalog_error, never a partial answer.
func TestRefusedCatalogRefusesRequests(t *testing.T) {
	cs, settle := loadingClient(t)
	ctx := context.Background()
	done := make(chan struct{})
	go func() {
		defer close(done)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_capabilities", Arguments: map[string]any{}})
		if err != nil || !res.IsError || !strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "catalog_error: ") {
			t.Errorf("waiting tool call: %v %+v", err, res)
		}
	}()
	settle(nil, errors.New("kgimg: open x.kgimg: checksum mismatch"))
	<-done
	_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "kgfegmcp://catalog"})
	if err == nil || !strings.Contains(err.Error(), "catalog_error") || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Errorf("resources/read after a refusal: %v", err)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "lesson_plan_alignment"}); err == nil || !strings.Contains(err.Error(), "catalog_error") {
		t.Errorf("prompts/get after a refusal: %v", err)
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Errorf("tools/list after a refusal: %v", err)
	}
}
