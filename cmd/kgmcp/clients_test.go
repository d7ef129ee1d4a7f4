package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
)

const mathsFramework = "kgc-sample-mathematics-grades-1-3"

// mcpClients returns tools/mcpclients when its pinned npm clients are installed
// (make test installs them), or skips visibly.
func mcpClients(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(imgtest.RepoRoot(t), "tools", "mcpclients")
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("SKIP: node is not installed; the third-party MCP client tests need it (tools/install-mcpclients.sh)")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Skip("SKIP: the npm MCP clients are not installed; run tools/install-mcpclients.sh (make test does)")
	}
	return dir
}

type probeStep struct {
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type probeOutput struct {
	ServerVersion map[string]any `json:"serverVersion"`
	Fatal         string         `json:"fatal"`
	Steps         []probeStep    `json:"steps"`
}

// probe runs tools/mcpclients/probe.mjs (the TypeScript SDK client) with a
// connection and steps, and returns what it saw.
func probe(t *testing.T, clients string, conn map[string]any, steps []map[string]any) probeOutput {
	t.Helper()
	script := map[string]any{"steps": steps}
	for k, v := range conn {
		script[k] = v
	}
	path := filepath.Join(t.TempDir(), "script.json")
	b, _ := json.Marshal(script)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(clients, "probe.mjs"), path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var out probeOutput
	if jerr := json.Unmarshal(stdout.Bytes(), &out); jerr != nil || err != nil || out.Fatal != "" {
		t.Fatalf("probe: %v %v %s\nstdout: %.2000s\nstderr: %.2000s", err, jerr, out.Fatal, stdout.String(), stderr.String())
	}
	if len(out.Steps) != len(steps) {
		t.Fatalf("probe ran %d of %d steps", len(out.Steps), len(steps))
	}
	return out
}

type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent map[string]any `json:"structuredContent"`
	IsError           bool           `json:"isError"`
}

// toolOK parses a successful tool step and checks its text block: readable
// text for the discovery, standards, component and comparison tools (naming
// every record ID of the result), exactly the structuredContent for the
// others.
func toolOK(t *testing.T, what string, s probeStep) map[string]any {
	t.Helper()
	var r toolResult
	if !s.OK || json.Unmarshal(s.Result, &r) != nil || r.IsError || len(r.Content) == 0 {
		t.Fatalf("%s: %s %+v", what, s.Result, s.Error)
	}
	var fromText map[string]any
	if err := json.Unmarshal([]byte(r.Content[0].Text), &fromText); err != nil {
		if !readableTools[what] {
			t.Fatalf("%s: text block is not JSON: %v", what, err)
		}
		for _, id := range recordIDs(r.StructuredContent) {
			if !strings.Contains(r.Content[0].Text, id) {
				t.Errorf("%s: the text does not name record %s", what, id)
			}
		}
		return r.StructuredContent
	}
	if readableTools[what] {
		t.Fatalf("%s: text block is JSON, not readable text", what)
	}
	a, _ := json.Marshal(fromText)
	b, _ := json.Marshal(r.StructuredContent)
	if !bytes.Equal(a, b) {
		t.Fatalf("%s: text and structuredContent differ", what)
	}
	return r.StructuredContent
}

// readableTools answer with readable text (runtime/textview).
var readableTools = map[string]bool{
	"get_capabilities": true, "list_frameworks": true, "get_framework": true, "get_framework_statistics": true,
	"search_standards": true, "get_standard": true, "get_standard_context": true, "search_learning_components": true,
	"get_learning_component": true, "get_learning_component_context": true, "get_learning_components_for_standard": true,
	"compare_framework_evidence": true,
}

// recordIDs are the node IDs of a result's hits, matches and components:
// the records a readable text must name.
func recordIDs(v any) []string {
	var out []string
	var walk func(v any, under string)
	walk = func(v any, under string) {
		switch x := v.(type) {
		case map[string]any:
			for k, y := range x {
				if k == "nodeId" && (under == "node" || under == "hits" || under == "matches") {
					if s, ok := y.(string); ok {
						out = append(out, s)
					}
				}
				walk(y, k)
			}
		case []any:
			for _, y := range x {
				walk(y, under)
			}
		}
	}
	walk(v, "")
	return out
}

