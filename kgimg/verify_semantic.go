package kgimg

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/RoaringBitmap/roaring/v2"
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/internal/jsonv"

	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/kgimg/manifestfb"
	"github.com/kgc-project/kgc/kgimg/profilefb"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
)

// checkColumn verifies a string column of n values.
func checkColumn(section string, c column, n int) error {
	if c.spans.Len() != 2*n {
		return corrupt(section, -1, "column has %d spans for %d values", c.spans.Len(), n)
	}
	size := uint32(len(c.data))
	b := c.spans.b[:8*n]
	// Branch-free scan: the largest end, and whether any start exceeds its end.
	var maxHi, inverted uint64
	for i := 0; i+8 <= len(b); i += 8 {
		v := binary.LittleEndian.Uint64(b[i:])
		lo, hi := v&0xffffffff, v>>32
		maxHi = max(maxHi, hi)
		inverted |= (hi - lo) >> 63
	}
	if maxHi > uint64(size) || inverted != 0 {
		for i := 0; i < n; i++ {
			if lo, hi := c.spans.At(2*i), c.spans.At(2*i+1); lo > hi || hi > size {
				return corrupt(section, -1, "value %d spans %d..%d outside its %d bytes of data", i, lo, hi, size)
			}
		}
	}
	return nil
}

func checkLists(section string, l listColumn, n int) error {
	if l.items.spans.Len()%2 != 0 {
		return corrupt(section, -1, "list items have an odd number of spans")
	}
	if err := checkColumn(section+".items", l.items, l.items.len()); err != nil {
		return err
	}
	if l.starts.Len() != n+1 {
		return corrupt(section, -1, "list column has %d starts for %d lists", l.starts.Len(), n)
	}
	prev := uint32(0)
	for i := 0; i <= n; i++ {
		s := l.starts.At(i)
		if s < prev {
			return corrupt(section, -1, "list starts decrease at %d", i)
		}
		prev = s
	}
	if int(prev) > l.items.len() {
		return corrupt(section, -1, "lists run past their items")
	}
	return nil
}

// checkRange verifies that every value of v is below limit.
func checkRange(section string, v U32s, limit int) error {
	b := v.b[:4*v.Len()]
	for i := 0; i+4 <= len(b); i += 4 {
		if x := binary.LittleEndian.Uint32(b[i:]); uint64(x) >= uint64(limit) {
			return corrupt(section, -1, "value %d at %d is out of range (limit %d)", x, i/4, limit)
		}
	}
	return nil
}

// checkOrder verifies an index of ordinals sorted by a key column.
func checkOrder(section string, order U32s, keys column, limit int, strict bool) error {
	if err := checkRange(section, order, limit); err != nil {
		return err
	}
	for i := 1; i < order.Len(); i++ {
		c := bytes.Compare(keys.bytes(int(order.At(i-1))), keys.bytes(int(order.At(i))))
		if c > 0 || strict && c == 0 {
			return corrupt(section, -1, "index is not sorted at %d", i)
		}
	}
	return nil
}

// hasField reports whether the Image table has the field (its vtable slot
// set).
func (img *Image) hasField(name string) bool {
	t := img.root.Table()
	return t.Offset(flatbuffers.VOffsetT(4+2*slot(imageDesc, name))) != 0
}

// verifyCatalogSemantics checks what the catalog reads: the compiled
// profile and manifest are there, and the progression summary exactly when
// the manifest declares progressions. It reads the catalog part alone in
// format 3 (img.root may be nil there).
func (img *Image) verifyCatalogSemantics() error {
	if img.compiledProfile() == nil || img.compiledManifest() == nil {
		return fmt.Errorf("%w: a format %d image written before images carried the compiled profile and manifest; rebuild it with kgc build", ErrUnsupportedVersion, img.header.Version)
	}
	if has, stored := img.compiledManifest().HasLearningProgressions(), img.compiledSummary() != nil; has != stored {
		if img.header.Version == 1 && has && img.root != nil && img.hasField("progression_summary") {
			return fmt.Errorf("%w: a format 1 image written before images carried the compiled progression summary; rebuild it with kgc build", ErrUnsupportedVersion)
		}
		return corrupt("compiled_progression_summary", -1, "present is %v, but the manifest's hasLearningProgressions is %v", stored, has)
	}
	return nil
}

