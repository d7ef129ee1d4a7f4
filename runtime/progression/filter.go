package progression

import (
	"sort"

	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
)

// facetValue is one requested facet value and the nodes it selects.
type facetValue struct {
	value string
	nodes kgimg.Bitmap
	found bool
}

// Filter is the per-endpoint conjunction of search_learning_progressions:
// every populated facet field matches (OR within a field), and the endpoint is
// a selected standard when standards were selected.
type Filter struct {
	localGrades, normalizedGrades, statementTypes, normalizedTypes []facetValue
	selected                                                       map[uint32]bool // nil: no selection
}

func anyContains(values []facetValue, n uint32) bool {
	for _, v := range values {
		if v.found && v.nodes.Contains(n) {
			return true
		}
	}
	return false
}

func matched(values []facetValue, n uint32) []string {
	out := []string{}
	for _, v := range values {
		if v.found && v.nodes.Contains(n) {
			out = append(out, v.value)
		}
	}
	return out
}

// Matches reports whether node n satisfies the whole conjunction.
func (f *Filter) Matches(n uint32) bool {
	for _, field := range [][]facetValue{f.localGrades, f.normalizedGrades, f.statementTypes, f.normalizedTypes} {
		if len(field) > 0 && !anyContains(field, n) {
			return false
		}
	}
	return f.selected == nil || f.selected[n]
}

// endpoint is an endpoint's match: the requested values n matched.
func (f *Filter) endpoint(img *kgimg.Image, n uint32) EndpointMatch {
	return EndpointMatch{NodeID: img.NodeString(n, kgimg.NodeID), Matches: f.Matches(n), SelectedStandard: f.selected[n],
		LocalGradeLabels: matched(f.localGrades, n), NormalizedGrades: matched(f.normalizedGrades, n),
		StatementTypes: matched(f.statementTypes, n), NormalizedStatementTypes: matched(f.normalizedTypes, n)}
}

func values(vs []facetValue) []string {
	out := []string{}
	for _, v := range vs {
		out = append(out, v.value)
	}
	return out
}

// Echo is the normalized filters of the result.
func (f *Filter) Echo() ProgressionFilters {
	return ProgressionFilters{LocalGradeLabels: values(f.localGrades), NormalizedGrades: values(f.normalizedGrades),
		StatementTypes: values(f.statementTypes), NormalizedStatementTypes: values(f.normalizedTypes)}
}

func invalidProgression(format string, args ...any) error {
	return kgerr.New(kgerr.InvalidProgressionRequest, format, args...)
}

// facetValues resolves one facet field's requested values against the profile
// (resolve returns the facet key of a value, or false when the profile does not
// know it) and the image's facet index. Blank, repeated and unknown values are
// refused.
func facetValues(img *kgimg.Image, field string, kind kgimg.FacetKind, requested []string, resolve func(string) (string, bool)) ([]facetValue, error) {
	seen := map[string]bool{}
	var out []facetValue
	for _, v := range requested {
		k := textnorm.Facet(v)
		if k == "" {
			return nil, invalidProgression("%s: %q is blank", field, v)
		}
		if seen[k] {
			return nil, invalidProgression("%s: %q is repeated", field, v)
		}
		seen[k] = true
		key, ok := resolve(k)
		if !ok {
			return nil, invalidProgression("%s: %q is not a value of this package's profile", field, v)
		}
		bm, found := img.Facet(kind, key)
		out = append(out, facetValue{value: v, nodes: bm, found: found})
	}
	return out, nil
}

// FilterValues are the facet values search_learning_progressions selects
// endpoints by (OR within a field, AND across fields).
type FilterValues struct {
	LocalGradeLabels, NormalizedGrades, StatementTypes, NormalizedStatementTypes []string
}

// NewFilter builds the endpoint filter of a search: the facet values resolved
// against p's profile and facet index (blank, repeated and unknown values
// refused, invalid_progression_request), and the selected standards (nil
// for no selection).
func NewFilter(p *catalog.Package, v FilterValues, selected map[uint32]bool) (*Filter, error) {
	img, prof := p.Img, p.Profile()
	f := &Filter{selected: selected}
	var err error
	if f.localGrades, err = facetValues(img, "localGradeLabels", kgimg.FacetLocalGrade, v.LocalGradeLabels, func(k string) (string, bool) {
		if t := p.ProfileTargets(kgimg.KeyGradeName, k); t != nil {
			return textnorm.Facet(prof.GradeMappings[t[0]].LocalLabel), true
		}
		return "", false
	}); err != nil {
		return nil, err
	}
	if f.normalizedGrades, err = facetValues(img, "normalizedGrades", kgimg.FacetNormalizedGrade, v.NormalizedGrades, func(k string) (string, bool) {
		return k, p.ProfileTargets(kgimg.KeyNormalizedGrade, k) != nil
	}); err != nil {
		return nil, err
	}
	if f.statementTypes, err = facetValues(img, "statementTypes", kgimg.FacetStatementType, v.StatementTypes, func(k string) (string, bool) {
		if t := p.ProfileTargets(kgimg.KeyStatementTypeName, k); t != nil {
			return textnorm.Facet(prof.StatementTypes[t[0]].SourceStatementType), true
		}
		return "", false
	}); err != nil {
		return nil, err
	}
	if f.normalizedTypes, err = facetValues(img, "normalizedStatementTypes", kgimg.FacetNormalizedStatementType, v.NormalizedStatementTypes, func(k string) (string, bool) {
		return k, k == textnorm.Facet("Standard") || k == textnorm.Facet("Standard Grouping")
	}); err != nil {
		return nil, err
	}
	return f, nil
}

