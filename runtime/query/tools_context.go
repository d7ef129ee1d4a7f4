package query

import (
	"context"

	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/standard"
)

// ContextRequest asks for a standard's hierarchy context
// (docs/reference/tools.md#get_standard_context). NewContextRequest fills the
// defaults.
type ContextRequest struct {
	NodeID                 string   `json:"nodeId"`
	FrameworkID            *string  `json:"frameworkId"`
	SnapshotID             *string  `json:"snapshotId"`
	GraphType              string   `json:"graphType,omitempty"`
	AncestorDepth          int      `json:"ancestorDepth"`
	ChildDepth             int      `json:"childDepth"`
	ChildOffset            int      `json:"childOffset"`
	IncludeAllRootPaths    bool     `json:"includeAllRootPaths"`
	IncludeDescendants     bool     `json:"includeDescendants"`
	IncludeDirectChildren  bool     `json:"includeDirectChildren"`
	IncludeUnresolved      bool     `json:"includeUnresolved"`
	MaxNodes               int      `json:"maxNodes"`
	MaxPathNodeOccurrences int      `json:"maxPathNodeOccurrences"`
	MaxPaths               int      `json:"maxPaths"`
	RelationshipTypes      []string `json:"relationshipTypes,omitempty"`
}

// NewContextRequest asks for the context of the standard nodeID in the
// framework's unique current snapshot, every bound at its default.
func NewContextRequest(frameworkID, nodeID string) ContextRequest {
	return newRequest[ContextRequest](contextRequestSchema(), map[string]any{"frameworkId": frameworkID, "nodeId": nodeID})
}

func contextRequestSchema() *Schema {
	props := routeProps()
	props["nodeId"] = opaque(1024, "the standard's node ID")
	props["ancestorDepth"] = jsonschema.Integer(0, 64, 16, "levels of ancestors to walk")
	props["childDepth"] = jsonschema.Integer(0, 64, 1, "levels of descendants to walk when includeDescendants is true")
	props["childOffset"] = jsonschema.Integer(0, maxChildOffset, 0, "skip this many direct children (the next page of a parent with more than maxNodes)")
	props["includeAllRootPaths"] = jsonschema.Boolean(true, "enumerate every root-to-standard path")
	props["includeDescendants"] = jsonschema.Boolean(false, "walk descendants to childDepth")
	props["includeDirectChildren"] = jsonschema.Boolean(true, "list direct children")
	props["includeUnresolved"] = jsonschema.Hidden(jsonschema.Boolean(true, "keep unresolved root-fallback edges (must stay true)"))
	props["maxNodes"] = jsonschema.Integer(1, 2000, 250, "node bound of each list: parents, children, ancestors, descendants")
	props["maxPathNodeOccurrences"] = jsonschema.Hidden(jsonschema.Integer(1, 100000, 8192, "bound on the total nodes over all root paths"))
	props["maxPaths"] = jsonschema.Integer(1, 1000, 128, "bound on the number of root paths")
	props["relationshipTypes"] = jsonschema.Hidden(jsonschema.Array(jsonschema.String(1, 128, ""), 1, "empty, or the package's hierarchy relationship type"))
	return jsonschema.Object(props, "nodeId")
}

// StandardContext answers get_standard_context, cut to the result ceiling
// (descendants, then root paths, then ancestors) when it is over.
func (s *Service) StandardContext(ctx context.Context, r ContextRequest) (*ContextResult, error) {
	if err := checkRequest(contextRequestSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.standardContext(ctx, r)
	return own(s, result, err)
}

func (s *Service) standardContext(_ context.Context, r ContextRequest) (*ContextResult, error) {
	p, err := s.route(r.FrameworkID, r.SnapshotID, r.GraphType)
	if err != nil {
		return nil, err
	}
	if !r.IncludeUnresolved {
		return nil, kgerr.New(kgerr.CapabilityUnavailable, "includeUnresolved must stay true: unresolved root fallbacks are part of the accepted hierarchy")
	}
	label := p.Profile().Hierarchy.RelationshipType
	if len(r.RelationshipTypes) == 1 && r.RelationshipTypes[0] != label {
		return nil, kgerr.New(kgerr.CapabilityUnavailable, "relationship type %q is not this package's hierarchy type %q", r.RelationshipTypes[0], label)
	}
	img := p.Img
	n, ok := img.NodeByID(r.NodeID)
	if !ok || img.NodeKind(n) != kgimg.ItemNode {
		return nil, kgerr.New(kgerr.GraphNodeNotFound, "no standard with node ID %s in %s", r.NodeID, p.SnapshotID())
	}
	q := standard.ContextQuery{Package: p, Origin: n, AncestorDepth: r.AncestorDepth, ChildDepth: r.ChildDepth, ChildOffset: r.ChildOffset,
		MaxNodes: r.MaxNodes, MaxPaths: r.MaxPaths, MaxOccurrences: r.MaxPathNodeOccurrences,
		Children: r.IncludeDirectChildren, Descendants: r.IncludeDescendants,
		Paths: r.IncludeAllRootPaths, Records: map[uint32]StandardNode{}}
	return s.fitContext(q)
}

// maxChildOffset bounds get_standard_context's childOffset.
const maxChildOffset = 10_000_000

// fitContext builds the result, cutting it to the result ceiling when it is
// over: the descendants, the children, the root paths, the parents and the
// ancestors, each to the longest prefix that fits (an earlier list is cut to
// its minimum before a later one is cut at all). Every cut list says
// byte_limit. Each list is bounded by the request (maxNodes, maxPaths) before
// anything is built, so no build costs more than those bounds.
func (s *Service) fitContext(q standard.ContextQuery) (*ContextResult, error) {
	lim := standard.Limits{q.MaxNodes, q.MaxNodes, q.MaxPaths, q.MaxNodes, q.MaxNodes}
	q.Relations = standard.Relations(standard.PeersOf(s.cat), q.Package, q.Origin)
	full := standard.Context(q, lim)
	if ok, err := anyCeiling.fits(full); err != nil || ok {
		return full, err
	}
	var lengths standard.Limits
	if full.Descendants != nil {
		lengths[standard.CutDescendants] = len(full.Descendants.Nodes)
	}
	if full.DirectChildren != nil {
		lengths[standard.CutChildren] = len(full.DirectChildren.Neighbors)
	}
	if full.RootPaths != nil {
		lengths[standard.CutRootPaths] = len(full.RootPaths.Paths)
	}
	lengths[standard.CutParents] = len(full.DirectParents.Neighbors)
	lengths[standard.CutAncestors] = len(full.Ancestors.Nodes)
	mins := standard.Limits{1, 0, 0, 0, 1} // a walk always holds its origin
	for stage := range standard.CutStages {
		if lengths[stage] <= mins[stage] {
			continue
		}
		lim[stage] = mins[stage]
		ok, err := anyCeiling.fits(standard.Context(q, lim))
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // still over: cut the next list too
		}
		k, err := anyCeiling.largestBelow(lengths[stage]-mins[stage], func(k int) any {
			l := lim
			l[stage] = mins[stage] + k
			return standard.Context(q, l)
		})
		if err != nil {
			return nil, err
		}
		lim[stage] = mins[stage] + k
		return standard.Context(q, lim), nil
	}
	return nil, ResultTooLarge("the context of standard " + q.Package.Img.NodeString(q.Origin, kgimg.NodeID))
}