// verifySemantics checks the invariants the accessors rely on.
func (img *Image) verifySemantics() error {
	if v := img.root.FormatVersion(); v != img.header.Version {
		return corrupt("image", -1, "the payload says format %d, the header %d", v, img.header.Version)
	}
	t := img.root.Table()
	if img.header.Version >= 3 {
		// The catalog part the header names is the Image's own.
		o := flatbuffers.UOffsetT(t.Offset(flatbuffers.VOffsetT(4 + 2*slot(imageDesc, "catalog_part"))))
		if o == 0 {
			return corrupt("catalog_part", -1, "a format %d image without its catalog part", img.header.Version)
		}
		start, n := int64(headerSize)+int64(t.Vector(o)), t.VectorLen(o)
		if start != int64(img.header.PartOffset) || n != int(img.header.PartLength) {
			return corrupt("catalog_part", start, "the Image's catalog part (%d bytes at %d) is not the header's (%d bytes at %d)", n, start, img.header.PartLength, img.header.PartOffset)
		}
	} else {
		for _, f := range []string{"identity", "manifest_json", "profile_json"} {
			if !img.hasField(f) {
				return corrupt("image", -1, "required field %s is missing", f)
			}
		}
	}
	if err := img.verifyCatalogSemantics(); err != nil {
		return err
	}
	img.resolve()
	v := &img.v
	n, r := v.n.count, v.r.count
	nc := &v.n
	if n < 1 || len(nc.kind) != n || len(nc.isCurrent) != n || nc.order.Len() != n || nc.present.Len() != n {
		return corrupt("nodes", -1, "node columns disagree with the node count %d", n)
	}
	for i, k := range nc.kind {
		if k > byte(kgfb.NodeKindComponent) {
			return corrupt("nodes.kind", -1, "node %d has kind %d", i, k)
		}
	}
	if len(nc.childOrder) != 0 && len(nc.childOrder) != n {
		return corrupt("nodes.child_order", -1, "%d entries for %d nodes", len(nc.childOrder), n)
	}
	for i, b := range nc.childOrder {
		if b > byte(OrderCodesBelow) {
			return corrupt("nodes.child_order", -1, "node %d has child order %d", i, b)
		}
	}
	if len(nc.repeated) != 0 && len(nc.repeated) != n {
		return corrupt("nodes.repeated_description", -1, "%d entries for %d nodes", len(nc.repeated), n)
	}
	for i, b := range nc.repeated {
		if b > 1 || b == 1 && nc.kind[i] != byte(kgfb.NodeKindItem) {
			return corrupt("nodes.repeated_description", -1, "node %d has %d", i, b)
		}
	}
	if l := nc.curPos.Len(); l != 0 {
		if l != n {
			return corrupt("nodes.curriculum_position", -1, "%d entries for %d nodes", l, n)
		}
		seen := make([]uint64, (n+63)/64)
		for i := range l {
			p := nc.curPos.At(i)
			if int(p) >= n || seen[p/64]&(1<<(p%64)) != 0 {
				return corrupt("nodes.curriculum_position", -1, "node %d has position %d: not a permutation of the %d nodes", i, p, n)
			}
			seen[p/64] |= 1 << (p % 64)
		}
	}
	for i, b := range nc.isCurrent {
		if b > 1 {
			return corrupt("nodes.is_current", -1, "node %d has isCurrent %d (the gate accepts only true or false)", i, b)
		}
	}
	for f, c := range nc.str {
		if err := checkColumn("nodes", c, n); err != nil {
			return fmt.Errorf("%w (field %s)", err, nodesDesc.fields[nodeFieldSlots[f]].name)
		}
	}
	for name, l := range map[string]listColumn{"nodes.grade_level": nc.gradeLevel, "nodes.tags": nc.tags, "nodes.labels": nc.labels} {
		if err := checkLists(name, l, n); err != nil {
			return err
		}
	}
	if root := img.root.Root(); int(root) >= n || nc.kind[root] != byte(kgfb.NodeKindFramework) {
		return corrupt("root", -1, "root ordinal %d is not a framework node", root)
	}
	rc := &v.r
	if len(rc.label) != r || rc.source.Len() != r || rc.target.Len() != r || rc.order.Len() != r ||
		rc.present.Len() != r || len(rc.confidence) != 8*r {
		return corrupt("relationships", -1, "relationship columns disagree with the count %d", r)
	}
	for i, l := range rc.label {
		if l > byte(kgfb.RelLabelRelatesTo) {
			return corrupt("relationships.label", -1, "relationship %d has label %d", i, l)
		}
	}
	for i := 0; i < r; i++ {
		// The gate accepts a supportConfidence from 0 to 1 (NaN fails every
		// comparison, so this refuses it too); an absent one is stored as 0.
		if c := f64(rc.confidence, i); !(c >= 0 && c <= 1) {
			return corrupt("relationships.support_confidence", -1, "relationship %d has supportConfidence %v (the gate accepts 0 to 1)", i, c)
		}
	}
	if err := checkRange("relationships.source", rc.source, n); err != nil {
		return err
	}
	if err := checkRange("relationships.target", rc.target, n); err != nil {
		return err
	}
	for f, c := range rc.str {
		if err := checkColumn("relationships", c, r); err != nil {
			return fmt.Errorf("%w (field %s)", err, relationshipsDesc.fields[relFieldSlots[f]].name)
		}
	}
	if v.nodeIDOrder.Len() != n || v.relIDOrder.Len() != r {
		return corrupt("indexes", -1, "ID indexes do not cover every record")
	}
	for _, c := range []struct {
		name   string
		order  U32s
		keys   column
		limit  int
		strict bool
	}{
		{"node_id_order", v.nodeIDOrder, nc.str[NodeID], n, true},
		{"relationship_id_order", v.relIDOrder, rc.str[RelID], r, true},
	} {
		if err := checkOrder(c.name, c.order, c.keys, c.limit, c.strict); err != nil {
			return err
		}
	}
	// The secondary indexes are range-checked here; their order is checked by
	// VerifyDeep (a misordered index can only give a wrong answer, never a fault).
	if err := checkRange("case_uuid_order", v.caseUUIDOrder, n); err != nil {
		return err
	}
	if err := checkRange("case_uri_order", v.caseURIOrder, n); err != nil {
		return err
	}
	if err := img.verifyAdjacency(); err != nil {
		return err
	}
	if err := img.verifyFacets(); err != nil {
		return err
	}
	if err := img.verifySearch(); err != nil {
		return err
	}
	if err := img.verifyProvenance(); err != nil {
		return err
	}
	if err := img.verifyPublisher(); err != nil {
		return err
	}
	return img.verifyArtifacts()
}

