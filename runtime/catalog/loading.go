package catalog

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Loading is a catalog being opened and verified in the background: a server
// can answer what needs no package (initialize, the tool, prompt and template
// lists) while it is verified, and everything that reads a package waits for
// Wait. Nothing of a catalog is visible before every image in it has passed
// the whole verification Open performs.
type Loading struct {
	done   chan struct{}
	once   sync.Once
	cat    *Catalog
	err    error
	cancel context.CancelFunc
	hook   verifyHook
}

// NewLoading returns a catalog still to come and the function that settles it
// (only the first call counts): with the catalog, or with the error that
// refused it.
func NewLoading() (*Loading, func(*Catalog, error)) {
	l := &Loading{done: make(chan struct{}), cancel: func() {}}
	return l, l.settle
}

func (l *Loading) settle(c *Catalog, err error) {
	l.once.Do(func() {
		l.cat, l.err = c, err
		close(l.done)
	})
}

// Loaded is a Loading already settled with c.
func Loaded(c *Catalog) *Loading {
	l, settle := NewLoading()
	settle(c, nil)
	return l
}

// Start opens the images at paths in the background, exactly as Open does.
// Cancelling ctx stops the opening: Wait then returns ctx's error and every
// image opened so far is closed.
func Start(ctx context.Context, paths []string, policy Policy, log *slog.Logger) *Loading {
	l, settle := NewLoading()
	ctx, l.cancel = context.WithCancel(ctx)
	go func() {
		c, err := openContext(ctx, paths, policy, log, &l.hook)
		settle(c, err)
	}()
	return l
}

// ObserveVerification makes fn hear of every first-use verification of the
// loading catalog's packages (Package.Ready on a format 3 image): how long
// it took and its error (nil: verified). Call it before the catalog is
// served; fn may be called from several goroutines at once.
func (l *Loading) ObserveVerification(fn func(d time.Duration, err error)) {
	l.hook.fn.Store(&fn)
}

// Done is closed once the catalog is settled.
func (l *Loading) Done() <-chan struct{} { return l.done }

// Result returns the settled catalog or the error that refused it; before
// Done it returns (nil, nil).
func (l *Loading) Result() (*Catalog, error) {
	select {
	case <-l.done:
		return l.cat, l.err
	default:
		return nil, nil
	}
}

// Wait waits for the catalog (or ctx).
func (l *Loading) Wait(ctx context.Context) (*Catalog, error) {
	select {
	case <-l.done:
		return l.cat, l.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Stop cancels a Start still opening and waits until it is settled.
func (l *Loading) Stop() {
	l.cancel()
	<-l.done
}
