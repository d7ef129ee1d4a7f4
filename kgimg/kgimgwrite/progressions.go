package kgimgwrite

import (
	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/excerpt"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/lpsummary"
	"github.com/kgc-project/kgc/schema/manifest"
)

// progressionSummary derives the public learning-progression summary stored in
// the image: the counts and coverage of the progression reports, the validation
// verdict and excerpted warnings, and per-edge warning totals from the stored
// provenance. Unknown values stay nil. Nothing private (candidate text,
// rationale, prompts, paths) is copied. It returns nil for a package without
// progressions.
func progressionSummary(res *gate.Result) *lpsummary.Summary {
	if !res.Manifest.Capabilities.HasLearningProgressions {
		return nil
	}
	summary := parsed(res.ProgressionReports[manifest.LPSummary])
	validation := parsed(res.ProgressionReports[manifest.LPValidation])
	unresolved := parsed(res.ProgressionReports[manifest.LPUnresolved])

	out := &lpsummary.Summary{
		EligibleSfisPerRelationship:       lpsummary.EligibleRows(summary.Get("eligible_sfis_per_relationship")),
		ExclusionReasonCounts:             lpsummary.ExclusionRows(summary.Get("exclusion_reason_counts")),
		TotalSfisConsidered:               intOrNil(summary.Get("total_sfis_considered")),
		TotalSfisEligible:                 intOrNil(summary.Get("total_sfis_eligible")),
		TotalSfisExcluded:                 intOrNil(summary.Get("total_sfis_excluded")),
		ValidationPassed:                  boolOrNil(validation.Get("passed")),
		SemanticValidationPerformed:       boolOrNil(validation.Get("semantic_validation_performed")),
		PedagogicalCorrectnessEstablished: boolOrNil(validation.Get("pedagogical_correctness_established")),
		SemanticScopeNotice:               lpsummary.DefaultScopeNotice,
	}
	for _, k := range manifest.LPObjectCountKeys {
		for _, src := range []*jsonv.Value{summary, validation} {
			if n := intOrNil(src.Get("object_counts").Get(k)); n != nil {
				*out.ObjectCounts.Field(k) = n
				break
			}
		}
	}
	if n := validation.Get("semantic_scope_notice"); n != nil && n.Kind == jsonv.String {
		out.SemanticScopeNotice = n.Str
	}
	warnings := validation.Get("warnings")
	var texts []string
	if warnings != nil && warnings.Kind == jsonv.Array {
		for _, w := range warnings.Arr {
			if w.Kind == jsonv.String {
				texts = append(texts, w.Str)
			} else {
				texts = append(texts, string(canonjson.Encode(w)))
			}
		}
	}
	excerpts, excerpted, omitted := excerpt.List(texts, lpsummary.MaxWarningExcerpts, lpsummary.MaxWarningExcerptChars)
	out.ValidationWarningCount = int64(len(texts))
	out.ValidationWarningExcerpts, out.ValidationWarningsExcerpted, out.ValidationWarningsOmitted = excerpts, excerpted, int64(omitted)

	// Unresolved claims: how many, and how many distinct standards take part.
	out.UnresolvedClaimCount, out.UnresolvedSfiCount = unresolvedParticipation(unresolved)

	for _, rec := range res.Provenance {
		if n := len(judgmentWarnings(parsed(rec))); n > 0 {
			out.RelationshipWarningCount += int64(n)
			out.RelationshipsWithWarningsCount++
		}
	}
	return out
}

// parsed parses canonical JSON the gate accepted; nil input gives a null value.
func parsed(b []byte) *jsonv.Value {
	if b == nil {
		return nil
	}
	v, _ := jsonv.Parse(b)
	return v
}

func intOrNil(v *jsonv.Value) *int64 {
	if n, ok := jsonv.IntOf(v); ok {
		return &n
	}
	return nil
}

func boolOrNil(v *jsonv.Value) *bool {
	if v != nil && v.Kind == jsonv.Bool {
		b := v.Bool
		return &b
	}
	return nil
}

// unresolvedParticipation counts the unresolved claims and the distinct
// standards they name; both null without the report.
func unresolvedParticipation(v *jsonv.Value) (claims, sfis *int64) {
	list := v.Get("claims")
	if list == nil || list.Kind != jsonv.Array {
		return nil, nil
	}
	seen := map[string]bool{}
	for _, c := range list.Arr {
		for _, k := range []string{"first_sfi_uuid", "second_sfi_uuid"} {
			if s := c.Get(k); s != nil && s.Kind == jsonv.String {
				seen[s.Str] = true
			}
		}
	}
	c, n := int64(len(list.Arr)), int64(len(seen))
	return &c, &n
}

// judgmentWarnings returns the warnings of a provenance record's judgment.
func judgmentWarnings(rec *jsonv.Value) []*jsonv.Value {
	w := rec.Get("claim").Get("judgment").Get("warnings")
	if w == nil || w.Kind != jsonv.Array {
		return nil
	}
	return w.Arr
}
