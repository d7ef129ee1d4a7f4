//go:build !unix

package kgimg

import (
	"fmt"
	"io"
	"os"
)

// openFlags: where there is no O_NONBLOCK, a plain read-only open.
const openFlags = os.O_RDONLY

// mapFile reads the whole file: the portable fallback where unix mmap is not
// available (it copies, so it is not zero-copy).
func mapFile(f *os.File, size int) ([]byte, func() error, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, nil, fmt.Errorf("kgimg: read: %w", err)
	}
	return b, func() error { return nil }, nil
}

// fileChecksum: the fallback checksums the bytes it read (false: newImage
// hashes them).
func fileChecksum(*os.File, int) (uint64, bool, error) { return 0, false, nil }

// readVerifyLimit: the fallback verifies the bytes it read (mapFile), so
// nothing is read twice.
var readVerifyLimit int64 = -1
