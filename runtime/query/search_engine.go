package query

import (
	"slices"

	"github.com/kgc-project/kgc/runtime/record"

	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// itemFilter is the facet filter of search_standards for one package.
type itemFilter struct {
	includeGroupings bool
	normalizedTypes  []string
	statementTypes   map[string]bool // nil: no filter
	localGrades      map[string]bool // nil: no filter
	normalizedGrades map[string]bool
	subjectFilter    bool // normalizedSubjects was given
	subjectWanted    bool // ... and names one of the profile's normalized subjects
	impossible       bool
}

func newItemFilter(p *catalog.Package, r *StandardSearchRequest) *itemFilter {
	// The profile is copied out of the image on first use: a federated
	// search without these filters does not ask for it.
	f := &itemFilter{includeGroupings: r.IncludeGroupings, normalizedTypes: r.NormalizedStatementTypes}
	if len(r.StatementTypes) > 0 {
		prof := p.Profile()
		f.statementTypes = map[string]bool{}
		for _, v := range r.StatementTypes {
			for _, i := range p.ProfileTargets(kgimg.KeyStatementTypeName, textnorm.Facet(v)) {
				f.statementTypes[prof.StatementTypes[i].SourceStatementType] = true
			}
		}
		f.impossible = f.impossible || len(f.statementTypes) == 0
	}
	if len(r.LocalGradeLabels) > 0 {
		prof := p.Profile()
		f.localGrades = map[string]bool{}
		for _, v := range r.LocalGradeLabels {
			for _, i := range p.ProfileTargets(kgimg.KeyGradeName, textnorm.Facet(v)) {
				for _, g := range prof.GradeMappings[i].NormalizedGrades {
					f.localGrades[textnorm.Facet(g)] = true
				}
			}
		}
		f.impossible = f.impossible || len(f.localGrades) == 0
	}
	if len(r.NormalizedGrades) > 0 {
		f.normalizedGrades = facetSet(r.NormalizedGrades)
	}
	if len(r.NormalizedSubjects) > 0 {
		// The profile's normalized subjects are the package's, not a node's:
		// whether one was asked for is decided once here.
		f.subjectFilter = true
		for _, v := range r.NormalizedSubjects {
			if p.ProfileTargets(kgimg.KeyNormalizedSubject, textnorm.Facet(v)) != nil {
				f.subjectWanted = true
			}
		}
	}
	return f
}

func (f *itemFilter) keep(p *catalog.Package, n uint32) bool {
	if f.impossible {
		return false
	}
	img := p.Img
	nt := img.NodeString(n, kgimg.NodeNormalizedStatementType)
	if !f.includeGroupings && nt == "Standard Grouping" {
		return false
	}
	if len(f.normalizedTypes) > 0 && !slices.Contains(f.normalizedTypes, nt) {
		return false
	}
	if f.statementTypes != nil && !f.statementTypes[img.NodeString(n, kgimg.NodeStatementType)] {
		return false
	}
	if f.localGrades != nil || f.normalizedGrades != nil {
		grades := record.Grades(p, n, record.CodeScopes(p, n))
		if f.localGrades != nil && !anyKey(f.localGrades, grades, true) {
			return false
		}
		if f.normalizedGrades != nil && !anyKey(f.normalizedGrades, grades, true) {
			return false
		}
	}
	if f.subjectFilter {
		if !f.subjectWanted || !record.SubjectResolves(p, img.NodeString(n, kgimg.NodeAcademicSubject)) {
			return false
		}
	}
	return true
}

func anyKey(set map[string]bool, values []string, facet bool) bool {
	for _, v := range values {
		k := v
		if facet {
			k = textnorm.Facet(v)
		}
		if set[k] {
			return true
		}
	}
	return false
}
