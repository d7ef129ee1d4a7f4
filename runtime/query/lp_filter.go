package query

import (
	"context"
	"sort"

	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/progression"
	"github.com/kgc-project/kgc/runtime/standard"
)

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

func (s *Service) searchProgressions(_ context.Context, r ProgressionSearchRequest) (*ProgressionCollection, error) {
	p, err := s.lpPackage(r.ProgressionRoute)
	if err != nil {
		return nil, err
	}
	f, selectedNodes, ids, err := progressionFilter(p, &r)
	if err != nil {
		return nil, err
	}
	scope := r.EndpointScope
	img := p.Img
	req := pinned(r.ProgressionRoute, p)
	echo := f.Echo()
	req["relationshipTypes"] = nonNil(r.RelationshipTypes)
	req["standardIdentifiers"] = append([]Selector{}, r.StandardIdentifiers...)
	req["localGradeLabels"], req["normalizedGrades"] = echo.LocalGradeLabels, echo.NormalizedGrades
	req["statementTypes"], req["normalizedStatementTypes"] = echo.StatementTypes, echo.NormalizedStatementTypes
	req["endpointScope"] = scope
	req["limit"] = r.Limit
	return s.page(&lpCollection{
		tool: "search_learning_progressions", p: p, request: req, cursor: r.Cursor, limit: r.Limit,
		stream: progression.SearchStream(img, f, selectedNodes, r.RelationshipTypes, func(l kgimg.RelLabel) []uint32 { return s.lpEdges(p, l) }),
		match: func(c progression.Candidate) (Connection, bool) {
			if !progression.InScope(scope, f.Matches(img.RelSource(c.Rel)), f.Matches(img.RelTarget(c.Rel))) {
				return Connection{}, false
			}
			return progression.ConnectionOf(img, c, f), true
		},
		scope: scope, filters: echo, resolved: nonNil(ids),
	})
}

// progressionFilter builds the endpoint filter of a search request (its
// facet values first, then its selected standards) and the selected nodes
// and their sorted node IDs.
func progressionFilter(p *catalog.Package, r *ProgressionSearchRequest) (*progression.Filter, []uint32, []string, error) {
	img := p.Img
	f, err := progression.NewFilter(p, progression.FilterValues{LocalGradeLabels: r.LocalGradeLabels, NormalizedGrades: r.NormalizedGrades,
		StatementTypes: r.StatementTypes, NormalizedStatementTypes: r.NormalizedStatementTypes}, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	var nodes []uint32
	var ids []string
	for _, sel := range r.StandardIdentifiers {
		n, err := resolveEndpoint(p, sel)
		if err != nil {
			return nil, nil, nil, err
		}
		if !f.Select(n) {
			return nil, nil, nil, kgerr.New(kgerr.InvalidProgressionRequest, "standardIdentifiers: %s selects a standard already selected", standard.Describe(sel))
		}
		nodes = append(nodes, n)
		ids = append(ids, img.NodeString(n, kgimg.NodeID))
	}
	sort.Strings(ids)
	return f, nodes, ids, nil
}
