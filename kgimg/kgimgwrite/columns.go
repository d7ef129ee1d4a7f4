package kgimgwrite

import (
	"encoding/binary"
	"hash/maphash"
	"unsafe"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/kgimg/kgfb"
)

// strCol accumulates a Strings column; equal values share their bytes.
type strCol struct {
	spans []uint32
	data  []byte
	// slots is an open-addressing set of the distinct values so far: 0 is
	// free, k+1 the value of spans pair k (compared in data, so the set
	// holds no pointers and costs 4 bytes a slot where a map of the values
	// cost the map's 24-byte slots and the collector's scan of every
	// value). used counts the taken slots.
	slots []uint32
	used  int
	// last is the last value added and its span: a value repeated from
	// record to record is most often the very same string (one the decoder
	// shares), found without hashing it.
	last     string
	lastSpan [2]uint32
}

// seed hashes the values of every column (the hash decides nothing but
// where a value sits in the set).
var seed = maphash.MakeSeed()

func newStrCol() *strCol { return &strCol{} }

// newRecordCol is a column of one value per record for n records, its spans
// allocated once (and dataBytes of data, when the total is known).
func newRecordCol(n, dataBytes int) *strCol {
	return &strCol{spans: make([]uint32, 0, 2*n), data: make([]byte, 0, dataBytes)}
}

func (c *strCol) add(s string) {
	if s == "" {
		c.spans = append(c.spans, 0, 0)
		return
	}
	if len(s) == len(c.last) && unsafe.StringData(s) == unsafe.StringData(c.last) {
		c.spans = append(c.spans, c.lastSpan[0], c.lastSpan[1])
		return
	}
	sp := c.find(s)
	c.last, c.lastSpan = s, sp
	c.spans = append(c.spans, sp[0], sp[1])
}

// find returns the span of the value equal to s, storing s first when the
// column has no such value.
func (c *strCol) find(s string) [2]uint32 {
	if 2*(c.used+1) > len(c.slots) {
		c.grow()
	}
	mask := uint64(len(c.slots) - 1)
	for i := maphash.String(seed, s) & mask; ; i = (i + 1) & mask {
		k := c.slots[i]
		if k == 0 {
			lo := uint32(len(c.data))
			c.data = append(c.data, s...)
			c.slots[i] = uint32(len(c.spans)/2) + 1
			c.used++
			return [2]uint32{lo, uint32(len(c.data))}
		}
		lo, hi := c.spans[2*(k-1)], c.spans[2*(k-1)+1]
		if string(c.data[lo:hi]) == s {
			return [2]uint32{lo, hi}
		}
	}
}

// grow doubles the set (at most half full, so probes stay short).
func (c *strCol) grow() {
	old := c.slots
	c.slots = make([]uint32, max(64, 2*len(old)))
	mask := uint64(len(c.slots) - 1)
	for _, k := range old {
		if k == 0 {
			continue
		}
		lo, hi := c.spans[2*(k-1)], c.spans[2*(k-1)+1]
		i := maphash.Bytes(seed, c.data[lo:hi]) & mask
		for c.slots[i] != 0 {
			i = (i + 1) & mask
		}
		c.slots[i] = k
	}
}

// rawCol is a Strings column of values stored as they are (no
// deduplication), written straight from the values into the builder: the
// column's bytes are never gathered in the heap first (a million-standard
// image's ID columns and provenance records are some 220 MB).
type rawCol[T string | []byte] struct {
	vals []T
	size int
	// emptyAtZero gives an empty value the span 0..0 (as strCol.add does)
	// rather than an empty span where it falls.
	emptyAtZero bool
}

func newRawCol[T string | []byte](n int, emptyAtZero bool) *rawCol[T] {
	return &rawCol[T]{vals: make([]T, 0, n), emptyAtZero: emptyAtZero}
}

func (c *rawCol[T]) add(v T) {
	c.vals = append(c.vals, v)
	c.size += len(v)
}

