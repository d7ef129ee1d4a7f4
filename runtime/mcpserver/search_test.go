package mcpserver_test

import (
	"slices"

	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/oracle"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// The oracles live in internal/oracle, shared with the query layer's own
// tests.
type (
	srcNode = oracle.Node
	ranked  = oracle.Ranked
)

var (
	sourceNodes = oracle.Nodes
	textOracle  = oracle.Text
)

// placed is oracle.Place over the server's catalog.
func placed(t *testing.T, srv *mcpserver.Server, snapOrFramework string, nodes []srcNode) []srcNode {
	t.Helper()
	return oracle.Place(t, srv.Catalog().Packages, snapOrFramework, nodes)
}

func containsStr(list []string, s string) bool { return slices.Contains(list, s) }

// continuation returns the nextRequest of a result's continuation block, or nil.
func continuation(t *testing.T, res *mcp.CallToolResult, tool string) map[string]any {
	t.Helper()
	if len(res.Content) < 2 {
		return nil
	}
	text := res.Content[1].(*mcp.TextContent).Text
	head, body, ok := strings.Cut(text, "\n")
	if !ok || head != "MCP continuation data. Cursor values are opaque; pass them back unchanged:" {
		t.Fatalf("continuation block %q", text)
	}
	var c struct {
		Tool string         `json:"continuationTool"`
		Next map[string]any `json:"nextRequest"`
	}
	if err := json.Unmarshal([]byte(body), &c); err != nil || c.Tool != tool {
		t.Fatalf("continuation %q: %v", body, err)
	}
	return c.Next
}

// pageAll follows a search's continuation blocks to the end and returns every
// hit, checking page sizes, hasMore and nextCursor on the way.
func pageAll(t *testing.T, cs *mcp.ClientSession, tool string, request map[string]any, limit int) []map[string]any {
	t.Helper()
	request["limit"] = limit
	var hits []map[string]any
	for range 1000 {
		out, res := call(t, cs, tool, req(request))
		if out == nil {
			t.Fatalf("%s(%v): %s", tool, request, res.Content[0].(*mcp.TextContent).Text)
		}
		page := out["page"].(map[string]any)
		got := page["hits"].([]any)
		if int(page["returnedCount"].(float64)) != len(got) || len(got) > limit {
			t.Fatalf("returnedCount %v for %d hits (limit %d)", page["returnedCount"], len(got), limit)
		}
		for _, h := range got {
			hits = append(hits, h.(map[string]any))
		}
		next := continuation(t, res, tool)
		if page["hasMore"] != (next != nil) || (page["nextCursor"] != nil) != (next != nil) {
			t.Fatalf("hasMore %v, nextCursor %v, continuation %v", page["hasMore"], page["nextCursor"], next)
		}
		if next == nil {
			return hits
		}
		if next["cursor"] != page["nextCursor"] {
			t.Fatal("nextRequest does not carry nextCursor")
		}
		request = next
	}
	t.Fatal("paging did not end")
	return nil
}

func hitRank(h map[string]any) ranked {
	node := h["node"].(map[string]any)
	r := ranked{ID: node["nodeId"].(string), Score: int(h["score"].(map[string]any)["value"].(float64))}
	if cm, ok := h["codeMatch"].(map[string]any); ok {
		r.Lead = cm["normalizedCode"].(string)
	}
	return r
}

func sameRanking(t *testing.T, what string, hits []map[string]any, want []ranked) {
	t.Helper()
	got := make([]ranked, len(hits))
	for i, h := range hits {
		got[i] = hitRank(h)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s:\n got %v\nwant %v", what, got, want)
	}
}

// merged returns a new map with a's entries, then b's.
func merged(a, b map[string]any) map[string]any {
	r := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		r[k] = v
	}
	for k, v := range b {
		r[k] = v
	}
	return r
}
