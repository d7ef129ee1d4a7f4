package serve

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// A reload whose images never finish opening (storage that does not answer:
// kgimg.Open no longer blocks on a FIFO, but a hung network mount still
// can) held the reload lock for ever, so every later SIGHUP and change did
// nothing while /health said 200 (issue 20, item 2). It is now abandoned at
// --reload-timeout: the old images keep serving, the next reload runs, and
// /health answers 503 "reload_stuck" until a reload finishes.
func TestAStuckReloadIsAbandonedAndReported(t *testing.T) {
	dir := imgtest.Images(t, nil, nil)
	paths, _ := catalog.Paths([]string{dir})
	cat, err := catalog.Open(paths, catalog.PolicyFail, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := mcpserver.NewLoading(catalog.Loaded(cat), mcpserver.Options{})
	defer func() { <-srv.Close() }()
	cfg := config{Images: []string{dir}, InvalidImagePolicy: "fail", ReloadTimeout: duration(200 * time.Millisecond)}
	r := newReloader(cfg, srv, slog.New(slog.DiscardHandler))
	h, err := handler(srv, nil, 1<<20, slog.New(slog.DiscardHandler), r.problem, httpExtras{})
	if err != nil {
		t.Fatal(err)
	}
	health := func() (int, map[string]string) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/health", nil))
		var body map[string]string
		json.Unmarshal(w.Body.Bytes(), &body)
		return w.Code, body
	}
	if code, body := health(); code != http.StatusOK || body["status"] != "ok" {
		t.Fatalf("before: %d %v", code, body)
	}

	// Every reload's images hang while opening.
	r.start = func(ctx context.Context, _ []string) *catalog.Loading {
		l, _ := catalog.NewLoading() // never settled
		return l
	}
	ctx := context.Background()
	done := make(chan struct{})
	go func() {
		r.reload(ctx)
		r.reload(ctx) // the next one is not held back by the first
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a reload that cannot finish wedges the reloader")
	}
	code, body := health()
	if code != http.StatusServiceUnavailable || body["status"] != "reload_stuck" || !strings.Contains(body["detail"], "did not finish within 200ms") {
		t.Errorf("after a stuck reload: %d %v", code, body)
	}
	if srv.Current() != cat {
		t.Error("the old images no longer serve")
	}

	// A reload that finishes clears it.
	r.start = func(ctx context.Context, paths []string) *catalog.Loading {
		return catalog.Start(ctx, paths, catalog.PolicyFail, nil)
	}
	r.reload(ctx)
	if code, body := health(); code != http.StatusOK || body["status"] != "ok" {
		t.Errorf("after a reload that finished: %d %v", code, body)
	}
	if srv.Current() == cat {
		t.Error("the finished reload did not swap the images in")
	}
}
