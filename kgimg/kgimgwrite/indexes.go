package kgimgwrite

import (
	"cmp"
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
)

// orderBy returns the ordinals 0..n-1 that have a key, sorted by (key,
// ordinal). Each key is fetched once and the (key, ordinal) pairs sorted
// unstably on both (the ordinal breaks ties, so the order is the stable one):
// a stable sort calling key per comparison was 15% of a million-standard
// compile.
func orderBy(n int, key func(i int) (string, bool)) []uint32 {
	return orderByJoined(n, key, nil)
}

// orderByJoined is orderBy for keys of two parts when second is not nil: the
// key of ordinal i is then key(i) + "\x00" + second(i), compared without
// building it.
//
// The pairs are sorted by a prefix of each key first: the eight bytes that
// follow the prefix every key shares (the "urn:uuid:" of CASE URIs), read
// big-endian and padded with zeros, so their order is the keys' order
// wherever they differ. Only keys with equal prefixes are compared whole.
func orderByJoined(n int, key func(i int) (string, bool), second func(i int) string) []uint32 {
	type keyed struct {
		pre uint64
		key string
		ord uint32
	}
	ks := make([]keyed, 0, n)
	for i := 0; i < n; i++ {
		if k, ok := key(i); ok {
			ks = append(ks, keyed{key: k, ord: uint32(i)})
		}
	}
	keyBytes := func(k *keyed, dst []byte) []byte {
		dst = append(dst, k.key...)
		if second != nil {
			dst = append(append(dst, 0), second(int(k.ord))...)
		}
		return dst
	}
	// The prefix every key shares (at most 64 bytes of it).
	var common, buf []byte
	for i := range ks {
		buf = keyBytes(&ks[i], buf[:0])
		if i == 0 {
			common = append(common, buf[:min(64, len(buf))]...)
			continue
		}
		l := 0
		for l < len(common) && l < len(buf) && common[l] == buf[l] {
			l++
		}
		common = common[:l]
	}
	for i := range ks {
		buf = keyBytes(&ks[i], buf[:0])
		var pre [8]byte
		copy(pre[:], buf[len(common):])
		ks[i].pre = binary.BigEndian.Uint64(pre[:])
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		if a.pre != b.pre {
			return cmp.Compare(a.pre, b.pre)
		}
		var c int
		if second != nil {
			c = compareJoined(a.key, second(int(a.ord)), b.key, second(int(b.ord)))
		} else {
			c = strings.Compare(a.key, b.key)
		}
		if c != 0 {
			return c
		}
		return cmp.Compare(a.ord, b.ord)
	})
	out := make([]uint32, len(ks))
	for i, k := range ks {
		out[i] = k.ord
	}
	return out
}

// compareJoined compares a1+"\x00"+a2 with b1+"\x00"+b2 as strings.Compare
// would, without building them.
func compareJoined(a1, a2, b1, b2 string) int {
	// The usual case: the first parts differ before either ends.
	n := min(len(a1), len(b1))
	if c := strings.Compare(a1[:n], b1[:n]); c != 0 {
		return c
	}
	if len(a1) == len(b1) {
		return strings.Compare(a2, b2)
	}
	// One first part is a prefix of the other: compare byte by byte.
	at := func(s1, s2 string, i int) (byte, bool) {
		switch {
		case i < len(s1):
			return s1[i], true
		case i == len(s1):
			return 0, true
		case i-len(s1)-1 < len(s2):
			return s2[i-len(s1)-1], true
		}
		return 0, false
	}
	for i := n; ; i++ {
		x, okA := at(a1, a2, i)
		y, okB := at(b1, b2, i)
		switch {
		case !okA && !okB:
			return 0
		case !okA:
			return -1
		case !okB:
			return 1
		case x != y:
			return cmp.Compare(x, y)
		}
	}
}

// sortOrders sorts the node ID, CASE UUID, CASE URI and relationship ID
// orders, two at a time.
func (w *writer) sortOrders() [4][]uint32 {
	nodes, rels := w.res.Nodes, w.res.Relationships
	var orders [4][]uint32
	var wg sync.WaitGroup
	for worker := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if worker == 0 {
				orders[0] = orderBy(len(nodes), func(i int) (string, bool) { return nodes[i].ID, true })
				orders[1] = orderBy(len(nodes), func(i int) (string, bool) { return nodes[i].Prop(delivery.NCaseIdentifierUUID) })
				return
			}
			orders[2] = orderBy(len(nodes), func(i int) (string, bool) { return nodes[i].Prop(delivery.NCaseIdentifierURI) })
			orders[3] = orderBy(len(rels), func(i int) (string, bool) { return rels[i].ID, true })
		}()
	}
	wg.Wait()
	return orders
}

