package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/runtime/query"
)

// A transport that has already decoded a request can have the two requests
// a host sends most, ping and tools/call, answered without the SDK's
// session machinery: Direct runs them through the same receiving
// middleware the SDK would (encodedResults, guard: drain, catalog wait,
// call slots, panic recovery, response budget) and the same tool handler,
// and encodes the result as the SDK does. kgmcp's HTTP transport uses it for
// the plain requests of protocol versions it knows (cmd/kgmcp/internal/serve,
// direct.go); everything else still goes through the SDK. The bytes on the
// wire are the same either way (the transport's tests compare them).

// CanDirect reports whether Direct answers method (and, for tools/call, the
// tool name).
func (s *Server) CanDirect(method, name string) bool {
	switch method {
	case "ping":
		return true
	case "tools/call":
		return s.tools[name]
	}
	return false
}

// Direct answers a ping or a call of a registered tool whose arguments are
// args (a JSON object, or nil for none); links says whether the client's
// protocol has resource_link content (2025-06-18 and later). The result is encoded as the
// SDK encodes it (json.Marshal of the result); the error is what the SDK would
// answer the request with (a *jsonrpc.Error, or the context's error).
func (s *Server) Direct(ctx context.Context, method, name string, args json.RawMessage, links bool) (json.RawMessage, error) {
	var req mcp.Request
	switch method {
	case "ping":
		req = &mcp.ServerRequest[*mcp.PingParams]{Params: &mcp.PingParams{}}
	default:
		req = &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: name, Arguments: args}}
	}
	res, err := s.direct(context.WithValue(ctx, directLinksKey{}, links), method, req)
	if err != nil {
		return nil, err
	}
	if method == "ping" {
		return json.RawMessage(`{}`), nil
	}
	return json.Marshal(res)
}

// directHandler is the handler at the end of Direct's middleware chain: the
// tool handler the SDK dispatches to, or for ping nothing at all (the
// result, {}, is written by Direct).
func (s *Server) directHandler(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
	if method == "ping" {
		return nil, nil
	}
	p := req.(*mcp.CallToolRequest).Params
	links, _ := ctx.Value(directLinksKey{}).(bool)
	return s.call(ctx, p.Name, p.Arguments, links), nil
}

// directLinksKey carries Direct's links to its handler.
type directLinksKey struct{}

// toolNames is the set of the query layer's tool names.
func toolNames() map[string]bool {
	out := map[string]bool{}
	for _, t := range query.Tools() {
		out[t.Name] = true
	}
	return out
}
