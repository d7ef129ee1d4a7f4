package gate

import (
	"strings"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/manifest"
)

// derivedLPCounts returns the object counts the gate can derive itself.
func (s *state) derivedLPCounts(g *graph, t *claimTally) map[string]int {
	c := map[string]int{
		"builds_towards_relationships": len(g.builds),
		"relates_to_relationships":     len(g.relates),
		"relationships":                len(g.builds) + len(g.relates),
	}
	if s.evidence != nil && len(s.evidence.records) > 0 && s.shardsUsable() {
		// Only from every shard: a count from the readable ones would make the
		// reports disagree with the package for a shard already reported.
		c["relationship_provenance"] = len(s.evidence.records)
	}
	if t != nil {
		c["final_claims"] = t.total
		c["builds_towards_claims"] = t.builds
		c["relates_to_claims"] = t.relates
		c["no_relation_claims"] = t.noRelation
		c["needs_review_claims"] = t.needsReview
		c["accepted_claims"] = t.builds + t.relates
		c["nonpublishing_claims"] = t.noRelation + t.needsReview
	}
	return c
}

// compareCounts compares an object_counts member with the derived counts.
func (s *state) compareCounts(d *doc, code finding.Code, counts *jsonv.Value, derived map[string]int, allowUnknown bool) {
	if counts == nil || counts.Kind != jsonv.Object {
		s.docFinding(d, code, "object_counts", "object_counts must be an object")
		return
	}
	for _, m := range counts.Obj {
		known := false
		for _, k := range manifest.LPObjectCountKeys {
			known = known || k == m.Key
		}
		if !known && !allowUnknown {
			s.docFinding(d, code, "object_counts."+m.Key, "object_counts.%s is not a progression count", m.Key)
			continue
		}
		if m.Val.Kind == jsonv.Null {
			continue
		}
		n, ok := jsonv.IntOf(m.Val)
		if !ok || n < 0 {
			s.docFinding(d, code, "object_counts."+m.Key, "object_counts.%s must be a non-negative integer or null", m.Key)
			continue
		}
		if want, ok := derived[m.Key]; ok && int(n) != want {
			s.docFinding(d, code, "object_counts."+m.Key, "object_counts.%s is %d but the package has %d", m.Key, n, want)
		}
	}
}

// checkLPReports checks the progression validation report, unresolved report,
// normalization receipt and generation summary against the package.
func (s *state) checkLPReports(g *graph, t *claimTally) {
	derived := s.derivedLPCounts(g, t)
	if d := s.docs[manifest.LPValidation]; d != nil {
		if p := d.v.Get("passed"); p == nil || p.Kind != jsonv.Bool || !p.Bool {
			s.docFinding(d, finding.ProgressionReportMismatch, "passed", "the progression validation report must say passed: true")
		}
		if e := d.v.Get("errors"); e == nil || e.Kind != jsonv.Array || len(e.Arr) != 0 {
			s.docFinding(d, finding.ProgressionReportMismatch, "errors", "the progression validation report's errors must be an empty array")
		}
		if n, ok := jsonv.IntOf(d.v.Get("cycle_diagnostics").Get("cyclic_edge_count")); ok && n != 0 {
			s.docFinding(d, finding.ProgressionReportMismatch, "cycle_diagnostics.cyclic_edge_count", "the report records %d cyclic edges", n)
		}
		s.compareCounts(d, finding.ProgressionReportMismatch, d.v.Get("object_counts"), derived, true)
	}
	if d := s.docs[manifest.LPUnresolved]; d != nil && t != nil {
		claims := d.v.Get("claims")
		if claims == nil || claims.Kind != jsonv.Array {
			s.docFinding(d, finding.ProgressionUnresolvedMismatch, "claims", "the progression unresolved report needs a claims array")
		} else {
			if len(claims.Arr) != t.needsReview {
				s.docFinding(d, finding.ProgressionUnresolvedMismatch, "claims", "the report lists %d needs_review claims but the final claims have %d", len(claims.Arr), t.needsReview)
			}
			for i, c := range claims.Arr {
				if id := str(c, "pair_id"); !t.needsReviewPairs[id] {
					s.docFinding(d, finding.ProgressionUnresolvedMismatch, "claims["+itoa(i)+"]", "claim %q is not a needs_review final claim", id)
				}
			}
		}
		if n, ok := jsonv.IntOf(d.v.Get("total_needs_review")); ok && int(n) != t.needsReview {
			s.docFinding(d, finding.ProgressionUnresolvedMismatch, "total_needs_review", "total_needs_review is %d but the final claims have %d needs_review claims", n, t.needsReview)
		}
	}
	if d := s.docs[manifest.LPNormalization]; d != nil {
		s.checkReceipt(d, g)
	}
	if d := s.docs[manifest.LPSummary]; d != nil {
		if counts := d.v.Get("object_counts"); counts != nil {
			s.compareCounts(d, finding.ProgressionSummaryMismatch, counts, derived, false)
		}
		s.checkSummaryRows(d)
	}
}

