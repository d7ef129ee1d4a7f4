package kgimg

import (
	"bytes"
	"testing"
)

// SealInPlace writes the same file bytes as Seal into the free space before
// the payload, and refuses when there is no room.
func TestSealInPlaceEqualsSeal(t *testing.T) {
	payload := bytes.Repeat([]byte("kgimg payload "), 1000)
	buf := make([]byte, 100+len(payload))
	copy(buf[100:], payload)
	got, ok := SealInPlace(buf, 100)
	if !ok || !bytes.Equal(got, Seal(payload)) {
		t.Fatal("SealInPlace differs from Seal")
	}
	if _, err := ParseHeader(got); err != nil {
		t.Fatalf("the sealed bytes do not parse: %v", err)
	}
	if _, ok := SealInPlace(buf, HeaderSize-1); ok {
		t.Error("sealed without room for the header")
	}
}
