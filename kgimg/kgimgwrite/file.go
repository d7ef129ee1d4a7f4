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

// writing is held while a temp file is written or staged; Quiesce takes it
// for good.
var writing sync.Mutex

// Quiesce waits until no WriteFile is in progress and no image is staged
// (its temp file renamed or removed) and keeps any new one from starting.
// kgc calls it on SIGINT or SIGTERM before exiting, so an interrupted build
// leaves no temp file.
func Quiesce() { writing.Lock() }

// WriteFile writes image bytes to dir/name atomically: a temp file in dir,
// fsync, rename, then fsync of dir. A failure leaves no partial image. The
// temp file is locked while it is written (where the platform has file
// locks), and the unlocked temp files of builds that were killed are removed
// first.
func WriteFile(dir, name string, data []byte) (string, error) {
	st, err := Stage(dir, name, data)
	if err != nil {
		return "", err
	}
	return st.Commit()
}

// Staged is an image written to its temp file and synced, not yet renamed
// into place: Commit puts it there, Abort removes it. Until then the temp
// file stays locked and no other image is written (nor does Quiesce return).
// kgc build stages an image while it verifies it.
type Staged struct {
	tmp        *os.File
	dir, final string
	created    string // the outermost directory Stage created ("" when dir existed)
}

// Stage writes image bytes to a synced temp file in dir, to become dir/name
// (see WriteFile).
func Stage(dir, name string, data []byte) (*Staged, error) {
	writing.Lock()
	created := outermostMissing(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		writing.Unlock()
		return nil, fmt.Errorf("kgimgwrite: %w", err)
	}
	removeStaleTemps(dir)
	final := filepath.Join(dir, name)
	tmp, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		writing.Unlock()
		return nil, fmt.Errorf("kgimgwrite: %w", err)
	}
	st := &Staged{tmp: tmp, dir: dir, final: final, created: created}
	fail := func(format string, args ...any) (*Staged, error) {
		st.Abort()
		return nil, fmt.Errorf(format, args...)
	}
	if err := lockFile(tmp); err != nil {
		return fail("kgimgwrite: lock %s: %w", tmp.Name(), err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail("kgimgwrite: write %s: %w", final, err)
	}
	if err := tmp.Sync(); err != nil {
		return fail("kgimgwrite: sync %s: %w", final, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fail("kgimgwrite: %w", err)
	}
	return st, nil
}

// Commit renames the staged image into place and syncs its directory; it
// returns the image's path. A failure removes the temp file.
func (st *Staged) Commit() (string, error) {
	defer writing.Unlock()
	tmp := st.tmp
	// Closing releases the lock; the temp file is still younger than
	// staleAfter until the rename, so no other build takes it for stale.
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("kgimgwrite: close %s: %w", st.final, err)
	}
	if err := os.Rename(tmp.Name(), st.final); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("kgimgwrite: rename to %s: %w", st.final, err)
	}
	if d, err := os.Open(st.dir); err == nil {
		d.Sync()
		d.Close()
	}
	return st.final, nil
}

// Abort removes the staged image, and the directories Stage created for it
// (while they are empty): an image that is not written leaves nothing.
func (st *Staged) Abort() {
	defer writing.Unlock()
	st.tmp.Close()
	os.Remove(st.tmp.Name())
	if st.created == "" {
		return
	}
	for d := filepath.Clean(st.dir); ; d = filepath.Dir(d) {
		if os.Remove(d) != nil || d == st.created || d == filepath.Dir(d) {
			return
		}
	}
}

// outermostMissing returns the outermost directory of dir's path that does
// not exist ("" when dir exists).
func outermostMissing(dir string) string {
	missing := ""
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			return missing
		}
		missing = d
		if d == filepath.Dir(d) {
			return missing
		}
	}
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
