// Package lpsummaryfb stores a learning-progression summary in its compiled
// form, the kgfb.CompiledProgressionSummary table of an image. The compiler
// writes it once (Build); the server copies it into an lpsummary.Summary at
// open (Decode).
package lpsummaryfb

import (
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/kgimg/internal/fbkit"
	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/schema/lpsummary"
	"github.com/kgc-project/kgc/schema/manifest"
)

// Field numbers (schema order from 0) of the vectors Decode reads through
// presence; the round-trip test catches a wrong number.
const (
	fEligible  = 1
	fExclusion = 2
	fExcerpts  = 11
)

// Build writes s as a CompiledProgressionSummary table into b and returns its
// offset: every object count (absent when unknown), optional values exactly
// when known, lists exactly when s has them, so Decode gives back s.
func Build(b *flatbuffers.Builder, s *lpsummary.Summary) flatbuffers.UOffsetT {
	w := fbkit.Builder{B: b}
	counts := make([]flatbuffers.UOffsetT, len(manifest.LPObjectCountKeys))
	for i, k := range manifest.LPObjectCountKeys {
		key := b.CreateString(k)
		kgfb.ProgressionObjectCountStart(b)
		kgfb.ProgressionObjectCountAddKey(b, key)
		if n := *s.ObjectCounts.Field(k); n != nil {
			kgfb.ProgressionObjectCountAddCount(b, *n)
		}
		counts[i] = kgfb.ProgressionObjectCountEnd(b)
	}
	objectCounts := w.Offsets(counts, true)
	eligible := make([]flatbuffers.UOffsetT, len(s.EligibleSfisPerRelationship))
	for i, r := range s.EligibleSfisPerRelationship {
		eligible[i] = row(w, r.Label, "", r.Count)
	}
	eligibleVec := w.Offsets(eligible, s.EligibleSfisPerRelationship != nil)
	exclusion := make([]flatbuffers.UOffsetT, len(s.ExclusionReasonCounts))
	for i, r := range s.ExclusionReasonCounts {
		exclusion[i] = row(w, r.Label, r.Reason, r.Count)
	}
	exclusionVec := w.Offsets(exclusion, s.ExclusionReasonCounts != nil)
	notice := w.Str(s.SemanticScopeNotice)
	excerpts := w.Strs(s.ValidationWarningExcerpts)

	kgfb.CompiledProgressionSummaryStart(b)
	kgfb.CompiledProgressionSummaryAddObjectCounts(b, objectCounts)
	kgfb.CompiledProgressionSummaryAddEligibleSfisPerRelationship(b, eligibleVec)
	kgfb.CompiledProgressionSummaryAddExclusionReasonCounts(b, exclusionVec)
	optInt(b, s.TotalSfisConsidered, kgfb.CompiledProgressionSummaryAddTotalSfisConsidered)
	optInt(b, s.TotalSfisEligible, kgfb.CompiledProgressionSummaryAddTotalSfisEligible)
	optInt(b, s.TotalSfisExcluded, kgfb.CompiledProgressionSummaryAddTotalSfisExcluded)
	optBool(b, s.ValidationPassed, kgfb.CompiledProgressionSummaryAddValidationPassed)
	optBool(b, s.SemanticValidationPerformed, kgfb.CompiledProgressionSummaryAddSemanticValidationPerformed)
	optBool(b, s.PedagogicalCorrectnessEstablished, kgfb.CompiledProgressionSummaryAddPedagogicalCorrectnessEstablished)
	kgfb.CompiledProgressionSummaryAddSemanticScopeNotice(b, notice)
	kgfb.CompiledProgressionSummaryAddValidationWarningCount(b, s.ValidationWarningCount)
	kgfb.CompiledProgressionSummaryAddValidationWarningExcerpts(b, excerpts)
	kgfb.CompiledProgressionSummaryAddValidationWarningsExcerpted(b, s.ValidationWarningsExcerpted)
	kgfb.CompiledProgressionSummaryAddValidationWarningsOmitted(b, s.ValidationWarningsOmitted)
	optInt(b, s.UnresolvedClaimCount, kgfb.CompiledProgressionSummaryAddUnresolvedClaimCount)
	optInt(b, s.UnresolvedSfiCount, kgfb.CompiledProgressionSummaryAddUnresolvedSfiCount)
	kgfb.CompiledProgressionSummaryAddRelationshipWarningCount(b, s.RelationshipWarningCount)
	kgfb.CompiledProgressionSummaryAddRelationshipsWithWarningsCount(b, s.RelationshipsWithWarningsCount)
	return kgfb.CompiledProgressionSummaryEnd(b)
}

