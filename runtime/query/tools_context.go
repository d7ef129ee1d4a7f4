package query

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/kgimg"
	"github.com/kgc-project/kgc/schema/kgfb"
)

type contextRequest struct {
	NodeID                 string   `json:"nodeId"`
	FrameworkID            *string  `json:"frameworkId"`
	SnapshotID             *string  `json:"snapshotId"`
	GraphType              string   `json:"graphType"`
	AncestorDepth          int      `json:"ancestorDepth"`
	ChildDepth             int      `json:"childDepth"`
	IncludeAllRootPaths    bool     `json:"includeAllRootPaths"`
	IncludeDescendants     bool     `json:"includeDescendants"`
	IncludeDirectChildren  bool     `json:"includeDirectChildren"`
	IncludeUnresolved      bool     `json:"includeUnresolved"`
	MaxNodes               int      `json:"maxNodes"`
	MaxPathNodeOccurrences int      `json:"maxPathNodeOccurrences"`
	MaxPaths               int      `json:"maxPaths"`
	RelationshipTypes      []string `json:"relationshipTypes"`
}

func contextRequestSchema() *Schema {
	props := routeProps()
	props["nodeId"] = opaque(1024, "the standard's node ID")
	props["ancestorDepth"] = integer(0, 64, 16, "levels of ancestors to walk")
	props["childDepth"] = integer(0, 64, 1, "levels of descendants to walk when includeDescendants is true")
	props["includeAllRootPaths"] = boolean(true, "enumerate every root-to-standard path")
	props["includeDescendants"] = boolean(false, "walk descendants to childDepth")
	props["includeDirectChildren"] = boolean(true, "list direct children")
	props["includeUnresolved"] = boolean(true, "keep unresolved root-fallback edges (must stay true)")
	props["maxNodes"] = integer(1, 2000, 250, "node bound of each traversal")
	props["maxPathNodeOccurrences"] = integer(1, 100000, 8192, "bound on the total nodes over all root paths")
	props["maxPaths"] = integer(1, 1000, 128, "bound on the number of root paths")
	props["relationshipTypes"] = array(str(1, 128, ""), 1, "empty, or the package's hierarchy relationship type")
	return object(props, "nodeId")
}

// relKey orders relationships by (sourceExportOrder, relationshipId).
func relLess(img *kgimg.Image, a, b uint32) bool {
	if oa, ob := img.RelOrder(a), img.RelOrder(b); oa != ob {
		return oa < ob
	}
	return img.RelString(a, kgimg.RelID) < img.RelString(b, kgimg.RelID)
}

func nodeLess(img *kgimg.Image, a, b uint32) bool {
	if oa, ob := img.NodeOrder(a), img.NodeOrder(b); oa != ob {
		return oa < ob
	}
	return img.NodeString(a, kgimg.NodeID) < img.NodeString(b, kgimg.NodeID)
}

// ctxTables collects the records a context result refers to, once each.
type ctxTables struct {
	img   *kgimg.Image
	nodes map[uint32]bool
	rels  map[uint32]bool
}

func (c *ctxTables) node(n uint32) string {
	c.nodes[n] = true
	return c.img.NodeString(n, kgimg.NodeID)
}
func (c *ctxTables) rel(r uint32) string { c.rels[r] = true; return c.img.RelString(r, kgimg.RelID) }

// bfs walks the hierarchy from origin in one direction up to depth levels and
// maxNodes nodes (origin included).
func bfs(img *kgimg.Image, adj kgimg.Adjacency, origin uint32, depth, maxNodes int) (order []uint32, depths map[uint32]int, complete bool) {
	depths = map[uint32]int{origin: 0}
	frontier := []uint32{origin}
	order = []uint32{origin}
	complete = true
	for d := 1; d <= depth && len(frontier) > 0; d++ {
		var next []uint32
		for _, n := range frontier {
			nb, _ := adj.Row(n)
			for i := 0; i < nb.Len(); i++ {
				m := nb.At(i)
				if _, seen := depths[m]; seen {
					continue
				}
				if len(order) >= maxNodes {
					return order, depths, false
				}
				depths[m] = d
				order = append(order, m)
				next = append(next, m)
			}
		}
		frontier = next
	}
	return order, depths, complete
}

