package mcpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// MaxErrorEcho bounds what an error answer quotes back of its request (an
// unknown tool, prompt or resource name, a URI, a value): an error message is
// cut to this many bytes, and a string inside its data to MaxErrorEcho/2,
// each marked as cut. Without it a 0.5 MB unknown name came back in full,
// and the SDK's own refusals quoted the params twice escaped.
const MaxErrorEcho = 400

// ClipMessage cuts s to MaxErrorEcho bytes (on a rune boundary), saying how
// much was cut.
func ClipMessage(s string) string { return clip(s, MaxErrorEcho) }

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
		if len(je.Message) <= MaxErrorEcho && len(je.Data) <= MaxErrorEcho {
			return err
		}
		c := *je
		c.Message = ClipMessage(je.Message)
		c.Data = clipData(je.Data)
		return &c
	}
	if len(err.Error()) <= MaxErrorEcho {
		return err
	}
	return &clippedError{msg: ClipMessage(err.Error()), err: err}
}

// clipData cuts the long strings of an error's data (e.g. the SDK's
// {"uri": …} of resource_not_found); data that is still long is dropped.
func clipData(data json.RawMessage) json.RawMessage {
	if len(data) <= MaxErrorEcho {
		return data
	}
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	for k, v := range m {
		if s, ok := v.(string); ok {
			m[k] = clip(s, MaxErrorEcho/2)
		}
	}
	out, err := json.Marshal(m)
	if err != nil || len(out) > 2*MaxErrorEcho {
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
