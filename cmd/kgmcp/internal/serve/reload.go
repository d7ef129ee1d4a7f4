package serve

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// reloader reloads the image set (see reload), on SIGHUP and, with
// --reload-on-change, when the image files change. One reload runs at a time.
type reloader struct {
	cfg config
	srv *mcpserver.Server
	log *slog.Logger
	// outcome, when not nil, is told each reload's outcome (ok, refused,
	// abandoned): the metrics.
	outcome func(string)
	// verified, when not nil, hears of each first-use image verification of
	// the catalogs reloads open: the metrics.
	verified func(time.Duration, error)

	mu     sync.Mutex             // one reload at a time
	loaded atomic.Pointer[string] // the fingerprint of the files the last reload listed
	// stuck says why the last reload was abandoned ("" when it was not): a
	// reload that does not finish within cfg.ReloadTimeout is given up, so
	// the next one can run, and /health reports it until one succeeds.
	stuck atomic.Pointer[string]
	// start opens and verifies an image set off the request path
	// (catalog.Start; replaced in tests).
	start func(ctx context.Context, paths []string) *catalog.Loading
}

// problem is what /health reports about reloading: "" when the last reload
// finished (served or refused), else why it was abandoned.
func (r *reloader) problem() string {
	if p := r.stuck.Load(); p != nil {
		return *p
	}
	return ""
}

// newReloader records, under --reload-on-change, the fingerprint of the image
// files as they are when the server starts.
func newReloader(cfg config, srv *mcpserver.Server, log *slog.Logger) *reloader {
	r := &reloader{cfg: cfg, srv: srv, log: log}
	r.start = func(ctx context.Context, paths []string) *catalog.Loading {
		return catalog.Start(ctx, paths, catalog.Policy(cfg.InvalidImagePolicy), log)
	}
	fp := ""
	if cfg.ReloadOnChange {
		_, fp, _ = r.list()
	}
	r.loaded.Store(&fp)
	return r
}

// onHangup reloads the image set on every SIGHUP until ctx ends.
func (r *reloader) onHangup(ctx context.Context) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			r.reload(ctx)
		}
	}
}

// reload opens and verifies the configured images again (the directories are
// listed anew) off the request path and swaps them in; calls in flight finish
// on the images they started with, which are unmapped once they return. A new
// set that is refused leaves the old one serving.
func (r *reloader) reload(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	// The first catalog must be settled before it can be replaced.
	if _, err := r.srv.Loading().Wait(ctx); err != nil {
		return
	}
	start := time.Now()
	paths, fp, err := r.list()
	r.loaded.Store(&fp)
	if err != nil {
		r.log.Error("reload refused; the old images stay in service", "error", err.Error())
		r.report("refused")
		return
	}
	if len(paths) == 0 {
		r.log.Error("reload refused; the old images stay in service", "error", catalog.ErrNoImages.Error())
		r.report("refused")
		return
	}
	// A reload that cannot finish (an image on storage that never answers)
	// is abandoned at the timeout: it must not hold the next one back.
	attempt, cancel := context.WithTimeout(ctx, time.Duration(r.cfg.ReloadTimeout))
	defer cancel()
	loading := r.start(attempt, paths)
	if r.verified != nil {
		loading.ObserveVerification(r.verified)
	}
	retired, err := r.srv.Swap(attempt, loading)
	if err != nil {
		if attempt.Err() != nil && ctx.Err() == nil {
			why := fmt.Sprintf("a reload started at %s did not finish within %s (an image could not be opened or verified); it was abandoned and the old images stay in service; the next SIGHUP or change tries again",
				start.UTC().Format(time.RFC3339), time.Duration(r.cfg.ReloadTimeout))
			r.stuck.Store(&why)
			r.log.Error("reload abandoned", "reason", why)
			r.report("abandoned")
			go closeLate(loading)
			return
		}
		r.stuck.Store(nil)
		r.log.Error("reload refused; the old images stay in service", "error", err.Error())
		r.report("refused")
		return
	}
	r.stuck.Store(nil)
	cat := r.srv.Current()
	r.log.Info("reloaded", "packages", len(cat.Packages), "frameworks", len(cat.Frameworks), "quarantined", len(cat.Refused), "elapsed", time.Since(start).String())
	r.report("ok")
	go func() {
		<-retired
		r.log.Info("previous images unmapped")
	}()
}

// watch, every interval until ctx ends, checks the current catalog's files for
// in-place modification (see catalog.Check), following swaps, and with
// --reload-on-change reloads once the image files have changed (a file added,
// removed, or replaced: its size or modification time differs) and then held
// still for one more interval, so that a set being copied in is not loaded
// half-way. A set whose reload was refused is not tried again until it changes.
func (r *reloader) watch(ctx context.Context) {
	t := time.NewTicker(time.Duration(r.cfg.WatchInterval))
	defer t.Stop()
	pending := ""
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if cat := r.srv.Current(); cat != nil {
			cat.Check()
		}
		if !r.cfg.ReloadOnChange {
			continue
		}
		_, fp, err := r.list()
		switch {
		case err != nil || fp == *r.loaded.Load():
			pending = ""
		case fp != pending:
			pending = fp // changed: wait for it to hold still
		default:
			pending = ""
			r.log.Info("the image files changed; reloading")
			r.reload(ctx)
		}
	}
}

// list lists the configured images (directories anew) and, under
// --reload-on-change, fingerprints the set: every path with its size and
// modification time (following links, as opening does).
func (r *reloader) list() (paths []string, fingerprint string, err error) {
	paths, err = catalog.Paths(r.cfg.Images)
	if err != nil || !r.cfg.ReloadOnChange {
		return paths, "", err
	}
	var b strings.Builder
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, "", err
		}
		fmt.Fprintf(&b, "%s\x00%d\x00%d\n", p, fi.Size(), fi.ModTime().UnixNano())
	}
	return paths, b.String(), nil
}

// closeLate closes the catalog of an abandoned reload if its opening ever
// finishes, so that its images are not left mapped.
func closeLate(l *catalog.Loading) {
	l.Stop()
	if c, err := l.Result(); err == nil && c != nil {
		c.Close()
	}
}

// report tells the metrics a reload's outcome.
func (r *reloader) report(outcome string) {
	if r.outcome != nil {
		r.outcome(outcome)
	}
}
