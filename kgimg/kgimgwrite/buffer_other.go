//go:build !unix

package kgimgwrite

// newBuffer returns n bytes of zeroed memory for the image builder (a heap
// slice where there are no anonymous mappings) and a no-op release.
func newBuffer(n int) ([]byte, func()) { return make([]byte, n), func() {} }
