package serve

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A successful response's result reaches the transport already encoded by the
// SDK (compact JSON). The SDK's IO connection would encode the response around
// it with jsonrpc.EncodeMessage, which compacts the whole result once more; for
// a tool result that is the largest pass left over kgmcp's own encoding
// (bench/README.md, "Encode once"). responseLine writes the same bytes without
// that pass. Batches (protocol versions before 2025-06-18) still go through the
// SDK, which assembles their responses.

// responseLine returns the line jsonrpc.EncodeMessage would give resp, with
// its newline, when resp is a successful response whose ID it can write
// exactly; false otherwise (the caller lets the SDK encode it).
func responseLine(resp *jsonrpc.Response) ([]byte, bool) {
	if resp.Error != nil || len(resp.Result) == 0 || !resp.ID.IsValid() {
		return nil, false
	}
	var id []byte
	switch v := resp.ID.Raw().(type) {
	case int64:
		id = strconv.AppendInt(nil, v, 10)
	case string:
		// The SDK encodes IDs without HTML escaping; json.Marshal escapes
		// <, > and &, so such IDs (never seen in practice) are left to it.
		if strings.ContainsAny(v, "<>&") {
			return nil, false
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, false
		}
		id = b
	default:
		return nil, false
	}
	const head, mid = `{"jsonrpc":"2.0","id":`, `,"result":`
	line := make([]byte, 0, len(head)+len(id)+len(mid)+len(resp.Result)+2)
	line = append(line, head...)
	line = append(line, id...)
	line = append(line, mid...)
	line = append(line, resp.Result...)
	return append(line, '}', '\n'), true
}