// traversal walks ancestors or descendants; limit (at most maxNodes) is where
// the result ceiling stops the walk earlier (truncationReason byte_limit).
func (s *Service) traversal(c *ctxTables, p *catalog.Package, origin uint32, dir kgfb.Direction, depth, maxNodes, limit int) obj {
	img := p.Img
	adj := img.Adjacency(kgfb.RelLabelHasChild, dir)
	order, depths, complete := bfs(img, adj, origin, depth, limit)
	sort.Slice(order, func(i, j int) bool {
		if depths[order[i]] != depths[order[j]] {
			return depths[order[i]] < depths[order[j]]
		}
		return nodeLess(img, order[i], order[j])
	})
	nodes := make([]obj, 0, len(order))
	for _, n := range order {
		nodes = append(nodes, obj{"depth": depths[n], "nodeId": c.node(n)})
	}
	// Every hierarchy edge induced by the returned node set.
	var rels []uint32
	out := img.Adjacency(kgfb.RelLabelHasChild, kgfb.DirectionOut)
	for _, n := range order {
		nb, ed := out.Row(n)
		for i := 0; i < nb.Len(); i++ {
			if _, in := depths[nb.At(i)]; in {
				rels = append(rels, ed.At(i))
			}
		}
	}
	sort.Slice(rels, func(i, j int) bool { return relLess(img, rels[i], rels[j]) })
	ids := make([]string, len(rels))
	for i, r := range rels {
		ids[i] = c.rel(r)
	}
	direction, reason := "ancestors", any(nil)
	if dir == kgfb.DirectionOut {
		direction = "descendants"
	}
	if !complete {
		reason = "max_nodes"
		if limit < maxNodes {
			reason = "byte_limit"
		}
	}
	return obj{"direction": direction, "isComplete": complete, "maxDepth": depth, "maxNodes": maxNodes, "nodes": nodes,
		"originNodeId": img.NodeString(origin, kgimg.NodeID), "relationshipIds": ids,
		"relationshipType": p.Profile.Hierarchy.RelationshipType, "truncationReason": reason}
}

func (s *Service) direct(c *ctxTables, p *catalog.Package, origin uint32, dir kgfb.Direction) obj {
	img := p.Img
	nb, ed := img.Adjacency(kgfb.RelLabelHasChild, dir).Row(origin)
	idx := make([]int, nb.Len())
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return relLess(img, ed.At(idx[a]), ed.At(idx[b])) })
	neighbors := make([]obj, 0, len(idx))
	for _, i := range idx {
		neighbors = append(neighbors, obj{"nodeId": c.node(nb.At(i)), "relationshipId": c.rel(ed.At(i))})
	}
	direction := "parents"
	if dir == kgfb.DirectionOut {
		direction = "children"
	}
	return obj{"direction": direction, "neighbors": neighbors, "originNodeId": img.NodeString(origin, kgimg.NodeID),
		"relationshipType": p.Profile.Hierarchy.RelationshipType}
}

