package mcpserver

import (
	"context"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/live"
	"github.com/kgc-project/kgc/runtime/query"
)

// The catalog a Server answers from is a live.Service: each request that
// reads it pins the generation it started on (enter), and Swap replaces it.

type pinKey struct{}

// enter pins the current generation for one request: the request answers
// from it to the end, whatever swap happens meanwhile.
func (s *Server) enter(ctx context.Context) (context.Context, *live.Pin) {
	p := s.gen.Enter()
	return context.WithValue(ctx, pinKey{}, p), p
}

// query returns the query layer of the request's generation.
func (s *Server) query(ctx context.Context) *query.Service {
	return restrict(ctx, s.baseQuery(ctx))
}

// restrict narrows q to the caller's grant (WithGrant).
func restrict(ctx context.Context, q *query.Service) *query.Service {
	if g := grantOf(ctx); q != nil && g != nil && len(g.Frameworks) > 0 {
		return q.Restricted(g.key(), g.Allows)
	}
	return q
}

func (s *Server) baseQuery(ctx context.Context) *query.Service {
	if p, ok := ctx.Value(pinKey{}).(*live.Pin); ok {
		if q := p.Ready(); q != nil {
			return q
		}
	}
	p := s.gen.Enter()
	defer p.Leave()
	q, _ := p.Service(ctx)
	return q
}

// Close retires the current catalog: its images are unmapped once no request
// is answering from it (at once after Drain). The returned channel is closed
// when they are.
func (s *Server) Close() <-chan struct{} { return s.gen.Close() }

// Warm builds the query layer over the catalog as soon as it is verified, off
// the request path (the first request would otherwise pay for it). It reads
// the mapped images, so it is guarded as a request is: it pins the generation
// (a Close meanwhile unmaps the images only once it has returned) and runs
// under survive (a fault on an image modified in place ends the warm-up, not
// the process; requests then build what they need). Then it proves every
// package's stored text valid, withdrawing a package that is not
// (query.Service.CheckText).
func (s *Server) Warm(ctx context.Context) {
	ctx, p := s.enter(ctx)
	defer p.Leave()
	s.survive("warm-up", func() {
		if q, err := p.Service(ctx); err == nil {
			q.CheckText()
		}
	})
}

// Current returns the catalog answered from now, or nil while it is still
// being verified (or was refused).
func (s *Server) Current() *catalog.Catalog { return s.gen.Current() }

// ErrSwapRefused wraps why a new image set was not installed.
var ErrSwapRefused = live.ErrSwapRefused

// Swap installs a new catalog once it is verified (live.Service.Swap).
func (s *Server) Swap(ctx context.Context, l *catalog.Loading) (retired <-chan struct{}, err error) {
	return s.gen.Swap(ctx, l)
}
