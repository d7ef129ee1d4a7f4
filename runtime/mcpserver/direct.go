package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
		_, ok := generatedSchemas[name] // one entry per tool
		return ok
	}
	return false
}

// Direct answers a ping or a call of a registered tool whose arguments are
// args (a JSON object, or nil for none); links says whether the client's
// protocol has resource_link content (2025-06-18 and later). The result is
// encoded as the SDK encodes it (json.Marshal of the result); the error is
// what the SDK would answer the request with (a *jsonrpc.Error, or the
// context's error).
func (s *Server) Direct(ctx context.Context, method, name string, args json.RawMessage, links bool) (json.RawMessage, error) {
	if method == "ping" {
		// Through the guard like any request (drain, slots); the result is {}.
		pass := func(context.Context, string, mcp.Request) (mcp.Result, error) { return nil, nil }
		if _, err := s.guard(pass)(ctx, method, &mcp.ServerRequest[*mcp.PingParams]{Params: &mcp.PingParams{}}); err != nil {
			return nil, err
		}
		return json.RawMessage(`{}`), nil
	}
	// The tool handler the SDK dispatches to, behind the receiving middleware
	// that concerns tools/call (canonicalURIs and listedSchemas do not).
	call := func(ctx context.Context, _ string, _ mcp.Request) (mcp.Result, error) {
		return s.call(ctx, name, args, links), nil
	}
	res, err := encodedResults(s.guard(call))(ctx, method, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: name, Arguments: args}})
	if err != nil {
		return nil, err
	}
	if e, ok := res.(*encodedToolResult); ok {
		return e.directJSON()
	}
	return json.Marshal(res)
}