// rootPaths enumerates root→origin paths through nodes within ancestorDepth of
// the origin, depth first in relationship-key order, all-or-nothing per path;
// limit (at most maxPaths) is where the result ceiling stops it earlier.
func (s *Service) rootPaths(c *ctxTables, p *catalog.Package, origin uint32, depth, maxPaths, maxOcc, limit int) obj {
	img := p.Img
	root := img.RootNode()
	_, within, _ := bfs(img, img.Adjacency(kgfb.RelLabelHasChild, kgfb.DirectionIn), origin, depth, int(^uint(0)>>1))
	out := img.Adjacency(kgfb.RelLabelHasChild, kgfb.DirectionOut)
	var paths []obj
	occurrences := 0
	reason := any(nil)
	_, rootWithin := within[root]
	var walk func(n uint32, nodes []uint32, rels []uint32) bool
	walk = func(n uint32, nodes []uint32, rels []uint32) bool {
		if n == origin {
			if len(paths) == limit {
				reason = "max_paths"
				if limit < maxPaths {
					reason = "byte_limit"
				}
				return false
			}
			if occurrences+len(nodes) > maxOcc {
				reason = "max_path_node_occurrences"
				return false
			}
			occurrences += len(nodes)
			nids := make([]string, len(nodes))
			for i, x := range nodes {
				nids[i] = c.node(x)
			}
			rids := make([]string, len(rels))
			for i, x := range rels {
				rids[i] = c.rel(x)
			}
			paths = append(paths, obj{"nodeIds": nids, "relationshipIds": rids})
			return true
		}
		nb, ed := out.Row(n)
		idx := make([]int, nb.Len())
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(a, b int) bool { return relLess(img, ed.At(idx[a]), ed.At(idx[b])) })
		for _, i := range idx {
			m := nb.At(i)
			if _, ok := within[m]; !ok {
				continue
			}
			if !walk(m, append(nodes, m), append(rels, ed.At(i))) {
				return false
			}
		}
		return true
	}
	complete := rootWithin
	if rootWithin {
		complete = walk(root, []uint32{root}, nil)
	} else {
		reason = "max_depth"
	}
	if paths == nil {
		paths = []obj{}
	}
	return obj{"frameworkRootId": img.NodeString(root, kgimg.NodeID), "isComplete": complete, "maxDepth": depth,
		"maxPathNodeOccurrences": maxOcc, "maxPaths": maxPaths, "originNodeId": img.NodeString(origin, kgimg.NodeID),
		"paths": paths, "relationshipType": p.Profile.Hierarchy.RelationshipType, "truncationReason": reason}
}

func (s *Service) getStandardContext(_ context.Context, raw json.RawMessage) (any, error) {
	r, err := decode[contextRequest](raw)
	if err != nil {
		return nil, err
	}
	p, err := s.route(r.FrameworkID, r.SnapshotID, r.GraphType)
	if err != nil {
		return nil, err
	}
	if !r.IncludeUnresolved {
		return nil, kgerr.New(kgerr.CapabilityUnavailable, "includeUnresolved must stay true: unresolved root fallbacks are part of the accepted hierarchy")
	}
	label := p.Profile.Hierarchy.RelationshipType
	if len(r.RelationshipTypes) == 1 && r.RelationshipTypes[0] != label {
		return nil, kgerr.New(kgerr.CapabilityUnavailable, "relationship type %q is not this package's hierarchy type %q", r.RelationshipTypes[0], label)
	}
	img := p.Img
	n, ok := img.NodeByID(r.NodeID)
	if !ok || img.NodeKind(n) != kgfb.NodeKindItem {
		return nil, kgerr.New(kgerr.GraphNodeNotFound, "no standard with node ID %s in %s", r.NodeID, p.SnapshotID())
	}
	q := contextQuery{p: p, origin: n, ancestorDepth: r.AncestorDepth, childDepth: r.ChildDepth,
		maxNodes: r.MaxNodes, maxPaths: r.MaxPaths, maxOcc: r.MaxPathNodeOccurrences,
		children: r.IncludeDirectChildren, descendants: r.IncludeDescendants,
		paths: r.IncludeAllRootPaths, records: map[uint32]StandardNode{}}
	return s.fitContext(q)
}

// contextQuery is a validated get_standard_context request.
type contextQuery struct {
	p                            *catalog.Package
	origin                       uint32
	ancestorDepth, childDepth    int
	maxNodes, maxPaths, maxOcc   int
	children, descendants, paths bool
	records                      map[uint32]StandardNode // node records built so far
}

// contextLimits are where the result ceiling cuts the lists of a context
// result: the descendants, the root paths and the ancestors.
type contextLimits [3]int

