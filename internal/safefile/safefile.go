// Package safefile opens files of an untrusted tree through an os.Root: never
// blocking (a FIFO or device swapped in after the tree was listed must not hang
// the reader), never following a final symbolic link, always checking that
// what was opened is what was expected, and reading no more than a ceiling.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrWrongType is returned for a path that is not a regular file (or, for
// OpenDir, not a directory) when opened, or that was replaced while opened.
var ErrWrongType = errors.New("wrong file type")

// TooLargeError is returned for a file over its ceiling.
type TooLargeError struct {
	Path      string
	Size, Max int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is %d bytes, over the %d-byte limit", e.Path, e.Size, e.Max)
}

// Open opens rel under root for reading and checks that it is a regular file
// of at most max bytes (max <= 0: no ceiling). It returns the open file and
// its size.
func Open(root *os.Root, rel string, max int64) (*os.File, int64, error) {
	f, fi, err := open(root, rel, readFlags)
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("%s: %w (not a regular file: %s)", rel, ErrWrongType, fi.Mode().Type())
	}
	if max > 0 && fi.Size() > max {
		f.Close()
		return nil, 0, &TooLargeError{Path: rel, Size: fi.Size(), Max: max}
	}
	return f, fi.Size(), nil
}

// Read reads the whole regular file rel under root, at most max bytes (a file
// that grows past max while it is read is refused too).
func Read(root *os.Root, rel string, max int64) ([]byte, error) {
	f, size, err := Open(root, rel, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if max > 0 {
		r = io.LimitReader(f, max+1)
	}
	b := make([]byte, 0, size+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", rel, err)
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
	if max > 0 && int64(len(b)) > max {
		return nil, &TooLargeError{Path: rel, Size: int64(len(b)), Max: max}
	}
	return b, nil
}

// OpenPath opens a file a user named (a path on the command line, in a spec)
// as Open does: a regular file of at most max bytes, opened without blocking
// (a FIFO or device is refused, never waited on) and not through a final
// symbolic link.
func OpenPath(path string, max int64) (*os.File, int64, error) {
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, 0, err
	}
	defer root.Close()
	return Open(root, filepath.Base(path), max)
}

// ReadPath reads a file a user named as Read does (see OpenPath).
func ReadPath(path string, max int64) ([]byte, error) {
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return Read(root, filepath.Base(path), max)
}

// OpenDir opens the directory rel under root and checks that it is one.
func OpenDir(root *os.Root, rel string) (*os.File, error) {
	f, fi, err := open(root, rel, dirFlags)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: %w (not a directory: %s)", rel, ErrWrongType, fi.Mode().Type())
	}
	return f, nil
}

// open opens rel, refusing a symbolic link (os.Root follows links that stay
// inside the root) and anything swapped in between the check and the open.
func open(root *os.Root, rel string, flags int) (*os.File, os.FileInfo, error) {
	li, err := root.Lstat(rel)
	if err != nil {
		return nil, nil, err
	}
	if li.Mode()&os.ModeSymlink != 0 {
		return nil, nil, fmt.Errorf("%s: %w (a symbolic link)", rel, ErrWrongType)
	}
	f, err := root.OpenFile(rel, flags, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !os.SameFile(li, fi) {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w (replaced while being opened)", rel, ErrWrongType)
	}
	return f, fi, nil
}
