package main

import (
	"encoding/json"

	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/transcript"
)

var update = flag.Bool("update", false, "rewrite the responses of the golden transcripts in testdata/transcripts")

// TestTranscripts replays the golden transcripts: each testdata/transcripts
// file holds one request line exactly as a client sends it to kgmcp over
// stdio, and the exact response line kgmcp sent back. The samples' transcripts
// run over the shipped packages, the corpus's over the complete packages of
// the optional real corpus (internal/corpus). Any byte of difference fails; -update rewrites the
// responses (a new scenario is a file holding only its request):
//
//	go test ./cmd/kgmcp -run Transcripts -update
func TestTranscripts(t *testing.T) {
	t.Run("samples", func(t *testing.T) { replay(t, "testdata/transcripts/samples", shippedImages(t)) })
	t.Run("corpus", func(t *testing.T) { replay(t, "testdata/transcripts/corpus", corpusImages(t)) })
}

// corpusImages builds the complete corpus packages (skipping visibly without
// the corpus).
func corpusImages(t *testing.T) string {
	dir, _ := imgtest.CorpusImages(t)
	return dir
}

// readableText is the first text block of a tool result when it is not JSON
// (the readable text of runtime/textview), or "".
func readableText(response string) string {
	var r struct {
		Result struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if json.Unmarshal([]byte(response), &r) != nil || len(r.Result.Content) == 0 || r.Result.Content[0].Type != "text" {
		return ""
	}
	t := r.Result.Content[0].Text
	if strings.HasPrefix(t, "{") || !strings.Contains(t, "\n") {
		return ""
	}
	return strings.TrimSuffix(t, "\n")
}

// parseTranscript reads a golden file (internal/transcript).

// recorded is tr with its text section derived from its response.
func recorded(tr transcript.Transcript) []byte {
	tr.Text = readableText(tr.Response)
	return tr.Format()
}

// replay sends every transcript of dir, in name order, on one stdio session
// over the images and compares (or, with -update, rewrites) the responses.
func replay(t *testing.T, dir, images string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if len(files) == 0 {
		t.Fatalf("no transcripts in %s", dir)
	}
	c := startStdio(t, images)
	c.send(t, initLine, initializedLine)
	c.next(t)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := transcript.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		c.send(t, tr.Request)
		if !c.out.Scan() {
			t.Fatalf("%s: kgmcp closed stdout: %v\n%s", name, c.out.Err(), tail(c.stderr.String()))
		}
		got := c.out.Text()
		if *update {
			if got != tr.Response || tr.Text != readableText(got) {
				tr.Response = got
				if err := os.WriteFile(f, recorded(tr), 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: rewritten", name)
			}
			continue
		}
		if tr.Text != readableText(tr.Response) {
			t.Errorf("%s: the text section is not the response's text (rewrite it with -update)", name)
		}
		if got != tr.Response {
			t.Errorf("%s: the response differs from the transcript at byte %d\n got: %.400s\nwant: %.400s",
				name, firstDiff(got, tr.Response), got[min(firstDiff(got, tr.Response), len(got)):], tr.Response[min(firstDiff(got, tr.Response), len(tr.Response)):])
		}
	}
}

func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// TestTranscriptResultsMatchTheirOutputSchemas validates the structured
// content of every successful tool call in the golden transcripts against the
// output schema its tool publishes in tools/list (itself a transcript), with
// a real JSON Schema validator.
func TestTranscriptResultsMatchTheirOutputSchemas(t *testing.T) {
	schemas := map[string]*jsonschema.Resolved{}
	b, err := os.ReadFile("testdata/transcripts/samples/tools-list.txtar")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := transcript.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Result struct {
			Tools []struct {
				Name         string             `json:"name"`
				OutputSchema *jsonschema.Schema `json:"outputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(tr.Response), &list); err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Result.Tools {
		if tool.OutputSchema == nil || len(tool.OutputSchema.Properties) == 0 {
			t.Fatalf("%s publishes no output schema", tool.Name)
		}
		rs, err := tool.OutputSchema.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: output schema does not resolve: %v", tool.Name, err)
		}
		schemas[tool.Name] = rs
	}
	files, _ := filepath.Glob("testdata/transcripts/*/*.txtar")
	checked := map[string]int{}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		tr, err := transcript.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		var req struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(tr.Request), &req) != nil || req.Method != "tools/call" {
			continue
		}
		var resp struct {
			Result *struct {
				IsError           bool `json:"isError"`
				StructuredContent any  `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(tr.Response), &resp); err != nil || resp.Result == nil || resp.Result.IsError {
			continue
		}
		rs := schemas[req.Params.Name]
		if rs == nil {
			t.Errorf("%s: no schema for %s", f, req.Params.Name)
			continue
		}
		if err := rs.Validate(resp.Result.StructuredContent); err != nil {
			t.Errorf("%s: the result breaks %s's output schema: %v", f, req.Params.Name, err)
		}
		checked[req.Params.Name]++
	}
	for name := range schemas {
		if checked[name] == 0 {
			t.Errorf("no transcript exercises %s's output schema", name)
		}
	}
	// The schemas are not vacuous: a wrong type, a missing required field and
	// an unknown field are each refused.
	b, _ = os.ReadFile("testdata/transcripts/samples/get-standard.txtar")
	tr, _ = transcript.Parse(b)
	var resp struct {
		Result struct {
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	json.Unmarshal([]byte(tr.Response), &resp)
	good := resp.Result.StructuredContent
	for name, mutate := range map[string]func(m map[string]any){
		"wrong type":    func(m map[string]any) { m["node"].(map[string]any)["nodeId"] = 5 },
		"missing field": func(m map[string]any) { delete(m["node"].(map[string]any), "labels") },
		"unknown field": func(m map[string]any) { m["surprise"] = true },
	} {
		var m map[string]any
		raw, _ := json.Marshal(good)
		json.Unmarshal(raw, &m)
		mutate(m)
		if schemas["get_standard"].Validate(m) == nil {
			t.Errorf("get_standard's output schema accepts a result with a %s", name)
		}
	}
}

// TestTranscriptRequestsMatchTheirInputSchemas holds the published input
// schemas (compacted: shared properties of the alternatives written once) to
// what the server does: every call the server answered is valid against its
// tool's published schema, and every call it refused as an input error for a
// schema reason is not.
func TestTranscriptRequestsMatchTheirInputSchemas(t *testing.T) {
	b, err := os.ReadFile("testdata/transcripts/samples/tools-list.txtar")
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := transcript.Parse(b)
	var list struct {
		Result struct {
			Tools []struct {
				Name        string             `json:"name"`
				InputSchema *jsonschema.Schema `json:"inputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(tr.Response), &list); err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*jsonschema.Resolved{}
	for _, tool := range list.Result.Tools {
		rs, err := tool.InputSchema.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: input schema does not resolve: %v", tool.Name, err)
		}
		schemas[tool.Name] = rs
	}
	files, _ := filepath.Glob("testdata/transcripts/*/*.txtar")
	accepted, refused := 0, 0
	for _, f := range files {
		b, _ := os.ReadFile(f)
		tr, _ := transcript.Parse(b)
		var req struct {
			Method string `json:"method"`
			Params struct {
				Name      string `json:"name"`
				Arguments any    `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(tr.Request), &req) != nil || req.Method != "tools/call" || schemas[req.Params.Name] == nil {
			continue
		}
		args := req.Params.Arguments
		if m, ok := args.(map[string]any); ok && req.Params.Name == "compare_framework_evidence" && m["request"] == nil {
			// The flat form compare_framework_evidence also takes: its
			// schema publishes the wrapped one.
			args = map[string]any{"request": m}
		}
		verdict := schemas[req.Params.Name].Validate(args)
		schemaReason := strings.HasPrefix(filepath.Base(f), "input-")
		switch {
		case !strings.Contains(tr.Response, "Input validation error") && !strings.Contains(tr.Response, "unsupported_search_mode"):
			accepted++
			if verdict != nil {
				t.Errorf("%s: the server answered a call its published schema refuses: %v", f, verdict)
			}
		case schemaReason:
			refused++
			if verdict == nil {
				t.Errorf("%s: the server refused a call its published schema accepts", f)
			}
		}
	}
	if accepted < 40 || refused < 5 {
		t.Errorf("only %d accepted and %d refused calls checked", accepted, refused)
	}
}
