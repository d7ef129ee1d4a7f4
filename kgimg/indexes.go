package kgimg

import (
	"sort"
	"unsafe"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/kgimg/lpsummaryfb"
	"github.com/kgc-project/kgc/schema/lpsummary"
)

func unsafeBytes(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Adjacency is one CSR index (a label and a direction).
type Adjacency struct {
	offsets, neighbors, edges U32s
}

// Row returns node n's neighbours and the relationships that reach them, in the
// contract's order. An absent index gives empty rows.
func (a Adjacency) Row(n uint32) (neighbors, edges U32s) {
	if a.offsets.Len() == 0 {
		return U32s{}, U32s{}
	}
	lo, hi := int(a.offsets.At(int(n))), int(a.offsets.At(int(n)+1))
	return a.neighbors.Slice(lo, hi), a.edges.Slice(lo, hi)
}

// Degree returns the number of neighbours of n.
func (a Adjacency) Degree(n uint32) int {
	if a.offsets.Len() == 0 {
		return 0
	}
	return int(a.offsets.At(int(n)+1) - a.offsets.At(int(n)))
}

// FacetRef is one facet value.
type FacetRef struct {
	Kind   FacetKind
	Key    string // facet-normalised
	Value  string // as written
	Bitmap Bitmap
}

// postingList is a sorted key → ascending ordinals index.
type postingList struct {
	keys   column
	starts U32s
	nodes  U32s
}

// keysWithPrefix returns (copies of) at most max keys that start with
// prefix, in key order.
func (p postingList) keysWithPrefix(prefix string, max int) []string {
	n := p.keys.len()
	var out []string
	for i := sort.Search(n, func(i int) bool { return cmpKey(p.keys.bytes(i), prefix) >= 0 }); i < n && len(out) < max; i++ {
		k := p.keys.bytes(i)
		if len(k) < len(prefix) || string(k[:len(prefix)]) != prefix {
			break
		}
		out = append(out, string(k))
	}
	return out
}

func (p postingList) lookup(key string) (U32s, bool) {
	n := p.keys.len()
	i := sort.Search(n, func(i int) bool { return cmpKey(p.keys.bytes(i), key) >= 0 })
	if i == n || cmpKey(p.keys.bytes(i), key) != 0 {
		return U32s{}, false
	}
	return p.nodes.Slice(int(p.starts.At(i)), int(p.starts.At(i+1))), true
}

// provenanceCols are the per-edge provenance columns.
type provenanceCols struct {
	shardStarts, recordRel, relRecord U32s
	records                           column
}

func readPostings(t flatbuffers.Table, slot int) postingList {
	s, ok := subTable(t, slot)
	if !ok {
		return postingList{}
	}
	return postingList{keys: readColumn(s, 0), starts: U32s{vecBytes(s, 1, 4)}, nodes: U32s{vecBytes(s, 2, 4)}}
}

func (img *Image) resolveIndexes() {
	root := img.root
	var a kgfb.Adjacency
	for i := 0; i < root.AdjacencyLength(); i++ {
		root.Adjacency(&a, i)
		t := a.Table()
		k := int(a.Label())*2 + int(a.Direction())
		img.v.adj[k] = Adjacency{
			offsets:   U32s{vecBytes(t, 2, 4)},
			neighbors: U32s{vecBytes(t, 3, 4)},
			edges:     U32s{vecBytes(t, 4, 4)},
		}
	}
	var f kgfb.Facet
	img.v.facets = make([]FacetRef, root.FacetsLength())
	for i := range img.v.facets {
		root.Facets(&f, i)
		img.v.facets[i] = FacetRef{Kind: FacetKind(f.Kind()), Key: unsafeString(f.Key()), Value: unsafeString(f.Value())}
	}
	if st, ok := subTable(root.Table(), slot(imageDesc, "search")); ok {
		img.v.itemTokens = readPostings(st, slot(searchDesc, "item_tokens"))
		img.v.componentTokens = readPostings(st, slot(searchDesc, "component_tokens"))
		img.v.componentTags = readPostings(st, slot(searchDesc, "component_tags"))
		img.v.codeOrder = U32s{vecBytes(st, slot(searchDesc, "code_order"), 4)}
	}
	if pt, ok := subTable(root.Table(), slot(imageDesc, "provenance")); ok {
		img.v.prov = provenanceCols{
			shardStarts: U32s{vecBytes(pt, 0, 4)},
			recordRel:   U32s{vecBytes(pt, 1, 4)},
			records:     readColumn(pt, 2),
			relRecord:   U32s{vecBytes(pt, 3, 4)},
		}
	}
}

// Adjacency returns the CSR index of a label and direction.
func (img *Image) Adjacency(label RelLabel, dir Direction) Adjacency {
	return img.pv().adj[int(label)*2+int(dir)]
}

// Facets returns every facet value, sorted by (kind, key).
func (img *Image) Facets() []FacetRef { return img.pv().facets }

// Facet returns the facet value with this kind and facet-normalised key.
func (img *Image) Facet(kind FacetKind, key string) (Bitmap, bool) {
	v := img.pv()
	i := sort.Search(len(v.facets), func(i int) bool {
		f := v.facets[i]
		return f.Kind > kind || f.Kind == kind && f.Key >= key
	})
	if i < len(v.facets) && v.facets[i].Kind == kind && v.facets[i].Key == key {
		return v.facets[i].Bitmap, true
	}
	return Bitmap{}, false
}

// ItemToken returns the items whose description has this lexical token.
func (img *Image) ItemToken(token string) (U32s, bool) { return img.pv().itemTokens.lookup(token) }

// ItemTokensWithPrefix returns at most max lexical tokens of the items'
// descriptions that start with prefix, in order (copied out of the image).
func (img *Image) ItemTokensWithPrefix(prefix string, max int) []string {
	return img.pv().itemTokens.keysWithPrefix(prefix, max)
}

// ItemTokenCount returns how many distinct tokens the items' descriptions
// hold.
func (img *Image) ItemTokenCount() int { return img.pv().itemTokens.keys.len() }

// ItemTokenAt returns the i-th token in key order (aliasing the image: copy
// what outlives the call) and how many items' descriptions hold it.
func (img *Image) ItemTokenAt(i int) (token []byte, items int) {
	p := &img.pv().itemTokens
	return p.keys.bytes(i), int(p.starts.At(i+1) - p.starts.At(i))
}

// ComponentTokenCount and ComponentTokenAt are ItemTokenCount and
// ItemTokenAt over the learning components' descriptions.
func (img *Image) ComponentTokenCount() int { return img.pv().componentTokens.keys.len() }

// ComponentTokenAt: see ComponentTokenCount.
func (img *Image) ComponentTokenAt(i int) (token []byte, components int) {
	p := &img.pv().componentTokens
	return p.keys.bytes(i), int(p.starts.At(i+1) - p.starts.At(i))
}

// ComponentTokensWithPrefix is ItemTokensWithPrefix over the learning
// components' descriptions.
func (img *Image) ComponentTokensWithPrefix(prefix string, max int) []string {
	return img.pv().componentTokens.keysWithPrefix(prefix, max)
}

// ComponentToken returns the learning components whose description has this token.
func (img *Image) ComponentToken(token string) (U32s, bool) {
	return img.pv().componentTokens.lookup(token)
}

// ComponentTag returns the learning components with this facet-normalised tag.
func (img *Image) ComponentTag(tag string) (U32s, bool) { return img.pv().componentTags.lookup(tag) }

// CodeOrder returns the coded items ordered by (normalized code, node ID).
func (img *Image) CodeOrder() U32s { return img.pv().codeOrder }

// Provenance returns the stored provenance record of relationship r (canonical
// JSON, aliasing the image) and its partition.
func (img *Image) Provenance(r uint32) (record []byte, shard int, ok bool) {
	v := img.pv()
	if v.prov.relRecord.Len() == 0 {
		return nil, 0, false
	}
	i := v.prov.relRecord.At(int(r))
	if i == noRecord {
		return nil, 0, false
	}
	shard = sort.Search(64, func(k int) bool { return v.prov.shardStarts.At(k+1) > i })
	return v.prov.records.bytes(int(i)), shard, true
}

// ShardRecords returns the relationship ordinals of partition k's records, in
// relationship-ID order.
func (img *Image) ShardRecords(k int) U32s {
	v := img.pv()
	if v.prov.shardStarts.Len() == 0 {
		return U32s{}
	}
	return v.prov.recordRel.Slice(int(v.prov.shardStarts.At(k)), int(v.prov.shardStarts.At(k+1)))
}

const noRecord = 0xFFFFFFFF

// ProgressionSummary returns the learning-progression summary compiled at
// build time, copied out of the image. It returns nil, nil when the image has
// no summary (a package without progressions), and an ErrCorrupt error when
// the stored summary cannot be read.
func (img *Image) ProgressionSummary() (*lpsummary.Summary, error) {
	c := img.compiledSummary()
	if c == nil {
		return nil, nil
	}
	s, err := lpsummaryfb.Decode(c)
	if err != nil {
		return nil, corrupt("compiled_progression_summary", -1, "%v", err)
	}
	return s, nil
}