// writeOrders writes the sorted orders, in a fixed order.
func writeOrders(b *flatbuffers.Builder, orders [4][]uint32) (nodeID, caseUUID, caseURI, relID flatbuffers.UOffsetT) {
	return u32Vector(b, orders[0]), u32Vector(b, orders[1]), u32Vector(b, orders[2]), u32Vector(b, orders[3])
}

// buildAdjacency writes CSR indexes for every label in both directions.
func (w *writer) buildAdjacency(b *flatbuffers.Builder) flatbuffers.UOffsetT {
	n, rels := len(w.res.Nodes), w.res.Relationships
	var tables []flatbuffers.UOffsetT
	for _, label := range []string{delivery.HasChild, delivery.Supports, delivery.BuildsTowards, delivery.RelatesTo} {
		var edges []int
		for i, r := range rels {
			if r.Label == label {
				edges = append(edges, i)
			}
		}
		if len(edges) == 0 {
			continue
		}
		// Contract order within a row. The records are usually in that
		// order already (hasChild edges in file order): then they are not
		// sorted again.
		byID := label == delivery.BuildsTowards || label == delivery.RelatesTo
		contract := func(a, c int) int {
			ra, rc := rels[a], rels[c]
			if !byID && ra.Order != rc.Order {
				return cmp.Compare(ra.Order, rc.Order)
			}
			return strings.Compare(ra.ID, rc.ID)
		}
		if !slices.IsSortedFunc(edges, contract) {
			slices.SortStableFunc(edges, contract)
		}
		for _, dir := range []kgfb.Direction{kgfb.DirectionOut, kgfb.DirectionIn} {
			var offsets, neighbors, edgeList []uint32
			if label == delivery.HasChild && dir == kgfb.DirectionOut {
				// In curriculum order (order.go).
				offsets = make([]uint32, 0, n+1)
				offsets = append(offsets, 0)
				for _, row := range w.childRows {
					neighbors = append(neighbors, row[0]...)
					edgeList = append(edgeList, row[1]...)
					offsets = append(offsets, uint32(len(neighbors)))
				}
			} else {
				// Each row's edges in the order above: counted, then
				// placed.
				end := func(e int) (from, to uint32) {
					from, to = w.ends(e)
					if dir == kgfb.DirectionIn {
						from, to = to, from
					}
					return from, to
				}
				offsets = make([]uint32, n+1)
				for _, e := range edges {
					from, _ := end(e)
					offsets[from+1]++
				}
				for i := 1; i <= n; i++ {
					offsets[i] += offsets[i-1]
				}
				next := slices.Clone(offsets[:n])
				neighbors, edgeList = make([]uint32, len(edges)), make([]uint32, len(edges))
				for _, e := range edges {
					from, to := end(e)
					neighbors[next[from]], edgeList[next[from]] = to, uint32(e)
					next[from]++
				}
			}
			oOff, nOff, eOff := u32Vector(b, offsets), u32Vector(b, neighbors), u32Vector(b, edgeList)
			kgfb.AdjacencyStart(b)
			kgfb.AdjacencyAddLabel(b, relLabel(label))
			kgfb.AdjacencyAddDirection(b, dir)
			kgfb.AdjacencyAddOffsets(b, oOff)
			kgfb.AdjacencyAddNeighbors(b, nOff)
			kgfb.AdjacencyAddEdges(b, eOff)
			tables = append(tables, kgfb.AdjacencyEnd(b))
			w.grown(b)
		}
	}
	return tableVector(b, tables)
}

type facetValue struct {
	kind  kgfb.FacetKind
	key   string
	value string
	nodes *roaring.Bitmap
	// bitmap is nodes serialized.
	bitmap []byte
}

