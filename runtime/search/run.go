package search

import (
	"slices"
	"strings"

	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/schema/profile"
)

// Run is the state one search call shares between its packages: the hits
// (the collector) and what the answer says about them.
type Run struct {
	collector
	// Exact is set for an exact scope: a package that cannot serve the
	// mode is an error, not a warning.
	Exact    bool
	Warnings []SearchWarning
	// Normalized is the query as each package read it, by graph package
	// ID (it binds the cursor).
	Normalized map[string]string
}

// NewRun starts a search call's run with the scope's warnings.
func NewRun(exact bool, warnings []SearchWarning) *Run {
	return &Run{Exact: exact, Warnings: warnings, Normalized: map[string]string{}}
}

// StandardQuery is what a standards search matches: the mode and query,
// the match policy of a text query (MatchMode "" when none was given,
// Operator "" when the policy has none) and the record filters. The
// package selectors and paging are not part of it.
type StandardQuery struct {
	Mode, Query         string
	MatchMode, Operator string
	IncludeGroupings    bool
	LocalGradeLabels    []string
	NormalizedGrades    []string
	StatementTypes      []string
	NormalizedTypes     []string // normalized statement types
	NormalizedSubjects  []string
}

// ComponentQuery is what a learning-component search matches (Mode one of
// the Component* modes).
type ComponentQuery struct {
	Mode, Query         string
	MatchMode, Operator string
}

// QueryTokens returns a query's lexical tokens and the number of distinct
// terms scores divide by (1 for the single-term tag and code modes).
func QueryTokens(q string, text bool) ([]string, int) {
	tokens := textnorm.Tokens(q)
	if !text {
		return tokens, 1
	}
	return tokens, len(distinct(tokens))
}

// ModeWarning returns the package-level warning code when p cannot serve a
// standards search mode, or "".
func ModeWarning(p *catalog.Package, mode string) string {
	if mode == "text" {
		if !p.Manifest.Capabilities.TextSearch {
			return "text_search_unavailable"
		}
		return ""
	}
	cp := p.Profile().CodeSearchPolicy
	switch {
	case cp.Availability == "none":
		return "code_search_unavailable"
	case mode == "code_prefix" && !cp.AllowPrefixSearch:
		return "code_prefix_unavailable"
	}
	return ""
}

// ModeWarningText says what a ModeWarning code means.
func ModeWarningText(code string) string { return modeWarningText[code] }

var modeWarningText = map[string]string{
	"text_search_unavailable": "this package does not offer text search",
	"code_search_unavailable": "this package's profile declares no searchable statement codes",
	"code_prefix_unavailable": "this package's profile does not allow code prefix search",
}

// unavailable records a package that cannot serve the mode: an error for an
// exact scope, a package warning for a federated one.
func (run *Run) unavailable(p *catalog.Package, code, mode string) error {
	if run.Exact {
		return kgerr.New(kgerr.CapabilityUnavailable, "%s cannot serve %s search: %s", p.SnapshotID(), mode, modeWarningText[code]).
			WithHint("get_capabilities lists each package's search modes")
	}
	run.Warnings = append(run.Warnings, Warning(code, modeWarningText[code], "", p))
	return nil
}

// normalizedCodeQuery normalizes a code query under p's policy.
func normalizedCodeQuery(p *catalog.Package, q string, prefix bool) (string, error) {
	cp := p.Profile().CodeSearchPolicy
	n := profile.NormalizeCode(cp, q)
	if prefix {
		n = trimDelimiters(cp, n)
	}
	if n == "" {
		return "", jsonschema.Fail("request.query", "is empty once normalized under %s's code policy", p.SnapshotID())
	}
	return n, nil
}

// MatchStandards offers every standard of pkgs that q matches to run (a
// mode its package cannot serve is a warning, or for an exact scope an
// error); tokens and queryTerms are QueryTokens' of q.
func MatchStandards(run *Run, pkgs []*catalog.Package, q *StandardQuery, tokens []string, queryTerms int) error {
	for _, p := range pkgs {
		if code := ModeWarning(p, q.Mode); code != "" {
			if err := run.unavailable(p, code, q.Mode); err != nil {
				return err
			}
			continue
		}
		filter := newItemFilter(p, q)
		if q.Mode == "text" {
			run.Normalized[p.GraphPackageID()] = strings.Join(tokens, " ")
			lexical(p.Img, itemLookup(p.Img, q.MatchMode), tokens, q.MatchMode, q.Operator, func(m lexMatch) {
				if filter.keep(p, m.Node) {
					score := coverage(len(m.Matched), queryTerms)
					run.Add(Hit{Pkg: p, Node: m.Node, Score: score, Terms: m.Matched, Phrase: m.Phrase})
				}
			})
			continue
		}
		if p.Profile().CodeSearchPolicy.Availability == "partial" {
			run.Warnings = append(run.Warnings, Warning("partial_code_coverage",
				"only some statement types of this package carry searchable codes; uncoded standards cannot be found by code", "", p))
		}
		nq, err := normalizedCodeQuery(p, q.Query, q.Mode == "code_prefix")
		if err != nil {
			return err
		}
		run.Normalized[p.GraphPackageID()] = nq
		qs := []string{nq} // shared by the package's hits
		for _, n := range CodeMatches(p, nq, q.Mode == "code_prefix") {
			if !filter.keep(p, n) {
				continue
			}
			code := p.Img.NodeString(n, kgimg.NodeNormalizedCode)
			score := fullScore
			if code != nq {
				score = halfScore
			}
			run.Add(Hit{Pkg: p, Node: n, Score: score, Terms: qs, Code: code})
		}
	}
	return nil
}