func row(w fbkit.Builder, label, reason string, n int64) flatbuffers.UOffsetT {
	l, r := w.Str(label), w.Str(reason)
	kgfb.ProgressionCountStart(w.B)
	kgfb.ProgressionCountAddLabel(w.B, l)
	kgfb.ProgressionCountAddReason(w.B, r)
	kgfb.ProgressionCountAddCount(w.B, n)
	return kgfb.ProgressionCountEnd(w.B)
}

func optInt(b *flatbuffers.Builder, v *int64, add func(*flatbuffers.Builder, int64)) {
	if v != nil {
		add(b, *v)
	}
}

func optBool(b *flatbuffers.Builder, v *bool, add func(*flatbuffers.Builder, bool)) {
	if v != nil {
		add(b, *v)
	}
}

// Decode copies a compiled summary into an lpsummary.Summary equal to the one
// Build was given; it never points into c's buffer. An object count under a
// key the summary does not define is an error (a crafted image).
func Decode(c *kgfb.CompiledProgressionSummary) (*lpsummary.Summary, error) {
	t := c.Table()
	s := &lpsummary.Summary{
		TotalSfisConsidered:               c.TotalSfisConsidered(),
		TotalSfisEligible:                 c.TotalSfisEligible(),
		TotalSfisExcluded:                 c.TotalSfisExcluded(),
		ValidationPassed:                  c.ValidationPassed(),
		SemanticValidationPerformed:       c.SemanticValidationPerformed(),
		PedagogicalCorrectnessEstablished: c.PedagogicalCorrectnessEstablished(),
		SemanticScopeNotice:               string(c.SemanticScopeNotice()),
		ValidationWarningCount:            c.ValidationWarningCount(),
		ValidationWarningExcerpts:         fbkit.StrsAt(t, fExcerpts),
		ValidationWarningsExcerpted:       c.ValidationWarningsExcerpted(),
		ValidationWarningsOmitted:         c.ValidationWarningsOmitted(),
		UnresolvedClaimCount:              c.UnresolvedClaimCount(),
		UnresolvedSfiCount:                c.UnresolvedSfiCount(),
		RelationshipWarningCount:          c.RelationshipWarningCount(),
		RelationshipsWithWarningsCount:    c.RelationshipsWithWarningsCount(),
	}
	var oc kgfb.ProgressionObjectCount
	for i := range c.ObjectCountsLength() {
		c.ObjectCounts(&oc, i)
		f := s.ObjectCounts.Field(string(oc.Key()))
		if f == nil {
			return nil, fmt.Errorf("the compiled progression summary has an unknown object count %.64q", oc.Key())
		}
		*f = oc.Count()
	}
	var r kgfb.ProgressionCount
	s.EligibleSfisPerRelationship = fbkit.Slice[lpsummary.RelationshipCount](t, fEligible)
	for i := range s.EligibleSfisPerRelationship {
		c.EligibleSfisPerRelationship(&r, i)
		s.EligibleSfisPerRelationship[i] = lpsummary.RelationshipCount{Label: string(r.Label()), Count: r.Count()}
	}
	s.ExclusionReasonCounts = fbkit.Slice[lpsummary.ExclusionCount](t, fExclusion)
	for i := range s.ExclusionReasonCounts {
		c.ExclusionReasonCounts(&r, i)
		s.ExclusionReasonCounts[i] = lpsummary.ExclusionCount{Label: string(r.Label()), Reason: string(r.Reason()), Count: r.Count()}
	}
	return s, nil
}
