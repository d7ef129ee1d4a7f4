package mcpserver

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
	AncestorDepth          *int     `json:"ancestorDepth"`
	ChildDepth             *int     `json:"childDepth"`
	IncludeAllRootPaths    *bool    `json:"includeAllRootPaths"`
	IncludeDescendants     *bool    `json:"includeDescendants"`
	IncludeDirectChildren  *bool    `json:"includeDirectChildren"`
	IncludeUnresolved      *bool    `json:"includeUnresolved"`
	MaxNodes               *int     `json:"maxNodes"`
	MaxPathNodeOccurrences *int     `json:"maxPathNodeOccurrences"`
	MaxPaths               *int     `json:"maxPaths"`
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

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

func boolOr(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
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

func (s *Server) traversal(c *ctxTables, p *catalog.Package, origin uint32, dir kgfb.Direction, depth, maxNodes int) obj {
	img := p.Img
	adj := img.Adjacency(kgfb.RelLabelHasChild, dir)
	order, depths, complete := bfs(img, adj, origin, depth, maxNodes)
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
	}
	return obj{"direction": direction, "isComplete": complete, "maxDepth": depth, "maxNodes": maxNodes, "nodes": nodes,
		"originNodeId": img.NodeString(origin, kgimg.NodeID), "relationshipIds": ids,
		"relationshipType": p.Profile.Hierarchy.RelationshipType, "truncationReason": reason}
}

func (s *Server) direct(c *ctxTables, p *catalog.Package, origin uint32, dir kgfb.Direction) obj {
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
// the origin, depth first in relationship-key order, all-or-nothing per path.
func (s *Server) rootPaths(c *ctxTables, p *catalog.Package, origin uint32, depth, maxPaths, maxOcc int) obj {
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
			if len(paths) == maxPaths {
				reason = "max_paths"
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

func (s *Server) getStandardContext(_ context.Context, raw json.RawMessage) (any, error) {
	r, err := decode[contextRequest](raw)
	if err != nil {
		return nil, err
	}
	p, err := s.route(r.FrameworkID, r.SnapshotID, r.GraphType)
	if err != nil {
		return nil, err
	}
	if !boolOr(r.IncludeUnresolved, true) {
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
	c := &ctxTables{img: img, nodes: map[uint32]bool{}, rels: map[uint32]bool{}}
	anc, childDepth, maxNodes := intOr(r.AncestorDepth, 16), intOr(r.ChildDepth, 1), intOr(r.MaxNodes, 250)
	out := obj{
		"standard":       standardResult(p, n),
		"directParents":  s.direct(c, p, n, kgfb.DirectionIn),
		"ancestors":      s.traversal(c, p, n, kgfb.DirectionIn, anc, maxNodes),
		"directChildren": nil, "descendants": nil, "rootPaths": nil,
	}
	if boolOr(r.IncludeDirectChildren, true) {
		out["directChildren"] = s.direct(c, p, n, kgfb.DirectionOut)
	}
	if boolOr(r.IncludeDescendants, false) {
		out["descendants"] = s.traversal(c, p, n, kgfb.DirectionOut, childDepth, maxNodes)
	}
	if boolOr(r.IncludeAllRootPaths, true) {
		out["rootPaths"] = s.rootPaths(c, p, n, anc, intOr(r.MaxPaths, 128), intOr(r.MaxPathNodeOccurrences, 8192))
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
	nodeTable := make([]obj, 0, len(nodes))
	for _, x := range nodes {
		nodeTable = append(nodeTable, standardNode(img, x))
	}
	relTable := make([]obj, 0, len(rels))
	statuses := []obj{}
	for _, x := range rels {
		relTable = append(relTable, graphRelationship(img, x))
		if st := img.RelString(x, kgimg.RelResolutionStatus); st != "" {
			statuses = append(statuses, obj{"relationshipId": img.RelString(x, kgimg.RelID), "resolutionStatus": st})
		}
	}
	out["nodes"], out["relationships"], out["relationshipStatuses"] = nodeTable, relTable, statuses
	return out, nil
}
