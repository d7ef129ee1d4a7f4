package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/query"
)

// generation is one catalog the server answers from, with the requests
// answering from it. A swap installs a new generation; the old one's catalog
// is closed once its last request has returned.
type generation struct {
	loading *catalog.Loading
	once    sync.Once
	q       *query.Service
	opts    query.Options

	inFlight atomic.Int64
	retired  atomic.Bool
	closing  sync.Once
	closed   chan struct{} // closed once the catalog is closed (after retirement)
}

func newGeneration(l *catalog.Loading, opts query.Options) *generation {
	return &generation{loading: l, opts: opts, closed: make(chan struct{})}
}

// service waits for the generation's catalog and returns its query layer.
func (g *generation) service(ctx context.Context) (*query.Service, error) {
	cat, err := g.loading.Wait(ctx)
	if err != nil {
		return nil, err
	}
	g.once.Do(func() {
		g.q = query.New(cat, g.opts)
		g.q.Warm()
	})
	return g.q, nil
}

// leave ends a request on g; the last one out of a retired generation closes
// its catalog.
func (g *generation) leave() {
	if g.inFlight.Add(-1) == 0 && g.retired.Load() {
		g.close()
	}
}

// retire marks g replaced; with no request in flight its catalog is closed
// now, otherwise by the last request to leave.
func (g *generation) retire() {
	g.retired.Store(true)
	if g.inFlight.Load() == 0 {
		g.close()
	}
}

func (g *generation) close() {
	g.closing.Do(func() {
		go func() {
			// A catalog still being verified is closed once it is settled.
			if cat, err := g.loading.Wait(context.Background()); err == nil && cat != nil {
				cat.Close()
			}
			close(g.closed)
		}()
	})
}

type generationKey struct{}

// enter pins the current generation for one request: the request answers
// from it to the end, whatever swap happens meanwhile.
func (s *Server) enter(ctx context.Context) (context.Context, *generation) {
	for {
		g := s.gen.Load()
		g.inFlight.Add(1)
		if s.gen.Load() == g {
			return context.WithValue(ctx, generationKey{}, g), g
		}
		// Swapped between the load and the increment: try the new one.
		g.leave()
	}
}

// query returns the query layer of the request's generation.
func (s *Server) query(ctx context.Context) *query.Service {
	if g, ok := ctx.Value(generationKey{}).(*generation); ok && g.q != nil {
		return g.q
	}
	q, _ := s.gen.Load().service(ctx)
	return q
}

// Close retires the current catalog: its images are unmapped once no request
// is answering from it (at once after Drain). The returned channel is closed
// when they are.
func (s *Server) Close() <-chan struct{} {
	g := s.gen.Load()
	g.retire()
	return g.closed
}

// Warm builds the query layer over the catalog as soon as it is verified, off
// the request path (the first request would otherwise pay for it). It reads
// the mapped images, so it is guarded as a request is: it pins the generation
// (a Close meanwhile unmaps the images only once it has returned) and runs
// under survive (a fault on an image modified in place ends the warm-up, not
// the process; requests then build what they need). Then it proves every
// package's stored text valid, withdrawing a package that is not
// (query.Service.CheckText).
func (s *Server) Warm(ctx context.Context) {
	ctx, g := s.enter(ctx)
	defer g.leave()
	s.survive("warm-up", func() {
		if q, err := g.service(ctx); err == nil {
			q.CheckText()
		}
	})
}

// Current returns the catalog answered from now, or nil while it is still
// being verified (or was refused).
func (s *Server) Current() *catalog.Catalog {
	cat, _ := s.gen.Load().loading.Result()
	return cat
}

// ErrSwapRefused wraps why a new image set was not installed.
var ErrSwapRefused = errors.New("the new images were refused; the old ones stay in service")

// Swap installs a new catalog once it is verified: requests that start after
// Swap returns answer from it; requests already running finish on the old
// one, whose images are unmapped once the last of them returns. A catalog
// that is refused (or ctx ending first) leaves the old one serving. It
// returns when the new catalog serves (not when the old one is closed; see
// Retired).
func (s *Server) Swap(ctx context.Context, l *catalog.Loading) (retired <-chan struct{}, err error) {
	next := newGeneration(l, s.qOpts)
	q, err := next.service(ctx) // the query layer is built off the request path
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
