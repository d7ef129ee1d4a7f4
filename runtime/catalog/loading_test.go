package catalog_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
)

func mapped(t *testing.T, dir string) bool {
	t.Helper()
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skip("no /proc/self/maps here")
	}
	return strings.Contains(string(b), dir)
}

// Start settles with exactly the catalog Open builds, with the same refusals.
func TestStartSettlesLikeOpen(t *testing.T) {
	dir := imgtest.Images(t, nil, nil)
	paths, _ := catalog.Paths([]string{dir})
	l := catalog.Start(context.Background(), paths, catalog.PolicyFail, nil)
	cat, err := l.Wait(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want, err := catalog.Open(paths, catalog.PolicyFail, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Packages) != len(want.Packages) || len(cat.Packages) == 0 {
		t.Fatalf("%d packages, Open has %d", len(cat.Packages), len(want.Packages))
	}
	for i, p := range cat.Packages {
		if p.GraphPackageID() != want.Packages[i].GraphPackageID() {
			t.Errorf("package %d: %s, Open has %s", i, p.GraphPackageID(), want.Packages[i].GraphPackageID())
		}
	}
	cat.Close()
	want.Close()

	// A corrupt image: refused under fail, skipped under quarantine.
	b, _ := os.ReadFile(paths[0])
	b[len(b)/2] ^= 1
	if err := os.WriteFile(paths[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.Start(context.Background(), paths, catalog.PolicyFail, nil).Wait(context.Background()); !errors.Is(err, kgimg.ErrChecksum) {
		t.Errorf("corrupt image under fail: %v", err)
	}
	q, err := catalog.Start(context.Background(), paths, catalog.PolicyQuarantine, nil).Wait(context.Background())
	if err != nil || len(q.Refused) != 1 || q.Refused[0].Path != paths[0] || len(q.Packages) != len(paths)-1 {
		t.Fatalf("corrupt image under quarantine: %v", err)
	}
	q.Close()
	if mapped(t, dir) {
		t.Error("images still mapped after Close")
	}
}

// Stopping a start (or starting under an ended context) settles it with the
// context's error and leaves no image mapped.
func TestStopLeavesNothingMapped(t *testing.T) {
	dir := imgtest.Images(t, nil, nil)
	paths, _ := catalog.Paths([]string{dir})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := catalog.Start(ctx, paths, catalog.PolicyFail, nil).Wait(context.Background()); !errors.Is(err, context.Canceled) {
		t.Errorf("start under an ended context: %v", err)
	}
	for i := 0; i < 20; i++ {
		l := catalog.Start(context.Background(), paths, catalog.PolicyFail, nil)
		l.Stop()
		if cat, err := l.Result(); err == nil {
			cat.Close() // finished before the stop
		} else if !errors.Is(err, context.Canceled) {
			t.Fatalf("stopped start: %v", err)
		}
	}
	if mapped(t, filepath.Clean(dir)) {
		t.Error("a stopped start left images mapped")
	}
	waiting, _ := catalog.NewLoading()
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := waiting.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait on an ended context: %v", err)
	}
	if c, err := waiting.Result(); c != nil || err != nil {
		t.Errorf("Result before settling: %v %v", c, err)
	}
}
