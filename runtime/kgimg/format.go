package kgimg

import (
	"encoding/binary"
	"fmt"

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
func Checksum(file []byte) uint64 {
	if len(file) < HeaderSize {
		return xxh3.Hash(file)
	}
	h := xxh3.New()
	h.Write(file[:sumOffset])
	var zero [8]byte
	h.Write(zero[:])
	h.Write(file[sumOffset+8:])
	return h.Sum64()
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
	if got := Checksum(file); got != h.Checksum {
		return h, fmt.Errorf("%w: file XXH3 %016x, header says %016x", ErrChecksum, got, h.Checksum)
	}
	return h, nil
}