// checkSummaryRows checks the row tables of the generation summary that the
// image compiles and the statistics tools report: each row of
// eligible_sfis_per_relationship is [relationship type, count] with the type
// buildsTowards or relatesTo, each of exclusion_reason_counts [label, reason,
// count] with non-empty strings, counts non-negative integers. A row of another shape would be left
// out of what is served, so it is refused rather than dropped.
func (s *state) checkSummaryRows(d *doc) {
	table := func(key string, width int, ok func(row []*jsonv.Value) bool, shape string) {
		v := d.v.Get(key)
		if v == nil || v.Kind == jsonv.Null {
			return
		}
		if v.Kind != jsonv.Array {
			s.docFinding(d, finding.ProgressionSummaryMismatch, key, "%s must be an array of %s rows", key, shape)
			return
		}
		for i, row := range v.Arr {
			if row.Kind != jsonv.Array || len(row.Arr) != width || !ok(row.Arr) {
				s.docFinding(d, finding.ProgressionSummaryMismatch, key+"["+itoa(i)+"]", "each row of %s must be %s", key, shape)
			}
		}
	}
	count := func(v *jsonv.Value) bool { n, ok := jsonv.IntOf(v); return ok && n >= 0 }
	label := func(v *jsonv.Value) bool {
		return v.Kind == jsonv.String && (v.Str == delivery.BuildsTowards || v.Str == delivery.RelatesTo)
	}
	table("eligible_sfis_per_relationship", 2, func(r []*jsonv.Value) bool { return label(r[0]) && count(r[1]) },
		`["buildsTowards" or "relatesTo", a non-negative integer]`)
	text := func(v *jsonv.Value) bool { return v.Kind == jsonv.String && v.Str != "" }
	table("exclusion_reason_counts", 3, func(r []*jsonv.Value) bool { return text(r[0]) && text(r[1]) && count(r[2]) },
		`[a label, a reason, a non-negative integer]`)
}

// checkReceipt checks the normalization receipt
// (docs/reference/package-format.md#learning-progressions).
func (s *state) checkReceipt(d *doc, g *graph) {
	m := s.res.Manifest
	bad := func(field, format string, args ...any) {
		s.docFinding(d, finding.ProgressionReceiptMismatch, field, format, args...)
	}
	v := d.v
	if str(v, "formatVersion") != "1.0" {
		bad("formatVersion", "formatVersion must be \"1.0\"")
	}
	if got := str(v, "frameworkId"); got != m.FrameworkID {
		bad("frameworkId", "frameworkId %q differs from the manifest's %q", got, m.FrameworkID)
	}
	if g.root >= 0 {
		if got, want := str(v, "frameworkCaseUuid"), g.nodes[g.root].Str(delivery.NCaseIdentifierUUID); got != want {
			bad("frameworkCaseUuid", "frameworkCaseUuid %q differs from the root's CASE UUID %q", got, want)
		}
	}
	for field, want := range map[string]int{"buildsTowardsRelationships": len(g.builds), "relatesToRelationships": len(g.relates)} {
		if n, ok := jsonv.IntOf(v.Get(field)); !ok || int(n) != want {
			bad(field, "%s must be %d (the stored edges)", field, want)
		}
	}
	if n, ok := jsonv.IntOf(v.Get("asLcRelationshipPrefixBytes")); !ok || n != s.relPrefixBytes {
		bad("asLcRelationshipPrefixBytes", "asLcRelationshipPrefixBytes must be %d, the length of the relationships artifact before its first progression record", s.relPrefixBytes)
	}
	out := v.Get("outputSha256")
	if out == nil || out.Kind != jsonv.Object {
		bad("outputSha256", "outputSha256 must be an object")
		return
	}
	for _, mem := range out.Obj {
		a, ok := m.Artifact(mem.Key)
		if !ok {
			continue
		}
		got := mem.Val.Str
		if !strings.HasPrefix(got, "sha256:") {
			got = "sha256:" + got
		}
		if want := m.Checksums[a.Path]; got != want {
			bad("outputSha256."+mem.Key, "outputSha256.%s differs from the manifest's checksum %s", mem.Key, want)
		}
	}
}
