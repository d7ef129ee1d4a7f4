package serve

import (
	"encoding/json"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// The SDK's stateless HTTP handler decodes every request four times (twice
// as a batch, twice as a message), connects a session for it and encodes
// the answer twice; for ping and a small tool answer that is most of the
// time a request takes (bench/README.md, "HTTP against an empty go-sdk
// server"). kgmcp has already read and checked the body (checkBody), so for
// the plainest requests — one ping or one tools/call of a known tool, from a
// client of a protocol up to 2025-11-25 that sends nothing else — it
// answers them itself through mcpserver.Direct (the same middleware and tool
// handler) and writes the response the SDK would write, byte for byte
// (TestDirectAnswersAreTheSDKs). Anything else — other methods, batches,
// notifications, _meta beyond a progress token, other protocol versions,
// session or MCP routing headers, a Host the SDK's DNS-rebinding guard would
// refuse — goes to the SDK as before.

// directVersions are the protocol versions whose plain requests kgmcp
// answers itself (the SDK's stateless handler needs no initialization state
// for them beyond the header, and they define no per-request headers), with
// whether they have resource_link content. A request without the header is
// one of 2025-03-26, as the SDK reads it.
var directVersions = map[string]bool{"": false, "2024-11-05": false, "2025-03-26": false, "2025-06-18": true, "2025-11-25": true}

// directRequest is a request the HTTP handler answers through Direct.
type directRequest struct {
	id     jsonrpc.ID
	method string
	name   string
	args   json.RawMessage
	links  bool
}

// direct returns the request r (whose body is body) asks for when kgmcp
// answers it itself, and false when the SDK should.
func direct(srv *mcpserver.Server, r *http.Request, body []byte) (directRequest, bool) {
	if !directHeaders(r) {
		return directRequest{}, false
	}
	d, ok := directBody(srv, body, nil)
	d.links = directVersions[r.Header.Get("Mcp-Protocol-Version")]
	return d, ok
}

// directBody returns the request a message (one, not a batch) asks for when
// kgmcp answers it itself — a ping, or a call of a known tool with nothing
// but its name and arguments (and a progress token) — and false when the SDK should. rawID is the
// message's id when checkMessage has passed it already (nil: it is checked
// here). links is left for the caller (it depends on the protocol version).
func directBody(srv *mcpserver.Server, body []byte, rawID json.RawMessage) (directRequest, bool) {
	var d directRequest
	// An id the server echoes exactly (checkFrame's rule), read as the SDK
	// reads it.
	if rawID == nil {
		var problem string
		if rawID, problem = checkMessage(body); problem != "" || rawID == nil {
			return d, false
		}
	}
	var ok bool
	if d.id, ok = wireID(rawID); !ok {
		return d, false
	}
	// Nothing beyond jsonrpc, id, method and params, each spelled exactly and
	// once; for tools/call, params of name and arguments (and a _meta of a
	// progress token) only.
	v, errs := jsonv.Parse(body)
	if v == nil || len(errs) > 0 || !exactly(v, "jsonrpc", "id", "method", "params") {
		return d, false
	}
	if m := v.Get("method"); m != nil && m.Kind == jsonv.String {
		d.method = m.Str
	}
	params := v.Get("params")
	switch d.method {
	case "ping":
		if params != nil && (!exactly(params, "_meta") || !progressOnly(params.Get("_meta"))) {
			return d, false
		}
	case "tools/call":
		if params == nil || !exactly(params, "name", "arguments", "_meta") || !progressOnly(params.Get("_meta")) {
			return d, false
		}
		if n := params.Get("name"); n != nil && n.Kind == jsonv.String {
			d.name = n.Str
		}
		if a := params.Get("arguments"); a != nil {
			if a.Kind != jsonv.Object {
				return d, false
			}
			// The arguments exactly as sent, as the SDK hands them to the
			// tool handler (a json.RawMessage of the value's bytes), copied:
			// over stdio body is the reader's buffer.
			end := valueEnd(body, a.Off)
			if end < 0 {
				return d, false
			}
			d.args = append(json.RawMessage(nil), body[a.Off:end]...)
		}
	default:
		return d, false
	}
	return d, srv.CanDirect(d.method, d.name)
}

// valueEnd returns the offset just past the JSON object or array that
// starts at off in b (valid JSON), or -1.
func valueEnd(b []byte, off int) int {
	depth, inString := 0, false
	for i := off; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// progressOnly reports whether a request's _meta (nil: none) asks for
// nothing but progress: an object whose one member is a progressToken, a
// string or an integer. Hosts send one with every call; kgmcp sends no
// progress notifications (its calls are short), so such a call is answered
// as one without it.
func progressOnly(meta *jsonv.Value) bool {
	if meta == nil {
		return true
	}
	if !exactly(meta, "progressToken") || len(meta.Obj) != 1 {
		return false
	}
	switch t := meta.Obj[0].Val; t.Kind {
	case jsonv.String:
		return true
	case jsonv.Number:
		_, ok := jsonv.IntOf(t)
		return ok
	}
	return false
}

// exactly reports whether v is an object whose members are among keys, each
// at most once.
func exactly(v *jsonv.Value, keys ...string) bool {
	if v.Kind != jsonv.Object {
		return false
	}
	seen := map[string]bool{}
	for _, m := range v.Obj {
		if seen[m.Key] || !slices.Contains(keys, m.Key) {
			return false
		}
		seen[m.Key] = true
	}
	return true
}

// directHeaders reports whether the headers of r are ones the SDK's
// stateless handler accepts without doing anything Direct does not: a JSON
// body, a client that accepts JSON and event streams, a protocol version of
// directVersions (or none), no other MCP header (session, method, name, parameter
// headers), no Last-Event-ID, and a Host its DNS-rebinding guard lets
// through.
func directHeaders(r *http.Request) bool {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return false
	}
	if !acceptsJSONAndStreams(r.Header.Values("Accept")) {
		return false
	}
	if _, ok := directVersions[r.Header.Get("Mcp-Protocol-Version")]; !ok || len(r.Header.Values("Mcp-Protocol-Version")) > 1 {
		return false
	}
	for k := range r.Header {
		if k == "Last-Event-Id" || strings.HasPrefix(k, "Mcp-") && k != "Mcp-Protocol-Version" {
			return false
		}
	}
	if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && local != nil {
		if isLoopback(local.String()) && !isLoopback(r.Host) {
			return false
		}
	}
	return true
}

// acceptsJSONAndStreams is the SDK's check of the Accept header
// (streamableAccepts): both application/json and text/event-stream, by name
// or wildcard.
func acceptsJSONAndStreams(values []string) bool {
	jsonOK, streamOK := false, false
	for _, value := range values {
		for _, raw := range strings.Split(value, ",") {
			base, _, _ := strings.Cut(strings.TrimSpace(raw), ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK && streamOK
}

// isLoopback is the SDK's loopback test of an address or Host (host, host:port
// or [v6]:port).
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// serveDirect answers d as the SDK's stateless JSON-response handler would:
// 200, Cache-Control "no-cache, no-transform", Content-Type
// application/json, and the JSON-RPC response.
func serveDirect(srv *mcpserver.Server, d directRequest) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		result, err := srv.Direct(r.Context(), d.method, d.name, d.args, d.links)
		var body []byte
		if err == nil {
			line, ok := responseLine(&jsonrpc.Response{ID: d.id, Result: result})
			if ok {
				body = line[:len(line)-1]
			}
		}
		if body == nil {
			var encErr error
			body, encErr = jsonrpc.EncodeMessage(&jsonrpc.Response{ID: d.id, Result: result, Error: err})
			if encErr != nil {
				http.Error(w, "failed to encode the response", http.StatusInternalServerError)
				return
			}
		}
		w.Header().Set("Cache-Control", "no-cache, no-transform")
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
}
