package catalog_test

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
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

	// An image whose catalog part is corrupt: refused under fail, skipped
	// under quarantine (the rest of an image is verified on first use:
	// TestCorruptPayloadIsWithdrawnOnFirstUse).
	orig, _ := os.ReadFile(paths[0])
	b := append([]byte(nil), orig...)
	part := binary.LittleEndian.Uint32(b[48:]) + binary.LittleEndian.Uint32(b[52:])/2
	b[part] ^= 1
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
	if err := os.WriteFile(paths[0], orig, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A format 3 image whose payload is corrupt (outside its catalog part) is
// listed at start, from its verified catalog part, and withdrawn the first
// time a request would read it: Ready fails, routing answers catalog_error,
// and every accessor outside the catalog part reads as an empty image. The
// other images are served.
func TestCorruptPayloadIsWithdrawnOnFirstUse(t *testing.T) {
	dir := imgtest.Images(t, nil, nil)
	paths, _ := catalog.Paths([]string{dir})
	b, _ := os.ReadFile(paths[0])
	end := binary.LittleEndian.Uint32(b[48:]) + binary.LittleEndian.Uint32(b[52:])
	b[end+(uint32(len(b))-end)/2] ^= 1
	if err := os.WriteFile(paths[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	loading := catalog.Start(context.Background(), paths, catalog.PolicyFail, nil)
	var mu sync.Mutex
	var heard []error
	loading.ObserveVerification(func(d time.Duration, err error) {
		mu.Lock()
		heard = append(heard, err)
		mu.Unlock()
	})
	cat, err := loading.Wait(context.Background())
	if err != nil {
		t.Fatalf("a corrupt payload refused at start: %v", err)
	}
	defer cat.Close()
	var bad *catalog.Package
	for _, p := range cat.Packages {
		if p.Path == paths[0] {
			bad = p
		}
	}
	if bad == nil || bad.Manifest == nil || bad.Img.Lazy() != true {
		t.Fatalf("the image was not listed lazily: %+v", bad)
	}
	if bad.Img.NodeCount() != 0 || bad.Img.ArtifactCount() != 0 {
		t.Errorf("a payload that does not verify was read: %d nodes, %d artifacts", bad.Img.NodeCount(), bad.Img.ArtifactCount())
	}
	if err := bad.Ready(); kgerr.CodeOf(err) != kgerr.CatalogError || !errors.Is(bad.Img.Ready(), kgimg.ErrChecksum) {
		t.Errorf("Ready: %v (image: %v), want catalog_error over a checksum mismatch", err, bad.Img.Ready())
	}
	if _, err := cat.Resolve(bad.FrameworkID(), bad.SnapshotID(), ""); kgerr.CodeOf(err) != kgerr.CatalogError {
		t.Errorf("routing to the withdrawn package: %v, want catalog_error", err)
	}
	for _, p := range cat.Packages {
		if p == bad {
			continue
		}
		if err := p.Ready(); err != nil || p.Img.NodeCount() == 0 {
			t.Errorf("%s: %v, %d nodes", p.SnapshotID(), err, p.Img.NodeCount())
		}
		p.Ready() // verified once: heard once
	}
	failed := 0
	for _, err := range heard {
		if err != nil {
			failed++
		}
	}
	if len(heard) != len(cat.Packages) || failed != 1 || !errors.Is(heard[0], kgimg.ErrChecksum) {
		t.Errorf("the observer heard %v, want one verification a package, the first (the corrupt one's) failed", heard)
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
