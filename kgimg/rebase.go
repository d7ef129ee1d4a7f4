package kgimg

import "unsafe"

// rebaser re-points views resolved over one copy of an image's bytes (from)
// at the same offsets of another (to): an image verified on the bytes read
// through its descriptor is served from its mapping without reading it
// (verifyRead). Every slice and string of views must go through it;
// TestViewsPointIntoTheMapping walks them all.
type rebaser struct{ from, to []byte }

// bytes returns the bytes of to at b's offset in from (nil stays nil).
func (r rebaser) bytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	if len(b) == 0 {
		// An empty vector may point at the end of from (or anywhere, once
		// sliced to nothing): only its emptiness matters.
		return r.to[:0:0]
	}
	off := uintptr(unsafe.Pointer(unsafe.SliceData(b))) - uintptr(unsafe.Pointer(unsafe.SliceData(r.from)))
	end := off + uintptr(len(b))
	return r.to[off:end:end] // panics, rather than aliasing from, on a view outside it
}

func (r rebaser) string(s string) string {
	if s == "" {
		return ""
	}
	b := r.bytes(unsafe.Slice(unsafe.StringData(s), len(s)))
	return unsafe.String(&b[0], len(b))
}

func (r rebaser) u32s(v U32s) U32s { return U32s{r.bytes(v.b)} }

func (r rebaser) column(c column) column {
	return column{spans: r.u32s(c.spans), data: r.bytes(c.data)}
}

func (r rebaser) lists(l listColumn) listColumn {
	return listColumn{starts: r.u32s(l.starts), items: r.column(l.items)}
}

func (r rebaser) postings(p postingList) postingList {
	return postingList{keys: r.column(p.keys), starts: r.u32s(p.starts), nodes: r.u32s(p.nodes)}
}

func (r rebaser) bitmap(b Bitmap) Bitmap {
	b.buf, b.runBits = r.bytes(b.buf), r.bytes(b.runBits)
	return b
}

// views returns v re-pointed at to.
func (r rebaser) views(v *views) views {
	out := views{
		n: nodeCols{
			count: v.n.count, kind: r.bytes(v.n.kind), isCurrent: r.bytes(v.n.isCurrent),
			order: r.u32s(v.n.order), present: r.u32s(v.n.present), childOrder: r.bytes(v.n.childOrder), curPos: r.u32s(v.n.curPos), repeated: r.bytes(v.n.repeated),
			gradeLevel: r.lists(v.n.gradeLevel), tags: r.lists(v.n.tags), labels: r.lists(v.n.labels),
		},
		r: relCols{
			count: v.r.count, label: r.bytes(v.r.label),
			source: r.u32s(v.r.source), target: r.u32s(v.r.target), order: r.u32s(v.r.order), present: r.u32s(v.r.present),
			confidence: r.bytes(v.r.confidence),
		},
		nodeIDOrder: r.u32s(v.nodeIDOrder), caseUUIDOrder: r.u32s(v.caseUUIDOrder),
		caseURIOrder: r.u32s(v.caseURIOrder), relIDOrder: r.u32s(v.relIDOrder),
		facets:     make([]FacetRef, len(v.facets)),
		itemTokens: r.postings(v.itemTokens), componentTokens: r.postings(v.componentTokens),
		componentTags: r.postings(v.componentTags),
		codeOrder:     r.u32s(v.codeOrder),
		prov: provenanceCols{
			shardStarts: r.u32s(v.prov.shardStarts), recordRel: r.u32s(v.prov.recordRel),
			relRecord: r.u32s(v.prov.relRecord), records: r.column(v.prov.records),
		},
	}
	for i, c := range v.n.str {
		out.n.str[i] = r.column(c)
	}
	p := &v.pub
	out.pub = publisherCols{
		count: p.count, kind: r.bytes(p.kind), hasSeq: r.bytes(p.hasSeq), seq: r.bytes(p.seq), id: r.column(p.id),
		outOff: r.u32s(p.outOff), outRows: r.u32s(p.outRows), inOff: r.u32s(p.inOff), inRows: r.u32s(p.inRows),
		byIdentifier: r.u32s(p.byIdentifier), byURI: r.u32s(p.byURI),
	}
	for s := range 2 {
		out.pub.end[s] = r.u32s(p.end[s])
		out.pub.uri[s], out.pub.identifier[s], out.pub.title[s] = r.column(p.uri[s]), r.column(p.identifier[s]), r.column(p.title[s])
	}
	for i, c := range v.r.str {
		out.r.str[i] = r.column(c)
	}
	for i, a := range v.adj {
		out.adj[i] = Adjacency{offsets: r.u32s(a.offsets), neighbors: r.u32s(a.neighbors), edges: r.u32s(a.edges)}
	}
	for i, f := range v.facets {
		out.facets[i] = FacetRef{Kind: f.Kind, Key: r.string(f.Key), Value: r.string(f.Value), Bitmap: r.bitmap(f.Bitmap)}
	}
	return out
}
