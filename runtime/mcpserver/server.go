// Package mcpserver is the only importer of the MCP SDK: it registers the tools,
// resources and prompts of the surface (surface.md §1) over a catalog of opened
// images, in one place, and turns every result into the envelope the contract
// asks for — the complete result as canonical JSON text plus the same object as
// structuredContent. Inputs are validated strictly against the published JSON
// Schemas before a handler runs; domain errors become "<code>: <message>" tool
// errors; a panic becomes internal_error and never stops the server.
package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
)

// ServerName is the serverName of get_capabilities and the MCP implementation.
const ServerName = "Knowledge Graph For Education Global MCP"

// Options configure a server.
type Options struct {
	// Version is reported in the MCP implementation info.
	Version string
	// MaxResourceBytes and MaxResourceSourceBytes are the resource size policy
	// (surface.md §3.6); zero means the defaults (8 MiB, 32 MiB).
	MaxResourceBytes       int64
	MaxResourceSourceBytes int64
	// Logger receives diagnostics (never the protocol stream). Nil discards.
	Logger *slog.Logger
	// MaxConcurrentCalls bounds the requests handled at once in the process;
	// more wait for a slot. Zero means DefaultMaxConcurrentCalls.
	MaxConcurrentCalls int
}

// Default size policy.
const (
	DefaultMaxResourceBytes       = 8 << 20
	DefaultMaxResourceSourceBytes = 32 << 20
)

// Server serves one catalog.
type Server struct {
	cat   *catalog.Catalog
	opts  Options
	log   *slog.Logger
	mcp   *mcp.Server
	tools []string
	memo  memo
	slots chan struct{} // one per request being handled
	live  drainer
}

// memo caches values derived only from the immutable catalog (hashes,
// capabilities, statistics), built on first use. Cached values are shared and
// must not be modified.
type memo struct {
	mu sync.Mutex
	m  map[string]any
}

func (m *memo) get(key string, build func() any) any {
	m.mu.Lock()
	v, ok := m.m[key]
	m.mu.Unlock()
	if ok {
		return v
	}
	// Built outside the lock: builders may use the memo themselves, and two
	// racing builds give equal values.
	v = build()
	m.mu.Lock()
	defer m.mu.Unlock()
	if first, ok := m.m[key]; ok {
		return first
	}
	if m.m == nil {
		m.m = map[string]any{}
	}
	m.m[key] = v
	return v
}

// New builds the MCP server over cat.
func New(cat *catalog.Catalog, opts Options) *Server {
	if opts.MaxResourceBytes <= 0 {
		opts.MaxResourceBytes = DefaultMaxResourceBytes
	}
	if opts.MaxResourceSourceBytes <= 0 {
		opts.MaxResourceSourceBytes = DefaultMaxResourceSourceBytes
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Version == "" {
		opts.Version = "devel"
	}
	if opts.MaxConcurrentCalls <= 0 {
		opts.MaxConcurrentCalls = DefaultMaxConcurrentCalls()
	}
	s := &Server{cat: cat, opts: opts, log: log, slots: make(chan struct{}, opts.MaxConcurrentCalls)}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: ServerName, Title: "kgmcp", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       SDKLogger(log),
	})
	s.mcp.AddReceivingMiddleware(s.guard)
	s.registerTools()
	s.registerResources()
	return s
}

// MCP returns the SDK server (for transports).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Catalog returns the served catalog.
func (s *Server) Catalog() *catalog.Catalog { return s.cat }

const instructions = "Read-only, rights-aware retrieval over accepted curriculum knowledge-graph packages " +
	"(academic standards, learning components, learning progressions). Start with list_frameworks or " +
	"get_capabilities; pin frameworkId and snapshotId from the results for later calls. Every tool result's " +
	"text is its complete result as JSON. Resources live under kgfegmcp://."

func incident() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// tool describes one tool: its input schema (the `request` object, or nil for
// a tool without arguments), its output's top-level keys, and its handler.
type tool struct {
	name, title, description string
	request                  *Schema
	requestRequired          bool
	outputKeys               []string
	run                      func(ctx context.Context, raw json.RawMessage) (any, error)
}

func annotations() *mcp.ToolAnnotations {
	f := false
	return &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &f, IdempotentHint: true, OpenWorldHint: &f}
}

func (s *Server) addTool(t tool) {
	var input *Schema
	if t.request == nil {
		input = object(map[string]*Schema{})
	} else {
		t.request.compile()
		var req []string
		if t.requestRequired {
			req = []string{"request"}
		}
		input = object(map[string]*Schema{"request": t.request}, req...)
	}
	outProps := map[string]any{}
	for _, k := range t.outputKeys {
		outProps[k] = map[string]any{}
	}
	output := map[string]any{"type": "object", "properties": outProps, "required": t.outputKeys}
	s.tools = append(s.tools, t.name)
	s.mcp.AddTool(&mcp.Tool{
		Name: t.name, Title: t.title, Description: t.description,
		InputSchema: input, OutputSchema: output, Annotations: annotations(),
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return s.call(ctx, t, input, req.Params.Arguments), nil
	})
}

// call validates the arguments, runs the handler and builds the envelope.
func (s *Server) call(ctx context.Context, t tool, input *Schema, args json.RawMessage) *mcp.CallToolResult {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	v, errs := jsonv.Parse(args)
	if v == nil || len(errs) > 0 {
		return errorResult("Input validation error: arguments are not a valid JSON object")
	}
	if err := input.validate(v, ""); err != nil {
		return errorResult(err.Error())
	}
	raw := json.RawMessage("{}")
	if rv := v.Get("request"); rv != nil && rv.Kind == jsonv.Object {
		raw = canonjson.Encode(rv)
	}
	out, err := t.run(ctx, raw)
	if err != nil {
		return s.toolError(t.name, err)
	}
	if p, ok := out.(*paged); ok {
		return s.pagedEnvelope(t.name, p)
	}
	return s.envelope(t.name, out)
}

func (s *Server) toolError(name string, err error) *mcp.CallToolResult {
	var de *kgerr.Error
	if errors.As(err, &de) {
		return errorResult(de.Error())
	}
	var ve *validationError
	if errors.As(err, &ve) {
		return errorResult(ve.Error())
	}
	id := incident()
	s.log.Error("tool failed", "tool", name, "incident", id, "error", err.Error())
	return errorResult("internal_error: The server could not complete the request.")
}

// envelope encodes a result once, canonically, as the text block and the
// structured content.
func (s *Server) envelope(name string, out any) *mcp.CallToolResult {
	b, err := canonjson.Marshal(out)
	if err != nil {
		return s.toolError(name, err)
	}
	if 2*len(b) > MaxResultBytes {
		// The last line of the ceiling: tools cut their lists to fit, so only
		// a result with nothing to cut gets here.
		return s.toolError(name, resultTooLarge("the "+name+" result"))
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
	}
}

// decode unmarshals a validated request into its typed struct.
func decode[T any](raw json.RawMessage) (*T, error) {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fail("request", "%v", err)
	}
	return &v, nil
}
