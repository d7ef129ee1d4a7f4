package mcpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxErrorEcho bounds what an error answer quotes back of its request (an
// unknown tool, prompt or resource name, a URI, a value): an error message is
// cut to this many bytes, and a string inside its data to maxErrorEcho/2,
// each marked as cut. Without it a 0.5 MB unknown name came back in full,
// and the SDK's own refusals quoted the params twice escaped.
const maxErrorEcho = 400

// ClipMessage cuts s to maxErrorEcho (400) bytes (on a rune boundary), saying
// how much was cut.
func ClipMessage(s string) string { return clip(s, maxErrorEcho) }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… [%d bytes cut]", s[:cut], len(s)-cut)
}

// clipError bounds an error a handler (or the SDK inside the guard)
// returns: a JSON-RPC error's message and data, another error's message.
// Codes and wrapped errors are kept.
func clipError(err error) error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		valid := len(je.Data) == 0 || json.Valid(je.Data)
		if valid && len(je.Message) <= maxErrorEcho && len(je.Data) <= maxErrorEcho {
			return err
		}
		c := *je
		c.Message = ClipMessage(je.Message)
		if !valid {
			c.Data = repairData(je.Data)
		}
		c.Data = clipData(c.Data)
		return &c
	}
	if len(err.Error()) <= maxErrorEcho {
		return err
	}
	return &clippedError{msg: ClipMessage(err.Error()), err: err}
}

// clipData cuts the long strings of an error's data (e.g. the SDK's
// {"uri": …} of resource_not_found); data that is still long is dropped.
func clipData(data json.RawMessage) json.RawMessage {
	if len(data) <= maxErrorEcho {
		return data
	}
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	for k, v := range m {
		if s, ok := v.(string); ok {
			m[k] = clip(s, maxErrorEcho/2)
		}
	}
	out, err := json.Marshal(m)
	if err != nil || len(out) > 2*maxErrorEcho {
		return nil
	}
	return out
}

// repairData re-encodes error data that is not JSON. The SDK builds the
// data of its "Resource not found" as {"uri":%q}: Go quoting, which writes a
// control character, DEL or invalid UTF-8 of the request's URI as \x01 or
// \U000e0001, escapes JSON does not have; marshaling that answer failed and
// ended the stdio session (and emptied an HTTP answer). Data of that shape
// is decoded as Go quoted it and encoded as JSON; any other invalid data is
// dropped (the message still says what went wrong).
func repairData(data json.RawMessage) json.RawMessage {
	const prefix, suffix = `{"uri":`, `}`
	s := string(data)
	if !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) {
		return nil
	}
	uri, err := strconv.Unquote(s[len(prefix) : len(s)-len(suffix)])
	if err != nil {
		return nil
	}
	out, err := json.Marshal(struct {
		URI string `json:"uri"`
	}{uri})
	if err != nil {
		return nil
	}
	return out
}

// clippedError is an error whose message was cut; it unwraps to the
// original, so the SDK still finds the code it carries.
type clippedError struct {
	msg string
	err error
}

func (e *clippedError) Error() string { return e.msg }
func (e *clippedError) Unwrap() error { return e.err }