// fitContext builds the result, cutting it to the result ceiling when it is
// over: first the descendants, then the root paths, then the ancestors, each
// to the longest prefix that fits (an earlier list is cut to its minimum
// before a later one is cut at all). Every cut list says byte_limit.
func (s *Service) fitContext(q contextQuery) (any, error) {
	lim := contextLimits{q.maxNodes, q.maxPaths, q.maxNodes}
	full := s.contextResult(q, lim)
	if ok, err := anyCeiling.fits(full); err != nil || ok {
		return full, err
	}
	lengths := contextLimits{listLen(full["descendants"], "nodes"), listLen(full["rootPaths"], "paths"), listLen(full["ancestors"], "nodes")}
	mins := contextLimits{1, 0, 1} // a traversal always holds its origin
	for stage, present := range [3]bool{q.descendants, q.paths, true} {
		if !present || lengths[stage] <= mins[stage] {
			continue
		}
		lim[stage] = mins[stage]
		ok, err := anyCeiling.fits(s.contextResult(q, lim))
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // still over: cut the next list too
		}
		k, err := anyCeiling.largestBelow(lengths[stage]-mins[stage], func(k int) obj {
			l := lim
			l[stage] = mins[stage] + k
			return s.contextResult(q, l)
		})
		if err != nil {
			return nil, err
		}
		lim[stage] = mins[stage] + k
		return s.contextResult(q, lim), nil
	}
	return nil, ResultTooLarge("the context of standard " + q.p.Img.NodeString(q.origin, kgimg.NodeID))
}

// listLen is the length of a traversal's or root paths' list (0 when absent).
func listLen(part any, key string) int {
	if o, ok := part.(obj); ok {
		if l, ok := o[key].([]obj); ok {
			return len(l)
		}
	}
	return 0
}

// contextResult builds a context result with its lists limited.
func (s *Service) contextResult(q contextQuery, lim contextLimits) obj {
	p, n, img := q.p, q.origin, q.p.Img
	c := &ctxTables{img: img, nodes: map[uint32]bool{}, rels: map[uint32]bool{}}
	out := obj{
		"standard":       standardResult(p, n),
		"directParents":  s.direct(c, p, n, kgfb.DirectionIn),
		"ancestors":      s.traversal(c, p, n, kgfb.DirectionIn, q.ancestorDepth, q.maxNodes, lim[2]),
		"directChildren": nil, "descendants": nil, "rootPaths": nil,
	}
	if q.children {
		out["directChildren"] = s.direct(c, p, n, kgfb.DirectionOut)
	}
	if q.descendants {
		out["descendants"] = s.traversal(c, p, n, kgfb.DirectionOut, q.childDepth, q.maxNodes, lim[0])
	}
	if q.paths {
		out["rootPaths"] = s.rootPaths(c, p, n, q.ancestorDepth, q.maxPaths, q.maxOcc, lim[1])
	}
	nodes := make([]uint32, 0, len(c.nodes))
	for x := range c.nodes {
		nodes = append(nodes, x)
	}
	sort.Slice(nodes, func(i, j int) bool { return nodeLess(img, nodes[i], nodes[j]) })
	rels := make([]uint32, 0, len(c.rels))
	for x := range c.rels {
		rels = append(rels, x)
	}
	sort.Slice(rels, func(i, j int) bool { return relLess(img, rels[i], rels[j]) })
	nodeTable := make([]StandardNode, 0, len(nodes))
	for _, x := range nodes {
		rec, ok := q.records[x]
		if !ok {
			rec = standardNode(img, x)
			q.records[x] = rec
		}
		nodeTable = append(nodeTable, rec)
	}
	relTable := make([]GraphRelationship, 0, len(rels))
	statuses := []obj{}
	for _, x := range rels {
		relTable = append(relTable, graphRelationship(img, x))
		if st := img.RelString(x, kgimg.RelResolutionStatus); st != "" {
			statuses = append(statuses, obj{"relationshipId": img.RelString(x, kgimg.RelID), "resolutionStatus": st})
		}
	}
	out["nodes"], out["relationships"], out["relationshipStatuses"] = nodeTable, relTable, statuses
	return out
}
