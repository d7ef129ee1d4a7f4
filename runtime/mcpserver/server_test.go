package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/runtime/mcpserver"
	"github.com/kgc-project/kgc/runtime/query"
)

const (
	english = "kgc-sample-english-grades-1-2"
	maths   = "kgc-sample-mathematics-grades-1-3"
)

// images builds the shipped samples (plus any extra specs) into a temp dir.
func images(t testing.TB, extra ...pkggen.Spec) string {
	t.Helper()
	return imgtest.Images(t, extra, nil)
}

// client connects an in-memory client to a server over the images in dir.
func client(t testing.TB, dir string) (*mcp.ClientSession, *mcpserver.Server) {
	t.Helper()
	srv := mcpserver.New(imgtest.Catalog(t, dir), mcpserver.Options{})
	return connect(t, srv), srv
}

// connect serves srv to an in-memory client.
func connect(t testing.TB, srv *mcpserver.Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call invokes a tool and returns the parsed structured result, checking that
// the first text block is exactly the same JSON.
func call(t testing.TB, cs *mcp.ClientSession, name string, args any) (map[string]any, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		return nil, res
	}
	var fromText, fromStruct map[string]any
	sb, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(sb, &fromStruct); err != nil {
		t.Fatal(err)
	}
	if !jsonTextTools[name] {
		// Readable text (runtime/textview): never the JSON, never empty;
		// what it must hold is checked per tool (textview_test.go).
		if json.Unmarshal([]byte(text), &fromText) == nil || strings.TrimSpace(text) == "" {
			t.Fatalf("%s: the text block is not readable text: %.200s", name, text)
		}
		return fromStruct, res
	}
	if err := json.Unmarshal([]byte(text), &fromText); err != nil {
		t.Fatalf("%s: text is not JSON: %v", name, err)
	}
	a, _ := json.Marshal(fromText)
	b, _ := json.Marshal(fromStruct)
	if string(a) != string(b) {
		t.Fatalf("%s: text and structuredContent differ", name)
	}
	return fromStruct, res
}

// jsonTextTools keep their complete result as canonical JSON text; the
// others' text is readable (runtime/textview).
var jsonTextTools = map[string]bool{
	"get_learning_progression": true, "get_standard_progressions": true, "search_learning_progressions": true,
	"traverse_learning_progressions": true, "get_learning_progression_paths": true, "read_evidence": true,
	"get_workflow_instructions": true,
}

// errorText calls a tool expecting a tool error and returns its text.
func errorText(t testing.TB, cs *mcp.ClientSession, name string, args any) string {
	t.Helper()
	out, res := call(t, cs, name, args)
	if out != nil || !res.IsError {
		t.Fatalf("%s(%v) succeeded; want an error", name, args)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

func req(fields map[string]any) map[string]any { return map[string]any{"request": fields} }

func TestToolInventoryAndAnnotations(t *testing.T) {
	cs, _ := client(t, images(t))
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range tools.Tools {
		names[tool.Name] = true
		a := tool.Annotations
		if a == nil || !a.ReadOnlyHint || !a.IdempotentHint || a.DestructiveHint == nil || *a.DestructiveHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: annotations %+v", tool.Name, a)
		}
		schema, _ := json.Marshal(tool.InputSchema)
		if !strings.Contains(string(schema), `"additionalProperties":false`) || tool.OutputSchema == nil {
			t.Errorf("%s: input schema %s, output schema %v", tool.Name, schema, tool.OutputSchema)
		}
	}
	for _, want := range []string{"get_capabilities", "list_frameworks", "get_framework", "get_framework_statistics", "search_standards", "get_standard", "get_standard_context", "search_learning_components",
		"get_learning_component", "get_learning_component_context", "get_learning_components_for_standard"} {
		if !names[want] {
			t.Errorf("tool %s is not registered", want)
		}
	}
	caps, _ := call(t, cs, "get_capabilities", map[string]any{})
	if len(tools.Tools) != 20 || caps["serverName"] != query.ServerName || len(caps["packages"].([]any)) != 2 || len(caps["resourceUriTemplates"].([]any)) != 15 {
		t.Errorf("capabilities: %v", caps)
	}
}

// The lists never change while a server runs: no listChanged is advertised;
// every resource template has a title and a description.
func TestCapabilitiesAndTemplateMetadata(t *testing.T) {
	cs, _ := client(t, images(t))
	caps := cs.InitializeResult().Capabilities
	if caps.Tools == nil || caps.Prompts == nil || caps.Resources == nil || caps.Completions == nil {
		t.Fatalf("capabilities %+v", caps)
	}
	if caps.Tools.ListChanged || caps.Prompts.ListChanged || caps.Resources.ListChanged {
		t.Errorf("listChanged advertised: %+v %+v %+v", caps.Tools, caps.Prompts, caps.Resources)
	}
	n := 0
	for tmpl, err := range cs.ResourceTemplates(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if tmpl.Title == "" || tmpl.Description == "" {
			t.Errorf("template %s has no title or description", tmpl.Name)
		}
	}
	if n != 15 {
		t.Errorf("%d templates", n)
	}
}
