package serve

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// reloadOnHangup reloads the image set on every SIGHUP until ctx ends (see
// reload).
func reloadOnHangup(ctx context.Context, cfg Config, srv *mcpserver.Server, log *slog.Logger) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			reload(ctx, cfg, srv, log)
		}
	}
}

// reload opens and verifies the configured images again (the directories are
// listed anew) off the request path and swaps them in; calls in flight finish
// on the images they started with, which are unmapped once they return. A new
// set that is refused leaves the old one serving.
func reload(ctx context.Context, cfg Config, srv *mcpserver.Server, log *slog.Logger) {
	// The first catalog must be settled before it can be replaced.
	if _, err := srv.Loading().Wait(ctx); err != nil {
		return
	}
	start := time.Now()
	paths, err := catalog.Paths(cfg.Images)
	if err != nil {
		log.Error("reload refused; the old images stay in service", "error", err.Error())
		return
	}
	if len(paths) == 0 {
		log.Error("reload refused; the old images stay in service", "error", catalog.ErrNoImages.Error())
		return
	}
	retired, err := srv.Swap(ctx, catalog.Start(ctx, paths, catalog.Policy(cfg.InvalidImagePolicy), log))
	if err != nil {
		log.Error("reload refused; the old images stay in service", "error", err.Error())
		return
	}
	cat := srv.Current()
	log.Info("reloaded", "packages", len(cat.Packages), "frameworks", len(cat.Frameworks), "quarantined", len(cat.Refused), "elapsed", time.Since(start).String())
	go func() {
		<-retired
		log.Info("previous images unmapped")
	}()
}

// watch checks the current catalog's files for in-place modification every
// interval (see catalog.Check), following swaps.
func watch(ctx context.Context, srv *mcpserver.Server, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if cat := srv.Current(); cat != nil {
				cat.Check()
			}
		}
	}
}
