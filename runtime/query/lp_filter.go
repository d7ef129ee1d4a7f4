package query

import (
	"context"
	"sort"

	"github.com/kgc-project/kgc/internal/jsonschema"
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

// lpFilter is the per-endpoint conjunction of search_learning_progressions:
// every populated facet field matches (OR within a field), and the endpoint is
// a selected standard when standards were selected.
type lpFilter struct {
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

// matches reports whether node n satisfies the whole conjunction.
func (f *lpFilter) matches(n uint32) bool {
	for _, field := range [][]facetValue{f.localGrades, f.normalizedGrades, f.statementTypes, f.normalizedTypes} {
		if len(field) > 0 && !anyContains(field, n) {
			return false
		}
	}
	return f.selected == nil || f.selected[n]
}

// endpoint is an endpoint's match: the requested values n matched.
func (f *lpFilter) endpoint(img *kgimg.Image, n uint32) EndpointMatch {
	return EndpointMatch{NodeID: img.NodeString(n, kgimg.NodeID), Matches: f.matches(n), SelectedStandard: f.selected[n],
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

// echo is the normalized filters of the result.
func (f *lpFilter) echo() ProgressionFilters {
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

// --- search_learning_progressions ------------------------------------------

// ProgressionSearchRequest finds progression edges by their endpoints
// (search_learning_progressions): one conjunction of facet values and
// selected standards per endpoint, applied per EndpointScope (either, both,
// source, target). NewProgressionSearchRequest fills the defaults.
type ProgressionSearchRequest struct {
	ProgressionRoute
	RelationshipTypes        []string   `json:"relationshipTypes,omitempty"`
	StandardIdentifiers      []Selector `json:"standardIdentifiers,omitempty"`
	LocalGradeLabels         []string   `json:"localGradeLabels,omitempty"`
	NormalizedGrades         []string   `json:"normalizedGrades,omitempty"`
	StatementTypes           []string   `json:"statementTypes,omitempty"`
	NormalizedStatementTypes []string   `json:"normalizedStatementTypes,omitempty"`
	EndpointScope            string     `json:"endpointScope"`
	Limit                    int        `json:"limit"`
	Cursor                   *string    `json:"cursor,omitempty"`
}

// NewProgressionSearchRequest searches the framework's unique current
// snapshot, every field at its default.
func NewProgressionSearchRequest(frameworkID string) ProgressionSearchRequest {
	return newRequest[ProgressionSearchRequest](searchProgressionsSchema(), map[string]any{"frameworkId": frameworkID})
}

// SearchProgressions answers search_learning_progressions: one page of the
// matching edges ordered by (type, relationship ID); pass Page.NextRequest's
// cursor back for the next.
func (s *Service) SearchProgressions(ctx context.Context, r ProgressionSearchRequest) (*ProgressionCollection, error) {
	if err := checkRequest(searchProgressionsSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.searchProgressions(ctx, r)
	return own(s, result, err)
}

// lpFacetArray is a facet field: at most 32 strings of 1–512 characters;
// duplicates are checked semantically (invalid_progression_request).
func lpFacetArray(desc string) *Schema {
	a := jsonschema.Array(jsonschema.Terse(jsonschema.String(1, 512, "")), 32, desc)
	a.UniqueItems = false
	return a
}

func searchProgressionsSchema() *Schema {
	props := lpRouteProps()
	types := jsonschema.Array(jsonschema.Enum("", "buildsTowards", "relatesTo"), 2, "relationship types to list (empty: both)")
	props["relationshipTypes"] = types
	ids := jsonschema.Array(lpSelectorSchema(), 20, "keep edges with a selected standard at the matching endpoint")
	ids.UniqueItems = false
	props["standardIdentifiers"] = ids
	props["localGradeLabels"] = lpFacetArray("local grade labels of the profile (or aliases)")
	props["normalizedGrades"] = lpFacetArray("normalized grades of the profile's grade mappings")
	props["statementTypes"] = lpFacetArray("source statement types of the profile (or aliases)")
	props["normalizedStatementTypes"] = lpFacetArray("Standard or Standard Grouping")
	scope := jsonschema.Enum("which endpoint must satisfy the whole filter: either, both, source or target (stored order)", "either", "both", "source", "target")
	scope.Default = "either"
	props["endpointScope"] = scope
	props["limit"] = pageLimit()
	props["cursor"] = cursorSchema()
	return jsonschema.Object(props, "frameworkId")
}

// progressionFilter builds the endpoint filter of a search request.
func progressionFilter(p *catalog.Package, r *ProgressionSearchRequest) (*lpFilter, []string, error) {
	img, prof := p.Img, p.Profile()
	f := &lpFilter{}
	var err error
	if f.localGrades, err = facetValues(img, "localGradeLabels", kgimg.FacetLocalGrade, r.LocalGradeLabels, func(k string) (string, bool) {
		if t := p.ProfileTargets(kgimg.KeyGradeName, k); t != nil {
			return textnorm.Facet(prof.GradeMappings[t[0]].LocalLabel), true
		}
		return "", false
	}); err != nil {
		return nil, nil, err
	}
	if f.normalizedGrades, err = facetValues(img, "normalizedGrades", kgimg.FacetNormalizedGrade, r.NormalizedGrades, func(k string) (string, bool) {
		return k, p.ProfileTargets(kgimg.KeyNormalizedGrade, k) != nil
	}); err != nil {
		return nil, nil, err
	}
	if f.statementTypes, err = facetValues(img, "statementTypes", kgimg.FacetStatementType, r.StatementTypes, func(k string) (string, bool) {
		if t := p.ProfileTargets(kgimg.KeyStatementTypeName, k); t != nil {
			return textnorm.Facet(prof.StatementTypes[t[0]].SourceStatementType), true
		}
		return "", false
	}); err != nil {
		return nil, nil, err
	}
	if f.normalizedTypes, err = facetValues(img, "normalizedStatementTypes", kgimg.FacetNormalizedStatementType, r.NormalizedStatementTypes, func(k string) (string, bool) {
		return k, k == textnorm.Facet("Standard") || k == textnorm.Facet("Standard Grouping")
	}); err != nil {
		return nil, nil, err
	}
	var ids []string
	if len(r.StandardIdentifiers) > 0 {
		f.selected = map[uint32]bool{}
		for _, sel := range r.StandardIdentifiers {
			n, err := resolveEndpoint(p, sel)
			if err != nil {
				return nil, nil, err
			}
			if f.selected[n] {
				return nil, nil, invalidProgression("standardIdentifiers: %s selects a standard already selected", describeSelector(sel))
			}
			f.selected[n] = true
			ids = append(ids, img.NodeString(n, kgimg.NodeID))
		}
	}
	sort.Strings(ids)
	return f, ids, nil
}

// searchStream lists the candidate edges: those touching a selected standard,
// or every edge of the requested types, by (type, ID).
func (s *Service) searchStream(p *catalog.Package, f *lpFilter, types []string) []lpCandidate {
	img := p.Img
	want := func(l kgimg.RelLabel) bool { return len(types) == 0 || contains(types, kgimg.RelLabelName(l)) }
	var out []lpCandidate
	for _, label := range []kgimg.RelLabel{kgimg.BuildsTowards, kgimg.RelatesTo} {
		if !want(label) {
			continue
		}
		var rels []uint32
		if f.selected == nil {
			rels = s.lpEdges(p, label)
		} else {
			for n := range f.selected {
				for _, d := range []kgimg.Direction{kgimg.In, kgimg.Out} {
					_, rs := img.Adjacency(label, d).Row(n)
					rels = rs.AppendTo(rels)
				}
			}
			rels = sortedUniqueByID(img, rels)
		}
		for _, r := range rels {
			out = append(out, lpCandidate{rel: r, kind: searchConnectionKind(img, r, f)})
		}
	}
	return out
}

// searchConnectionKind names an edge relative to the selected standards (""
// for a buildsTowards edge when none is selected).
func searchConnectionKind(img *kgimg.Image, r uint32, f *lpFilter) string {
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

func (s *Service) searchProgressions(_ context.Context, r ProgressionSearchRequest) (*ProgressionCollection, error) {
	p, err := s.lpPackage(r.ProgressionRoute)
	if err != nil {
		return nil, err
	}
	f, ids, err := progressionFilter(p, &r)
	if err != nil {
		return nil, err
	}
	scope := r.EndpointScope
	img := p.Img
	req := pinned(r.ProgressionRoute, p)
	echo := f.echo()
	req["relationshipTypes"] = nonNil(r.RelationshipTypes)
	req["standardIdentifiers"] = append([]Selector{}, r.StandardIdentifiers...)
	req["localGradeLabels"], req["normalizedGrades"] = echo.LocalGradeLabels, echo.NormalizedGrades
	req["statementTypes"], req["normalizedStatementTypes"] = echo.StatementTypes, echo.NormalizedStatementTypes
	req["endpointScope"] = scope
	req["limit"] = r.Limit
	return s.page(&lpCollection{
		tool: "search_learning_progressions", p: p, request: req, cursor: r.Cursor, limit: r.Limit,
		stream: s.searchStream(p, f, r.RelationshipTypes),
		match: func(c lpCandidate) (Connection, bool) {
			if !inScope(scope, f.matches(img.RelSource(c.rel)), f.matches(img.RelTarget(c.rel))) {
				return Connection{}, false
			}
			return connection(img, c, f), true
		},
		scope: scope, filters: echo, resolved: nonNil(ids),
	})
}

// inScope applies endpointScope to the two endpoint verdicts.
func inScope(scope string, source, target bool) bool {
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
