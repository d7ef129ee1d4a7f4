package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Bounds of one inbound frame (a stdio line or an HTTP body).
const (
	// maxRequestBytes bounds a frame: every tool argument is small (the
	// largest, a cursor or a URI, is 4,096 characters).
	maxRequestBytes = 1 << 20
	// maxBatch bounds the messages of a JSON-RPC batch (protocol 2025-03-26
	// allows batches; later versions do not).
	maxBatch = 16
	// maxExactID is the largest integer ID the SDK echoes exactly: it decodes
	// numeric IDs through float64.
	maxExactID = 1 << 53
)

// checkFrame checks one inbound frame before the SDK sees it: the SDK ends a
// stdio session on a line that is not JSON-RPC, answers code 0 or echoes a
// wrong ID for some others, and accepts batches of any size. A frame that
// passes is handed on unchanged; otherwise reply is the JSON-RPC error
// response to send instead (-32700 for a parse error, -32600 for an invalid
// request, echoing the request's ID where it can be echoed exactly). An empty
// frame gives ok false and no reply.
func checkFrame(frame []byte) (ok bool, reply []byte) {
	frame = bytes.TrimSpace(frame)
	if len(frame) == 0 {
		return false, nil
	}
	if !json.Valid(frame) {
		return false, errorReply(nil, jsonrpc.CodeParseError, "Parse error: the message is not valid JSON")
	}
	if frame[0] != '[' {
		if id, msg := checkMessage(frame); msg != "" {
			return false, errorReply(id, jsonrpc.CodeInvalidRequest, "Invalid Request: "+msg)
		}
		return true, nil
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(frame, &batch); err != nil {
		return false, errorReply(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
	}
	switch {
	case len(batch) == 0:
		return false, errorReply(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: empty batch")
	case len(batch) > maxBatch:
		return false, errorReply(nil, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("Invalid Request: a batch of %d messages is over the limit of %d; send them in smaller batches", len(batch), maxBatch))
	}
	for i, m := range batch {
		if _, msg := checkMessage(m); msg != "" {
			return false, errorReply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: batch message %d: %s", i+1, msg))
		}
	}
	return true, nil
}

// checkMessage checks one JSON-RPC message (valid JSON). It returns the ID to
// echo in an error (nil when it cannot be echoed exactly) and what is wrong,
// or "" when nothing is.
func checkMessage(raw []byte) (id json.RawMessage, problem string) {
	var m struct {
		JSONRPC *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, "a message must be a JSON object"
	}
	nullID := false
	if len(m.ID) > 0 {
		switch m.ID[0] {
		case '"':
			id = m.ID
		case 'n':
			nullID = true
		case '{', '[', 't', 'f':
			return nil, "id must be a string or an integer"
		default:
			n, err := strconv.ParseInt(string(m.ID), 10, 64)
			if err != nil || n > maxExactID || n < -maxExactID {
				return nil, fmt.Sprintf("numeric id %s is not an integer of magnitude at most 2^53 (the server could not echo it exactly)", truncate(m.ID, 40))
			}
			id = m.ID
		}
	}
	if m.JSONRPC == nil || *m.JSONRPC != "2.0" {
		return id, `"jsonrpc" must be "2.0"`
	}
	if len(m.Method) > 0 {
		if m.Method[0] != '"' {
			return id, "method must be a string"
		}
		if nullID {
			// JSON-RPC discourages it and MCP forbids it; the SDK took it for
			// a notification and never answered (over HTTP it answered 400).
			return nil, `id must not be null (an id is a string or an integer; a notification has no "id" member)`
		}
		return id, ""
	}
	if len(m.Result) == 0 && len(m.Error) == 0 {
		return id, `a message needs a "method" (or, for a response, a "result" or an "error")`
	}
	if id == nil {
		return nil, "a response needs an id"
	}
	return id, ""
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// errorReply encodes a JSON-RPC error response; a nil id is null.
func errorReply(id json.RawMessage, code int, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(code), Message: message}})
	return b
}

// isBatch reports whether a frame checkFrame passed is a batch.
func isBatch(frame []byte) bool {
	frame = bytes.TrimSpace(frame)
	return len(frame) > 0 && frame[0] == '['
}
