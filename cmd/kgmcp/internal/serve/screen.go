package serve

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// Messages that pass checkFrame but that the SDK answers differently from
// what MCP asks, or differently over stdio and HTTP, are answered by kgmcp
// itself (docs/reliability.md, "kgmcp: requests"):
//
//   - a logging/setLevel call whose level is missing, null or not a string:
//     -32602 naming the levels (the SDK decodes the params before any
//     middleware sees them, and its own message does not name them; a
//     string that is not a level is refused by mcpserver's guard);
//   - over HTTP, a call of a method the server does not have: -32601 with the
//     call's id, as stdio answers it (the SDK's HTTP transport refuses the
//     whole POST with a plain-text 400 "JSON RPC not handled"), and a
//     notification it does not know: ignored, as over stdio (202 when
//     nothing else is in the POST).

// serverMethods are the methods go-sdk v1.8.0's server handles (its
// serverMethodInfos; kgmcp adds none). TestServerMethodsAreTheSDKs checks the
// list against the SDK in the module cache.
var serverMethods = map[string]bool{
	"initialize": true, "ping": true, "server/discover": true,
	"tools/list": true, "tools/call": true, "prompts/list": true, "prompts/get": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"resources/subscribe": true, "resources/unsubscribe": true, "subscriptions/listen": true,
	"completion/complete": true, "logging/setLevel": true,
	"notifications/initialized": true, "notifications/cancelled": true,
	"notifications/progress": true, "notifications/roots/list_changed": true,
}

// message is one JSON-RPC message of a frame, as far as screening needs it.
type message struct {
	raw    json.RawMessage
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// parseMessage reads what screening needs of one message (that passed
// checkMessage).
func parseMessage(raw json.RawMessage) (message, error) {
	m := message{raw: raw}
	if err := json.Unmarshal(raw, &m); err != nil {
		return m, fmt.Errorf("screening a message: %w", err)
	}
	return m, nil
}

// isCall reports whether m is a request with an id (not a notification or a
// response).
func (m message) isCall() bool {
	return m.Method != "" && len(m.ID) > 0 && !bytes.Equal(m.ID, []byte("null"))
}

// params returns m's params (nil when it has none).
func (m message) params() json.RawMessage {
	var p struct {
		Params json.RawMessage `json:"params"`
	}
	json.Unmarshal(m.raw, &p)
	return p.Params
}

// preAnswer returns the JSON-RPC error kgmcp answers m with itself, or nil
// when the SDK answers it. unknown says whether a call of a method the server
// does not have is answered here (HTTP) or left to the SDK (stdio, where it
// answers -32601 itself).
func preAnswer(m message, unknown bool) *jsonrpc.Error {
	if !m.isCall() {
		return nil
	}
	if unknown && !serverMethods[m.Method] {
		return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("method not found: %q", m.Method)}
	}
	params := m.params()
	if m.Method == "logging/setLevel" {
		if e := mcpserver.CheckSetLevelParams(params); e != nil {
			return e // names the levels
		}
	}
	return checkDecodable(m.Method, params)
}

// checkParams is the stdio side of screening: the error response to send
// instead of handing a single message to the SDK, or nil.
func checkParams(m message) []byte {
	if e := preAnswer(m, false); e != nil {
		return errorReply(m.ID, int(e.Code), e.Message)
	}
	return nil
}

// wireID is a message's id as the SDK decodes it (nil JSON: no id).
func wireID(raw json.RawMessage) (jsonrpc.ID, bool) {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(v)
	return id, err == nil && id.IsValid()
}

// cancelledID is the requestId a notifications/cancelled names, decoded as
// the SDK does (the key matched exactly).
func cancelledID(params json.RawMessage) (jsonrpc.ID, bool) {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil {
		return jsonrpc.ID{}, false
	}
	return wireID(p["requestId"])
}
