// Package format holds what the reader (package kgimg) and the writer
// (package kgimgwrite) of a .kgimg file must agree on and nothing else: the
// fixed header's layout, the format version, the FlatBuffers file
// identifier, the checksum, and sealing a payload into file bytes. It
// imports no other package of this module, so the writer builds without the
// reader. FORMAT.md, one directory up, describes the whole file.
package format

import (
	"encoding/binary"
	"slices"
	"unsafe"

	"github.com/zeebo/xxh3"
)

// The file layout (little endian):
//
//	offset  size  field
//	     0     8  magic "KGIMG\x00\r\n"
//	     8     4  format version (3; readers also read 1 and 2)
//	    12     4  flags (reserved, 0)
//	    16     8  file size in bytes
//	    24     8  payload offset (64)
//	    32     8  payload length
//	    40     8  XXH3-64 of the whole file with these 8 bytes zero
//	    48     4  format 3: file offset of the catalog part (zero before)
//	    52     4  format 3: its length in bytes (zero before)
//	    56     8  format 3: XXH3-64 of the header, with bytes 40–47 and
//	              56–63 zero, followed by the catalog part (zero before)
//	    64     …  the FlatBuffers buffer (root table kgfb.Image, file identifier "KGIM")
//
// The catalog part is a FlatBuffers buffer of its own (root table
// kgfb.CatalogPart, file identifier "KGIC") inside the payload, the bytes of
// the Image's catalog_part vector: what a server needs to list the image,
// checked on its own so that the rest can be verified on first use.
//
// The image's identity is the SHA-256 of the whole file, as kgc build prints it.
const (
	HeaderSize = 64
	// FormatVersion is the version this build writes, and the newest it
	// reads; OldestVersion the oldest it reads (FORMAT.md says what changed).
	FormatVersion = 3
	OldestVersion = 1
	// SumOffset is where the header's checksum field starts.
	SumOffset = 40
	// PartOffset is where the catalog part's range starts (offset, then
	// length, 4 bytes each), and PartSumOffset its checksum (format 3).
	PartOffset    = 48
	PartSumOffset = 56
	// MaxImageSize bounds an image (FlatBuffers offsets are 32-bit).
	MaxImageSize = 1<<31 - 1
)

// CatalogPartIdentifier is the FlatBuffers file identifier of the catalog
// part (format 3).
const CatalogPartIdentifier = "KGIC"

// Magic starts every image.
var Magic = [8]byte{'K', 'G', 'I', 'M', 'G', 0, '\r', '\n'}

// FileIdentifier is the FlatBuffers file identifier of the payload.
const FileIdentifier = "KGIM"

// NoNode marks a publisher relation end outside the package (a node
// ordinal no image can hold).
const NoNode = 0xFFFFFFFF

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
	h.Write(file[:SumOffset])
	var zero [8]byte
	h.Write(zero[:])
	h.Write(file[SumOffset+8:])
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
	clear(head[SumOffset : SumOffset+8])
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

// PartChecksum is the catalog part's checksum (format 3): XXH3-64 of the
// 64-byte header with its two checksum fields counted as zero, then the
// part's bytes.
func PartChecksum(header, part []byte) uint64 {
	var head [HeaderSize]byte
	copy(head[:], header)
	clear(head[SumOffset : SumOffset+8])
	clear(head[PartSumOffset : PartSumOffset+8])
	var h xxh3.Hasher
	h.Write(head[:])
	h.Write(part)
	return h.Sum64()
}

// Seal prepends the header to a FlatBuffers payload and returns the file
// bytes; the catalog part is payload[partStart:partStart+partLen].
func Seal(payload []byte, partStart, partLen int) []byte {
	file := make([]byte, HeaderSize+len(payload))
	copy(file[HeaderSize:], payload)
	writeHeader(file, partStart, partLen)
	return file
}

// SealInPlace is Seal without the copy: buf[head:] is the payload and the
// HeaderSize bytes before it are free (a FlatBuffers builder's buffer, built
// back to front, with its head at least HeaderSize from the start). It writes
// the header there and returns buf[head-HeaderSize:], the file bytes; ok is
// false, and nothing written, when there is no room.
func SealInPlace(buf []byte, head, partStart, partLen int) (file []byte, ok bool) {
	if head < HeaderSize || head > len(buf) {
		return nil, false
	}
	file = buf[head-HeaderSize:]
	clear(file[:HeaderSize])
	writeHeader(file, partStart, partLen)
	return file, true
}

// writeHeader fills the header of file (whose payload is in place) and
// seals it: the catalog part's checksum, then the whole file's.
func writeHeader(file []byte, partStart, partLen int) {
	copy(file[:8], Magic[:])
	binary.LittleEndian.PutUint32(file[8:], FormatVersion)
	binary.LittleEndian.PutUint64(file[16:], uint64(len(file)))
	binary.LittleEndian.PutUint64(file[24:], HeaderSize)
	binary.LittleEndian.PutUint64(file[32:], uint64(len(file)-HeaderSize))
	binary.LittleEndian.PutUint32(file[PartOffset:], uint32(HeaderSize+partStart))
	binary.LittleEndian.PutUint32(file[PartOffset+4:], uint32(partLen))
	Reseal(file)
}

// Reseal recomputes the checksums of file from its bytes: the catalog
// part's (format 3, when the header names a part inside the file), then the
// whole file's. Tests use it to craft images that pass the checksums.
func Reseal(file []byte) {
	if len(file) < HeaderSize {
		return
	}
	if binary.LittleEndian.Uint32(file[8:]) >= 3 {
		off, n := uint64(binary.LittleEndian.Uint32(file[PartOffset:])), uint64(binary.LittleEndian.Uint32(file[PartOffset+4:]))
		if off+n <= uint64(len(file)) {
			binary.LittleEndian.PutUint64(file[PartSumOffset:], PartChecksum(file[:HeaderSize], file[off:off+n]))
		}
	}
	binary.LittleEndian.PutUint64(file[SumOffset:], Checksum(file))
}

// PublisherRelationTypes are the types of the publisher-asserted relations
// (the CASE association types other than isChildOf, which is the hasChild
// hierarchy), spelled as CASE spells them, in the order of their enum in the
// image (kgimg.fbs PublisherRelationKind): the writer stores a type's index
// here, the reader names it from the same list.
var PublisherRelationTypes = [...]string{
	"exactMatchOf", "isRelatedTo", "precedes", "isPeerOf", "isPartOf", "replacedBy", "exemplar", "hasSkillLevel", "isTranslationOf",
}

// CaseKeys returns the catalog part's case_keys of the CASE identifiers
// (UUIDs and URIs) ids yields: their CaseKey, sorted ascending, without
// repeats.
func CaseKeys(ids func(yield func(string) bool)) []uint64 {
	var keys []uint64
	for id := range ids {
		keys = append(keys, CaseKey(id))
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// CaseKey is the key of one CASE UUID or URI in a catalog part's case_keys.
func CaseKey(id string) uint64 { return xxh3.HashString(id) }
