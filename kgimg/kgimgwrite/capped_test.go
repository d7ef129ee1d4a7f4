package kgimgwrite

import (
	"errors"
	"strings"
	"testing"
)

// TestTheTwoGigabyteCeilingIsAnError checks the builder's panic at its ceiling
// (the message of flatbuffers-go's growByteBuffer) becomes ErrTooLarge, and that
// any other panic still surfaces. Building a real 2 GiB image is left to the
// benchmark notes (bench/README.md).
func TestTheTwoGigabyteCeilingIsAnError(t *testing.T) {
	_, err := capped(func() ([]byte, error) { panic("cannot grow buffer beyond 2 gigabytes") }, func() string { return "big" })
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "big") {
		t.Errorf("err = %v", err)
	}
	defer func() {
		if r := recover(); r != "other" {
			t.Errorf("recovered %v, want the original panic", r)
		}
	}()
	capped(func() ([]byte, error) { panic("other") }, func() string { return "" })
}
