//go:build unix

package kgimg_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	. "github.com/kgc-project/kgc/kgimg"
)

// TestFIFOSwappedInWhileOpeningDoesNotBlock: a FIFO put in place of an image
// between Open's checks and its open (no writer ever comes) is refused at
// once; a blocking open waited forever and wedged every later reload.
func TestFIFOSwappedInWhileOpeningDoesNotBlock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.kgimg")
	if err := os.WriteFile(path, tinyImage(t), 0o644); err != nil {
		t.Fatal(err)
	}
	defer SetBeforeOpen(func(p string) {
		os.Remove(p)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Error(err)
		}
	})()
	done := make(chan error, 1)
	go func() {
		img, err := Open(path)
		if img != nil {
			img.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotImage) {
			t.Errorf("Open of a FIFO swapped in: %v, want ErrNotImage", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Open blocks on a FIFO swapped in for the image")
	}
}
