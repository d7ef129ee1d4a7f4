package gate

import (
	"crypto/sha256"
	"sort"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/manifest"
)

// partitionAlgorithm is the provenance index's partition rule, verbatim.
const partitionAlgorithm = "SHA256(UTF8(relationship_id))[0] modulo 64"

// Partition returns the provenance shard of a relationship ID.
func Partition(relationshipID string) int {
	sum := sha256.Sum256([]byte(relationshipID))
	return int(sum[0]) % manifest.ShardCount
}

// provRecord is one per-edge provenance record from a shard.
type provRecord struct {
	shard     int
	canonical []byte
	decision  string
	source    string
	target    string
}

// lpEvidence holds the progression evidence read from the shards and the
// original provenance map.
type lpEvidence struct {
	records  map[string]*provRecord
	shardLen [manifest.ShardCount]int
	shardOK  [manifest.ShardCount]bool
	original map[string][32]byte
}

func (s *state) lp() *lpEvidence {
	if s.evidence == nil {
		s.evidence = &lpEvidence{records: map[string]*provRecord{}}
	}
	return s.evidence
}

func str(v *jsonv.Value, path ...string) string {
	for _, p := range path {
		v = v.Get(p)
	}
	if v == nil || v.Kind != jsonv.String {
		return ""
	}
	return v.Str
}

// keepShard records the entries of provenance shard k (a document whose
// top-level value is of kind top), checking that each entry belongs to this
// shard and to no other.
func (s *state) keepShard(k int, name, path string, top jsonv.Kind, entries []shardEntry) {
	ev := s.lp()
	if top != jsonv.Object {
		s.add(finding.New(finding.SchemaWrongType, "%s must be a JSON object keyed by relationship ID, not %s", name, top).WithStage(finding.StageProgressions).At(name, path))
		s.usable[name] = false
		return
	}
	ev.shardOK[k] = true
	ev.shardLen[k] = len(entries)
	for _, e := range entries {
		if want := Partition(e.key); want != k {
			s.add(finding.New(finding.ProgressionShardMisplaced, "provenance record %s is in shard %02d but belongs in shard %02d", e.key, k, want).At(name, path).For(e.key))
		}
		if prev, dup := ev.records[e.key]; dup {
			s.add(finding.New(finding.ProgressionShardDuplicate, "provenance record %s is in shards %02d and %02d", e.key, prev.shard, k).At(name, path).For(e.key))
			continue
		}
		ev.records[e.key] = e.rec
	}
}

// keepOriginalProvenance keeps the original map's entry digests (original,
// of a document whose top-level value is of kind top).
func (s *state) keepOriginalProvenance(path string, top jsonv.Kind, original map[string][32]byte) {
	if top != jsonv.Object {
		s.add(finding.New(finding.SchemaWrongType, "the original provenance map must be a JSON object keyed by relationship ID, not %s", top).WithStage(finding.StageProgressions).At(manifest.LPProvenance, path))
		s.usable[manifest.LPProvenance] = false
		return
	}
	s.lp().original = original
}

// shardsUsable reports whether every provenance shard could be read.
func (s *state) shardsUsable() bool {
	for k := 0; k < manifest.ShardCount; k++ {
		if !s.usable[manifest.ShardName(k)] {
			return false
		}
	}
	return true
}

