// Package live serves a query.Service whose image set can be replaced while
// it answers: requests pin the generation they started on and finish on it;
// Swap installs a new catalog once it is verified; an old catalog's images
// are unmapped once the last request pinned to it has returned. kgmcp's
// SIGHUP and --reload-on-change reloads are Swap; an embedding program can
// reload the same way.
//
//	svc := live.New(catalog.Start(ctx, paths, catalog.PolicyFail, nil), query.Options{})
//	pin := svc.Enter()
//	q, err := pin.Service(ctx) // waits for the first catalog to be verified
//	… q.SearchStandards(ctx, …) …
//	pin.Leave()
//	retired, err := svc.Swap(ctx, catalog.Start(ctx, newPaths, catalog.PolicyFail, nil))
package live

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/query"
)

// Service is a query service over a replaceable catalog. It is safe for
// concurrent use.
type Service struct {
	opts   query.Options
	gen    atomic.Pointer[generation] // the catalog answered from
	swapMu sync.Mutex
}

// New serves the catalog l is opening (or has opened: catalog.Loaded).
func New(l *catalog.Loading, opts query.Options) *Service {
	s := &Service{opts: opts}
	s.gen.Store(newGeneration(l, opts))
	return s
}

// Pin is one request's hold on the generation it started on: the catalog
// stays mapped until Leave, whatever Swap happens meanwhile.
type Pin struct{ g *generation }

// Enter pins the current generation for one request; Leave ends it.
func (s *Service) Enter() *Pin {
	for {
		g := s.gen.Load()
		g.inFlight.Add(1)
		if s.gen.Load() == g {
			return &Pin{g: g}
		}
		// Swapped between the load and the increment: try the new one.
		g.leave()
	}
}

// Service waits for the pinned generation's catalog (or ctx) and returns its
// query layer, built once per generation.
func (p *Pin) Service(ctx context.Context) (*query.Service, error) { return p.g.service(ctx) }

// Ready returns the pinned generation's query layer if it is already built
// (nil before the first Service call of any request on it).
func (p *Pin) Ready() *query.Service { return p.g.ready() }

// Leave ends the request; the last one out of a replaced generation closes
// its catalog.
func (p *Pin) Leave() { p.g.leave() }

// Loading is the current generation's catalog, settled or being verified.
func (s *Service) Loading() *catalog.Loading { return s.gen.Load().loading }

// Current returns the catalog answered from now, or nil while it is still
// being verified (or was refused).
func (s *Service) Current() *catalog.Catalog {
	cat, _ := s.gen.Load().loading.Result()
	return cat
}

// ErrSwapRefused wraps why a new image set was not installed.
var ErrSwapRefused = errors.New("the new images were refused; the old ones stay in service")

// Swap installs a new catalog once it is verified (its query layer built
// and its stored text checked, off the request path): requests that start
// after Swap returns answer from it; requests already running finish on the
// old one, whose images are unmapped once the last of them returns (retired
// is closed then). A catalog that is refused, or ctx ending first, leaves the
// old one serving (ErrSwapRefused).
func (s *Service) Swap(ctx context.Context, l *catalog.Loading) (retired <-chan struct{}, err error) {
	next := newGeneration(l, s.opts)
	q, err := next.service(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSwapRefused, err)
	}
	q.CheckText()
	s.swapMu.Lock()
	defer s.swapMu.Unlock()
	old := s.gen.Swap(next)
	old.retire()
	return old.closed, nil
}

// Close retires the current catalog: its images are unmapped once no request
// is pinned to it. The returned channel is closed when they are.
func (s *Service) Close() <-chan struct{} {
	g := s.gen.Load()
	g.retire()
	return g.closed
}
