package kgimg

import "encoding/binary"

// SealInPlace is Seal without the copy: buf[head:] is the payload and the
// HeaderSize bytes before it are free (a FlatBuffers builder's buffer, built
// back to front, with its head at least HeaderSize from the start). It writes
// the header there and returns buf[head-HeaderSize:], the file bytes; ok is
// false, and nothing written, when there is no room.
func SealInPlace(buf []byte, head int) (file []byte, ok bool) {
	if head < HeaderSize || head > len(buf) {
		return nil, false
	}
	file = buf[head-HeaderSize:]
	clear(file[:HeaderSize])
	copy(file[:8], Magic[:])
	binary.LittleEndian.PutUint32(file[8:], FormatVersion)
	binary.LittleEndian.PutUint64(file[16:], uint64(len(file)))
	binary.LittleEndian.PutUint64(file[24:], HeaderSize)
	binary.LittleEndian.PutUint64(file[32:], uint64(len(file)-HeaderSize))
	binary.LittleEndian.PutUint64(file[sumOffset:], Checksum(file))
	return file, true
}