func (img *Image) verifyAdjacency() error {
	v := &img.v
	n, r := v.n.count, v.r.count
	var a kgfb.Adjacency
	seen := map[int]bool{}
	for i := 0; i < img.root.AdjacencyLength(); i++ {
		img.root.Adjacency(&a, i)
		k := int(a.Label())*2 + int(a.Direction())
		if seen[k] {
			return corrupt("adjacency", -1, "index for label %d direction %d is repeated", a.Label(), a.Direction())
		}
		seen[k] = true
		adj := v.adj[k]
		if adj.offsets.Len() != n+1 || adj.offsets.At(0) != 0 {
			return corrupt("adjacency", -1, "CSR offsets do not have one row per node")
		}
		for j := 1; j <= n; j++ {
			if adj.offsets.At(j) < adj.offsets.At(j-1) {
				return corrupt("adjacency", -1, "CSR offsets decrease at row %d", j)
			}
		}
		m := int(adj.offsets.At(n))
		if adj.neighbors.Len() != m || adj.edges.Len() != m {
			return corrupt("adjacency", -1, "CSR rows and targets disagree")
		}
		if err := checkRange("adjacency", adj.neighbors, n); err != nil {
			return err
		}
		if err := checkRange("adjacency", adj.edges, r); err != nil {
			return err
		}
		from, to := v.r.source.b, v.r.target.b
		if a.Direction() == kgfb.DirectionIn {
			from, to = to, from
		}
		label := byte(a.Label())
		offs, nbs, eds := adj.offsets.b, adj.neighbors.b, adj.edges.b
		for row := 0; row < n; row++ {
			lo, hi := int(binary.LittleEndian.Uint32(offs[4*row:])), int(binary.LittleEndian.Uint32(offs[4*row+4:]))
			for j := lo; j < hi; j++ {
				t, e := binary.LittleEndian.Uint32(nbs[4*j:]), int(binary.LittleEndian.Uint32(eds[4*j:]))
				if v.r.label[e] != label || int(binary.LittleEndian.Uint32(from[4*e:])) != row || binary.LittleEndian.Uint32(to[4*e:]) != t {
					return corrupt("adjacency", -1, "CSR entry %d→%d disagrees with relationship %d", row, t, e)
				}
			}
		}
	}
	return nil
}

