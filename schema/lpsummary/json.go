package lpsummary

import (
	"fmt"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonv"
)

// MarshalJSON writes the summary as the canonical JSON an image carries in
// progression_summary (docs/reference/kgimg-format.md): camelCase members, the
// three claim counts repeated beside objectCounts, unknown values null.
func (s *Summary) MarshalJSON() ([]byte, error) {
	return canonjson.Marshal(map[string]any{
		"objectCounts":                      s.ObjectCounts,
		"eligibleSfisPerRelationship":       s.EligibleSfisPerRelationship,
		"exclusionReasonCounts":             s.ExclusionReasonCounts,
		"totalSfisConsidered":               s.TotalSfisConsidered,
		"totalSfisEligible":                 s.TotalSfisEligible,
		"totalSfisExcluded":                 s.TotalSfisExcluded,
		"needsReviewClaims":                 s.ObjectCounts.NeedsReviewClaims,
		"noRelationClaims":                  s.ObjectCounts.NoRelationClaims,
		"unresolvedWarningPairs":            s.ObjectCounts.UnresolvedWarningPairs,
		"validationPassed":                  s.ValidationPassed,
		"semanticValidationPerformed":       s.SemanticValidationPerformed,
		"pedagogicalCorrectnessEstablished": s.PedagogicalCorrectnessEstablished,
		"semanticScopeNotice":               s.SemanticScopeNotice,
		"validationWarningCount":            s.ValidationWarningCount,
		"validationWarningExcerpts":         s.ValidationWarningExcerpts,
		"validationWarningsExcerpted":       s.ValidationWarningsExcerpted,
		"validationWarningsOmitted":         s.ValidationWarningsOmitted,
		"unresolvedClaimCount":              s.UnresolvedClaimCount,
		"unresolvedSfiCount":                s.UnresolvedSfiCount,
		"relationshipWarningCount":          s.RelationshipWarningCount,
		"relationshipsWithWarningsCount":    s.RelationshipsWithWarningsCount,
	})
}

