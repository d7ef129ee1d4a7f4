package kgimg

import (
	"errors"
	"fmt"
	"os"
)

// ErrModified is returned by CheckFile when the file an image was opened from
// has been written in place since: the mapping then shows bytes nobody
// verified, and a truncation faults on access.
var ErrModified = errors.New("kgimg: image file modified in place")

// CheckFile reports whether the file behind the mapping is still the one that
// was verified at Open. It costs one stat of the path. A file replaced by
// rename (the supported way to update an image) or removed leaves the mapped
// inode untouched and is not an error; the same inode with a different size or
// modification time is ErrModified. Images from OpenBytes always pass.
func (img *Image) CheckFile() error {
	if img.stat == nil {
		return nil
	}
	fi, err := os.Stat(img.path)
	if err != nil || !os.SameFile(fi, img.stat) {
		return nil
	}
	if fi.Size() != img.stat.Size() || !fi.ModTime().Equal(img.stat.ModTime()) {
		return fmt.Errorf("%w: %s was %d bytes modified %s when verified, now %d bytes modified %s",
			ErrModified, img.path, img.stat.Size(), img.stat.ModTime().UTC().Format("2006-01-02T15:04:05.000000000Z"),
			fi.Size(), fi.ModTime().UTC().Format("2006-01-02T15:04:05.000000000Z"))
	}
	return nil
}
