package kgimg

import (
	"errors"
	"fmt"
)

// Errors returned by Open, in the order the checks run.
var (
	// ErrNotImage is returned when the file is not a .kgimg image (too short,
	// wrong magic, wrong FlatBuffers file identifier).
	ErrNotImage = errors.New("kgimg: not an image")
	// ErrUnsupportedVersion is returned when the format version is not one this
	// build reads, or for a format 1 image written before the compiled
	// profile and manifest (rebuild it with kgc build).
	ErrUnsupportedVersion = errors.New("kgimg: unsupported format version")
	// ErrChecksum is returned when the whole-file checksum does not match.
	ErrChecksum = errors.New("kgimg: checksum mismatch")
	// ErrCorrupt is the class of structural problems; errors.Is(err, ErrCorrupt)
	// holds for every *CorruptError.
	ErrCorrupt = errors.New("kgimg: corrupt image")
)

// CorruptError says which section of an image is corrupt and why.
type CorruptError struct {
	Section string
	Offset  int64 // byte offset in the file, or -1
	Reason  string
}

func (e *CorruptError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("kgimg: corrupt image: %s at offset %d: %s", e.Section, e.Offset, e.Reason)
	}
	return fmt.Sprintf("kgimg: corrupt image: %s: %s", e.Section, e.Reason)
}

// Is makes errors.Is(err, ErrCorrupt) true.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

func corrupt(section string, off int64, format string, args ...any) error {
	return &CorruptError{Section: section, Offset: off, Reason: fmt.Sprintf(format, args...)}
}
