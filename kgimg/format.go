package kgimg

import (
	"encoding/binary"
	"fmt"

	"github.com/kgc-project/kgc/kgimg/format"
	"github.com/zeebo/xxh3"
)

// The header layout, the version this build writes and reads, the checksum
// and sealing live in package format, which the writer shares; the reader
// names the ones its callers use.
const (
	headerSize    = format.HeaderSize
	formatVersion = format.FormatVersion
	sumOffset     = format.SumOffset
	MaxImageSize  = format.MaxImageSize
)

// magic starts every image.
var magic = format.Magic

// Checksum is format.Checksum: XXH3-64 of the file with the checksum field
// counted as zero.
func Checksum(file []byte) uint64 { return format.Checksum(file) }

// Header is the decoded fixed header.
type Header struct {
	Version       uint32
	Flags         uint32
	FileSize      uint64
	PayloadOffset uint64
	PayloadLength uint64
	Checksum      uint64
	// PartOffset and PartLength locate the catalog part in the file, and
	// PartSum is its checksum (format 3; zero before).
	PartOffset, PartLength uint32
	PartSum                uint64
}

// parseHeader checks the header of file bytes in order: magic, format version,
// sizes, checksum. It does not look at the payload.
func parseHeader(file []byte) (Header, error) {
	h, err := parseHeaderFields(file)
	if err != nil {
		return h, err
	}
	return h, checkSum(h, Checksum(file))
}

// parseHeaderFields runs parseHeader's checks but the checksum.
func parseHeaderFields(file []byte) (Header, error) {
	return parseHead(file, int64(len(file)))
}

// parseHead checks a header (head holds at least its first bytes) against
// the size of its file.
func parseHead(head []byte, size int64) (Header, error) {
	var h Header
	if len(head) < len(magic) || [8]byte(head[:8]) != magic {
		return h, ErrNotImage
	}
	if len(head) < headerSize {
		return h, corrupt("header", -1, "file is %d bytes, shorter than the %d-byte header", len(head), headerSize)
	}
	h.Version = binary.LittleEndian.Uint32(head[8:])
	if h.Version < format.OldestVersion || h.Version > formatVersion {
		return h, fmt.Errorf("%w: %d (this build reads %d to %d)", ErrUnsupportedVersion, h.Version, format.OldestVersion, formatVersion)
	}
	h.Flags = binary.LittleEndian.Uint32(head[12:])
	h.FileSize = binary.LittleEndian.Uint64(head[16:])
	h.PayloadOffset = binary.LittleEndian.Uint64(head[24:])
	h.PayloadLength = binary.LittleEndian.Uint64(head[32:])
	h.Checksum = binary.LittleEndian.Uint64(head[sumOffset:])
	switch {
	case h.FileSize != uint64(size):
		return h, corrupt("header", 16, "header says %d bytes but the file has %d (truncated or extended)", h.FileSize, size)
	case h.PayloadOffset != headerSize || h.PayloadLength != h.FileSize-headerSize:
		return h, corrupt("header", 24, "payload range %d+%d does not fill the file", h.PayloadOffset, h.PayloadLength)
	case h.Flags != 0:
		return h, corrupt("header", 12, "unknown flags %#x", h.Flags)
	}
	if h.Version < 3 {
		for _, b := range head[sumOffset+8 : headerSize] {
			if b != 0 {
				return h, corrupt("header", sumOffset+8, "reserved bytes are not zero")
			}
		}
		return h, nil
	}
	h.PartOffset = binary.LittleEndian.Uint32(head[format.PartOffset:])
	h.PartLength = binary.LittleEndian.Uint32(head[format.PartOffset+4:])
	h.PartSum = binary.LittleEndian.Uint64(head[format.PartSumOffset:])
	if h.PartOffset < headerSize || h.PartLength < 8 || uint64(h.PartOffset)+uint64(h.PartLength) > h.FileSize {
		return h, corrupt("header", format.PartOffset, "catalog part %d+%d lies outside the payload", h.PartOffset, h.PartLength)
	}
	return h, nil
}

// checkPart compares a catalog part's checksum with its header's.
func checkPart(h Header, head, part []byte) error {
	if got := format.PartChecksum(head, part); got != h.PartSum {
		return fmt.Errorf("%w: catalog part XXH3 %016x, header says %016x", ErrChecksum, got, h.PartSum)
	}
	return nil
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
