package record

import (
	"strings"

	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// SnapshotFilter is list_frameworks' filter of the catalog's snapshots: a
// snapshot passes when it has one of the values each non-empty list names
// (compared in facet form), the current flag asked for, and every token of
// Query in its framework's metadata.
type SnapshotFilter struct {
	GraphTypes         []string
	IsCurrent          *bool
	IssuingAuthorities []string
	JurisdictionTypes  []string
	Jurisdictions      []string
	Languages          []string
	LocalGrades        []string
	NormalizedGrades   []string
	Query              *string
	Subjects           []string
	ValidationStatus   []string
}

func facetSet(values []string) map[string]bool {
	m := map[string]bool{}
	for _, v := range values {
		m[textnorm.Facet(v)] = true
	}
	return m
}

// AnyIn reports whether filter is empty or one of values is in it,
// compared in facet form (textnorm.Facet).
func AnyIn(filter []string, values ...string) bool {
	if len(filter) == 0 {
		return true
	}
	want := facetSet(filter)
	for _, v := range values {
		if want[textnorm.Facet(v)] {
			return true
		}
	}
	return false
}

// Matches reports whether the snapshot passes every filter r sets.
func (r *SnapshotFilter) Matches(s *catalog.Snapshot) bool {
	f := s.Packages[0].Manifest.Framework
	if r.IsCurrent != nil && *r.IsCurrent != f.IsCurrent {
		return false
	}
	var types, grades, statuses []string
	for _, p := range s.Packages {
		types = append(types, p.Manifest.IncludedGraphTypes...)
		grades = append(grades, p.Manifest.Framework.NormalizedGrades...)
		statuses = append(statuses, p.Manifest.Validation.Status)
	}
	if len(r.GraphTypes) > 0 && !AnyIn(r.GraphTypes, types...) {
		return false
	}
	if len(r.JurisdictionTypes) > 0 && (f.JurisdictionType == nil || !AnyIn(r.JurisdictionTypes, *f.JurisdictionType)) {
		return false
	}
	if len(r.IssuingAuthorities) > 0 && (f.IssuingAuthority == nil || !AnyIn(r.IssuingAuthorities, *f.IssuingAuthority)) {
		return false
	}
	if !AnyIn(r.Jurisdictions, f.Jurisdiction) || !AnyIn(r.Subjects, f.LocalSubject) || !AnyIn(r.Languages, f.Languages...) ||
		!AnyIn(r.LocalGrades, f.LocalGradesOrStages...) || !AnyIn(r.NormalizedGrades, grades...) || !AnyIn(r.ValidationStatus, statuses...) {
		return false
	}
	if r.Query != nil {
		fields := []string{s.FrameworkID, s.SnapshotID, deref(f.IssuingAuthority), f.Jurisdiction, deref(f.JurisdictionType),
			f.LocalSubject, f.Name, deref(f.Provider), f.SourceVersion}
		for i := range fields {
			fields[i] = textnorm.Facet(fields[i])
		}
		hay := strings.Join(fields, "\x1f")
		for _, tok := range strings.Fields(textnorm.Facet(*r.Query)) {
			if !strings.Contains(hay, tok) {
				return false
			}
		}
	}
	return true
}
