package query

import (
	"context"

	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/progression"
)

// TraverseRequest asks for a bounded walk over buildsTowards edges from one
// standard (traverse_learning_progressions). NewTraverseRequest fills the
// defaults.
type TraverseRequest struct {
	ProgressionRoute
	Identifier Selector `json:"identifier"`
	Direction  string   `json:"direction"`
	MaxDepth   int      `json:"maxDepth"`
	MaxNodes   int      `json:"maxNodes"`
	MaxEdges   int      `json:"maxEdges"`
}

func traverseSchema() *Schema {
	props := lpRouteProps()
	props["identifier"] = lpSelectorSchema()
	dir := jsonschema.Enum("downstream: what the standard builds towards; upstream: what builds towards it", "downstream", "upstream")
	dir.Default = "downstream"
	props["direction"] = dir
	props["maxDepth"] = jsonschema.Integer(1, 12, 8, "buildsTowards hops from the standard")
	props["maxNodes"] = jsonschema.Integer(1, 250, 100, "standards returned, the origin included")
	props["maxEdges"] = jsonschema.Integer(1, 100, 100, "edges returned")
	return jsonschema.Object(props, "frameworkId", "identifier")
}

// traversal is one bounded walk and the rows built while fitting the ceiling.
type traversal struct {
	*progression.Walk
	rows *progression.Rows
}

// traversalResult builds the traversal result keeping the first k edges
// (and the nodes they reach).
func (s *Service) traversalResult(p *catalog.Package, req obj, origin uint32, t *traversal, k int, byteLimited bool) *TraversalResult {
	return t.Answer(p, s.lpEvidence, req, origin, t.rows, k, byteLimited)
}

// NewTraverseRequest walks downstream from the standard id selects, in the
// framework's unique current snapshot, every bound at its default.
func NewTraverseRequest(frameworkID string, id Selector) TraverseRequest {
	return newRequest[TraverseRequest](traverseSchema(), map[string]any{"frameworkId": frameworkID, "identifier": id})
}

// Traverse answers traverse_learning_progressions: distances, frontier and
// truncation reasons of a bounded breadth-first walk; no cursor.
func (s *Service) Traverse(ctx context.Context, r TraverseRequest) (*TraversalResult, error) {
	if err := checkRequest(traverseSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.traverse(ctx, r)
	return own(s, result, err)
}

func (s *Service) traverse(_ context.Context, r TraverseRequest) (*TraversalResult, error) {
	p, err := s.lpPackage(r.ProgressionRoute)
	if err != nil {
		return nil, err
	}
	origin, err := resolveEndpoint(p, r.Identifier)
	if err != nil {
		return nil, err
	}
	direction := r.Direction
	dir := kgimg.Out
	if direction == "upstream" {
		dir = kgimg.In
	}
	maxDepth, maxNodes, maxEdges := r.MaxDepth, r.MaxNodes, r.MaxEdges
	req := pinned(r.ProgressionRoute, p)
	req["identifier"] = r.Identifier
	req["direction"] = direction
	req["maxDepth"], req["maxNodes"], req["maxEdges"] = maxDepth, maxNodes, maxEdges
	t := &traversal{Walk: progression.BFS(p.Img, origin, dir, maxDepth, maxNodes, maxEdges), rows: progression.NewRows()}
	out := s.traversalResult(p, req, origin, t, len(t.Edges), false)
	if len(t.Edges) == 0 {
		out.NearbyNotice = progression.Nearby(p.Img, origin)
	}
	if ok, err := fitsCeiling(out); err != nil || ok {
		return out, err
	}
	k, err := accessCeiling.largestBelow(len(t.Edges), func(k int) any { return s.traversalResult(p, req, origin, t, k, true) })
	if err != nil {
		return nil, err
	}
	if k < 0 {
		return nil, tooLarge("the traversal's origin")
	}
	out = s.traversalResult(p, req, origin, t, k, true)
	return out, nil
}