func (img *Image) verifyFacets() error {
	v := &img.v
	for i, f := range v.facets {
		if i > 0 {
			p := v.facets[i-1]
			if p.Kind > f.Kind || p.Kind == f.Kind && p.Key >= f.Key {
				return corrupt("facets", -1, "facets are not sorted at %d", i)
			}
		}
		var raw kgfb.Facet
		img.root.Facets(&raw, i)
		bm, why := parseBitmap(raw.BitmapBytes(), uint64(v.n.count))
		if why != "" {
			return corrupt("facets", -1, "facet %q: %s", f.Key, why)
		}
		v.facets[i].Bitmap = bm
	}
	return nil
}

// roaringValidate runs the roaring library's own Validate on a bitmap. Open does
// not call it (parseBitmap checks the same invariants in linear time, where the
// library's run-container check is quadratic); VerifyDeep does.
func roaringValidate(b []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("roaring panicked: %v", r)
		}
	}()
	bm := roaring.New()
	if _, err := bm.FromBuffer(b); err != nil {
		return err
	}
	return bm.Validate()
}

func verifyPostings(section string, p postingList, limit int) error {
	k := p.keys.len()
	if p.keys.spans.Len()%2 != 0 {
		return corrupt(section, -1, "keys have an odd number of spans")
	}
	if p.keys.spans.Len() == 0 && p.starts.Len() == 0 {
		return nil
	}
	if err := checkColumn(section+".keys", p.keys, k); err != nil {
		return err
	}
	if p.starts.Len() != k+1 || p.starts.At(0) != 0 || int(p.starts.At(k)) != p.nodes.Len() {
		return corrupt(section, -1, "posting starts disagree with the keys")
	}
	starts := p.starts.b[:4*(k+1)]
	for i := 4; i < len(starts); i += 4 {
		if binary.LittleEndian.Uint32(starts[i:]) < binary.LittleEndian.Uint32(starts[i-4:]) {
			return corrupt(section, -1, "posting starts decrease at %d", i/4)
		}
	}
	return checkRange(section, p.nodes, limit)
}

func (img *Image) verifySearch() error {
	v := &img.v
	n := v.n.count
	for name, p := range map[string]postingList{"search.item_tokens": v.itemTokens, "search.component_tokens": v.componentTokens, "search.component_tags": v.componentTags} {
		if err := verifyPostings(name, p, n); err != nil {
			return err
		}
	}
	return checkRange("search.code_order", v.codeOrder, n)
}

func (img *Image) verifyProvenance() error {
	v := &img.v
	p := v.prov
	if p.shardStarts.Len() == 0 && p.relRecord.Len() == 0 {
		return nil
	}
	r := v.r.count
	total := p.recordRel.Len()
	if p.shardStarts.Len() != 65 || p.shardStarts.At(0) != 0 || int(p.shardStarts.At(64)) != total || p.relRecord.Len() != r {
		return corrupt("provenance", -1, "partition table does not cover the records")
	}
	for k := 1; k <= 64; k++ {
		if p.shardStarts.At(k) < p.shardStarts.At(k-1) {
			return corrupt("provenance", -1, "partition starts decrease at %d", k)
		}
	}
	if err := checkColumn("provenance.records", p.records, total); err != nil {
		return err
	}
	if err := checkRange("provenance.record_relationship", p.recordRel, r); err != nil {
		return err
	}
	for rel := 0; rel < r; rel++ {
		i := p.relRecord.At(rel)
		if i != noRecord && (int(i) >= total || int(p.recordRel.At(int(i))) != rel) {
			return corrupt("provenance", -1, "relationship %d points at record %d, which is not its own", rel, i)
		}
	}
	return nil
}

