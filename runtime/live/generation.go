package live

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/query"
)

// generation is one catalog a Service answers from, with the requests pinned
// to it. A swap installs a new generation; the old one's catalog is closed
// once its last request has left.
type generation struct {
	loading *catalog.Loading
	once    sync.Once
	q       atomic.Pointer[query.Service]
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
		q := query.New(cat, g.opts)
		q.Warm()
		g.q.Store(q)
	})
	return g.q.Load(), nil
}

// ready is the query layer if it is built.
func (g *generation) ready() *query.Service { return g.q.Load() }

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
