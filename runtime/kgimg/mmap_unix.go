//go:build unix

package kgimg

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// openFlags open an image without blocking: a FIFO or device swapped in for
// the image file after it was checked must not hang the opener (a reload
// would wait forever); Open then refuses what the descriptor holds.
const openFlags = os.O_RDONLY | unix.O_NONBLOCK

// mapFile maps f read-only and shared. The mapping outlives f.
func mapFile(f *os.File, size int) ([]byte, func() error, error) {
	b, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED|populate)
	if err != nil {
		return nil, nil, fmt.Errorf("kgimg: mmap: %w", err)
	}
	_ = unix.Madvise(b, unix.MADV_RANDOM)
	return b, func() error { return unix.Munmap(b) }, nil
}

// Mapped reports whether this build maps images (true) or reads them into memory.
const Mapped = true
