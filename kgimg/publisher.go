package kgimg

import (
	"encoding/binary"
	"sort"
	"strings"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/kgimg/format"
)

// NoNode marks a publisher relation end outside the package.
const NoNode = format.NoNode

// Side names one end of a publisher relation.
type Side uint8

// The ends of a publisher relation, as CASE writes it.
const (
	Origin Side = iota
	Destination
)

// publisherCols are the publisher relation columns resolved at open.
type publisherCols struct {
	count                  int
	kind, hasSeq           []byte
	seq                    []byte
	id                     column
	end                    [2]U32s
	uri, identifier, title [2]column
	outOff, outRows        U32s
	inOff, inRows          U32s
	byIdentifier, byURI    U32s
}

func (img *Image) resolvePublisher() {
	t, ok := subTable(img.root.Table(), slot(imageDesc, "publisher_relations"))
	if !ok {
		return
	}
	p := &img.v.pub
	f := func(name string) int { return slot(publisherDesc, name) }
	p.count = int(t.GetUint32Slot(flatbuffers.VOffsetT(4+2*f("count")), 0))
	p.kind = vecBytes(t, f("kind"), 1)
	p.id = readColumn(t, f("id"))
	p.end = [2]U32s{{vecBytes(t, f("origin"), 4)}, {vecBytes(t, f("destination"), 4)}}
	p.uri = [2]column{readColumn(t, f("origin_uri")), readColumn(t, f("destination_uri"))}
	p.identifier = [2]column{readColumn(t, f("origin_identifier")), readColumn(t, f("destination_identifier"))}
	p.title = [2]column{readColumn(t, f("origin_title")), readColumn(t, f("destination_title"))}
	p.seq = vecBytes(t, f("sequence"), 8)
	p.hasSeq = vecBytes(t, f("has_sequence"), 1)
	p.outOff, p.outRows = U32s{vecBytes(t, f("out_offsets"), 4)}, U32s{vecBytes(t, f("out_rows"), 4)}
	p.inOff, p.inRows = U32s{vecBytes(t, f("in_offsets"), 4)}, U32s{vecBytes(t, f("in_rows"), 4)}
	p.byIdentifier, p.byURI = U32s{vecBytes(t, f("external_by_identifier"), 4)}, U32s{vecBytes(t, f("external_by_uri"), 4)}
}

// PublisherRelationCount is how many publisher-asserted relations the image
// holds.
func (img *Image) PublisherRelationCount() int { return img.pv().pub.count }

// PublisherKindOf returns relation i's type.
func (img *Image) PublisherKindOf(i int) PublisherKind { return PublisherKind(img.pv().pub.kind[i]) }

// PublisherID returns relation i's identifier (aliasing the image).
func (img *Image) PublisherID(i int) string { return img.pv().pub.id.str(i) }

// PublisherEnd returns the node at one end of relation i, or NoNode for an
// end outside the package.
func (img *Image) PublisherEnd(i int, s Side) uint32 { return img.pv().pub.end[s].At(i) }

// PublisherExternal returns the reference of an end outside the package as
// CASE gave it ("" where it gave none; aliasing the image).
func (img *Image) PublisherExternal(i int, s Side) (uri, identifier, title string) {
	p := &img.pv().pub
	return p.uri[s].str(i), p.identifier[s].str(i), p.title[s].str(i)
}

// PublisherSequence returns relation i's sequenceNumber, when it has one.
func (img *Image) PublisherSequence(i int) (int64, bool) {
	p := &img.pv().pub
	if p.hasSeq[i] == 0 {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint64(p.seq[8*i:])), true
}

// PublisherRelationsOf returns the relations whose end s is node n, in file
// order.
func (img *Image) PublisherRelationsOf(n uint32, s Side) U32s {
	p := &img.pv().pub
	off, rows := p.outOff, p.outRows
	if s == Destination {
		off, rows = p.inOff, p.inRows
	}
	if off.Len() == 0 {
		return U32s{}
	}
	return rows.Slice(int(off.At(int(n))), int(off.At(int(n)+1)))
}

// ExternalEnd is an end outside the package of a publisher relation.
type ExternalEnd struct {
	Relation int
	Side     Side
}

// PublisherExternalsByIdentifier returns the ends outside the package whose
// identifier is id (ignoring case).
func (img *Image) PublisherExternalsByIdentifier(id string) []ExternalEnd {
	p := &img.pv().pub
	return lookupEnds(p.byIdentifier, strings.ToLower(id), func(i int, s Side) string { return strings.ToLower(p.identifier[s].str(i)) })
}

