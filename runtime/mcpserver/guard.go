package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/kgc-project/kgc/runtime/live"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// codeLimitExceeded is the JSON-RPC error code (implementation-defined server
// error range) of a request refused by a work or size limit of the process
// rather than by the contract: the response budget of an HTTP request, or a
// server that is shutting down.
const codeLimitExceeded = -32000

// DefaultMaxConcurrentCalls is four requests per CPU, at least eight: the
// handlers are CPU-bound, so more would only hold more memory at once.
func DefaultMaxConcurrentCalls() int { return max(8, 4*runtime.GOMAXPROCS(0)) }

type budgetKey struct{}

// WithResponseBudget returns a context under which every request handled
// shares one budget of n response bytes (counted as the results' text,
// structured content and base64 blobs). A request whose result would overrun
// it gets a -32000 error (codeLimitExceeded) instead. The HTTP transport gives
// each HTTP request (a JSON-RPC batch among them) its own budget.
func WithResponseBudget(ctx context.Context, n int64) context.Context {
	b := new(atomic.Int64)
	b.Store(n)
	return context.WithValue(ctx, budgetKey{}, &budget{left: b, total: n})
}

type budget struct {
	left  *atomic.Int64
	total int64
}

// requestName is the tool, resource or prompt a request names, for logs.
func requestName(req mcp.Request) string {
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParamsRaw:
		return p.Name
	case *mcp.ReadResourceParams:
		return p.URI
	case *mcp.GetPromptParams:
		return p.Name
	}
	return ""
}

// guard wraps every request: it bounds what an error quotes back
// (clipError), refuses a logging/setLevel whose level MCP
// does not define (checkSetLevel) and new work while the server drains,
// waits for the catalog if the method reads it (needsCatalog), waits
// for one of the process's call slots, turns a panic (the SDK has no
// recover of its own) or a fault on mapped memory into internal_error, and
// charges the result to the request's response budget.
func (s *Server) guard(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		start := time.Now()
		defer func() {
			if err != nil {
				err = clipError(err)
			}
			s.observe(ctx, method, req, start, res, err)
		}()
		if method == "logging/setLevel" {
			if err := checkSetLevel(req); err != nil {
				return nil, err
			}
		}
		if !s.live.enter() {
			return nil, &jsonrpc.Error{Code: codeLimitExceeded, Message: "server_shutting_down: the server is stopping and takes no new requests"}
		}
		defer s.live.leave()
		if needsCatalog[method] {
			var p *live.Pin
			ctx, p = s.enter(ctx)
			defer p.Leave()
			if _, err := p.Service(ctx); err != nil {
				return catalogRefused(ctx, method, err)
			}
		}
		s.waiting.Add(1)
		select {
		case s.slots <- struct{}{}:
			s.waiting.Add(-1)
			defer func() { <-s.slots }()
		case <-ctx.Done():
			s.waiting.Add(-1)
			return nil, ctx.Err()
		}
		if !isHTTPRequest(ctx) && s.log.Enabled(ctx, slog.LevelDebug) {
			defer func() {
				s.log.Debug("handled", "method", method, "name", requestName(req), "micros", time.Since(start).Microseconds())
			}()
		}
		res, err = s.protect(ctx, next, method, req)
		if b, ok := ctx.Value(budgetKey{}).(*budget); ok && err == nil {
			if b.left.Add(-resultBytes(res)) < 0 {
				return nil, &jsonrpc.Error{Code: codeLimitExceeded, Message: fmt.Sprintf(
					"response_budget_exceeded: the answers to this HTTP request would exceed %d bytes; send fewer calls per request", b.total)}
			}
		}
		return res, err
	}
}

// needsCatalog are the methods whose handlers read the catalog: they wait
// until it is verified. Everything else (initialize, ping, the tool, prompt,
// resource and template lists, notifications) is answered from what the
// server registered at start.
var needsCatalog = map[string]bool{
	"tools/call": true, "resources/read": true, "prompts/get": true, "completion/complete": true,
}

// catalogRefused answers a request that waited for a catalog that was
// refused (or gave up waiting).
func catalogRefused(ctx context.Context, method string, err error) (mcp.Result, error) {
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	msg := "catalog_error: the images could not be verified, so nothing is served (" + err.Error() + ")."
	if method == "tools/call" {
		return errorResult(msg), nil
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg}
}

// protect runs a handler under survive, every panic becoming internal_error.
func (s *Server) protect(ctx context.Context, next mcp.MethodHandler, method string, req mcp.Request) (res mcp.Result, err error) {
	if !s.survive(method, func() { res, err = next(ctx, method, req) }) {
		return res, err
	}
	switch method {
	case "tools/call":
		return errorResult("internal_error: The server could not complete the request."), nil
	case "resources/read":
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal_error: The server could not read the resource."}
	case "prompts/get":
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal_error: The server could not render the prompt."}
	default:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal_error"}
	}
}

// survive runs f, which may read mapped images, with faults on mapped memory
// turned into panics (the SDK has no recover of its own, and an image
// modified in place can fault); a panic is logged with an incident ID and its
// stack, and survive reports it.
func (s *Server) survive(what string, f func()) (panicked bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			panicked = true
			s.log.Error("handler panic", "method", what, "incident", incident(), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		}
	}()
	f()
	return false
}

// resultBytes is what a result costs on the wire, near enough for a budget.
func resultBytes(res mcp.Result) int64 {
	var n int64
	switch r := res.(type) {
	case *mcp.CallToolResult:
		for _, c := range r.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				n += int64(len(t.Text))
			}
		}
		if raw, ok := r.StructuredContent.(json.RawMessage); ok {
			n += int64(len(raw))
		}
	case *mcp.ReadResourceResult:
		for _, c := range r.Contents {
			n += int64(len(c.Text)) + int64(len(c.Blob)+2)/3*4
		}
	case *mcp.GetPromptResult:
		for _, m := range r.Messages {
			if t, ok := m.Content.(*mcp.TextContent); ok {
				n += int64(len(t.Text))
			}
		}
	}
	return n
}

// Drain stops the server taking new requests and waits until the requests
// being handled have returned, or ctx ends. Only after a nil return is it safe
// to close the catalog's images.
func (s *Server) Drain(ctx context.Context) error { return s.live.drain(ctx) }

// quietHandler passes on records at or above min: the SDK logs every HTTP
// request's session at Info, which would make the log as large as the traffic.
type quietHandler struct {
	slog.Handler
	min slog.Level
}

func (h quietHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h quietHandler) WithAttrs(a []slog.Attr) slog.Handler {
	return quietHandler{h.Handler.WithAttrs(a), h.min}
}

func (h quietHandler) WithGroup(n string) slog.Handler {
	return quietHandler{h.Handler.WithGroup(n), h.min}
}

// SDKLogger is the logger to hand the SDK: only its warnings and errors. Its
// Info records are session lifecycle ("server session connected" with an
// empty session ID, three per stateless HTTP request), which says nothing
// kgmcp's own per-request debug line does not.
func SDKLogger(log *slog.Logger) *slog.Logger {
	return slog.New(quietHandler{log.Handler(), slog.LevelWarn})
}

// isHTTPRequest reports whether ctx is an HTTP request's (its transport logs
// the request itself).
func isHTTPRequest(ctx context.Context) bool {
	_, ok := ctx.Value(budgetKey{}).(*budget)
	return ok
}
