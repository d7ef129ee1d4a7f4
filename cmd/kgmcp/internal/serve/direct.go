package serve

import (
	"encoding/json"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"strconv"
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
// notifications, _meta, other protocol versions, session or MCP routing
// headers, a Host the SDK's DNS-rebinding guard would refuse — goes to the
// SDK as before.

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
	var d directRequest
	if !directHeaders(r) {
		return d, false
	}
	d.links = directVersions[r.Header.Get("Mcp-Protocol-Version")]
	v, errs := jsonv.Parse(body)
	if v == nil || len(errs) > 0 || v.Kind != jsonv.Object {
		return d, false
	}
	var params *jsonv.Value
	seen := map[string]bool{}
	for _, m := range v.Obj {
		if seen[m.Key] {
			return d, false
		}
		seen[m.Key] = true
		switch m.Key {
		case "jsonrpc":
			if m.Val.Kind != jsonv.String || m.Val.Str != "2.0" {
				return d, false
			}
		case "id":
			id, ok := directID(m.Val, body)
			if !ok {
				return d, false
			}
			d.id = id
		case "method":
			if m.Val.Kind != jsonv.String {
				return d, false
			}
			d.method = m.Val.Str
		case "params":
			params = m.Val
		default:
			return d, false
		}
	}
	if !seen["jsonrpc"] || !d.id.IsValid() {
		return d, false
	}
	switch d.method {
	case "ping":
		if params != nil && (params.Kind != jsonv.Object || len(params.Obj) > 0) {
			return d, false
		}
	case "tools/call":
		if params == nil || params.Kind != jsonv.Object {
			return d, false
		}
		hasArgs := false
		for _, m := range params.Obj {
			switch {
			case m.Key == "name" && m.Val.Kind == jsonv.String && d.name == "":
				d.name = m.Val.Str
			case m.Key == "arguments" && m.Val.Kind == jsonv.Object && !hasArgs:
				hasArgs = true
			default:
				return d, false
			}
		}
		if d.name == "" {
			return d, false
		}
		if hasArgs {
			// The arguments exactly as sent, as the SDK hands them to the
			// tool handler (every key above is unique and spelled exactly,
			// so encoding/json's case-insensitive matching finds this one).
			var env struct {
				Params struct {
					Arguments json.RawMessage `json:"arguments"`
				} `json:"params"`
			}
			if json.Unmarshal(body, &env) != nil {
				return d, false
			}
			d.args = env.Params.Arguments
		}
	default:
		return d, false
	}
	return d, srv.CanDirect(d.method, d.name)
}

// directID is a request ID the SDK would read as the same value: a string
// without <, > or & (which it writes unescaped and encoding/json would
// escape), or a non-negative integer literal below 2^53 (exact as the float64
// it decodes numbers to).
func directID(v *jsonv.Value, body []byte) (jsonrpc.ID, bool) {
	switch v.Kind {
	case jsonv.String:
		if strings.ContainsAny(v.Str, "<>&") {
			return jsonrpc.ID{}, false
		}
		id, err := jsonrpc.MakeID(v.Str)
		return id, err == nil
	case jsonv.Number:
		end := v.Off
		for end < len(body) && body[end] >= '0' && body[end] <= '9' {
			end++
		}
		lit := string(body[v.Off:end])
		n, err := strconv.ParseInt(lit, 10, 64)
		if err != nil || n >= 1<<53 || end < len(body) && strings.IndexByte(".eE", body[end]) >= 0 {
			return jsonrpc.ID{}, false
		}
		id, err := jsonrpc.MakeID(float64(n))
		return id, err == nil
	}
	return jsonrpc.ID{}, false
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
