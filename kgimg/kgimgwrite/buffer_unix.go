//go:build unix

package kgimgwrite

import "golang.org/x/sys/unix"

// newBuffer returns n bytes of zeroed memory for the image builder and the
// function that frees them. The memory is an anonymous private mapping
// outside the Go heap: its pages cost nothing until written, where a heap
// slice of the builder's upper estimate is zeroed (and so made resident)
// whole whenever the heap reuses freed memory for it, as it does after the
// gate. The builder writes from the end, so only the image's own pages are
// ever touched.
func newBuffer(n int) ([]byte, func()) {
	if n <= 0 {
		return nil, func() {}
	}
	b, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return make([]byte, n), func() {}
	}
	return b, func() { unix.Munmap(b) }
}
