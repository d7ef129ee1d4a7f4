package live_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/live"
	"github.com/kgc-project/kgc/runtime/query"
)

func open(t *testing.T, dir string) *catalog.Catalog {
	t.Helper()
	paths, _ := catalog.Paths([]string{dir})
	cat, err := catalog.Open(paths, catalog.PolicyFail, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// A request pinned before a swap answers from the old catalog to its end;
// the old catalog is closed only once it leaves; later requests answer from
// the new one; a refused set leaves the current one serving.
func TestSwapWaitsForPinnedRequests(t *testing.T) {
	dir := imgtest.Images(t, nil, nil)
	oldCat, newCat := open(t, dir), open(t, dir)
	svc := live.New(catalog.Loaded(oldCat), query.Options{})
	ctx := context.Background()

	pin := svc.Enter()
	q, err := pin.Service(ctx)
	if err != nil || q.Catalog() != oldCat {
		t.Fatalf("first generation: %v", err)
	}
	retired, err := svc.Swap(ctx, catalog.Loaded(newCat))
	if err != nil {
		t.Fatal(err)
	}
	if svc.Current() != newCat {
		t.Error("the swap did not install the new catalog")
	}
	select {
	case <-retired:
		t.Fatal("the old catalog was closed under a pinned request")
	case <-time.After(50 * time.Millisecond):
	}
	if _, err := q.Capabilities(ctx); err != nil {
		t.Errorf("the pinned request cannot read its catalog: %v", err)
	}
	pin.Leave()
	select {
	case <-retired:
	case <-time.After(10 * time.Second):
		t.Fatal("the old catalog was not closed after its last request left")
	}

	refused, settle := catalog.NewLoading()
	settle(nil, errors.New("checksum mismatch"))
	if _, err := svc.Swap(ctx, refused); !errors.Is(err, live.ErrSwapRefused) {
		t.Errorf("a refused set: %v", err)
	}
	p2 := svc.Enter()
	if q2, err := p2.Service(ctx); err != nil || q2.Catalog() != newCat {
		t.Errorf("after a refused swap: %v", err)
	}
	closed := svc.Close()
	select {
	case <-closed:
		t.Fatal("Close unmapped the images under a pinned request")
	case <-time.After(50 * time.Millisecond):
	}
	p2.Leave()
	<-closed
}
