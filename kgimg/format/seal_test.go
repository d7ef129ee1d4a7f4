package format

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// SealInPlace writes the same file bytes as Seal into the free space before
// the payload, and refuses when there is no room.
func TestSealInPlaceEqualsSeal(t *testing.T) {
	payload := bytes.Repeat([]byte("kgimg payload "), 1000)
	buf := make([]byte, 100+len(payload))
	copy(buf[100:], payload)
	got, ok := SealInPlace(buf, 100, 14, 28)
	if !ok || !bytes.Equal(got, Seal(payload, 14, 28)) {
		t.Fatal("SealInPlace differs from Seal")
	}
	if [8]byte(got[:8]) != Magic || binary.LittleEndian.Uint32(got[8:]) != FormatVersion ||
		binary.LittleEndian.Uint64(got[16:]) != uint64(len(got)) || binary.LittleEndian.Uint64(got[24:]) != HeaderSize {
		t.Fatalf("the sealed header is wrong: % x", got[:HeaderSize])
	}
	if sum := binary.LittleEndian.Uint64(got[SumOffset:]); sum != Checksum(got) {
		t.Fatalf("sealed checksum %016x, the file's is %016x", sum, Checksum(got))
	}
	if binary.LittleEndian.Uint32(got[PartOffset:]) != HeaderSize+14 || binary.LittleEndian.Uint32(got[PartOffset+4:]) != 28 ||
		binary.LittleEndian.Uint64(got[PartSumOffset:]) != PartChecksum(got[:HeaderSize], got[HeaderSize+14:HeaderSize+42]) {
		t.Fatalf("the catalog part's range or checksum is wrong: % x", got[PartOffset:HeaderSize])
	}
	if _, ok := SealInPlace(buf, HeaderSize-1, 0, 0); ok {
		t.Error("sealed without room for the header")
	}
}
