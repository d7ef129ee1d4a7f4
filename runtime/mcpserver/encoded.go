package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tool result's text block and structured content are the same canonical
// JSON, encoded once by envelope. Handed to the SDK as a *mcp.CallToolResult,
// those bytes are passed over again before they reach the wire: the result's
// MarshalJSON escapes the text and compacts the structured content (encoding/json
// validates and compacts every json.RawMessage it marshals), encoding/json
// compacts what MarshalJSON returned, and the JSON-RPC encoder compacts the
// whole result once more. encodedResults takes out the first of those passes
// over the structured content: the result is handed over as an
// encodedToolResult, whose MarshalJSON lets the SDK encode everything but the
// two large values (as placeholders) and splices them in: the text escaped
// once, the structured content as it is. The bytes on the wire are the same
// (a test compares them with the SDK's own encoding). The two passes that are
// left are the SDK's and cannot be avoided from outside it (bench/README.md).

// encodedResults is the receiving middleware that wraps successful tool
// results (see above). It must be the outermost one, so that the others see
// the *mcp.CallToolResult.
func encodedResults(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.CallToolResult); ok && err == nil && !r.IsError && len(r.Content) > 0 {
			raw, ok := r.StructuredContent.(json.RawMessage)
			if t, isText := r.Content[0].(*mcp.TextContent); ok && isText && t.Annotations == nil && t.Meta == nil {
				return &encodedToolResult{CallToolResult: r, text: t.Text, structured: raw}, nil
			}
		}
		return res, err
	}
}

// encodedToolResult is a tool result whose first text block and structured
// content are spliced into the SDK's encoding of the rest. It embeds the
// result, so whatever the SDK sets on it after the handlers (result type,
// _meta) is encoded as before.
type encodedToolResult struct {
	*mcp.CallToolResult
	text       string
	structured json.RawMessage
}

// The placeholders, and how the SDK encodes them.
const textPlaceholder, structuredPlaceholder = "\x00kgc-encoded-text\x00", "\x00kgc-encoded-structured-content\x00"

var textMark, structuredMark = func() ([]byte, []byte) {
	t, _ := json.Marshal(textPlaceholder)
	s, _ := json.Marshal(structuredPlaceholder)
	return t, s
}()

// MarshalJSON encodes the result exactly as (*mcp.CallToolResult).MarshalJSON
// does.
func (r *encodedToolResult) MarshalJSON() ([]byte, error) {
	skeleton := *r.CallToolResult
	skeleton.Content = append([]mcp.Content{&mcp.TextContent{Text: textPlaceholder}}, r.Content[1:]...)
	skeleton.StructuredContent = json.RawMessage(structuredMark)
	sk, err := skeleton.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if out, ok := r.splice(sk); ok {
		return out, nil
	}
	// A placeholder is not where it is expected (another value of the
	// result spells it): let the SDK encode the result itself.
	return r.CallToolResult.MarshalJSON()
}

// plainSkeletons are the SDK's encodings of a result that has nothing but
// one text block (its text the placeholder), the structured content (the
// placeholder) and isError, by isError.
var plainSkeletons = sync.OnceValue(func() [2][]byte {
	var out [2][]byte
	for i, isError := range []bool{false, true} {
		out[i], _ = (&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: textPlaceholder}},
			StructuredContent: json.RawMessage(structuredMark), IsError: isError}).MarshalJSON()
	}
	return out
})