// Selecting is the filter of get_standard_progressions: standard std
// selected, no facet values.
func Selecting(std uint32) *Filter { return &Filter{selected: map[uint32]bool{std: true}} }

// Selected reports whether n is one of the filter's selected standards.
func (f *Filter) Selected(n uint32) bool { return f.selected[n] }

// Select adds standard n to the selection, reporting false when it was
// already selected.
func (f *Filter) Select(n uint32) bool {
	if f.selected == nil {
		f.selected = map[uint32]bool{}
	}
	if f.selected[n] {
		return false
	}
	f.selected[n] = true
	return true
}

// SelectsAll reports whether the filter selects no standards (every edge is
// a candidate).
func (f *Filter) SelectsAll() bool { return f.selected == nil }

// searchKind names an edge relative to the selected standards (""
// for a buildsTowards edge when none is selected).
func searchKind(img *kgimg.Image, r uint32, f *Filter) string {
	switch {
	case img.RelLabel(r) == kgimg.RelatesTo:
		return "related"
	case f.selected == nil:
		return ""
	case f.selected[img.RelTarget(r)]:
		return "incoming_builds"
	}
	return "outgoing_builds"
}

// InScope applies endpointScope to the two endpoint verdicts.
func InScope(scope string, source, target bool) bool {
	switch scope {
	case "both":
		return source && target
	case "source":
		return source
	case "target":
		return target
	}
	return source || target
}

// Candidate is one entry of a collection's candidate stream.
type Candidate struct {
	Rel  uint32
	Kind string // connectionKind, or "" for none
}

// connectionKindOf names an edge relative to a standard.
func connectionKindOf(img *kgimg.Image, r, std uint32) string {
	switch {
	case img.RelLabel(r) == kgimg.RelatesTo:
		return "related"
	case img.RelTarget(r) == std:
		return "incoming_builds"
	}
	return "outgoing_builds"
}

// StandardStream lists the progression edges touching std, by (type, ID).
func StandardStream(img *kgimg.Image, std uint32, kind string) []Candidate {
	var builds, relates []uint32
	if kind == "all" || kind == "incoming_builds" {
		_, rels := img.Adjacency(kgimg.BuildsTowards, kgimg.In).Row(std)
		builds = rels.AppendTo(builds)
	}
	if kind == "all" || kind == "outgoing_builds" {
		_, rels := img.Adjacency(kgimg.BuildsTowards, kgimg.Out).Row(std)
		builds = rels.AppendTo(builds)
	}
	if kind == "all" || kind == "related" {
		for _, d := range []kgimg.Direction{kgimg.In, kgimg.Out} {
			_, rels := img.Adjacency(kgimg.RelatesTo, d).Row(std)
			relates = rels.AppendTo(relates)
		}
	}
	out := make([]Candidate, 0, len(builds)+len(relates))
	for _, list := range [][]uint32{sortedUniqueByID(img, builds), sortedUniqueByID(img, relates)} {
		for _, r := range list {
			out = append(out, Candidate{Rel: r, Kind: connectionKindOf(img, r, std)})
		}
	}
	return out
}

func sortedUniqueByID(img *kgimg.Image, rels []uint32) []uint32 {
	sort.Slice(rels, func(i, j int) bool { return img.RelString(rels[i], kgimg.RelID) < img.RelString(rels[j], kgimg.RelID) })
	out := rels[:0]
	for i, r := range rels {
		if i == 0 || r != rels[i-1] {
			out = append(out, r)
		}
	}
	return out
}

// ConnectionOf is a connections[] entry.
func ConnectionOf(img *kgimg.Image, c Candidate, f *Filter) Connection {
	var kind *string
	if c.Kind != "" {
		k := c.Kind
		kind = &k
	}
	return Connection{RelationshipID: img.RelString(c.Rel, kgimg.RelID), ConnectionKind: kind,
		SourceMatch: f.endpoint(img, img.RelSource(c.Rel)), TargetMatch: f.endpoint(img, img.RelTarget(c.Rel))}
}