func toolError(t *testing.T, what string, s probeStep) string {
	t.Helper()
	var r toolResult
	if !s.OK || json.Unmarshal(s.Result, &r) != nil || !r.IsError || len(r.Content) != 1 {
		t.Fatalf("%s: want a tool error, got %s %+v", what, s.Result, s.Error)
	}
	return r.Content[0].Text
}

func mathsIndicator(t *testing.T) string {
	for _, spec := range pkggen.Shipped() {
		if spec.FrameworkID == mathsFramework {
			return pkggen.NodeID(spec, 0, 0, 0, 0)
		}
	}
	t.Fatal("no mathematics sample")
	return ""
}

func request(fields map[string]any) map[string]any { return map[string]any{"request": fields} }

// TestTypeScriptSDKClient drives the binary with the official TypeScript SDK
// client, over stdio and over HTTP; the client validates every structured
// result against the tool's advertised output schema.
func TestTypeScriptSDKClient(t *testing.T) {
	t.Parallel() // each client is a node process of its own, mostly waiting
	clients := mcpClients(t)
	dir := shippedImages(t)
	ind := mathsIndicator(t)
	steps := []map[string]any{
		{"method": "tools/list"},
		{"method": "tools/call", "name": "get_capabilities"},
		{"method": "tools/call", "name": "list_frameworks", "arguments": request(map[string]any{"limit": 1})},
		{"method": "tools/call", "name": "search_standards", "arguments": request(map[string]any{"frameworkIds": []any{mathsFramework},
			"mode": "text", "query": "telling the time", "match": map[string]any{"matchMode": "exact_phrase"}, "limit": 3})},
		{"method": "tools/call", "name": "search_learning_components", "arguments": request(map[string]any{"mode": "learning_component_supported_code_prefix", "query": "M1"})},
		{"method": "tools/call", "name": "get_standard_context", "arguments": request(map[string]any{"frameworkId": mathsFramework, "nodeId": ind})},
		{"method": "tools/call", "name": "get_standard", "arguments": request(map[string]any{"frameworkId": mathsFramework,
			"identifier": map[string]any{"identifierType": "node_id", "nodeId": ind}, "bogus": true})},
		{"method": "tools/call", "name": "search_standards", "arguments": request(map[string]any{"mode": "code_exact", "query": "M1", "cursor": "AAAA"})},
		{"method": "resources/templates/list"},
		{"method": "resources/read", "uri": "kgfegmcp://catalog"},
		{"method": "resources/read", "uri": "kgfegmcp://framework/no-such-framework"},
		{"method": "ping"},
		{"method": "tools/call", "name": "search_learning_progressions", "arguments": request(map[string]any{"frameworkId": mathsFramework, "limit": 2})},
		{"method": "tools/call", "name": "read_evidence", "arguments": request(map[string]any{"uri": "kgfegmcp://catalog", "maxContentBytes": 1024})},
		{"method": "prompts/list"},
		{"method": "prompts/get", "name": "teacher_guide_draft", "arguments": map[string]any{"framework_id": mathsFramework,
			"grade_or_stage": "GRADE ONE", "topic_or_standard": "telling the time"}},
		{"method": "completion/complete", "ref": map[string]any{"type": "ref/prompt", "name": "teacher_guide_draft"},
			"argument": map[string]any{"name": "grade_or_stage", "value": "grade t"}, "context": map[string]any{"arguments": map[string]any{"framework_id": mathsFramework}}},
		{"method": "tools/call", "name": "get_workflow_instructions", "arguments": request(map[string]any{"workflowName": "teacher_guide_draft",
			"frameworkId": mathsFramework, "gradeOrStage": "GRADE ONE", "topicOrStandard": "telling the time"})},
		{"method": "tools/call", "name": "compare_framework_evidence", "arguments": map[string]any{"mode": "text", "query": "describe",
			"match": map[string]any{"matchMode": "tokens", "operator": "any"}, "frameworkIds": []any{mathsFramework, "kgc-sample-english-grades-1-2"}}},
		{"method": "tools/call", "name": "get_standard", "arguments": request(map[string]any{"frameworkId": mathsFramework,
			"identifier": map[string]any{"identifierType": "node_id", "nodeId": ind}})},
		// As hosts that show progress call: with a _meta.progressToken.
		{"method": "tools/call", "name": "get_standard", "progress": true, "arguments": request(map[string]any{"frameworkId": mathsFramework,
			"identifier": map[string]any{"identifierType": "node_id", "nodeId": ind}})},
	}
	url := startHTTP(t, dir).base + "/mcp"
	for name, conn := range map[string]map[string]any{
		"stdio": {"transport": "stdio", "command": binary, "args": []string{dir}},
		"http":  {"transport": "http", "url": url},
	} {
		t.Run(name, func(t *testing.T) {
			out := probe(t, clients, conn, steps)
			if out.ServerVersion["title"] != "kgmcp" {
				t.Errorf("serverInfo %v", out.ServerVersion)
			}
			var tools struct {
				Tools []struct {
					Name string `json:"name"`
				} `json:"tools"`
			}
			if json.Unmarshal(out.Steps[0].Result, &tools) != nil || len(tools.Tools) != 20 {
				t.Errorf("tools/list: %s", out.Steps[0].Result)
			}
			if caps := toolOK(t, "get_capabilities", out.Steps[1]); len(caps["packages"].([]any)) != 2 {
				t.Errorf("capabilities packages %v", caps["packages"])
			}
			var list toolResult
			json.Unmarshal(out.Steps[2].Result, &list)
			if lf := toolOK(t, "list_frameworks", out.Steps[2]); lf["hasMore"] != true || len(list.Content) != 2 ||
				!strings.Contains(list.Content[1].Text, `"continuationTool":"list_frameworks"`) {
				t.Errorf("list_frameworks page: %v", list.Content)
			}
			search := toolOK(t, "search_standards", out.Steps[3])["page"].(map[string]any)
			if hits := search["hits"].([]any); len(hits) == 0 || hits[0].(map[string]any)["score"].(map[string]any)["phraseMatched"] != true {
				t.Errorf("phrase search: %v", search)
			}
			lc := toolOK(t, "search_learning_components", out.Steps[4])["page"].(map[string]any)
			if len(lc["hits"].([]any)) == 0 || len(lc["warnings"].([]any)) == 0 {
				t.Errorf("federated component code search: %v", lc)
			}
			if ctx := toolOK(t, "get_standard_context", out.Steps[5]); ctx["ancestors"].(map[string]any)["originNodeId"] != ind {
				t.Errorf("context: %v", ctx["ancestors"])
			}
			if txt := toolError(t, "unknown field", out.Steps[6]); !strings.HasPrefix(txt, "Input validation error: ") {
				t.Errorf("unknown field: %q", txt)
			}
			if txt := toolError(t, "bad cursor", out.Steps[7]); !strings.HasPrefix(txt, "invalid_cursor: ") {
				t.Errorf("bad cursor: %q", txt)
			}
			var templates struct {
				ResourceTemplates []any `json:"resourceTemplates"`
			}
			if json.Unmarshal(out.Steps[8].Result, &templates) != nil || len(templates.ResourceTemplates) != 15 {
				t.Errorf("templates: %s", out.Steps[8].Result)
			}
			var read struct {
				Contents []struct {
					URI  string `json:"uri"`
					Text string `json:"text"`
				} `json:"contents"`
			}
			if json.Unmarshal(out.Steps[9].Result, &read) != nil || len(read.Contents) != 1 || !json.Valid([]byte(read.Contents[0].Text)) {
				t.Errorf("catalog read: %s", out.Steps[9].Result)
			}
			if s := out.Steps[10]; s.OK || s.Error == nil || !strings.Contains(s.Error.Message, "framework_not_found") {
				t.Errorf("unknown framework resource: %+v %s", s.Error, s.Result)
			}
			if !out.Steps[11].OK {
				t.Errorf("ping after errors: %+v", out.Steps[11].Error)
			}
			lp := toolOK(t, "search_learning_progressions", out.Steps[12])
			if page := lp["page"].(map[string]any); page["hasMore"] != true || page["nextRequest"].(map[string]any)["cursor"] != page["nextCursor"] ||
				len(lp["connections"].([]any)) != 2 {
				t.Errorf("progression page: %v", page)
			}
			ev := toolOK(t, "read_evidence", out.Steps[13])
			if page := ev["page"].(map[string]any); ev["contentStatus"] != "partial" || page["returnedBytes"].(float64) > 1024 ||
				len(ev["content"].(string)) != int(page["returnedBytes"].(float64)) {
				t.Errorf("evidence window: %v", page)
			}
			checkPromptSteps(t, out.Steps[14:20])
			if last := len(out.Steps) - 1; !out.Steps[last].OK || string(out.Steps[last].Result) != string(out.Steps[last-1].Result) {
				t.Errorf("get_standard with a progress token answers\n%.300s\nwithout one\n%.300s", out.Steps[last].Result, out.Steps[last-1].Result)
			}
		})
	}
}

