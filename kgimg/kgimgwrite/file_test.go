//go:build unix

package kgimgwrite

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A temp file whose writer still holds its lock is never taken for stale;
// once the lock is gone (the writer was killed), the next write removes it.
func TestStaleTempsNeedNoLiveWriter(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, ".a.kgimg.tmp-1")
	f, err := os.Create(live)
	if err != nil {
		t.Fatal(err)
	}
	if err := lockFile(f); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(live, old, old)
	young := filepath.Join(dir, ".b.kgimg.tmp-2") // unlocked but just created
	os.WriteFile(young, nil, 0o644)
	if _, err := WriteFile(dir, "x.kgimg", []byte("image")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{live, young} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed: %v", p, err)
		}
	}
	f.Close() // the writer dies: its lock goes with it
	if _, err := WriteFile(dir, "x.kgimg", []byte("image")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(live); !os.IsNotExist(err) {
		t.Errorf("stale temp file kept: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "x.kgimg")); err != nil || string(b) != "image" {
		t.Errorf("image: %q %v", b, err)
	}
}
