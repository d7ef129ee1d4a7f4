package kgimgwrite

import (
	"encoding/json"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/excerpt"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/manifest"
)

// Excerpt bounds of the stored progression summary (the learning_progressions
// resource, docs/reference/resources.md#learning_progressions).
const (
	maxWarningExcerpts     = 5
	maxWarningExcerptChars = 512
)

const defaultScopeNotice = "Validation covers structural and process integrity only; it does not establish pedagogical correctness."

// progressionSummary derives the public learning-progression summary stored in
// the image: the counts and coverage of the progression reports, the validation
// verdict and excerpted warnings, and per-edge warning totals from the stored
// provenance. Unknown values stay null. Nothing private (candidate text,
// rationale, prompts, paths) is copied. It returns nil for a package without
// progressions.
func progressionSummary(res *gate.Result) ([]byte, error) {
	if !res.Manifest.Capabilities.HasLearningProgressions {
		return nil, nil
	}
	summary := parsed(res.ProgressionReports[manifest.LPSummary])
	validation := parsed(res.ProgressionReports[manifest.LPValidation])
	unresolved := parsed(res.ProgressionReports[manifest.LPUnresolved])

	counts := map[string]any{}
	for _, k := range manifest.LPObjectCountKeys {
		counts[k] = nil
		for _, src := range []*jsonv.Value{summary, validation} {
			if n, ok := jsonv.IntOf(src.Get("object_counts").Get(k)); ok {
				counts[k] = n
				break
			}
		}
	}
	out := map[string]any{
		"objectCounts":                      counts,
		"eligibleSfisPerRelationship":       eligibleRows(summary.Get("eligible_sfis_per_relationship")),
		"exclusionReasonCounts":             rawOrNil(summary.Get("exclusion_reason_counts")),
		"totalSfisConsidered":               intOrNil(summary.Get("total_sfis_considered")),
		"totalSfisEligible":                 intOrNil(summary.Get("total_sfis_eligible")),
		"totalSfisExcluded":                 intOrNil(summary.Get("total_sfis_excluded")),
		"needsReviewClaims":                 counts["needs_review_claims"],
		"noRelationClaims":                  counts["no_relation_claims"],
		"unresolvedWarningPairs":            counts["unresolved_warning_pairs"],
		"validationPassed":                  boolOrNil(validation.Get("passed")),
		"semanticValidationPerformed":       boolOrNil(validation.Get("semantic_validation_performed")),
		"pedagogicalCorrectnessEstablished": boolOrNil(validation.Get("pedagogical_correctness_established")),
		"semanticScopeNotice":               defaultScopeNotice,
	}
	if n := validation.Get("semantic_scope_notice"); n != nil && n.Kind == jsonv.String {
		out["semanticScopeNotice"] = n.Str
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
	excerpts, excerpted, omitted := excerpt.List(texts, maxWarningExcerpts, maxWarningExcerptChars)
	out["validationWarningCount"] = len(texts)
	out["validationWarningExcerpts"] = excerpts
	out["validationWarningsExcerpted"] = excerpted
	out["validationWarningsOmitted"] = omitted

	// Unresolved claims: how many, and how many distinct standards take part.
	claims, sfis := unresolvedParticipation(unresolved)
	out["unresolvedClaimCount"] = claims
	out["unresolvedSfiCount"] = sfis

	edgeWarnings, withWarnings := 0, 0
	for _, rec := range res.Provenance {
		if n := len(judgmentWarnings(parsed(rec))); n > 0 {
			edgeWarnings += n
			withWarnings++
		}
	}
	out["relationshipWarningCount"] = edgeWarnings
	out["relationshipsWithWarningsCount"] = withWarnings
	return canonjson.Marshal(out)
}

// parsed parses canonical JSON the gate accepted; nil input gives a null value.
func parsed(b []byte) *jsonv.Value {
	if b == nil {
		return nil
	}
	v, _ := jsonv.Parse(b)
	return v
}

func eligibleRows(v *jsonv.Value) any {
	if v == nil || v.Kind != jsonv.Array {
		return nil
	}
	rows := []any{}
	for _, row := range v.Arr {
		if row.Kind != jsonv.Array || len(row.Arr) != 2 || row.Arr[0].Kind != jsonv.String {
			continue
		}
		label := row.Arr[0].Str
		n, ok := jsonv.IntOf(row.Arr[1])
		if ok && (label == "buildsTowards" || label == "relatesTo") {
			rows = append(rows, []any{label, n})
		}
	}
	return rows
}

func rawOrNil(v *jsonv.Value) any {
	if v == nil || v.Kind == jsonv.Null {
		return nil
	}
	return json.RawMessage(canonjson.Encode(v))
}

func intOrNil(v *jsonv.Value) any {
	if n, ok := jsonv.IntOf(v); ok {
		return n
	}
	return nil
}

func boolOrNil(v *jsonv.Value) any {
	if v != nil && v.Kind == jsonv.Bool {
		return v.Bool
	}
	return nil
}

// unresolvedParticipation counts the unresolved claims and the distinct
// standards they name; both null without the report.
func unresolvedParticipation(v *jsonv.Value) (claims, sfis any) {
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
	return len(list.Arr), len(seen)
}

// judgmentWarnings returns the warnings of a provenance record's judgment.
func judgmentWarnings(rec *jsonv.Value) []*jsonv.Value {
	w := rec.Get("claim").Get("judgment").Get("warnings")
	if w == nil || w.Kind != jsonv.Array {
		return nil
	}
	return w.Arr
}
