package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	gold "github.com/kgc-project/kgc/internal/transcript"
)

// transcriptDir holds the golden transcripts over the shipped sample
// packages (cmd/kgmcp's TestTranscripts replays them byte for byte).
const transcriptDir = "cmd/kgmcp/testdata/transcripts/samples"

// transcript is one golden file: a comment, one request line, the exact
// response line and, for a readable tool result, its text section.
type transcript struct {
	file     string // base name
	comment  string
	request  string
	response string
	text     string // the -- text -- section: exactly what the model reads

	method string
	name   string          // params.name (tools, prompts)
	uri    string          // params.uri (resources)
	args   json.RawMessage // params.arguments
	res    response
}

// response is the decoded response line.
type response struct {
	Result *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
			URI  string `json:"uri"`
		} `json:"content"`
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		Contents          []struct {
			URI      string          `json:"uri"`
			MIMEType string          `json:"mimeType"`
			Text     string          `json:"text"`
			Blob     string          `json:"blob"`
			Meta     json.RawMessage `json:"_meta"`
		} `json:"contents"`
		Messages []struct {
			Content struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
		Resources []json.RawMessage `json:"resources"`
	} `json:"result"`
	Error *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// loadTranscripts reads every transcript of dir, in name order.
func loadTranscripts(dir string) ([]*transcript, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no transcripts in %s", dir)
	}
	sort.Strings(files)
	var out []*transcript
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		tr, err := parseTranscript(filepath.Base(f), string(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, tr)
	}
	return out, nil
}

// parseTranscript reads a transcript as cmd/kgmcp's test writes it
// (internal/transcript).
func parseTranscript(file, s string) (*transcript, error) {
	g, err := gold.Parse([]byte(s))
	if err != nil {
		return nil, err
	}
	tr := &transcript{file: file, comment: strings.TrimSpace(g.Comment), request: g.Request, response: g.Response, text: g.Text}
	var req struct {
		Method string `json:"method"`
		Params struct {
			Name      string          `json:"name"`
			URI       string          `json:"uri"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal([]byte(tr.request), &req) == nil { // a batch or a broken line has no method
		tr.method, tr.name, tr.uri, tr.args = req.Method, req.Params.Name, req.Params.URI, req.Params.Arguments
	}
	if err := json.Unmarshal([]byte(tr.response), &tr.res); err != nil {
		return nil, fmt.Errorf("response: %w", err)
	}
	return tr, nil
}

// ok reports whether the transcript's answer is a success.
func (tr *transcript) ok() bool {
	return tr.res.Error == nil && tr.res.Result != nil && !tr.res.Result.IsError
}

// errorText is the text of a tool error result or a JSON-RPC error's
// message ("" for a success).
func (tr *transcript) errorText() string {
	switch {
	case tr.res.Error != nil:
		return tr.res.Error.Message
	case tr.res.Result != nil && tr.res.Result.IsError && len(tr.res.Result.Content) > 0:
		return tr.res.Result.Content[0].Text
	}
	return ""
}

// errorCode is the leading code of an error text: a domain code, or "Input
// validation error".
func errorCode(text string) string {
	if strings.HasPrefix(text, "Input validation error") {
		return inputValidation
	}
	if i := strings.Index(text, ": "); i > 0 && !strings.ContainsAny(text[:i], " \"") {
		return text[:i]
	}
	return ""
}

// firstText is the first text block of a tool result.
func (tr *transcript) firstText() string {
	if tr.res.Result == nil {
		return ""
	}
	for _, c := range tr.res.Result.Content {
		if c.Type == "text" {
			return c.Text
		}
	}
	return ""
}

// compactJSON re-encodes JSON on one line without HTML escaping.
func compactJSON(raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// trimmedJSON is a JSON document shortened for reading: strings cut at
// maxString characters, arrays cut to their first item (the rest counted),
// objects below maxDepth elided; then indented and cut at maxLines lines.
func trimmedJSON(raw []byte, maxLines int) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	v = trim(v, 0)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return cutLines(strings.TrimSuffix(b.String(), "\n"), maxLines), nil
}

const (
	maxString = 100
	maxDepth  = 4
)

func trim(v any, depth int) any {
	switch x := v.(type) {
	case string:
		if utf8.RuneCountInString(x) > maxString {
			return string([]rune(x)[:maxString]) + "…"
		}
		return x
	case []any:
		if len(x) == 0 {
			return x
		}
		if depth >= maxDepth {
			return []any{fmt.Sprintf("… %d item(s)", len(x))}
		}
		out := []any{trim(x[0], depth+1)}
		if len(x) > 1 {
			out = append(out, fmt.Sprintf("… %d more", len(x)-1))
		}
		return out
	case map[string]any:
		if depth >= maxDepth && len(x) > 0 {
			return map[string]any{"…": fmt.Sprintf("%d member(s)", len(x))}
		}
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[k] = trim(val, depth+1)
		}
		return out
	}
	return v
}

// cutLines keeps the first max lines of s, counting the rest.
func cutLines(s string, max int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= max {
		return s
	}
	return strings.Join(lines[:max], "\n") + fmt.Sprintf("\n… (%d more lines)", len(lines)-max)
}