func (img *Image) verifyArtifacts() error {
	var a kgfb.Artifact
	var prev []byte
	for i := 0; i < img.root.ArtifactsLength(); i++ {
		img.root.Artifacts(&a, i)
		if i > 0 && bytes.Compare(prev, a.Name()) >= 0 {
			return corrupt("artifacts", -1, "artifacts are not sorted by name at %d", i)
		}
		prev = a.Name()
		if a.Embedded() && uint64(a.BytesLength()) != a.Size() || !a.Embedded() && a.BytesLength() != 0 {
			return corrupt("artifacts", -1, "artifact %q: embedded bytes disagree with its size", a.Name())
		}
	}
	return nil
}

// VerifyDeep runs the checks Open leaves out because they cost more than they
// protect against on an image whose checksum matched: the roaring library's own
// Validate of every facet bitmap, CheckText (every stored string valid UTF-8,
// every stored JSON document strict JSON), the
// provenance partition rule for every record, and the compiled profile and
// manifest being exactly the embedded profile_json and manifest_json (decoded,
// checked and compiled again), and the compiled progression summary reading
// back, present exactly when the manifest declares progressions. With Open's
// checks, it refuses every value the gate would refuse that the image can
// hold.
func (img *Image) VerifyDeep() error {
	if err := img.Ready(); err != nil {
		return err
	}
	v := &img.v
	if err := img.verifyPublisherOrder(); err != nil {
		return err
	}
	if err := img.verifyRepeated(); err != nil {
		return err
	}
	prof, _, fs := profile.Decode(img.ProfileJSON(), profile.FileName)
	if prof == nil || len(fs) > 0 {
		return corrupt("profile_json", -1, "the embedded profile does not decode cleanly")
	}
	if err := profilefb.Check(img.compiledProfile(), prof); err != nil {
		return corrupt("compiled_profile", -1, "%v", err)
	}
	m, fs := manifest.Decode(img.ManifestJSON())
	if m == nil || len(fs) > 0 {
		return corrupt("manifest_json", -1, "the embedded manifest does not decode cleanly")
	}
	if err := manifestfb.Check(img.compiledManifest(), m); err != nil {
		return corrupt("compiled_manifest", -1, "%v", err)
	}
	if _, err := img.ProgressionSummary(); err != nil {
		return err
	}
	var raw kgfb.Facet
	for i := range v.facets {
		img.root.Facets(&raw, i)
		if err := roaringValidate(raw.BitmapBytes()); err != nil {
			return corrupt("facets", -1, "facet %q: %v", v.facets[i].Key, err)
		}
	}
	if err := img.CheckText(); err != nil {
		return err
	}
	for _, c := range []struct {
		name  string
		order U32s
		keys  column
	}{
		{"case_uuid_order", v.caseUUIDOrder, v.n.str[NodeCaseIdentifierUUID]},
		{"case_uri_order", v.caseURIOrder, v.n.str[NodeCaseIdentifierURI]},
		{"search.code_order", v.codeOrder, v.n.str[NodeNormalizedCode]},
	} {
		if err := checkOrder(c.name, c.order, c.keys, v.n.count, false); err != nil {
			return err
		}
	}
	for name, p := range map[string]postingList{"search.item_tokens": v.itemTokens, "search.component_tokens": v.componentTokens, "search.component_tags": v.componentTags} {
		for i := 1; i < p.keys.len(); i++ {
			if bytes.Compare(p.keys.bytes(i-1), p.keys.bytes(i)) >= 0 {
				return corrupt(name, -1, "posting keys are not sorted at %d", i)
			}
		}
		for i := 0; i+1 < p.starts.Len(); i++ {
			for j := p.starts.At(i) + 1; j < p.starts.At(i+1); j++ {
				if p.nodes.At(int(j-1)) >= p.nodes.At(int(j)) {
					return corrupt(name, -1, "posting list %d is not ascending", i)
				}
			}
		}
	}
	for k := 0; k < 64; k++ {
		recs := img.ShardRecords(k)
		for i := 0; i < recs.Len(); i++ {
			id := v.r.str[RelID].bytes(int(recs.At(i)))
			sum := sha256.Sum256(id)
			if int(sum[0])%64 != k {
				return corrupt("provenance", -1, "record %s is in partition %d, its rule says %d", id, k, int(sum[0])%64)
			}
			if i > 0 && bytes.Compare(v.r.str[RelID].bytes(int(recs.At(i-1))), id) >= 0 {
				return corrupt("provenance", -1, "partition %d is not sorted by relationship ID", k)
			}
		}
	}
	return nil
}