// checkProvenance checks the index against the manifest and the shards, the
// union of the shards against the original map, and each record against its
// edge.
func (s *state) checkProvenance(g *graph, lpEdges []int) {
	m := s.res.Manifest
	ev := s.evidence
	shardsUsable := s.shardsUsable()
	if d := s.docs[manifest.LPProvenanceIndex]; d != nil {
		s.checkIndex(d, ev, shardsUsable)
	}
	if !shardsUsable || ev == nil {
		return
	}
	if s.need(manifest.LPProvenance) && ev.original != nil {
		var ids []string
		for id := range ev.original {
			ids = append(ids, id)
		}
		for id := range ev.records {
			if _, ok := ev.original[id]; !ok {
				ids = append(ids, id)
			}
		}
		sort.Strings(ids)
		path := m.Path(manifest.LPProvenance)
		for _, id := range ids {
			orig, inOrig := ev.original[id]
			rec, inShard := ev.records[id]
			switch {
			case !inShard:
				s.add(finding.New(finding.ProgressionUnionMismatch, "provenance record %s is in the original map but in no shard", id).At(manifest.LPProvenance, path).For(id))
			case !inOrig:
				s.add(finding.New(finding.ProgressionUnionMismatch, "provenance record %s is in shard %02d but not in the original map", id, rec.shard).At(manifest.LPProvenance, path).For(id))
			case sha256.Sum256(rec.canonical) != orig:
				s.add(finding.New(finding.ProgressionUnionMismatch, "provenance record %s in shard %02d differs from the original map's entry", id, rec.shard).At(manifest.LPProvenance, path).For(id))
			}
		}
	}
	edges := map[string]bool{}
	for _, ri := range lpEdges {
		r := g.rels[ri]
		edges[r.ID] = true
		rec, ok := ev.records[r.ID]
		if !ok {
			s.relFinding(finding.ProgressionProvenanceMissing, r, "%s edge %s has no provenance record (shard %02d)", r.Label, r.ID, Partition(r.ID))
			continue
		}
		src := g.nodes[g.src[ri]].Str(delivery.NCaseIdentifierUUID)
		tgt := g.nodes[g.tgt[ri]].Str(delivery.NCaseIdentifierUUID)
		if rec.decision != r.Label || rec.source != src || rec.target != tgt {
			s.relFinding(finding.ProgressionProvenanceMismatch, r, "provenance record says %s %s → %s; the edge is %s %s → %s", rec.decision, rec.source, rec.target, r.Label, src, tgt)
		}
	}
	var unknown []string
	for id := range ev.records {
		if !edges[id] {
			unknown = append(unknown, id)
		}
	}
	sort.Strings(unknown)
	for _, id := range unknown {
		rec := ev.records[id]
		name := manifest.ShardName(rec.shard)
		s.add(finding.New(finding.ProgressionProvenanceUnknown, "provenance record %s names no progression edge", id).At(name, m.Path(name)).For(id))
	}
	s.res.Provenance = make(map[string][]byte, len(ev.records))
	for id, rec := range ev.records {
		s.res.Provenance[id] = rec.canonical
	}
}

// checkIndex checks the provenance index
// (docs/reference/package-format.md#learning-progressions).
func (s *state) checkIndex(d *doc, ev *lpEvidence, shardsUsable bool) {
	m := s.res.Manifest
	bad := func(field, format string, args ...any) {
		s.docFinding(d, finding.ProgressionIndexInvalid, field, format, args...)
	}
	v := d.v
	if v.Kind != jsonv.Object {
		bad("", "the provenance index must be a JSON object")
		return
	}
	if str(v, "formatVersion") != "1.0" {
		bad("formatVersion", "formatVersion must be \"1.0\"")
	}
	if str(v, "originalProvenanceLogicalName") != manifest.LPProvenance {
		bad("originalProvenanceLogicalName", "originalProvenanceLogicalName must be %q", manifest.LPProvenance)
	}
	if got, want := str(v, "originalProvenanceSha256"), m.Checksums[m.Path(manifest.LPProvenance)]; got != want {
		bad("originalProvenanceSha256", "originalProvenanceSha256 %q differs from the manifest's checksum %q of the original map", got, want)
	}
	if str(v, "partitionAlgorithm") != partitionAlgorithm {
		bad("partitionAlgorithm", "partitionAlgorithm must be %q", partitionAlgorithm)
	}
	if n, ok := jsonv.IntOf(v.Get("partitionCount")); !ok || n != manifest.ShardCount {
		bad("partitionCount", "partitionCount must be %d", manifest.ShardCount)
	}
	parts := v.Get("partitions")
	if parts == nil || parts.Kind != jsonv.Object {
		bad("partitions", "partitions must be an object keyed by shard name")
		return
	}
	for _, mem := range parts.Obj {
		if _, ok := manifest.ShardIndex(mem.Key); !ok {
			bad("partitions."+mem.Key, "partition %q is not a shard name", mem.Key)
		}
	}
	for k := 0; k < manifest.ShardCount; k++ {
		name := manifest.ShardName(k)
		p := parts.Get(name)
		field := "partitions." + name
		if p == nil || p.Kind != jsonv.Object {
			bad(field, "partition %s is missing", name)
			continue
		}
		path := m.Path(name)
		if got := str(p, "artifactPath"); got != path {
			bad(field+".artifactPath", "partition %s path %q differs from the manifest's %q", name, got, path)
		}
		if got := str(p, "sha256"); got != m.Checksums[path] {
			bad(field+".sha256", "partition %s sha256 %q differs from the manifest's %q", name, got, m.Checksums[path])
		}
		n, ok := jsonv.IntOf(p.Get("entryCount"))
		if !ok || n < 0 {
			bad(field+".entryCount", "partition %s entryCount must be a non-negative integer", name)
		} else if shardsUsable && ev != nil && ev.shardOK[k] && int(n) != ev.shardLen[k] {
			bad(field+".entryCount", "partition %s entryCount is %d but the shard holds %d records", name, n, ev.shardLen[k])
		}
	}
}
