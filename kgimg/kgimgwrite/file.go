package kgimgwrite

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// tempPattern names the temp file of an image being written: hidden, and not
// *.kgimg, so that a server globbing a directory never picks it up.
const tempPattern = ".*.kgimg.tmp-*"

// staleAfter is how old an unlocked temp file must be before WriteFile takes
// it for the leftover of a killed build (a live writer holds its lock from a
// moment after creating it).
const staleAfter = 10 * time.Second

// writing is held while WriteFile has a temp file; Quiesce takes it for good.
var writing sync.Mutex

// Quiesce waits until no WriteFile is in progress (its temp file renamed or
// removed) and keeps any new one from starting. kgc calls it on SIGINT or
// SIGTERM before exiting, so an interrupted build leaves no temp file.
func Quiesce() { writing.Lock() }

// WriteFile writes image bytes to dir/name atomically: a temp file in dir,
// fsync, rename, then fsync of dir. A failure leaves no partial image. The
// temp file is locked while it is written (where the platform has file
// locks), and the unlocked temp files of builds that were killed are removed
// first.
func WriteFile(dir, name string, data []byte) (string, error) {
	writing.Lock()
	defer writing.Unlock()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("kgimgwrite: %w", err)
	}
	removeStaleTemps(dir)
	final := filepath.Join(dir, name)
	tmp, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("kgimgwrite: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := lockFile(tmp); err != nil {
		return "", fmt.Errorf("kgimgwrite: lock %s: %w", tmp.Name(), err)
	}
	if _, err := tmp.Write(data); err != nil {
		return "", fmt.Errorf("kgimgwrite: write %s: %w", final, err)
	}
	if err := tmp.Sync(); err != nil {
		return "", fmt.Errorf("kgimgwrite: sync %s: %w", final, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return "", fmt.Errorf("kgimgwrite: %w", err)
	}
	// Closing releases the lock; the temp file is still younger than
	// staleAfter until the rename, so no other build takes it for stale.
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("kgimgwrite: close %s: %w", final, err)
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return "", fmt.Errorf("kgimgwrite: rename to %s: %w", final, err)
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return final, nil
}

// removeStaleTemps removes the temp files in dir that no live writer holds.
func removeStaleTemps(dir string) {
	matches, _ := filepath.Glob(filepath.Join(dir, tempPattern))
	for _, p := range matches {
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || time.Since(fi.ModTime()) < staleAfter {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		if tryLock(f) {
			os.Remove(p)
		}
		f.Close()
	}
}
