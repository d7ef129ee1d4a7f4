// Package baseline is the server the harnesses compare kgmcp with when the
// question is what kgmcp adds over the SDK itself: an empty go-sdk server
// (same SDK, same transports) with one tool, "constant", that answers every
// call with the same pre-built result. The harnesses give it the result kgmcp
// answered to the call it is compared with (captured once, before measuring),
// so both sides put the same content on the wire and the difference is
// kgmcp's lookup, validation and encoding, not the size of the answer.
package baseline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolName is the constant tool's name.
const toolName = "constant"

// CallBody is the JSON-RPC request body (without jsonrpc and id) that calls
// the constant tool.
const CallBody = `{"method":"tools/call","params":{"name":"constant","arguments":{}}}`

// newServer returns the empty go-sdk server with the constant tool answering
// result, a JSON CallToolResult (empty: a one-word text block).
func newServer(result []byte) (*mcp.Server, error) {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}
	if len(bytes.TrimSpace(result)) > 0 {
		res = &mcp.CallToolResult{}
		if err := json.Unmarshal(result, res); err != nil {
			return nil, fmt.Errorf("constant result: %w", err)
		}
		// The structured content is served as the bytes it was captured
		// as, not re-encoded from a map each call.
		var raw struct {
			Structured json.RawMessage `json:"structuredContent"`
		}
		if err := json.Unmarshal(result, &raw); err == nil && len(raw.Structured) > 0 {
			res.StructuredContent = raw.Structured
		}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "constant", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: toolName, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return res, nil })
	return s, nil
}

// ServeStdio serves the constant server over stdio, the result read from
// resultFile ("" for the one-word answer), until stdin closes.
func ServeStdio(resultFile string) error {
	s, err := fromFile(resultFile)
	if err != nil {
		return err
	}
	return s.Run(context.Background(), &mcp.StdioTransport{})
}

// ServeHTTP serves the constant server on addr with the SDK's stateless
// JSON-response Streamable HTTP handler, as kgmcp --http answers.
func ServeHTTP(addr, resultFile string) error {
	s, err := fromFile(resultFile)
	if err != nil {
		return err
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	return http.ListenAndServe(addr, h)
}

func fromFile(path string) (*mcp.Server, error) {
	var b []byte
	if path != "" {
		var err error
		if b, err = os.ReadFile(path); err != nil {
			return nil, err
		}
	}
	return newServer(b)
}

// ResultOf returns the "result" member of a JSON-RPC response line.
func ResultOf(line []byte) ([]byte, error) {
	var resp struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(line, &resp); err != nil || len(resp.Result) == 0 {
		return nil, fmt.Errorf("no result in %.200s", line)
	}
	return resp.Result, nil
}

// hits returns the number of hits (page.hits) in a tools/call response
// line's structured content, and whether it has a page at all.
func hits(line []byte) (int, bool) {
	var resp struct {
		Result struct {
			Structured struct {
				Page *struct {
					Hits []json.RawMessage `json:"hits"`
				} `json:"page"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if json.Unmarshal(line, &resp) != nil || resp.Result.Structured.Page == nil {
		return 0, false
	}
	return len(resp.Result.Structured.Page.Hits), true
}

// WantSuccess fails unless a JSON-RPC response is a result that is not a
// tool error (isError): a figure must not time an error answer.
func WantSuccess(what string, line []byte) error {
	var resp struct {
		Error  json.RawMessage `json:"error"`
		Result *struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	switch {
	case json.Unmarshal(line, &resp) != nil:
		return fmt.Errorf("%s: not a JSON-RPC response: %.200s", what, line)
	case len(resp.Error) > 0 || resp.Result == nil:
		return fmt.Errorf("%s: an error answer: %.200s", what, line)
	case resp.Result.IsError:
		return fmt.Errorf("%s: a tool error (isError): %.200s", what, line)
	}
	return nil
}

// WantHits fails unless a search answer line carries exactly want hits: a
// row that says "25 hits" must measure 25.
func WantHits(what string, line []byte, want int) error {
	n, ok := hits(line)
	if !ok {
		return fmt.Errorf("%s: no page of hits in the answer: %.300s", what, line)
	}
	if n != want {
		return fmt.Errorf("%s: %d hits, the row claims %d (pick a query that matches at least %d)", what, n, want, want)
	}
	return nil
}
