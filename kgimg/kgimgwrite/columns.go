package kgimgwrite

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/kgimg/kgfb"
)

// strCol accumulates a Strings column; equal values share their bytes.
type strCol struct {
	spans []uint32
	data  []byte
	seen  map[string][2]uint32
}

func newStrCol() *strCol { return &strCol{seen: map[string][2]uint32{}} }

// newRecordCol is a column of one value per record for n records, its spans
// allocated once (and dataBytes of data, when the total is known: columns
// of unique values).
func newRecordCol(n, dataBytes int) *strCol {
	return &strCol{spans: make([]uint32, 0, 2*n), data: make([]byte, 0, dataBytes), seen: map[string][2]uint32{}}
}

func (c *strCol) add(s string) {
	if s == "" {
		c.spans = append(c.spans, 0, 0)
		return
	}
	if sp, ok := c.seen[s]; ok {
		c.spans = append(c.spans, sp[0], sp[1])
		return
	}
	lo := uint32(len(c.data))
	c.data = append(c.data, s...)
	sp := [2]uint32{lo, uint32(len(c.data))}
	c.seen[s] = sp
	c.spans = append(c.spans, sp[0], sp[1])
}

// addUnique adds a value the gate guarantees no other of the column equals
// (node and relationship IDs): what add stores, without the lookup (a
// million-entry map of a million-standard package's IDs).
func (c *strCol) addUnique(s string) {
	if s == "" {
		c.spans = append(c.spans, 0, 0)
		return
	}
	lo := uint32(len(c.data))
	c.data = append(c.data, s...)
	c.spans = append(c.spans, lo, uint32(len(c.data)))
}

// addBytes adds a value that is unlikely to repeat (no deduplication).
func (c *strCol) addBytes(b []byte) {
	lo := uint32(len(c.data))
	c.data = append(c.data, b...)
	c.spans = append(c.spans, lo, uint32(len(c.data)))
}

func u32Vector(b *flatbuffers.Builder, v []uint32) flatbuffers.UOffsetT {
	b.StartVector(4, len(v), 4)
	for i := len(v) - 1; i >= 0; i-- {
		b.PrependUint32(v[i])
	}
	return b.EndVector(len(v))
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