// checkPromptSteps checks the prompt half of the TypeScript client's run:
// prompts/list, prompts/get, completion/complete, get_workflow_instructions
// (whose message is the prompt's), compare_framework_evidence in the flat
// form, and a result's resource links.
func checkPromptSteps(t *testing.T, steps []probeStep) {
	t.Helper()
	var prompts struct {
		Prompts []struct {
			Name      string `json:"name"`
			Arguments []struct {
				Name     string `json:"name"`
				Required bool   `json:"required"`
			} `json:"arguments"`
		} `json:"prompts"`
	}
	if json.Unmarshal(steps[0].Result, &prompts) != nil || len(prompts.Prompts) != 9 {
		t.Fatalf("prompts/list: %s %+v", steps[0].Result, steps[0].Error)
	}
	var got struct {
		Messages []struct {
			Role    string `json:"role"`
			Content struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(steps[1].Result, &got) != nil || len(got.Messages) != 1 || got.Messages[0].Role != "user" ||
		!strings.Contains(got.Messages[0].Content.Text, "## STEPS") {
		t.Fatalf("prompts/get: %.300s %+v", steps[1].Result, steps[1].Error)
	}
	var completion struct {
		Completion struct {
			Values []string `json:"values"`
		} `json:"completion"`
	}
	if json.Unmarshal(steps[2].Result, &completion) != nil || strings.Join(completion.Completion.Values, ",") != "GRADE THREE,GRADE TWO" {
		t.Errorf("completion: %s %+v", steps[2].Result, steps[2].Error)
	}
	wf := toolOK(t, "get_workflow_instructions", steps[3])
	if wf["rendered"].(map[string]any)["message"] != got.Messages[0].Content.Text {
		t.Error("get_workflow_instructions: rendered.message is not the prompt's message")
	}
	cmp := toolOK(t, "compare_framework_evidence", steps[4])
	if len(cmp["sections"].([]any)) != 2 || len(cmp["disclosures"].([]any)) == 0 {
		t.Errorf("comparison: %v", cmp)
	}
	var std struct {
		Content []struct {
			Type string `json:"type"`
			URI  string `json:"uri"`
		} `json:"content"`
	}
	if json.Unmarshal(steps[5].Result, &std) != nil || len(std.Content) < 2 || std.Content[1].Type != "resource_link" || std.Content[1].URI == "" {
		t.Errorf("get_standard resource links: %s", steps[5].Result)
	}
}

// inspectPrompts lists the prompts and gets one with the inspector CLI's
// --prompt-args (it has no completion command), calls get_workflow_instructions for the same
// workflow, and calls compare_framework_evidence with flat --tool-arg values
// the CLI types itself (a string, a JSON array).
func inspectPrompts(t *testing.T, clients string, target []string) {
	t.Helper()
	out, code := inspector(t, clients, append(target, "--method", "prompts/list")...)
	var prompts struct {
		Prompts []struct {
			Name string `json:"name"`
		} `json:"prompts"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &prompts) != nil || len(prompts.Prompts) != 9 {
		t.Fatalf("prompts/list (exit %d): %.500s", code, out)
	}
	out, code = inspector(t, clients, append(target, "--method", "prompts/get", "--prompt-name", "learning_progression_support_plan",
		"--prompt-args", "framework_id="+mathsFramework, `identifier={"identifierType":"node_id","nodeId":"`+mathsIndicator(t)+`"}`)...)
	var got struct {
		Messages []struct {
			Content struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || len(got.Messages) != 1 {
		t.Fatalf("prompts/get (exit %d): %.500s", code, out)
	}
	out, code = inspector(t, clients, append(target, "--method", "tools/call", "--tool-name", "get_workflow_instructions",
		"--tool-arg", `request={"workflowName":"learning_progression_support_plan","frameworkId":"`+mathsFramework+
			`","identifier":{"identifierType":"node_id","nodeId":"`+mathsIndicator(t)+`"}}`)...)
	var res toolResult
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.IsError ||
		res.StructuredContent["rendered"].(map[string]any)["message"] != got.Messages[0].Content.Text {
		t.Errorf("get_workflow_instructions (exit %d): %.500s", code, out)
	}
	out, code = inspector(t, clients, append(target, "--method", "tools/call", "--tool-name", "compare_framework_evidence",
		"--tool-arg", "mode=code_prefix", "query=M1", `frameworkIds=["`+mathsFramework+`","kgc-sample-english-grades-1-2"]`)...)
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.IsError || len(res.StructuredContent["sections"].([]any)) != 2 {
		t.Errorf("compare_framework_evidence, flat (exit %d): %.500s", code, out)
	}
}

// inspector runs the inspector CLI (from tools/mcpclients/run, which its
// package.json lookup needs) and returns its stdout and exit code.
func inspector(t *testing.T, clients string, args ...string) (string, int) {
	t.Helper()
	run := filepath.Join(clients, "run")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", append([]string{filepath.Join(clients, "node_modules", "@modelcontextprotocol", "inspector-cli", "build", "index.js")}, args...)...)
	cmd.Dir = run
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String() + stderr.String(), code
}

// TestInspectorCLI drives the binary with the MCP inspector's CLI over stdio
// and HTTP. The CLI is the TypeScript SDK's client (TestTypeScriptSDKClient
// covers lists, resources, errors and prompts through it, on both
// transports) behind its own argument handling, and each call is a node
// process of its own (~1 CPU-second): HTTP gets a list, a call and a read
// through its transport; stdio also an error answer and the calls that go
// through the CLI's typing of --tool-arg and --prompt-args.
func TestInspectorCLI(t *testing.T) {
	t.Parallel() // each client is a node process of its own, mostly waiting
	clients := mcpClients(t)
	dir := shippedImages(t)
	url := startHTTP(t, dir).base + "/mcp"
	for name, target := range map[string][]string{"stdio": {binary, dir}, "http": {url}} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out, code := inspector(t, clients, append(target, "--method", "tools/list")...)
			var tools struct {
				Tools []struct {
					Name        string         `json:"name"`
					Annotations map[string]any `json:"annotations"`
				} `json:"tools"`
			}
			if code != 0 || json.Unmarshal([]byte(out), &tools) != nil || len(tools.Tools) != 20 || tools.Tools[0].Annotations["readOnlyHint"] != true {
				t.Fatalf("tools/list (exit %d): %.500s", code, out)
			}
			out, code = inspector(t, clients, append(target, "--method", "tools/call", "--tool-name", "search_standards",
				"--tool-arg", `request={"frameworkIds":["`+mathsFramework+`"],"mode":"code_exact","query":"m1.1.1"}`)...)
			var res toolResult
			if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.IsError {
				t.Fatalf("tools/call (exit %d): %.500s", code, out)
			}
			hits := res.StructuredContent["page"].(map[string]any)["hits"].([]any)
			if len(hits) != 1 || hits[0].(map[string]any)["node"].(map[string]any)["statementCode"] != "M1.1.1" {
				t.Errorf("code search: %v", hits)
			}
			out, code = inspector(t, clients, append(target, "--method", "resources/read", "--uri", "kgfegmcp://catalog")...)
			if code != 0 || !strings.Contains(out, `"uri": "kgfegmcp://catalog"`) {
				t.Errorf("resources/read (exit %d): %.500s", code, out)
			}
			if name == "http" {
				return
			}
			out, code = inspector(t, clients, append(target, "--method", "tools/call", "--tool-name", "get_framework",
				"--tool-arg", `request={"frameworkId":"no-such-framework"}`)...)
			if code != 0 || json.Unmarshal([]byte(out), &res) != nil || !res.IsError || !strings.HasPrefix(res.Content[0].Text, "framework_not_found: ") {
				t.Errorf("unknown framework (exit %d): %.500s", code, out)
			}
			inspectPrompts(t, clients, target)
		})
	}
}

