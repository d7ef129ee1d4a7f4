package kgimg

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/zeebo/xxh3"
)

// The file layout (little endian):
//
//	offset  size  field
//	     0     8  magic "KGIMG\x00\r\n"
//	     8     4  format version (1)
//	    12     4  flags (reserved, 0)
//	    16     8  file size in bytes
//	    24     8  payload offset (64)
//	    32     8  payload length
//	    40     8  XXH3-64 of the whole file with these 8 bytes zero
//	    48    16  reserved, zero
//	    64     …  the FlatBuffers buffer (root table kgfb.Image, file identifier "KGIM")
//
// The image's identity is the SHA-256 of the whole file, as kgc build prints it.
const (
	HeaderSize    = 64
	FormatVersion = 1
	sumOffset     = 40
	// MaxImageSize bounds an image (FlatBuffers offsets are 32-bit).
	MaxImageSize = 1<<31 - 1
)

// Magic starts every image.
var Magic = [8]byte{'K', 'G', 'I', 'M', 'G', 0, '\r', '\n'}

// FileIdentifier is the FlatBuffers file identifier of the payload.
const FileIdentifier = "KGIM"

// Header is the decoded fixed header.
type Header struct {
	Version       uint32
	Flags         uint32
	FileSize      uint64
	PayloadOffset uint64
	PayloadLength uint64
	Checksum      uint64
}

// Checksum computes the image checksum of file bytes: XXH3-64 over the whole
// file with the checksum field counted as zero.
//
// The bytes are hashed in place (the file is usually a mapping of the page
// cache): only the first block, which holds the checksum field, is copied to
// zero it. See checksumInPlace.
func Checksum(file []byte) uint64 {
	if len(file) < HeaderSize {
		return xxh3.Hash(file)
	}
	if sum, ok := checksumInPlace(file); ok {
		return sum
	}
	return checksumCopying(file)
}

// checksumCopying is the checksum through the streaming hasher's buffer:
// every byte is copied once more. It is the reference checksumInPlace is
// held to.
func checksumCopying(file []byte) uint64 {
	var h xxh3.Hasher
	h.Write(file[:sumOffset])
	var zero [8]byte
	h.Write(zero[:])
	h.Write(file[sumOffset+8:])
	return h.Sum64()
}

// xxh3Block is XXH3's block (16 stripes of 64 bytes with the default secret),
// and xxh3Buffer the streaming hasher's buffer (a block and a stripe).
const (
	xxh3Block  = 1024
	xxh3Buffer = xxh3Block + 64
)

// hasherState mirrors the leading fields of xxh3.Hasher (v1.1.0): the
// accumulators, the number of blocks consumed and the bytes buffered.
type hasherState struct {
	acc [8]uint64
	blk uint64
	len uint64
}

// inPlaceOK reports whether xxh3.Hasher still starts with hasherState's
// fields; checksumInPlace falls back to copying when it does not.
var inPlaceOK = unsafe.Sizeof(xxh3.Hasher{}) >= unsafe.Sizeof(hasherState{})+8+xxh3Buffer

// checksumInPlace computes Checksum without copying the file through the
// hasher's buffer. xxh3.Hasher hashes the blocks of its first Write in
// place, and copies everything after that through its buffer (a memmove
// of the whole mapping, most of Open's time on a catalog of small images).
// So the first block is written from a copy with the checksum field zeroed,
// as the first Write (1,089 bytes: the hasher consumes the block in place and
// buffers the 65 bytes after it); the buffered bytes are then dropped (blk 1,
// len 0: exactly the state after the block, the buffered bytes being the
// start of what is written next), and the rest of the file, from byte 1,024,
// is written as if it were a first Write: hashed in place, block by block.
// The state is checked before it is changed (one block consumed, 65 bytes
// buffered), so a hasher whose layout differs is never touched: it answers
// false and the caller copies. TestChecksumInPlace holds the result to the
// copying checksum at every length around the block boundaries.
func checksumInPlace(file []byte) (uint64, bool) {
	if !inPlaceOK || len(file) <= 2*xxh3Buffer {
		return 0, false
	}
	var head [xxh3Buffer + 1]byte
	copy(head[:], file)
	clear(head[sumOffset : sumOffset+8])
	var h xxh3.Hasher
	h.Write(head[:])
	st := (*hasherState)(unsafe.Pointer(&h))
	if st.blk != 1 || st.len != uint64(len(head)-xxh3Block) {
		return 0, false
	}
	st.len = 0
	h.Write(file[xxh3Block:])
	return h.Sum64(), true
}