// PublisherExternalsByURI returns the ends outside the package whose uri is
// uri.
func (img *Image) PublisherExternalsByURI(uri string) []ExternalEnd {
	p := &img.pv().pub
	return lookupEnds(p.byURI, uri, func(i int, s Side) string { return p.uri[s].str(i) })
}

// lookupEnds binary-searches a sorted index of ends for key.
func lookupEnds(index U32s, key string, keyOf func(int, Side) string) []ExternalEnd {
	at := func(k int) (int, Side) { e := index.At(k); return int(e >> 1), Side(e & 1) }
	lo := sort.Search(index.Len(), func(k int) bool { i, s := at(k); return keyOf(i, s) >= key })
	var out []ExternalEnd
	for k := lo; k < index.Len(); k++ {
		i, s := at(k)
		if keyOf(i, s) != key {
			break
		}
		out = append(out, ExternalEnd{Relation: i, Side: s})
	}
	return out
}

// verifyPublisher checks the publisher relation columns: sizes, kinds, ends
// (a node ordinal, or NoNode with a reference), the by-node rows and the
// external indexes' entries.
func (img *Image) verifyPublisher() error {
	p := &img.v.pub
	n, r := img.v.n.count, p.count
	if r == 0 && len(p.kind) == 0 {
		return nil
	}
	if len(p.kind) != r || p.end[0].Len() != r || p.end[1].Len() != r || len(p.seq) != 8*r || len(p.hasSeq) != r {
		return corrupt("publisher_relations", -1, "publisher relation columns disagree with the count %d", r)
	}
	for _, c := range []column{p.id, p.uri[0], p.uri[1], p.identifier[0], p.identifier[1], p.title[0], p.title[1]} {
		if err := checkColumn("publisher_relations", c, r); err != nil {
			return err
		}
	}
	for i := 0; i < r; i++ {
		if p.kind[i] > byte(IsTranslationOf) || p.hasSeq[i] > 1 {
			return corrupt("publisher_relations", -1, "relation %d has kind %d, has_sequence %d", i, p.kind[i], p.hasSeq[i])
		}
		o, d := p.end[0].At(i), p.end[1].At(i)
		if (o >= uint32(n) && o != NoNode) || (d >= uint32(n) && d != NoNode) || (o == NoNode && d == NoNode) {
			return corrupt("publisher_relations", -1, "relation %d has ends %d and %d of %d nodes", i, o, d, n)
		}
	}
	for side, rows := range [][2]U32s{{p.outOff, p.outRows}, {p.inOff, p.inRows}} {
		off, list := rows[0], rows[1]
		if off.Len() != n+1 || off.At(0) != 0 || int(off.At(n)) != list.Len() {
			return corrupt("publisher_relations", -1, "by-node offsets do not cover %d nodes", n)
		}
		for k := 1; k <= n; k++ {
			if off.At(k) < off.At(k-1) {
				return corrupt("publisher_relations", -1, "by-node offsets decrease at node %d", k)
			}
		}
		if err := checkRange("publisher_relations.rows", list, r); err != nil {
			return err
		}
		// Each node's row lists only relations with that node at its end
		// (origin for the out rows, destination for the in rows).
		for k := 0; k < n; k++ {
			for j := off.At(k); j < off.At(k+1); j++ {
				if rel := int(list.At(int(j))); p.end[side].At(rel) != uint32(k) {
					return corrupt("publisher_relations.rows", -1, "node %d's row lists relation %d, which does not end at it", k, rel)
				}
			}
		}
	}
	for _, index := range []U32s{p.byIdentifier, p.byURI} {
		for k := 0; k < index.Len(); k++ {
			e := index.At(k)
			if int(e>>1) >= r || p.end[e&1].At(int(e>>1)) != NoNode {
				return corrupt("publisher_relations.external", -1, "entry %d names no end outside the package", k)
			}
		}
	}
	return nil
}

// verifyPublisherOrder checks that the external indexes are sorted (VerifyDeep:
// a misordered index only misses matches).
func (img *Image) verifyPublisherOrder() error {
	p := &img.v.pub
	for _, c := range []struct {
		index U32s
		key   func(int, Side) string
	}{
		{p.byIdentifier, func(i int, s Side) string { return strings.ToLower(p.identifier[s].str(i)) }},
		{p.byURI, func(i int, s Side) string { return p.uri[s].str(i) }},
	} {
		for k := 1; k < c.index.Len(); k++ {
			a, b := c.index.At(k-1), c.index.At(k)
			if c.key(int(a>>1), Side(a&1)) > c.key(int(b>>1), Side(b&1)) {
				return corrupt("publisher_relations.external", -1, "entries %d and %d are out of order", k-1, k)
			}
		}
	}
	return nil
}
