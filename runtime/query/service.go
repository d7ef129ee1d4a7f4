package query

import (
	"sync"

	"github.com/kgc-project/kgc/runtime/catalog"
)

// ServerName is the serverName of get_capabilities.
const ServerName = "Knowledge Graph For Education Global MCP"

// Options configure a Service.
type Options struct {
	// MaxResourceBytes and MaxResourceSourceBytes are the resource size policy
	// (docs/reference/resources.md#reading-rules); zero means the defaults (8 MiB, 32 MiB).
	MaxResourceBytes       int64
	MaxResourceSourceBytes int64
	// ResultsAliasImages lets results point into the mapped images: valid
	// only while the caller holds the catalog, which must not be closed or
	// swapped until it is done with them. It spares copying every string of
	// every result, for a caller that encodes each one at once (the MCP
	// adapter). By default results are copied out and stay valid after Close.
	ResultsAliasImages bool
}

// Default size policy.
const (
	DefaultMaxResourceBytes       = 8 << 20
	DefaultMaxResourceSourceBytes = 32 << 20
)

// Service answers queries over one catalog. It is safe for concurrent use;
// what it returns does not point into the images (unless
// Options.ResultsAliasImages).
type Service struct {
	cat   *catalog.Catalog
	opts  Options
	memo  memo
	links linkCache
	tools []Tool
}

// Open opens the .kgimg images named by paths (files, or directories of
// *.kgimg), verifying each as kgmcp does at start, and returns a Service over
// them that owns them: Close unmaps them. Any image that is refused refuses
// the whole set.
func Open(paths []string, opts Options) (*Service, error) {
	files, err := catalog.Paths(paths)
	if err != nil {
		return nil, err
	}
	cat, err := catalog.Open(files, catalog.PolicyFail, nil)
	if err != nil {
		return nil, err
	}
	return New(cat, opts), nil
}

// Close closes the catalog the Service serves (for a Service from Open, the
// images it opened). Nothing it returned points into them.
func (s *Service) Close() { s.cat.Close() }

// New returns a Service over cat, which must not be nil (New panics at once
// rather than at the first call).
func New(cat *catalog.Catalog, opts Options) *Service {
	if cat == nil {
		panic("query.New: nil catalog (open one with catalog.Open, or use query.Open)")
	}
	return newService(cat, opts)
}

// definitions is a Service without a catalog: its tool table, for Tools.
var definitions = sync.OnceValue(func() *Service { return newService(nil, Options{}) })

// Tools are the tools every Service has, with their input schemas and result
// types, for a program that lists them before any image is open (their
// handlers need a Service from Open or New).
func Tools() []Tool { return definitions().Tools() }

func newService(cat *catalog.Catalog, opts Options) *Service {
	if opts.MaxResourceBytes <= 0 {
		opts.MaxResourceBytes = DefaultMaxResourceBytes
	}
	if opts.MaxResourceSourceBytes <= 0 {
		opts.MaxResourceSourceBytes = DefaultMaxResourceSourceBytes
	}
	s := &Service{cat: cat, opts: opts}
	s.tools = s.toolTable()
	for i := range s.tools {
		s.tools[i].input = s.tools[i].wrapped()
	}
	return s
}

// Catalog returns the served catalog.
func (s *Service) Catalog() *catalog.Catalog { return s.cat }

// Warm builds what the first catalog-wide answer needs (the public catalog
// document and its digest), so that a server can do it right after start
// instead of on its first list_frameworks.
func (s *Service) Warm() { s.catalogSha256() }

// CheckText proves every package's stored text valid and withdraws a package
// that is not (catalog.CheckText): a server runs it once after start, off
// the request path. Until then a stored provenance document is checked when
// it is read, and strings are encoded with invalid bytes replaced.
func (s *Service) CheckText() { s.cat.CheckText() }

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

// Restricted returns the Service over the frameworks keep accepts (a
// catalog.Subset), built once per key: for a caller granted only some
// frameworks, every tool, resource, prompt and completion answers as if the
// others were not served. key names the grant (equal keys, equal keep).
func (s *Service) Restricted(key string, keep func(frameworkID string) bool) *Service {
	return s.memo.get("restricted/"+key, func() any {
		return newService(s.cat.Subset(keep), s.opts)
	}).(*Service)
}
