package gate

import (
	"bytes"
	"crypto/sha256"
	"strings"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/manifest"
)

// scanDocument reads the detailed documents that can be large (maps keyed by
// relationship or node ID, the final claims, the bundles) part by part
// (jsonv's Scan: one top-level entry's tree at a time, in reused memory),
// keeping only what later checks need from each entry. The findings are
// those of parsing the document whole and then keeping what it holds
// (keepDocument): the parts are collected and kept only when the document
// parsed without a problem. It reports false for a document it does not
// scan.
//
// The million-standard benchmark package's relationship provenance map is
// 172 MB and its final claims 99 MB; parsed whole, each was a tree of some
// ten million values, built and collected while the delivery files were
// decoded beside it.
func (s *state) scanDocument(name, path string, b []byte) bool {
	var (
		split  func(key string) bool
		keep   func(p jsonv.Part)
		commit func(top jsonv.Kind)
		buf    []byte // one entry's canonical JSON
	)
	canonical := func(v *jsonv.Value) []byte {
		buf = canonjson.AppendValue(buf[:0], v)
		return buf
	}
	if k, ok := manifest.ShardIndex(name); ok {
		var entries []shardEntry
		keep = func(p jsonv.Part) {
			if p.KeyOff < 0 {
				return // not a member of a top-level object
			}
			entries = append(entries, shardEntry{key: strings.Clone(p.Key), rec: &provRecord{
				shard:     k,
				canonical: bytes.Clone(canonical(p.Val)),
				decision:  cloneLabel(str(p.Val, "claim", "judgment", "decision")),
				source:    strings.Clone(str(p.Val, "claim", "source_sfi_uuid")),
				target:    strings.Clone(str(p.Val, "claim", "target_sfi_uuid")),
			}})
		}
		commit = func(top jsonv.Kind) { s.keepShard(k, name, path, top, entries) }
	} else {
		switch name {
		case manifest.LPProvenance:
			original := map[string][32]byte{}
			keep = func(p jsonv.Part) {
				if p.KeyOff >= 0 {
					original[strings.Clone(p.Key)] = sha256.Sum256(canonical(p.Val))
				}
			}
			commit = func(top jsonv.Kind) { s.keepOriginalProvenance(path, top, original) }
		case manifest.EntityProvenance, manifest.LearningComponentProvenance:
			var keys []jsonv.Member
			var entries [][]byte
			keep = func(p jsonv.Part) {
				if p.KeyOff >= 0 {
					keys = append(keys, jsonv.Member{Key: strings.Clone(p.Key), KeyOff: p.KeyOff})
					entries = append(entries, bytes.Clone(canonical(p.Val)))
				}
			}
			commit = func(top jsonv.Kind) { s.keepEntityProvenance(name, path, top, keys, entries) }
		case manifest.LPFinalClaims:
			claims := &finalClaims{}
			split = func(key string) bool { return key == "claims" }
			keep = func(p jsonv.Part) { claims.keep(p) }
			commit = func(top jsonv.Kind) {
				if top != jsonv.Object || !claims.isArray {
					claims = nil
				}
				s.docs[name] = &doc{name: name, path: path, v: &jsonv.Value{Kind: top}, claims: claims}
			}
		case manifest.AcademicStandardsBundle, manifest.LearningComponentsBundle,
			manifest.LearningComponentDedupGroups, manifest.LearningComponentSummary:
			// Well-formed JSON is all the gate asks of these bundles.
			keep, commit = func(jsonv.Part) {}, func(jsonv.Kind) {}
		default:
			return false
		}
	}
	var is jsonv.Issues
	top := manifest.ScanDocument(&s.ps, b, &is, split, keep)
	if is.Len() > 0 {
		s.add(finding.FromIssues(is.List, stageOf(name), name, path)...)
		s.usable[name] = false
		return true
	}
	commit(top)
	return true
}

// cloneLabel returns a copy of s, or the constant equal to it when s names a
// progression type (as nearly every provenance decision does).
func cloneLabel(s string) string {
	switch s {
	case delivery.BuildsTowards:
		return delivery.BuildsTowards
	case delivery.RelatesTo:
		return delivery.RelatesTo
	}
	return strings.Clone(s)
}

// shardEntry is one record of a provenance shard, by relationship ID.
type shardEntry struct {
	key string
	rec *provRecord
}

// keepEntityProvenance keeps a detailed provenance map's keys (with their
// offsets) for the entry checks and each entry's canonical JSON for the
// image.
func (s *state) keepEntityProvenance(name, path string, top jsonv.Kind, keys []jsonv.Member, entries [][]byte) {
	if top != jsonv.Object {
		s.add(finding.New(finding.SchemaWrongType, "%s must be a JSON object keyed by node ID, not %s", name, top).WithStage(finding.StageReport).At(name, path))
		s.usable[name] = false
		return
	}
	s.docs[name] = &doc{name: name, path: path, v: &jsonv.Value{Kind: jsonv.Object, Obj: keys}}
	if s.res.EntityProvenance == nil {
		s.res.EntityProvenance = map[string][]byte{}
	}
	for i, m := range keys {
		s.res.EntityProvenance[m.Key] = entries[i]
	}
}

// finalClaims is what the claim checks read of the final claims document:
// whether its claims member is an array, and each claim's fields.
type finalClaims struct {
	isArray bool
	list    []finalClaim
	// labels shares the decisions' and directions' few distinct values.
	labels map[string]string
}

// finalClaim holds a claim's string fields ("" when absent or not a string).
type finalClaim struct {
	pair, first, second, decision, direction string
}

func (c *finalClaims) keep(p jsonv.Part) {
	if p.Key != "claims" || p.KeyOff < 0 {
		return
	}
	if p.Index < 0 {
		// The claims member itself (the first; a repeated key makes the
		// document unusable): an array handed out empty, its elements next.
		c.isArray = p.Val.Kind == jsonv.Array
		return
	}
	c.list = append(c.list, finalClaim{
		pair: strings.Clone(str(p.Val, "pair_id")), first: strings.Clone(str(p.Val, "first_sfi_uuid")), second: strings.Clone(str(p.Val, "second_sfi_uuid")),
		decision: c.label(str(p.Val, "decision")), direction: c.label(str(p.Val, "direction")),
	})
}

// label returns a copy of s shared with every equal value before it.
func (c *finalClaims) label(s string) string {
	if l, ok := c.labels[s]; ok {
		return l
	}
	if c.labels == nil {
		c.labels = map[string]string{}
	}
	l := strings.Clone(s)
	if len(c.labels) < 64 {
		c.labels[l] = l
	}
	return l
}
