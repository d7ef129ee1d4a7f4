package pack

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// stages tracks the staging directories of the packs in progress, so that a
// signal can remove them (Quiesce).
var stages = &stageSet{dirs: map[string]bool{}}

type stageSet struct {
	mu      sync.Mutex
	dirs    map[string]bool
	stopped bool
}

var errStopped = errors.New("pack: stopping")

// start creates a staging directory under root with its subdirectories.
// Everything later written into it only creates files, never directories, so
// that once Quiesce has removed it nothing recreates it.
func (s *stageSet) start(root string, subdirs []string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return "", errStopped
	}
	dir, err := os.MkdirTemp(root, ".kgc-pack-")
	if err != nil {
		return "", usage("output root: %v", err)
	}
	s.dirs[dir] = true
	for _, sub := range subdirs {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return dir, usage("staging: %v", err)
		}
	}
	return dir, nil
}

func (s *stageSet) end(dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.dirs, dir)
	os.RemoveAll(dir)
}

// create creates a file in a staging directory unless the process is
// stopping: once Quiesce has run, no new entry appears in a tree it removes.
func (s *stageSet) create(path string) (*os.File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return nil, errStopped
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}

// write creates a staged file holding b.
func (s *stageSet) write(path string, b []byte) error {
	f, err := s.create(path)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// rename moves a staged package into place unless the process is stopping.
func (s *stageSet) rename(from, to string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return errStopped
	}
	return os.Rename(from, to)
}

// Quiesce stops every pack in progress: a package being renamed into place
// finishes; every staging directory is removed; no pack starts or completes
// afterwards. kgc calls it on SIGINT and SIGTERM before exiting.
func Quiesce() {
	stages.mu.Lock()
	defer stages.mu.Unlock()
	stages.stopped = true
	for dir := range stages.dirs {
		os.RemoveAll(dir)
	}
}

// createdDirs are the directories a pack created (the output root and its
// missing parents, the framework directory), so that a refused pack or a dry
// run removes them again.
type createdDirs []string

// mkdirAll creates dir and its missing parents, recording each one created.
func (c *createdDirs) mkdirAll(dir string) error {
	var missing []string
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		missing = append(missing, p)
		if filepath.Dir(p) == p {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		*c = append(*c, missing[i])
	}
	return nil
}

// remove removes the recorded directories, deepest first, each only while it
// is empty (anything another process put there stays).
func (c createdDirs) remove() {
	for i := len(c) - 1; i >= 0; i-- {
		os.Remove(c[i])
	}
}