// CheckText proves every string the image stores valid UTF-8 — node,
// relationship and publisher-relation columns, search keys, facet keys and
// values — and every
// stored JSON document (node provenance entries, progression records)
// strict JSON as the server encodes it (jsonv: UTF-8 checked inside
// strings, which encoding/json's Valid is not). VerifyDeep runs it; kgmcp
// runs it per package off the request path and withdraws a package that
// fails (catalog_error), since a resealed checksum lets such bytes through
// Open. It costs one pass over the image's text.
func (img *Image) CheckText() error {
	if err := img.Ready(); err != nil {
		return err
	}
	v := &img.v
	ps := strictParsers.Get().(*jsonv.Parser)
	defer strictParsers.Put(ps)
	for f, c := range v.n.str {
		for i := 0; i < c.len(); i++ {
			b := c.bytes(i)
			if f == int(NodeProvenanceJSON) {
				if len(b) > 0 && !strictJSON(ps, b) {
					return corrupt("nodes", -1, "node %d: the stored provenance entry is not strict JSON", i)
				}
				continue
			}
			if !utf8.Valid(b) {
				return corrupt("nodes", -1, "node %d field %d is not valid UTF-8", i, f)
			}
		}
	}
	for f, c := range v.r.str {
		for i := 0; i < c.len(); i++ {
			if !utf8.Valid(c.bytes(i)) {
				return corrupt("relationships", -1, "relationship %d field %d is not valid UTF-8", i, f)
			}
		}
	}
	pub := []column{v.pub.id, v.pub.uri[0], v.pub.uri[1], v.pub.identifier[0], v.pub.identifier[1], v.pub.title[0], v.pub.title[1]}
	for k, c := range pub {
		for i := 0; i < c.len(); i++ {
			if !utf8.Valid(c.bytes(i)) {
				return corrupt("publisher_relations", -1, "relation %d column %d is not valid UTF-8", i, k)
			}
		}
	}
	for i := 0; i < v.prov.records.len(); i++ {
		if !strictJSON(ps, v.prov.records.bytes(i)) {
			return corrupt("provenance", -1, "record %d is not strict JSON", i)
		}
	}
	for _, p := range []struct {
		name string
		list postingList
	}{{"search.item_tokens", v.itemTokens}, {"search.component_tokens", v.componentTokens}, {"search.component_tags", v.componentTags}} {
		for i := 0; i < p.list.keys.len(); i++ {
			if !utf8.Valid(p.list.keys.bytes(i)) {
				return corrupt(p.name, -1, "key %d is not valid UTF-8", i)
			}
		}
	}
	for i, f := range v.facets {
		if !utf8.ValidString(f.Key) || !utf8.ValidString(f.Value) {
			return corrupt("facets", -1, "facet %d is not valid UTF-8", i)
		}
	}
	return nil
}

// StrictJSON reports whether b is one JSON value the server can encode:
// well-formed, valid UTF-8 throughout, within jsonv's bounds.
func StrictJSON(b []byte) bool {
	v, errs := jsonv.Parse(b)
	return v != nil && len(errs) == 0
}

// strictJSON is StrictJSON parsing into ps, whose memory the next document
// reuses: CheckText checks thousands of small documents an image, and the
// images of a catalog one after another (strictParsers).
var strictParsers = sync.Pool{New: func() any { return new(jsonv.Parser) }}

func strictJSON(ps *jsonv.Parser, b []byte) bool {
	v, errs := ps.Parse(b)
	return v != nil && len(errs) == 0
}

// verifyRepeated checks the repeated-description flags against the items'
// descriptions (VerifyDeep: a map of every description).
func (img *Image) verifyRepeated() error {
	nc := &img.v.n
	if len(nc.repeated) == 0 {
		return nil
	}
	count := map[string]int{}
	for i := range nc.count {
		if NodeKind(nc.kind[i]) == ItemNode {
			if d := img.NodeString(uint32(i), NodeDescription); d != "" {
				count[d]++
			}
		}
	}
	for i := range nc.count {
		want := NodeKind(nc.kind[i]) == ItemNode && count[img.NodeString(uint32(i), NodeDescription)] > 1
		if (nc.repeated[i] == 1) != want {
			return corrupt("nodes.repeated_description", -1, "node %d is flagged %d, but its description is repeated: %v", i, nc.repeated[i], want)
		}
	}
	return nil
}
