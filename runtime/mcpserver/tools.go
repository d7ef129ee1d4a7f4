package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/query"
	"github.com/kgc-project/kgc/runtime/textview"
)

// toolSchemas are the tools' input and output schemas as encoded JSON. They
// depend on no catalog, and are generated from the query layer's tool table
// and result types into schemas_gen.go (a test keeps it current): the process
// neither reflects over the result types nor marshals a schema to start, and
// hands the SDK encoded schemas, sparing re-marshalling them on every
// registration and every tools/list.
var toolSchemas = sync.OnceValue(func() map[string][2]json.RawMessage {
	out := make(map[string][2]json.RawMessage, len(generatedSchemas))
	for name, s := range generatedSchemas {
		out[name] = [2]json.RawMessage{json.RawMessage(s[0]), json.RawMessage(s[1])}
	}
	return out
})

// registeredSchema is the input and output schema each tool is registered
// with; listedSchemas puts the real ones into every tools/list answer. The
// SDK's AddTool decodes registered schemas completely, two or three times
// (to check that they are JSON objects and to look for header annotations),
// which for kgc's 200 KB of schemas was nearly all of New's cost, on the
// start-up path of every process. Nothing else in the SDK reads them: tools
// added with Server.AddTool get their raw arguments, which the query layer
// validates against the real input schema.
var registeredSchema = json.RawMessage(`{"type":"object"}`)

// registerTools registers every tool of the query layer, in its order.
func (s *Server) registerTools() {
	for _, t := range query.Tools() {
		name := t.Name
		s.mcp.AddTool(&mcp.Tool{
			Name: t.Name, Title: t.Title, Description: t.Description,
			InputSchema: registeredSchema, OutputSchema: registeredSchema, Annotations: annotations(),
		}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return s.call(ctx, name, req.Params.Arguments, linksAllowed(req)), nil
		})
	}
}

// firstOutputSchemas is the first protocol version whose tools carry an
// outputSchema.
const firstOutputSchemas = "2025-06-18"

// listedSchemas answers tools/list with each tool's real input and output
// schemas (see registeredSchema); a client of a protocol older than
// 2025-06-18, which has no outputSchema, gets none (the output schemas are
// most of the list's bytes). The SDK builds a fresh list per call; the
// registered tools are copied, never changed.
func listedSchemas(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil && method == "tools/list" {
			schemas := toolSchemas()
			outputs := protocolOf(req) >= firstOutputSchemas
			for i, t := range lr.Tools {
				if s, ok := schemas[t.Name]; ok {
					c := *t
					c.InputSchema, c.OutputSchema = s[0], s[1]
					if !outputs {
						c.OutputSchema = nil
					}
					lr.Tools[i] = &c
				}
			}
		}
		return res, err
	}
}

func annotations() *mcp.ToolAnnotations {
	f := false
	return &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &f, IdempotentHint: true, OpenWorldHint: &f}
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// call answers one tool call through the query layer and builds its
// envelope; links says whether the client's protocol has resource_link
// content.
func (s *Server) call(ctx context.Context, name string, args json.RawMessage, links bool) *mcp.CallToolResult {
	q := s.query(ctx)
	out, err := q.Call(ctx, name, args)
	if err != nil {
		return s.toolError(name, err)
	}
	if p, ok := out.(*query.Paged); ok {
		return s.pagedEnvelope(q, name, p, links)
	}
	return s.envelope(q, name, out, nil, nil, links)
}

// linksAllowed reports whether a request's protocol version defines
// resource_link content (2025-06-18 and later): clients of 2024-11-05 and
// 2025-03-26 reject a result holding one. The version is read as for the
// output schemas (protocolOf): a stateless HTTP request of an older client,
// whose session has no initialize parameters, gets no links either.
func linksAllowed(req mcp.Request) bool {
	return protocolOf(req) >= firstOutputSchemas
}