// prepareFacets computes the roaring facet indexes, in the order they are
// written, each serialized.
func (w *writer) prepareFacets() []*facetValue {
	facets := map[[2]string]*facetValue{}
	// byRaw remembers the facet of each (kind, value) met: a value is
	// normalized once, not once per node that has it (a million times for
	// the node kinds).
	type raw struct {
		kind  kgfb.FacetKind
		value string
	}
	byRaw := map[raw]*facetValue{}
	add := func(kind kgfb.FacetKind, value string, node int) {
		f, ok := byRaw[raw{kind, value}]
		if !ok {
			k := [2]string{string(rune('0' + kind)), textnorm.Facet(value)}
			if f, ok = facets[k]; !ok {
				f = &facetValue{kind: kind, key: k[1], value: value, nodes: roaring.New()}
				facets[k] = f
			}
			byRaw[raw{kind, value}] = f
		}
		f.nodes.Add(uint32(node))
	}
	p := w.res.Profile
	for i, n := range w.res.Nodes {
		add(kgfb.FacetKindNodeKind, n.Kind.String(), i)
		if n.Kind != delivery.KindItem {
			continue
		}
		for _, g := range n.GradeLevel {
			add(kgfb.FacetKindNormalizedGrade, g, i)
		}
		for _, gm := range p.GradeMappings {
			if intersects(gm.NormalizedGrades, n.GradeLevel) {
				add(kgfb.FacetKindLocalGrade, gm.LocalLabel, i)
			}
		}
		if t, ok := n.Prop(delivery.NStatementType); ok {
			add(kgfb.FacetKindStatementType, t, i)
		}
		if t, ok := n.Prop(delivery.NNormalizedStatementType); ok {
			add(kgfb.FacetKindNormalizedStatementType, t, i)
		}
	}
	for i, r := range w.res.Relationships {
		switch src, tgt := w.ends(i); r.Label {
		case delivery.BuildsTowards:
			add(kgfb.FacetKindProgressionEndpoint, "buildsTowardsSource", int(src))
			add(kgfb.FacetKindProgressionEndpoint, "buildsTowardsTarget", int(tgt))
		case delivery.RelatesTo:
			add(kgfb.FacetKindProgressionEndpoint, "relatesTo", int(src))
			add(kgfb.FacetKindProgressionEndpoint, "relatesTo", int(tgt))
		}
	}
	list := make([]*facetValue, 0, len(facets))
	for _, f := range facets {
		list = append(list, f)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].kind != list[j].kind {
			return list[i].kind < list[j].kind
		}
		return list[i].key < list[j].key
	})
	for _, f := range list {
		f.nodes.RunOptimize()
		bm, err := f.nodes.ToBytes()
		if err != nil {
			panic("kgimgwrite: roaring serialization: " + err.Error()) // in-memory write cannot fail
		}
		f.bitmap, f.nodes = bm, nil
	}
	return list
}

// writeFacets writes the facet indexes prepareFacets computed.
func writeFacets(b *flatbuffers.Builder, list []*facetValue) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, f := range list {
		bmOff := b.CreateByteVector(f.bitmap)
		keyOff, valOff := b.CreateString(f.key), b.CreateString(f.value)
		kgfb.FacetStart(b)
		kgfb.FacetAddKind(b, f.kind)
		kgfb.FacetAddKey(b, keyOff)
		kgfb.FacetAddValue(b, valOff)
		kgfb.FacetAddBitmap(b, bmOff)
		offs[i] = kgfb.FacetEnd(b)
	}
	return tableVector(b, offs)
}

