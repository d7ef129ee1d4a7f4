package query

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/transcript"
	"github.com/kgc-project/kgc/runtime/kgerr"
)

// TestTranscriptAnswers replays the golden MCP transcripts of the shipped
// samples (cmd/kgmcp/testdata/transcripts/samples) against the query layer
// alone, without MCP: every tools/call's structured answer must equal
// the Service's result encoded as canonical JSON, every resources/read text
// the resource's bytes, every prompts/get message the rendered prompt, and
// every error the Service's error. The transcripts are the contract; this proves the
// query layer, not the adapter, produces them.
func TestTranscriptAnswers(t *testing.T) {
	t.Parallel()
	svc := New(imgtest.Catalog(t, imgtest.Images(t, nil, nil)), Options{})
	ctx := context.Background()
	files, err := filepath.Glob(filepath.Join(imgtest.RepoRoot(t), "cmd/kgmcp/testdata/transcripts/samples/*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	var answers, errorsSeen int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := transcript.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		req, resp := []byte(tr.Request), []byte(tr.Response)
		var call struct {
			Method string `json:"method"`
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
				URI       string          `json:"uri"`
			} `json:"params"`
		}
		if err := json.Unmarshal(req, &call); err != nil {
			continue // a malformed request: the adapter's case
		}
		var answer struct {
			Result struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
				Structured json.RawMessage `json:"structuredContent"`
				IsError    bool            `json:"isError"`
				Contents   []struct {
					Text *string `json:"text"`
				} `json:"contents"`
				Messages []struct {
					Content struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"messages"`
			} `json:"result"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		// The response line, then (in some transcripts) its text for reading.
		if err := json.NewDecoder(bytes.NewReader(resp)).Decode(&answer); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		name := filepath.Base(f)
		// wantError checks a Service error against the transcript's.
		wantError := func(err error, transcript string) {
			errorsSeen++
			if err == nil {
				t.Errorf("%s: the transcript has an error, the Service answered", name)
			} else if transcript == "Resource not found" {
				// MCP's own code for an address no resource has: the adapter
				// maps the Service's typed errors to it.
				if c := kgerr.CodeOf(err); c != kgerr.ResourceNotFound && c != kgerr.InvalidEvidenceURI {
					t.Errorf("%s: %v, want resource_not_found or invalid_evidence_uri", name, err)
				}
			} else if !strings.Contains(transcript, err.Error()) {
				t.Errorf("%s: error\n%.300s\nnot in the transcript's\n%.300s", name, err, transcript)
			}
		}
		switch call.Method {
		case "resources/read":
			r, err := svc.ReadResource(ctx, call.Params.URI)
			switch {
			case answer.Error != nil:
				wantError(err, answer.Error.Message)
			case err != nil:
				t.Errorf("%s: %v", name, err)
			case len(answer.Result.Contents) != 1 || answer.Result.Contents[0].Text == nil:
				// a blob: its base64 is the adapter's
			case *answer.Result.Contents[0].Text != string(r.Data):
				t.Errorf("%s: the Service's resource differs from the transcript", name)
			default:
				answers++
			}
			continue
		case "prompts/get":
			var args map[string]string
			if err := json.Unmarshal(call.Params.Arguments, &args); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			r, err := svc.GetPrompt(ctx, call.Params.Name, args)
			switch {
			case answer.Error != nil:
				wantError(err, answer.Error.Message)
			case err != nil:
				t.Errorf("%s: %v", name, err)
			case len(answer.Result.Messages) != 1 || answer.Result.Messages[0].Content.Text != r.Message:
				t.Errorf("%s: the Service's prompt differs from the transcript", name)
			default:
				answers++
			}
			continue
		case "tools/call":
		default:
			continue
		}
		if answer.Error != nil {
			continue // a protocol-level error (unknown tool, no arguments): the adapter's
		}
		out, err := svc.Call(ctx, call.Params.Name, call.Params.Arguments)
		if answer.Result.IsError {
			wantError(err, answer.Result.Content[0].Text)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if answer.Result.Structured == nil {
			continue
		}
		if p, ok := out.(*Paged); ok {
			out = p.Result
		}
		got, err := canonjson.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		var want any
		json.Unmarshal(answer.Result.Structured, &want)
		wantJSON, _ := canonjson.Marshal(want)
		if string(got) != string(wantJSON) {
			t.Errorf("%s: the Service's answer differs from the transcript:\n%.400s\n%.400s", name, got, wantJSON)
		}
		answers++
	}
	t.Logf("%d answers and %d errors replayed", answers, errorsSeen)
	if answers < 60 || errorsSeen < 30 {
		t.Fatalf("only %d answers and %d errors replayed", answers, errorsSeen)
	}
}
