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
	id := mathIndicator(t, cs)
	// The image is verified on its first use, then truncated under the server.
	if out, _ := call(t, cs, "get_standard", req(map[string]any{"frameworkId": maths,
		"identifier": map[string]any{"identifierType": "node_id", "nodeId": id}})); out == nil {
		t.Fatal("the image was not served before its truncation")
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	txt := errorText(t, cs, "get_standard", req(map[string]any{"frameworkId": maths,
		"identifier": map[string]any{"identifierType": "node_id", "nodeId": id}}))
	if !strings.HasPrefix(txt, "internal_error: ") || strings.Contains(txt, "SIGBUS") || strings.Contains(txt, "goroutine") {
		t.Errorf("fault: %q", txt)
	}
	if out, _ := call(t, cs, "get_framework", req(map[string]any{"frameworkId": english})); out == nil {
		t.Fatal("the server stopped serving the other image")
	}
}