// TestProtocol20250326Client drives the binary with the TypeScript SDK 1.12.1
// client, which speaks protocol 2025-03-26: it has no resource_link content
// and throws on a result holding one, so the tools that link their evidence
// must answer it with their text and structured content only.
func TestProtocol20250326Client(t *testing.T) {
	t.Parallel() // each client is a node process of its own, mostly waiting
	clients := mcpClients(t)
	dir := shippedImages(t)
	ind := mathsIndicator(t)
	sel := map[string]any{"identifierType": "node_id", "nodeId": ind}
	steps := []map[string]any{
		{"method": "tools/call", "name": "get_framework", "arguments": request(map[string]any{"frameworkId": mathsFramework})},
		{"method": "tools/call", "name": "get_standard", "arguments": request(map[string]any{"frameworkId": mathsFramework, "identifier": sel})},
		{"method": "tools/call", "name": "get_standard_context", "arguments": request(map[string]any{"frameworkId": mathsFramework, "nodeId": ind})},
		{"method": "tools/call", "name": "get_learning_components_for_standard", "arguments": request(map[string]any{"frameworkId": mathsFramework, "identifier": sel})},
		{"method": "tools/call", "name": "get_learning_progression_paths", "arguments": request(map[string]any{"frameworkId": mathsFramework,
			"sourceIdentifier": sel, "targetIdentifier": map[string]any{"identifierType": "node_id", "nodeId": "x"}})},
	}
	url := startHTTP(t, dir).base + "/mcp"
	for name, conn := range map[string]map[string]any{
		"stdio": {"transport": "stdio", "command": binary, "args": []string{dir}, "sdk": "2025-03-26"},
		"http":  {"transport": "http", "url": url, "sdk": "2025-03-26"},
	} {
		t.Run(name, func(t *testing.T) {
			out := probe(t, clients, conn, steps)
			if out.Fatal != "" {
				t.Fatal(out.Fatal)
			}
			for i, s := range out.Steps[:4] {
				var r toolResult
				if !s.OK || json.Unmarshal(s.Result, &r) != nil || r.IsError {
					t.Errorf("%s: %s %+v", steps[i]["name"], s.Result, s.Error)
					continue
				}
				for _, c := range r.Content {
					if c.Type != "text" {
						t.Errorf("%s: a %s block reached a 2025-03-26 client", steps[i]["name"], c.Type)
					}
				}
			}
			if txt := toolError(t, "paths to an unknown standard", out.Steps[4]); !strings.HasPrefix(txt, "standard_not_found: ") {
				t.Errorf("paths: %q", txt)
			}
		})
	}
}