// Seal prepends the header to a FlatBuffers payload and returns the file bytes.
func Seal(payload []byte) []byte {
	file := make([]byte, HeaderSize+len(payload))
	copy(file[:8], Magic[:])
	binary.LittleEndian.PutUint32(file[8:], FormatVersion)
	binary.LittleEndian.PutUint64(file[16:], uint64(len(file)))
	binary.LittleEndian.PutUint64(file[24:], HeaderSize)
	binary.LittleEndian.PutUint64(file[32:], uint64(len(payload)))
	copy(file[HeaderSize:], payload)
	binary.LittleEndian.PutUint64(file[sumOffset:], Checksum(file))
	return file
}

// ParseHeader checks the header of file bytes in order: magic, format version,
// sizes, checksum. It does not look at the payload.
func ParseHeader(file []byte) (Header, error) {
	h, err := parseHeaderFields(file)
	if err != nil {
		return h, err
	}
	return h, checkSum(h, Checksum(file))
}

// parseHeaderFields runs ParseHeader's checks but the checksum.
func parseHeaderFields(file []byte) (Header, error) {
	var h Header
	if len(file) < len(Magic) || [8]byte(file[:8]) != Magic {
		return h, ErrNotImage
	}
	if len(file) < HeaderSize {
		return h, corrupt("header", -1, "file is %d bytes, shorter than the %d-byte header", len(file), HeaderSize)
	}
	h.Version = binary.LittleEndian.Uint32(file[8:])
	if h.Version != FormatVersion {
		return h, fmt.Errorf("%w: %d (this build reads %d)", ErrUnsupportedVersion, h.Version, FormatVersion)
	}
	h.Flags = binary.LittleEndian.Uint32(file[12:])
	h.FileSize = binary.LittleEndian.Uint64(file[16:])
	h.PayloadOffset = binary.LittleEndian.Uint64(file[24:])
	h.PayloadLength = binary.LittleEndian.Uint64(file[32:])
	h.Checksum = binary.LittleEndian.Uint64(file[sumOffset:])
	switch {
	case h.FileSize != uint64(len(file)):
		return h, corrupt("header", 16, "header says %d bytes but the file has %d (truncated or extended)", h.FileSize, len(file))
	case h.PayloadOffset != HeaderSize || h.PayloadLength != h.FileSize-HeaderSize:
		return h, corrupt("header", 24, "payload range %d+%d does not fill the file", h.PayloadOffset, h.PayloadLength)
	case h.Flags != 0:
		return h, corrupt("header", 12, "unknown flags %#x", h.Flags)
	}
	for _, b := range file[sumOffset+8 : HeaderSize] {
		if b != 0 {
			return h, corrupt("header", sumOffset+8, "reserved bytes are not zero")
		}
	}
	return h, nil
}

// checkSum compares a file's checksum with its header's.
func checkSum(h Header, got uint64) error {
	if got != h.Checksum {
		return fmt.Errorf("%w: file XXH3 %016x, header says %016x", ErrChecksum, got, h.Checksum)
	}
	return nil
}

// checksummer computes Checksum over a file written to it in pieces, in
// order; the pieces are its own copies (the checksum field is zeroed in them).
type checksummer struct {
	h xxh3.Hasher
	n int
}

func (c *checksummer) write(b []byte) {
	if lo, hi := max(sumOffset-c.n, 0), min(sumOffset+8-c.n, len(b)); lo < hi {
		clear(b[lo:hi])
	}
	c.h.Write(b)
	c.n += len(b)
}

func (c *checksummer) sum() uint64 { return c.h.Sum64() }