func intersects(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// postingList is a sorted posting list ready to be written.
type postingList struct {
	keys          *strCol
	starts, nodes []uint32
}

// postings sorts a posting list.
func postings(index map[string][]uint32) postingList {
	keys := make([]string, 0, len(index))
	for k := range index {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	col := newStrCol()
	starts := make([]uint32, 1, len(keys)+1)
	total := 0
	for _, list := range index {
		total += len(list)
	}
	nodes := make([]uint32, 0, total)
	for _, k := range keys {
		col.add(k)
		list := index[k]
		if !slices.IsSorted(list) { // lists are filled in node order
			slices.Sort(list)
		}
		for i, v := range list {
			if i == 0 || list[i-1] != v {
				nodes = append(nodes, v)
			}
		}
		starts = append(starts, uint32(len(nodes)))
	}
	return postingList{keys: col, starts: starts, nodes: nodes}
}

func (p postingList) build(b *flatbuffers.Builder) flatbuffers.UOffsetT {
	keyOff := p.keys.build(b)
	startOff, nodeOff := u32Vector(b, p.starts), u32Vector(b, p.nodes)
	kgfb.PostingListStart(b)
	kgfb.PostingListAddKeys(b, keyOff)
	kgfb.PostingListAddStarts(b, startOff)
	kgfb.PostingListAddNodes(b, nodeOff)
	return kgfb.PostingListEnd(b)
}

// searchIndexes are the lexical postings, the tag index and the code order.
type searchIndexes struct {
	items, comps, tags postingList
	code               []uint32
}

// prepareSearch computes the search indexes (after w.normCodes).
func (w *writer) prepareSearch() *searchIndexes {
	items, comps, tags := map[string][]uint32{}, map[string][]uint32{}, map[string][]uint32{}
	for i, n := range w.res.Nodes {
		switch n.Kind {
		case delivery.KindItem:
			for _, t := range textnorm.Tokens(n.Str(delivery.NDescription)) {
				items[t] = append(items[t], uint32(i))
			}
		case delivery.KindComponent:
			for _, t := range textnorm.Tokens(n.Str(delivery.NDescription)) {
				comps[t] = append(comps[t], uint32(i))
			}
			for _, t := range n.Tags {
				if k := textnorm.Facet(t); k != "" {
					tags[k] = append(tags[k], uint32(i))
				}
			}
		}
	}
	nodes := w.res.Nodes
	return &searchIndexes{
		items: postings(items), comps: postings(comps), tags: postings(tags),
		code: orderByJoined(len(nodes), func(i int) (string, bool) {
			return w.normCodes[i], w.normCodes[i] != ""
		}, func(i int) string { return nodes[i].ID }),
	}
}

// writeSearch writes the search indexes.
func writeSearch(b *flatbuffers.Builder, s *searchIndexes) flatbuffers.UOffsetT {
	itemOff, compOff, tagOff := s.items.build(b), s.comps.build(b), s.tags.build(b)
	codeOff := u32Vector(b, s.code)
	lex, facet, codeV := b.CreateString(textnorm.LexicalVersion), b.CreateString(textnorm.FacetVersion), b.CreateString(profile.CodeNormalizerVersion)
	kgfb.SearchStart(b)
	kgfb.SearchAddLexicalVersion(b, lex)
	kgfb.SearchAddFacetVersion(b, facet)
	kgfb.SearchAddCodeVersion(b, codeV)
	kgfb.SearchAddItemTokens(b, itemOff)
	kgfb.SearchAddComponentTokens(b, compOff)
	kgfb.SearchAddComponentTags(b, tagOff)
	kgfb.SearchAddCodeOrder(b, codeOff)
	return kgfb.SearchEnd(b)
}

// buildProvenance groups the per-edge records in the 64 partitions.
func (w *writer) buildProvenance(b *flatbuffers.Builder) (flatbuffers.UOffsetT, bool) {
	if !w.res.Manifest.Includes(manifest.GraphLearningProgressions) {
		return 0, false
	}
	rels := w.res.Relationships
	// The records name progression edges (the gate proved it): those are
	// indexed, and every relationship only if a record names another.
	relIndex := make(map[string]int, len(w.res.Provenance))
	for i, r := range rels {
		if delivery.IsProgression(r.Label) {
			relIndex[r.ID] = i
		}
	}
	var allIndexed bool
	relOf := func(id string) int {
		if i, ok := relIndex[id]; ok || allIndexed {
			return i
		}
		relIndex, allIndexed = make(map[string]int, len(rels)), true
		for i, r := range rels {
			relIndex[r.ID] = i
		}
		return relIndex[id]
	}
	var shards [manifest.ShardCount][]string
	for id := range w.res.Provenance {
		k := gate.Partition(id)
		shards[k] = append(shards[k], id)
	}
	starts := make([]uint32, 1, manifest.ShardCount+1)
	recordRel := make([]uint32, 0, len(w.res.Provenance))
	records := newRawCol[[]byte](len(w.res.Provenance), false)
	relRecord := make([]uint32, len(rels))
	for i := range relRecord {
		relRecord[i] = 0xFFFFFFFF
	}
	for k := range shards {
		sort.Strings(shards[k])
		for _, id := range shards[k] {
			ri := relOf(id)
			relRecord[ri] = uint32(len(recordRel))
			recordRel = append(recordRel, uint32(ri))
			records.add(w.res.Provenance[id])
		}
		starts = append(starts, uint32(len(recordRel)))
	}
	recOff := records.build(b)
	w.grown(b)
	startOff, rrOff, relRecOff := u32Vector(b, starts), u32Vector(b, recordRel), u32Vector(b, relRecord)
	kgfb.ProvenanceStart(b)
	kgfb.ProvenanceAddShardStarts(b, startOff)
	kgfb.ProvenanceAddRecordRelationship(b, rrOff)
	kgfb.ProvenanceAddRecords(b, recOff)
	kgfb.ProvenanceAddRelationshipRecord(b, relRecOff)
	return kgfb.ProvenanceEnd(b), true
}
