// Package mcpserver is the MCP adapter over runtime/query, and with cmd/kgmcp
// the only importer of the MCP SDK: it registers the tools and resources of the
// surface (docs/reference/README.md) in one place, hands each request to the query
// layer, and turns every answer into the envelope the contract asks for — the
// complete result encoded once as canonical JSON, as the text block and as
// structuredContent. Domain errors become "<code>: <message>" tool errors; a
// panic becomes internal_error and never stops the server; every request is
// bounded (guard.go).
package mcpserver

//go:generate go test -run TestGeneratedSchemasCurrent -update .

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/live"
	"github.com/kgc-project/kgc/runtime/query"
)

// serverName is the MCP implementation name (and get_capabilities' serverName).
const serverName = query.ServerName

// Options configure a server.
type Options struct {
	// Version is reported in the MCP implementation info.
	Version string
	// MaxResourceBytes and MaxResourceSourceBytes are the resource size policy
	// (docs/reference/resources.md#reading-rules); zero means the defaults (8 MiB, 32 MiB).
	MaxResourceBytes       int64
	MaxResourceSourceBytes int64
	// Logger receives diagnostics (never the protocol stream). Nil discards.
	Logger *slog.Logger
	// MaxConcurrentCalls bounds the requests handled at once in the process;
	// more wait for a slot. Zero means DefaultMaxConcurrentCalls.
	MaxConcurrentCalls int
	// JSONText makes every tool result's text block its canonical JSON, as
	// the reference sends it, instead of the readable text of the
	// discovery, standards, component and comparison tools.
	JSONText bool
	// Observe, when not nil, is told of every request handled (metrics,
	// audit); it must not block.
	Observe func(Observation)
}

// Default size policy.
const (
	DefaultMaxResourceBytes       = query.DefaultMaxResourceBytes
	DefaultMaxResourceSourceBytes = query.DefaultMaxResourceSourceBytes
)

// Server serves one catalog over MCP.
type Server struct {
	gen   *live.Service // the catalog answered from (see Swap)
	qOpts query.Options
	log   *slog.Logger
	mcp   *mcp.Server
	slots chan struct{} // one per request being handled
	// waiting counts the requests waiting for a slot.
	waiting  atomic.Int64
	observer func(Observation)
	live     drainer
	// jsonText: Options.JSONText.
	jsonText bool
}

// New builds the MCP server over an open catalog.
func New(cat *catalog.Catalog, opts Options) *Server {
	return NewLoading(catalog.Loaded(cat), opts)
}

// NewLoading builds the MCP server before its catalog is verified: requests
// that need no package (initialize, ping, the tool, prompt, resource and
// template lists) are answered at once; every other request waits until the
// catalog is settled, and is refused with catalog_error if it was refused.
func NewLoading(l *catalog.Loading, opts Options) *Server {
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
	s := &Server{
		// Every result is encoded before its handler returns, under the
		// generation the request pinned: it need not be copied out.
		qOpts:    query.Options{MaxResourceBytes: opts.MaxResourceBytes, MaxResourceSourceBytes: opts.MaxResourceSourceBytes, ResultsAliasImages: true},
		log:      log,
		slots:    make(chan struct{}, opts.MaxConcurrentCalls),
		observer: opts.Observe,
		jsonText: opts.JSONText,
	}
	s.gen = live.New(l, s.qOpts)
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: serverName, Title: "kgmcp", Version: opts.Version}, &mcp.ServerOptions{
		// The tool, prompt and resource lists never change while a server
		// runs: no listChanged is advertised (the SDK's default is true).
		//lint:ignore SA1019 logging is deprecated from protocol 2026-07-28 but served to the clients of earlier versions
		Capabilities: &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}, Tools: &mcp.ToolCapabilities{},
			Prompts: &mcp.PromptCapabilities{}, Resources: &mcp.ResourceCapabilities{}},
		Instructions:      instructions,
		Logger:            SDKLogger(log),
		CompletionHandler: s.complete,
	})
	s.mcp.AddReceivingMiddleware(encodedResults, s.guard, notFoundCodes, apps, canonicalURIs, listedSchemas)
	s.registerTools()
	s.registerResources()
	s.registerPrompts()
	return s
}

// MCP returns the SDK server (for transports).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Catalog returns the served catalog, waiting until it is verified (nil if it
// was refused).
func (s *Server) Catalog() *catalog.Catalog {
	if q, err := s.service(context.Background()); err == nil {
		return q.Catalog()
	}
	return nil
}

// Query returns the query layer the server answers from, waiting until the
// catalog is verified (nil if it was refused).
func (s *Server) Query() *query.Service {
	q, _ := s.service(context.Background())
	return q
}

// Loading returns the catalog the server answers from, settled or not.
func (s *Server) Loading() *catalog.Loading { return s.gen.Loading() }

// service waits for the current catalog and returns the query layer over it.
func (s *Server) service(ctx context.Context) (*query.Service, error) {
	p := s.gen.Enter()
	defer p.Leave()
	return p.Service(ctx)
}

const instructions = "Read-only, rights-aware retrieval over accepted curriculum knowledge-graph packages " +
	"(academic standards, learning components, learning progressions). Start with list_frameworks or " +
	"get_capabilities; pin frameworkId and snapshotId from the results for later calls. Tool results' text " +
	"holds every fact needed to answer and cite (URIs included); structuredContent holds the complete typed result. Resources live under kgfegmcp://. Prompts (or get_workflow_instructions, " +
	"for hosts without prompts) render teacher, student and reviewer workflows that name the tool calls to make."

// incident names one logged internal failure, for the operator.
func incident() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
