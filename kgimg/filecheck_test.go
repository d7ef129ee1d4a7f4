package kgimg_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	. "github.com/kgc-project/kgc/kgimg"
)

// CheckFile tells an in-place write (same inode, new size or time) from the
// supported replacement by rename, which leaves the mapped file intact.
func TestCheckFile(t *testing.T) {
	data := smallestImage(t)
	path := filepath.Join(t.TempDir(), "x.kgimg")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	img, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	if err := img.CheckFile(); err != nil {
		t.Fatalf("fresh image: %v", err)
	}
	// Replaced by rename: not a modification of the mapped file.
	tmp := path + ".tmp"
	os.WriteFile(tmp, data, 0o644)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	if err := img.CheckFile(); err != nil {
		t.Fatalf("after a rename: %v", err)
	}
	// Reopen the renamed file, then rewrite it in place with the same bytes.
	img2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer img2.Close()
	old := time.Now().Add(-time.Hour)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(path, old, old) // a different time even on coarse clocks
	if err := img2.CheckFile(); !errors.Is(err, ErrModified) {
		t.Fatalf("after an in-place write: %v, want ErrModified", err)
	}
	// An image held in memory has no file to check.
	mem, err := OpenBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := mem.CheckFile(); err != nil {
		t.Fatal(err)
	}
}
