package query

import (
	"context"

	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/progression"
)

// PathsRequest asks for the buildsTowards paths from one standard to another
// (get_learning_progression_paths). NewPathsRequest fills the defaults.
type PathsRequest struct {
	ProgressionRoute
	SourceIdentifier Selector `json:"sourceIdentifier"`
	TargetIdentifier Selector `json:"targetIdentifier"`
	MaxDepth         int      `json:"maxDepth"`
	MaxPaths         int      `json:"maxPaths"`
}

func pathsSchema() *Schema {
	props := lpRouteProps()
	props["sourceIdentifier"] = lpSelectorSchema()
	props["targetIdentifier"] = lpSelectorSchema()
	props["maxDepth"] = jsonschema.Integer(1, 12, 6, "buildsTowards hops a path may have")
	props["maxPaths"] = jsonschema.Integer(1, 20, 3, "paths returned, shortest first")
	return jsonschema.Object(props, "frameworkId", "sourceIdentifier", "targetIdentifier")
}

// pathSearch is one bounded path search and the rows built while fitting
// the ceiling.
type pathSearch struct {
	*progression.PathSearch
	rows *progression.Rows
}

// pathsResult builds the result with the first k paths.
func (s *Service) pathsResult(p *catalog.Package, req obj, source, target uint32, ps *pathSearch, k int) *PathsResult {
	return ps.Answer(p, s.lpEvidence, req, source, target, ps.rows, k)
}

// NewPathsRequest asks for the paths from source to target in the
// framework's unique current snapshot, every bound at its default.
func NewPathsRequest(frameworkID string, source, target Selector) PathsRequest {
	return newRequest[PathsRequest](pathsSchema(), map[string]any{"frameworkId": frameworkID, "sourceIdentifier": source, "targetIdentifier": target})
}

// Paths answers get_learning_progression_paths: directed simple paths,
// shortest first then by relationship IDs, bounded; no cursor.
func (s *Service) Paths(ctx context.Context, r PathsRequest) (*PathsResult, error) {
	if err := checkRequest(pathsSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.paths(ctx, r)
	return own(s, result, err)
}

func (s *Service) paths(_ context.Context, r PathsRequest) (*PathsResult, error) {
	p, err := s.lpPackage(r.ProgressionRoute)
	if err != nil {
		return nil, err
	}
	source, err := resolveEndpoint(p, r.SourceIdentifier)
	if err != nil {
		return nil, err
	}
	target, err := resolveEndpoint(p, r.TargetIdentifier)
	if err != nil {
		return nil, err
	}
	if source == target {
		return nil, kgerr.New(kgerr.InvalidProgressionRequest, "sourceIdentifier and targetIdentifier select the same standard")
	}
	maxDepth, maxPaths := r.MaxDepth, r.MaxPaths
	req := pinned(r.ProgressionRoute, p)
	req["sourceIdentifier"], req["targetIdentifier"] = r.SourceIdentifier, r.TargetIdentifier
	req["maxDepth"], req["maxPaths"] = maxDepth, maxPaths
	ps := &pathSearch{PathSearch: progression.FindPaths(p.Img, source, target, maxDepth, maxPaths), rows: progression.NewRows()}
	// Paths are admitted whole, in order, while they fit.
	k := len(ps.Paths)
	if ok, err := fitsCeiling(s.pathsResult(p, req, source, target, ps, k)); err != nil {
		return nil, err
	} else if !ok {
		if k, err = accessCeiling.largestBelow(k, func(k int) any { return s.pathsResult(p, req, source, target, ps, k) }); err != nil {
			return nil, err
		}
		if k <= 0 {
			return nil, tooLarge("the first path")
		}
	}
	return s.pathsResult(p, req, source, target, ps, k), nil
}
