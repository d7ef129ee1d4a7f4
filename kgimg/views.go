package kgimg

import (
	"encoding/binary"
	"math"
	"unsafe"

	flatbuffers "github.com/google/flatbuffers/go"
)

// U32s is a read-only view of a little-endian uint32 vector in the image.
type U32s struct{ b []byte }

// Len returns the number of values.
func (v U32s) Len() int { return len(v.b) / 4 }

// At returns value i.
func (v U32s) At(i int) uint32 { return binary.LittleEndian.Uint32(v.b[4*i:]) }

// Slice returns values [lo, hi).
func (v U32s) Slice(lo, hi int) U32s { return U32s{v.b[4*lo : 4*hi]} }

// U32sOf is a view of values held in memory (not in an image).
func U32sOf(values []uint32) U32s {
	b := make([]byte, 4*len(values))
	for i, x := range values {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return U32s{b}
}

// AppendTo appends every value to dst.
func (v U32s) AppendTo(dst []uint32) []uint32 {
	for i := 0; i < v.Len(); i++ {
		dst = append(dst, v.At(i))
	}
	return dst
}

// column is a Strings table: value i is data[spans[2i]:spans[2i+1]].
type column struct {
	spans U32s
	data  []byte
}

func (c column) len() int { return c.spans.Len() / 2 }

func (c column) bytes(i int) []byte { return c.data[c.spans.At(2*i):c.spans.At(2*i+1)] }

// str returns value i as a string aliasing the image (valid until Close).
func (c column) str(i int) string {
	b := c.bytes(i)
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// StringList is a read-only view of one list of strings.
type StringList struct {
	items  column
	lo, hi int
}

// Len returns the number of strings.
func (l StringList) Len() int { return l.hi - l.lo }

// At returns string i (aliasing the image).
func (l StringList) At(i int) string { return l.items.str(l.lo + i) }

// Views returns the strings, each aliasing the image.
func (l StringList) Views() []string {
	out := make([]string, l.Len())
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

// Strings copies the list into a new slice.
func (l StringList) Strings() []string {
	out := make([]string, l.Len())
	for i := range out {
		out[i] = string(l.items.bytes(l.lo + i))
	}
	return out
}

type listColumn struct {
	starts U32s
	items  column
}

func (c listColumn) list(i int) StringList {
	return StringList{items: c.items, lo: int(c.starts.At(i)), hi: int(c.starts.At(i + 1))}
}

// vecBytes returns the raw bytes of the vector in field slot of table t (nil when
// the field is absent). The verifier has already checked the extent.
func vecBytes(t flatbuffers.Table, slot, elem int) []byte {
	o := flatbuffers.UOffsetT(t.Offset(flatbuffers.VOffsetT(4 + 2*slot)))
	if o == 0 {
		return nil
	}
	start := t.Vector(o)
	n := t.VectorLen(o)
	return t.Bytes[start : start+flatbuffers.UOffsetT(n*elem)]
}

// subTable returns the table in field slot of t, and whether it is present.
func subTable(t flatbuffers.Table, slot int) (flatbuffers.Table, bool) {
	o := flatbuffers.UOffsetT(t.Offset(flatbuffers.VOffsetT(4 + 2*slot)))
	if o == 0 {
		return flatbuffers.Table{}, false
	}
	return flatbuffers.Table{Bytes: t.Bytes, Pos: t.Indirect(o + t.Pos)}, true
}

func readColumn(t flatbuffers.Table, slot int) column {
	s, ok := subTable(t, slot)
	if !ok {
		return column{}
	}
	return column{spans: U32s{vecBytes(s, 0, 4)}, data: vecBytes(s, 1, 1)}
}

func readLists(t flatbuffers.Table, slot int) listColumn {
	s, ok := subTable(t, slot)
	if !ok {
		return listColumn{}
	}
	return listColumn{starts: U32s{vecBytes(s, 0, 4)}, items: readColumn(s, 1)}
}

func f64(b []byte, i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])) }