// build writes the column as strCol.build writes the same values.
func (c *rawCol[T]) build(b *flatbuffers.Builder) flatbuffers.UOffsetT {
	data, dst := reserveBytes(b, c.size)
	spans := make([]uint32, 0, 2*len(c.vals))
	at := 0
	for _, v := range c.vals {
		if len(v) == 0 && c.emptyAtZero {
			spans = append(spans, 0, 0)
			continue
		}
		copy(dst[at:], v)
		spans = append(spans, uint32(at), uint32(at+len(v)))
		at += len(v)
	}
	spansOff := u32Vector(b, spans)
	kgfb.StringsStart(b)
	kgfb.StringsAddSpans(b, spansOff)
	kgfb.StringsAddData(b, data)
	return kgfb.StringsEnd(b)
}

// reserveBytes writes a [ubyte] vector of n bytes and returns its offset and
// its bytes, for the caller to fill: CreateByteVector lays it out, copying
// n bytes of no importance (from the start of the builder's buffer, which
// is written last: untouched pages of the image's mapping, read as zeros
// without becoming resident).
func reserveBytes(b *flatbuffers.Builder, n int) (flatbuffers.UOffsetT, []byte) {
	var src []byte
	if n <= len(b.Bytes) {
		src = b.Bytes[:n]
	} else {
		src = make([]byte, n) // the builder grows to take it anyway
	}
	off := b.CreateByteVector(src)
	start := len(b.Bytes) - int(off) + 4
	return off, b.Bytes[start : start+n]
}

func u32Vector(b *flatbuffers.Builder, v []uint32) flatbuffers.UOffsetT {
	off := b.CreateByteVector(u32Bytes(v))
	binary.LittleEndian.PutUint32(b.Bytes[len(b.Bytes)-int(off):], uint32(len(v)))
	return off
}

// littleEndian reports whether this machine stores integers little-endian
// (as FlatBuffers does).
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// u32Bytes returns v's elements as little-endian bytes: v's own memory on a
// little-endian machine, else a copy.
func u32Bytes(v []uint32) []byte {
	if len(v) == 0 {
		return nil
	}
	if littleEndian {
		return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v))
	}
	out := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(out[4*i:], x)
	}
	return out
}

func f64Vector(b *flatbuffers.Builder, v []float64) flatbuffers.UOffsetT {
	b.StartVector(8, len(v), 8)
	for i := len(v) - 1; i >= 0; i-- {
		b.PrependFloat64(v[i])
	}
	return b.EndVector(len(v))
}

func tableVector(b *flatbuffers.Builder, offs []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	b.StartVector(4, len(offs), 4)
	for i := len(offs) - 1; i >= 0; i-- {
		b.PrependUOffsetT(offs[i])
	}
	return b.EndVector(len(offs))
}

func (c *strCol) build(b *flatbuffers.Builder) flatbuffers.UOffsetT {
	data := b.CreateByteVector(c.data)
	spans := u32Vector(b, c.spans)
	kgfb.StringsStart(b)
	kgfb.StringsAddSpans(b, spans)
	kgfb.StringsAddData(b, data)
	return kgfb.StringsEnd(b)
}

// listCol accumulates a StringLists column.
type listCol struct {
	starts []uint32
	items  *strCol
}

func newListCol() *listCol { return &listCol{starts: []uint32{0}, items: newStrCol()} }

func (l *listCol) add(list []string) {
	for _, s := range list {
		l.items.add(s)
	}
	l.starts = append(l.starts, uint32(len(l.items.spans)/2))
}

func (l *listCol) build(b *flatbuffers.Builder) flatbuffers.UOffsetT {
	items := l.items.build(b)
	starts := u32Vector(b, l.starts)
	kgfb.StringListsStart(b)
	kgfb.StringListsAddStarts(b, starts)
	kgfb.StringListsAddItems(b, items)
	return kgfb.StringListsEnd(b)
}
