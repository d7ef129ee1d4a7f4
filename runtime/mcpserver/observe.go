package mcpserver

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Observation is what the server reports of one request it handled (see
// Options.Observe): for metrics and an audit log.
type Observation struct {
	Method string // the JSON-RPC method
	Name   string // the tool, resource or prompt it names ("" for others)
	// Outcome is ok, tool_error (a tools/call answered isError) or error (a
	// JSON-RPC error, a refusal, a cancellation).
	Outcome string
	// Code is the error's code: the kgc code a tool error or a JSON-RPC
	// error message starts with (framework_not_found…), else the JSON-RPC
	// error number; "" when the request succeeded.
	Code     string
	Duration time.Duration
	// Caller is who asked: the grant's caller (an API key's id), or "".
	Caller string
}

// observe reports one request to Options.Observe.
func (s *Server) observe(ctx context.Context, method string, req mcp.Request, start time.Time, res mcp.Result, err error) {
	if s.observer == nil {
		return
	}
	o := Observation{Method: method, Name: requestName(req), Outcome: "ok", Duration: time.Since(start)}
	if g := grantOf(ctx); g != nil {
		o.Caller = g.Caller
	}
	switch {
	case err != nil:
		o.Outcome = "error"
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			o.Code = codeOf(je.Message, strconv.Itoa(int(je.Code)))
		} else {
			o.Code = codeOf(err.Error(), "error")
		}
	default:
		if r, ok := res.(*mcp.CallToolResult); ok && r.IsError {
			o.Outcome = "tool_error"
			text := ""
			if len(r.Content) > 0 {
				if t, ok := r.Content[0].(*mcp.TextContent); ok {
					text = t.Text
				}
			}
			o.Code = codeOf(text, "tool_error")
		}
	}
	s.observer(o)
}

// codeOf is the snake_case code a kgc message starts with ("code: …"),
// else def.
func codeOf(msg, def string) string {
	code, _, ok := strings.Cut(msg, ":")
	if !ok || code == "" || len(code) > 40 {
		return def
	}
	for _, r := range code {
		if (r < 'a' || r > 'z') && r != '_' {
			return def
		}
	}
	return code
}

// Load is how busy the server is: requests being handled and requests
// waiting for a slot.
func (s *Server) Load() (handling, waiting int) {
	return len(s.slots), int(s.waiting.Load())
}
