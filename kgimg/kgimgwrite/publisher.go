package kgimgwrite

import (
	"sort"
	"strings"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/kgimg/format"
	"github.com/kgc-project/kgc/kgimg/kgfb"
)

// buildPublisher writes the publisher-asserted relations (the package's
// publisherRelations artifact) in file order, with their by-node rows and the
// indexes of their ends outside the package; ok is false when there are none.
func (w *writer) buildPublisher(b *flatbuffers.Builder) (flatbuffers.UOffsetT, bool) {
	rels := w.res.PublisherRelations
	if len(rels) == 0 {
		return 0, false
	}
	n := len(w.res.Nodes)
	kinds := make([]byte, len(rels))
	hasSeq := make([]byte, len(rels))
	seq := make([]int64, len(rels))
	var ends [2][]uint32
	id := newRawCol[string](len(rels), true)
	var uri, ident, title [2]*strCol
	for s := range 2 {
		ends[s] = make([]uint32, len(rels))
		uri[s], ident[s], title[s] = newStrCol(), newStrCol(), newStrCol()
	}
	var byIdent, byURI []uint32
	for i, r := range rels {
		k, _ := delivery.PublisherRelationType(r.Type) // the gate proved it
		kinds[i] = k
		if r.Sequence != nil {
			hasSeq[i], seq[i] = 1, *r.Sequence
		}
		id.add(r.ID)
		for s, e := range [2]delivery.RelationEnd{r.Origin, r.Destination} {
			ends[s][i] = format.NoNode
			if !e.External() {
				ends[s][i] = w.ord(e.NodeID)
			}
			uri[s].add(e.URI)
			ident[s].add(e.Identifier)
			title[s].add(e.Title)
			entry := uint32(2*i + s)
			if e.External() && e.Identifier != "" {
				byIdent = append(byIdent, entry)
			}
			if e.External() && e.URI != "" {
				byURI = append(byURI, entry)
			}
		}
	}
	endOf := func(entry uint32) delivery.RelationEnd {
		if entry&1 == 0 {
			return rels[entry>>1].Origin
		}
		return rels[entry>>1].Destination
	}
	sort.SliceStable(byIdent, func(a, c int) bool {
		return strings.ToLower(endOf(byIdent[a]).Identifier) < strings.ToLower(endOf(byIdent[c]).Identifier)
	})
	sort.SliceStable(byURI, func(a, c int) bool { return endOf(byURI[a]).URI < endOf(byURI[c]).URI })
	rows := func(s int) (offsets, list []uint32) {
		per := make([][]uint32, n)
		for i, e := range ends[s] {
			if e != format.NoNode {
				per[e] = append(per[e], uint32(i))
			}
		}
		offsets = append(make([]uint32, 0, n+1), 0)
		for _, p := range per {
			list = append(list, p...)
			offsets = append(offsets, uint32(len(list)))
		}
		return offsets, list
	}
	outOff, outRows := rows(0)
	inOff, inRows := rows(1)

	kindV, hasSeqV := b.CreateByteVector(kinds), b.CreateByteVector(hasSeq)
	b.StartVector(8, len(seq), 8)
	for i := len(seq) - 1; i >= 0; i-- {
		b.PrependInt64(seq[i])
	}
	seqV := b.EndVector(len(seq))
	idV := id.build(b)
	var endV, uriV, identV, titleV [2]flatbuffers.UOffsetT
	for s := range 2 {
		endV[s], uriV[s], identV[s], titleV[s] = u32Vector(b, ends[s]), uri[s].build(b), ident[s].build(b), title[s].build(b)
	}
	outOffV, outRowsV, inOffV, inRowsV := u32Vector(b, outOff), u32Vector(b, outRows), u32Vector(b, inOff), u32Vector(b, inRows)
	byIdentV, byURIV := u32Vector(b, byIdent), u32Vector(b, byURI)
	kgfb.PublisherRelationsStart(b)
	kgfb.PublisherRelationsAddCount(b, uint32(len(rels)))
	kgfb.PublisherRelationsAddKind(b, kindV)
	kgfb.PublisherRelationsAddId(b, idV)
	kgfb.PublisherRelationsAddOrigin(b, endV[0])
	kgfb.PublisherRelationsAddDestination(b, endV[1])
	kgfb.PublisherRelationsAddOriginUri(b, uriV[0])
	kgfb.PublisherRelationsAddOriginIdentifier(b, identV[0])
	kgfb.PublisherRelationsAddOriginTitle(b, titleV[0])
	kgfb.PublisherRelationsAddDestinationUri(b, uriV[1])
	kgfb.PublisherRelationsAddDestinationIdentifier(b, identV[1])
	kgfb.PublisherRelationsAddDestinationTitle(b, titleV[1])
	kgfb.PublisherRelationsAddSequence(b, seqV)
	kgfb.PublisherRelationsAddHasSequence(b, hasSeqV)
	kgfb.PublisherRelationsAddOutOffsets(b, outOffV)
	kgfb.PublisherRelationsAddOutRows(b, outRowsV)
	kgfb.PublisherRelationsAddInOffsets(b, inOffV)
	kgfb.PublisherRelationsAddInRows(b, inRowsV)
	kgfb.PublisherRelationsAddExternalByIdentifier(b, byIdentV)
	kgfb.PublisherRelationsAddExternalByUri(b, byURIV)
	return kgfb.PublisherRelationsEnd(b), true
}
