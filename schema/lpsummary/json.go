package lpsummary

import "github.com/kgc-project/kgc/internal/jsonv"

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