// standardsMode is the standards search mode a component mode needs its
// package to serve ("" for the tag mode, which every package serves).
func standardsMode(mode string) string {
	switch mode {
	case ComponentText:
		return "text"
	case ComponentCodeExact:
		return "code_exact"
	case ComponentCodePrefix:
		return "code_prefix"
	}
	return ""
}

// MatchComponents offers every learning component of pkgs that q matches to
// run (a mode its package cannot serve is a warning, or for an exact scope
// an error); tokens and queryTerms are QueryTokens' of q.
func MatchComponents(run *Run, pkgs []*catalog.Package, q *ComponentQuery, tokens []string, queryTerms int) error {
	for _, p := range pkgs {
		if sm := standardsMode(q.Mode); sm != "" {
			if code := ModeWarning(p, sm); code != "" {
				if err := run.unavailable(p, code, q.Mode); err != nil {
					return err
				}
				continue
			}
		}
		img := p.Img
		switch q.Mode {
		case ComponentText:
			run.Normalized[p.GraphPackageID()] = strings.Join(tokens, " ")
			lookup := img.ComponentToken
			if q.MatchMode == "stems" {
				lookup = formLookup(img.ComponentToken, img.ComponentTokensWithPrefix)
			}
			lexical(img, lookup, tokens, q.MatchMode, q.Operator, func(m lexMatch) {
				run.Add(Hit{Pkg: p, Node: m.Node, Score: coverage(len(m.Matched), queryTerms), Terms: m.Matched, Phrase: m.Phrase})
			})
		case ComponentTag:
			t := textnorm.Facet(q.Query)
			run.Normalized[p.GraphPackageID()] = t
			list, _ := img.ComponentTag(t)
			for i := 0; i < list.Len(); i++ {
				run.Add(Hit{Pkg: p, Node: list.At(i), Score: fullScore, Terms: []string{t}})
			}
		default:
			prefix := q.Mode == ComponentCodePrefix
			nq, err := normalizedCodeQuery(p, q.Query, prefix)
			if err != nil {
				return err
			}
			run.Normalized[p.GraphPackageID()] = nq
			run.Append(supportedCodeHits(p, nq, prefix)...)
		}
	}
	return nil
}

// itemFilter is the facet filter of a standards search for one package.
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

func newItemFilter(p *catalog.Package, q *StandardQuery) *itemFilter {
	// The profile is copied out of the image on first use: a federated
	// search without these filters does not ask for it.
	f := &itemFilter{includeGroupings: q.IncludeGroupings, normalizedTypes: q.NormalizedTypes}
	if len(q.StatementTypes) > 0 {
		prof := p.Profile()
		f.statementTypes = map[string]bool{}
		for _, v := range q.StatementTypes {
			for _, i := range p.ProfileTargets(kgimg.KeyStatementTypeName, textnorm.Facet(v)) {
				f.statementTypes[prof.StatementTypes[i].SourceStatementType] = true
			}
		}
		f.impossible = f.impossible || len(f.statementTypes) == 0
	}
	if len(q.LocalGradeLabels) > 0 {
		prof := p.Profile()
		f.localGrades = map[string]bool{}
		for _, v := range q.LocalGradeLabels {
			for _, i := range p.ProfileTargets(kgimg.KeyGradeName, textnorm.Facet(v)) {
				for _, g := range prof.GradeMappings[i].NormalizedGrades {
					f.localGrades[textnorm.Facet(g)] = true
				}
			}
		}
		f.impossible = f.impossible || len(f.localGrades) == 0
	}
	if len(q.NormalizedGrades) > 0 {
		f.normalizedGrades = map[string]bool{}
		for _, v := range q.NormalizedGrades {
			f.normalizedGrades[textnorm.Facet(v)] = true
		}
	}
	if len(q.NormalizedSubjects) > 0 {
		// The profile's normalized subjects are the package's, not a node's:
		// whether one was asked for is decided once here.
		f.subjectFilter = true
		for _, v := range q.NormalizedSubjects {
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
	if !f.includeGroupings && nt == groupingType {
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
		if f.localGrades != nil && !anyFacet(f.localGrades, grades) {
			return false
		}
		if f.normalizedGrades != nil && !anyFacet(f.normalizedGrades, grades) {
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

// anyFacet reports whether the facet form of any value is in set.
func anyFacet(set map[string]bool, values []string) bool {
	for _, v := range values {
		if set[textnorm.Facet(v)] {
			return true
		}
	}
	return false
}