// directJSON is MarshalJSON for a result that no SDK middleware has seen
// (Direct), which is json.Marshal's answer too: MarshalJSON's output is
// compact and HTML-escaped already. A plain result (what the tool handlers
// return: a text block, then any resource links, structured content and
// isError; Meta and the input-request fields unset, as only the SDK sets
// them) is spliced into a skeleton encoded once, the links encoded as
// json.Marshal encodes each element of the content array.
func (r *encodedToolResult) directJSON() ([]byte, error) {
	if r.Meta == nil && r.InputRequests == nil && r.RequestState == "" {
		sk := plainSkeletons()[0]
		if r.IsError {
			sk = plainSkeletons()[1]
		}
		if len(r.Content) > 1 {
			// The first block ends right after its text: `…"}]`.
			end := bytes.Index(sk, textMark) + len(textMark)
			if end < len(textMark) || len(sk) < end+2 || sk[end] != '}' || sk[end+1] != ']' {
				return r.MarshalJSON()
			}
			grown := append([]byte{}, sk[:end+1]...)
			for _, c := range r.Content[1:] {
				grown = append(grown, ',')
				if l, ok := c.(*mcp.ResourceLink); ok {
					if more, ok := appendLink(grown, l); ok {
						grown = more
						continue
					}
				}
				b, err := json.Marshal(c)
				if err != nil {
					return r.MarshalJSON()
				}
				grown = append(grown, b...)
			}
			sk = append(grown, sk[end+1:]...)
		}
		if out, ok := r.splice(sk); ok {
			return out, nil
		}
	}
	return r.MarshalJSON()
}

// splice puts the text and the structured content in place of their
// placeholders in the skeleton sk; false when sk does not hold each exactly
// once, in order.
func (r *encodedToolResult) splice(sk []byte) ([]byte, bool) {
	ti, si := bytes.Index(sk, textMark), bytes.Index(sk, structuredMark)
	if ti < 0 || si < ti || bytes.Count(sk, textMark) != 1 || bytes.Count(sk, structuredMark) != 1 {
		return nil, false
	}
	// The escaped text is about as long as the text; the buffer grows if not.
	out := bytes.NewBuffer(make([]byte, 0, len(sk)-len(textMark)-len(structuredMark)+len(r.text)+len(r.text)/8+len(r.structured)))
	out.Write(sk[:ti])
	// Escaped by encoding/json as json.Marshal does (HTML escaping on),
	// straight into the output; Encode ends the value with a newline.
	if err := json.NewEncoder(out).Encode(r.text); err != nil {
		return nil, false
	}
	out.Truncate(out.Len() - 1)
	out.Write(sk[ti+len(textMark) : si])
	// json.Marshal escapes <, > and & (and U+2028, U+2029) in the strings of
	// a RawMessage it compacts; so does HTMLEscape, without compacting again.
	if needsHTMLEscape(r.structured) {
		json.HTMLEscape(out, r.structured)
	} else {
		out.Write(r.structured)
	}
	out.Write(sk[si+len(structuredMark):])
	return out.Bytes(), true
}

// appendLink appends json.Marshal's encoding of a resource link that has
// nothing but a MIME type, URI, name, title, description and size (what
// kgmcp's links carry), each string plain ASCII that encoding/json writes
// as it is; false (dst unchanged) otherwise. The members are in the order
// of the SDK's wire struct.
func appendLink(dst []byte, l *mcp.ResourceLink) ([]byte, bool) {
	if l.Meta != nil || l.Annotations != nil || l.Icons != nil {
		return dst, false
	}
	out := append(dst, `{"type":"resource_link"`...)
	for _, f := range [...]struct{ key, val string }{{"mimeType", l.MIMEType}, {"uri", l.URI}, {"name", l.Name}, {"title", l.Title}, {"description", l.Description}} {
		if f.val == "" {
			continue
		}
		for i := 0; i < len(f.val); i++ {
			if c := f.val[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return dst, false
			}
		}
		out = append(append(append(append(append(out, ',', '"'), f.key...), '"', ':', '"'), f.val...), '"')
	}
	if l.Size != nil {
		out = strconv.AppendInt(append(out, `,"size":`...), *l.Size, 10)
	}
	return append(out, '}'), true
}

// needsHTMLEscape reports whether b holds a byte json.HTMLEscape changes:
// <, > or &, or the first byte of U+2028 or U+2029 (E2 80 A8/A9). A byte
// loop: bytes.ContainsAny with the two non-ASCII runes decodes every rune
// of b, a tenth of a get_standard call.
func needsHTMLEscape(b []byte) bool {
	for i, c := range b {
		switch c {
		case '<', '>', '&':
			return true
		case 0xE2:
			if i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xA8 || b[i+2] == 0xA9) {
				return true
			}
		}
	}
	return false
}