// toolError is the tool-error result of a failed call: the text of a domain or
// input error, or internal_error (logged with an incident ID).
func (s *Server) toolError(name string, err error) *mcp.CallToolResult {
	var de *kgerr.Error
	var ie *query.InputError
	if errors.As(err, &de) || errors.As(err, &ie) {
		return errorResult(err.Error())
	}
	id := incident()
	s.log.Error("tool failed", "tool", name, "incident", id, "error", err.Error())
	return errorResult("internal_error: The server could not complete the request.")
}

// envelope encodes a result once, canonically, as the structured content,
// and gives it its text block: the readable text of textview (request is a
// paged tool's effective request), or the same canonical JSON where the tool
// keeps JSON text, the operator asked for JSON text everywhere, or the
// readable text would be the longer (so the result ceiling, which counts the
// JSON twice, bounds both). encoded, when not nil, is out's canonical JSON
// as the handler's ceiling check already encoded it (query.Paged.Encoded).
func (s *Server) envelope(q *query.Service, name string, out any, request map[string]any, encoded []byte, links bool) *mcp.CallToolResult {
	b := encoded
	if b == nil {
		var err error
		if b, err = canonjson.Marshal(out); err != nil {
			return s.toolError(name, err)
		}
	}
	if 2*len(b) > query.MaxResultBytes {
		// The last line of the ceiling: tools cut their lists to fit, so only
		// a result with nothing to cut gets here.
		return s.toolError(name, query.ResultTooLarge("the "+name+" result"))
	}
	// The JSON text block is the structured content's bytes, not a copy of
	// them: b is never written again once encoded.
	text := unsafe.String(unsafe.SliceData(b), len(b))
	var linked []query.Link
	if links || !s.jsonText {
		linked = q.Links(out)
	}
	if !s.jsonText {
		if t, ok := textview.Render(out, request); ok {
			// What a resource_link offers, the text offers too: hosts
			// that show the model only text drop the links.
			t = textview.AppendLinks(t, linked)
			if len(t) <= len(b) {
				text = t
			}
		}
	}
	content := []mcp.Content{&mcp.TextContent{Text: text}}
	if !links {
		return &mcp.CallToolResult{Content: content, StructuredContent: json.RawMessage(b)}
	}
	for _, l := range linked {
		size := l.Size
		content = append(content, &mcp.ResourceLink{URI: l.URI, Name: l.Name, Title: l.Title, MIMEType: l.MIMEType, Size: &size})
	}
	return &mcp.CallToolResult{Content: content, StructuredContent: json.RawMessage(b)}
}

const continuationPreamble = "MCP continuation data. Cursor values are opaque; pass them back unchanged:"

// continuation is the second text block of a page with a next page: the
// complete next request, defaults left out, non-ASCII escaped as the reference
// writes it.
func continuation(p *query.Paged) string {
	b, _ := canonjson.Marshal(map[string]any{"continuationTool": p.Tool, "nextRequest": p.NextRequest()})
	return continuationPreamble + "\n" + asciiEscape(string(b))
}

// asciiEscape escapes non-ASCII characters as \uXXXX (surrogate pairs above the
// BMP), as Python's json.dumps does by default.
func asciiEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			writeU(&b, 0xd800+(r>>10))
			writeU(&b, 0xdc00+(r&0x3ff))
		default:
			writeU(&b, r)
		}
	}
	return b.String()
}

func writeU(b *strings.Builder, r rune) {
	const hexd = "0123456789abcdef"
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexd[(r>>shift)&0xf])
	}
}

func (s *Server) pagedEnvelope(q *query.Service, name string, p *query.Paged, links bool) *mcp.CallToolResult {
	res := s.envelope(q, name, p.Result, p.Request, p.Encoded, links)
	if !res.IsError && p.Next != nil {
		res.Content = append(res.Content, &mcp.TextContent{Text: continuation(p)})
	}
	return res
}