// DecodeJSON reads a summary from the progression_summary JSON of an image
// written before the compiled form existed. Every member MarshalJSON writes
// must be present with its type; rows that are not [label, count] or
// [label, reason, count] are dropped (as the compiler drops them).
func DecodeJSON(b []byte) (*Summary, error) {
	v, errs := jsonv.Parse(b)
	if len(errs) > 0 {
		return nil, fmt.Errorf("progression summary: %v", errs[0])
	}
	if v.Kind != jsonv.Object {
		return nil, fmt.Errorf("progression summary: not a JSON object")
	}
	d := decoder{v: v}
	s := &Summary{
		TotalSfisConsidered:               d.optInt("totalSfisConsidered"),
		TotalSfisEligible:                 d.optInt("totalSfisEligible"),
		TotalSfisExcluded:                 d.optInt("totalSfisExcluded"),
		ValidationPassed:                  d.optBool("validationPassed"),
		SemanticValidationPerformed:       d.optBool("semanticValidationPerformed"),
		PedagogicalCorrectnessEstablished: d.optBool("pedagogicalCorrectnessEstablished"),
		SemanticScopeNotice:               d.str("semanticScopeNotice"),
		ValidationWarningCount:            d.int("validationWarningCount"),
		ValidationWarningsExcerpted:       d.bool("validationWarningsExcerpted"),
		ValidationWarningsOmitted:         d.int("validationWarningsOmitted"),
		UnresolvedClaimCount:              d.optInt("unresolvedClaimCount"),
		UnresolvedSfiCount:                d.optInt("unresolvedSfiCount"),
		RelationshipWarningCount:          d.int("relationshipWarningCount"),
		RelationshipsWithWarningsCount:    d.int("relationshipsWithWarningsCount"),
	}
	if counts := d.member("objectCounts", jsonv.Object); counts != nil {
		sub := decoder{v: counts}
		for _, m := range counts.Obj {
			if f := s.ObjectCounts.Field(m.Key); f != nil {
				*f = sub.optInt(m.Key)
			} else {
				sub.fail("objectCounts.%s is not an object count", m.Key)
			}
		}
		if d.err == nil {
			d.err = sub.err
		}
	}
	if ev := d.member("eligibleSfisPerRelationship", jsonv.Array); ev != nil {
		s.EligibleSfisPerRelationship = EligibleRows(ev)
	}
	if xv := d.member("exclusionReasonCounts", jsonv.Array); xv != nil {
		s.ExclusionReasonCounts = ExclusionRows(xv)
	}
	if ex := d.member("validationWarningExcerpts", jsonv.Array); ex != nil {
		s.ValidationWarningExcerpts = []string{}
		for _, e := range ex.Arr {
			if e.Kind != jsonv.String {
				d.fail("validationWarningExcerpts holds a non-string")
				continue
			}
			s.ValidationWarningExcerpts = append(s.ValidationWarningExcerpts, e.Str)
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	return s, nil
}

// EligibleRows reads eligible_sfis_per_relationship rows: [label, count] with
// label buildsTowards or relatesTo; nil when v is not an array.
func EligibleRows(v *jsonv.Value) []RelationshipCount {
	if v == nil || v.Kind != jsonv.Array {
		return nil
	}
	rows := []RelationshipCount{}
	for _, row := range v.Arr {
		if row.Kind != jsonv.Array || len(row.Arr) != 2 || row.Arr[0].Kind != jsonv.String {
			continue
		}
		label := row.Arr[0].Str
		if n, ok := jsonv.IntOf(row.Arr[1]); ok && (label == "buildsTowards" || label == "relatesTo") {
			rows = append(rows, RelationshipCount{Label: label, Count: n})
		}
	}
	return rows
}

// ExclusionRows reads exclusion_reason_counts rows: [label, reason, count];
// nil when v is not an array.
func ExclusionRows(v *jsonv.Value) []ExclusionCount {
	if v == nil || v.Kind != jsonv.Array {
		return nil
	}
	rows := []ExclusionCount{}
	for _, row := range v.Arr {
		if row.Kind != jsonv.Array || len(row.Arr) != 3 || row.Arr[0].Kind != jsonv.String || row.Arr[1].Kind != jsonv.String {
			continue
		}
		if n, ok := jsonv.IntOf(row.Arr[2]); ok {
			rows = append(rows, ExclusionCount{Label: row.Arr[0].Str, Reason: row.Arr[1].Str, Count: n})
		}
	}
	return rows
}

// decoder reads typed members of one object, keeping the first problem.
type decoder struct {
	v   *jsonv.Value
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("progression summary: "+format, args...)
	}
}

// member returns the member key when it has kind k, nil when it is null; a
// missing member or another kind is a failure.
func (d *decoder) member(key string, k jsonv.Kind) *jsonv.Value {
	m := d.v.Get(key)
	switch {
	case m == nil:
		d.fail("%s is missing", key)
	case m.Kind == jsonv.Null:
	case m.Kind != k:
		d.fail("%s has the wrong type", key)
	default:
		return m
	}
	return nil
}

func (d *decoder) optInt(key string) *int64 {
	m := d.member(key, jsonv.Number)
	if m == nil {
		return nil
	}
	n, ok := jsonv.IntOf(m)
	if !ok {
		d.fail("%s is not an integer", key)
		return nil
	}
	return &n
}

func (d *decoder) int(key string) int64 {
	n := d.optInt(key)
	if n == nil {
		d.fail("%s is null", key)
		return 0
	}
	return *n
}

func (d *decoder) optBool(key string) *bool {
	if m := d.member(key, jsonv.Bool); m != nil {
		b := m.Bool
		return &b
	}
	return nil
}

func (d *decoder) bool(key string) bool {
	b := d.optBool(key)
	if b == nil {
		d.fail("%s is null", key)
		return false
	}
	return *b
}

func (d *decoder) str(key string) string {
	m := d.member(key, jsonv.String)
	if m == nil {
		d.fail("%s is null", key)
		return ""
	}
	return m.Str
}
