package query

import (
	"github.com/kgc-project/kgc/runtime/record"

	"context"
	"sort"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/graph"
	"github.com/kgc-project/kgc/runtime/kgerr"
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

// ContextResult is get_standard_context's result: the standard, its direct
// neighbours, bounded ancestor and descendant walks and root paths, which
// refer by ID to the records, each listed once in Nodes and Relationships.
type ContextResult struct {
	Ancestors            Traversal            `json:"ancestors"`
	Descendants          *Traversal           `json:"descendants"`
	DirectChildren       *Direct              `json:"directChildren"`
	DirectParents        Direct               `json:"directParents"`
	Nodes                []StandardNode       `json:"nodes"`
	RelationshipStatuses []RelationshipStatus `json:"relationshipStatuses"`
	Relationships        []GraphRelationship  `json:"relationships"`
	RootPaths            *RootPaths           `json:"rootPaths"`
	Standard             StandardResult       `json:"standard"`
}

// Direct lists a standard's parents or children with the edges to them: at
// most maxNodes of them, from Offset on (children only), in row order.
type Direct struct {
	Direction string `json:"direction" enum:"parents,children"`
	// IsComplete says Neighbors holds every parent or child.
	IsComplete bool       `json:"isComplete"`
	Neighbors  []Neighbor `json:"neighbors"`
	// Offset is how many came before Neighbors[0] (childOffset).
	Offset int `json:"offset"`
	// Order says what the children's order rests on: publisher (the
	// publisher's sequence numbers or enumeration), code (their statement
	// codes, natural order), statement_numbers (the numbers their statements
	// carry), grade (their grades, school order), codes_below (the codes
	// beneath each child), identifier (no order published), file (an image
	// built before the order was recorded: the package file's order). Empty
	// for parents.
	Order            string `json:"order,omitempty" enum:"publisher,code,statement_numbers,grade,codes_below,identifier,file"`
	OriginNodeID     string `json:"originNodeId"`
	RelationshipType string `json:"relationshipType"`
	// TotalCount is how many parents or children the standard has.
	TotalCount int `json:"totalCount"`
	// TruncationReason is max_nodes, byte_limit (the result ceiling) or nil.
	TruncationReason *string `json:"truncationReason"`
}

// Neighbor is a node and the relationship that reaches it.
type Neighbor struct {
	NodeID         string `json:"nodeId"`
	RelationshipID string `json:"relationshipId"`
}

// Traversal is a bounded breadth-first walk over the hierarchy.
type Traversal struct {
	Direction        string      `json:"direction" enum:"ancestors,descendants"`
	IsComplete       bool        `json:"isComplete"`
	MaxDepth         int         `json:"maxDepth"`
	MaxNodes         int         `json:"maxNodes"`
	Nodes            []DepthNode `json:"nodes"`
	OriginNodeID     string      `json:"originNodeId"`
	RelationshipIDs  []string    `json:"relationshipIds"`
	RelationshipType string      `json:"relationshipType"`
	// TruncationReason is max_nodes, byte_limit (the result ceiling) or nil.
	TruncationReason *string `json:"truncationReason"`
}

// DepthNode is a node of a walk and its least depth.
type DepthNode struct {
	Depth  int    `json:"depth"`
	NodeID string `json:"nodeId"`
}

// RootPaths are the root-to-standard paths (all-or-nothing per path).
type RootPaths struct {
	FrameworkRootID        string     `json:"frameworkRootId"`
	IsComplete             bool       `json:"isComplete"`
	MaxDepth               int        `json:"maxDepth"`
	MaxPathNodeOccurrences int        `json:"maxPathNodeOccurrences"`
	MaxPaths               int        `json:"maxPaths"`
	OriginNodeID           string     `json:"originNodeId"`
	Paths                  []RootPath `json:"paths"`
	RelationshipType       string     `json:"relationshipType"`
	// TruncationReason is max_paths, max_path_node_occurrences, max_depth,
	// byte_limit or nil.
	TruncationReason *string `json:"truncationReason"`
}

// RootPath is one root-to-standard path.
type RootPath struct {
	NodeIDs         []string `json:"nodeIds"`
	RelationshipIDs []string `json:"relationshipIds"`
}

// RelationshipStatus is a non-empty resolution status among the returned
// relationships.
type RelationshipStatus struct {
	RelationshipID   string `json:"relationshipId"`
	ResolutionStatus string `json:"resolutionStatus"`
}

func reason(r string) *string { return &r }

func contextRequestSchema() *Schema {
	props := routeProps()
	props["nodeId"] = opaque(1024, "the standard's node ID")
	props["ancestorDepth"] = integer(0, 64, 16, "levels of ancestors to walk")
	props["childDepth"] = integer(0, 64, 1, "levels of descendants to walk when includeDescendants is true")
	props["childOffset"] = integer(0, MaxChildOffset, 0, "skip this many direct children (the next page of a parent with more than maxNodes)")
	props["includeAllRootPaths"] = boolean(true, "enumerate every root-to-standard path")
	props["includeDescendants"] = boolean(false, "walk descendants to childDepth")
	props["includeDirectChildren"] = boolean(true, "list direct children")
	props["includeUnresolved"] = hidden(boolean(true, "keep unresolved root-fallback edges (must stay true)"))
	props["maxNodes"] = integer(1, 2000, 250, "node bound of each list: parents, children, ancestors, descendants")
	props["maxPathNodeOccurrences"] = hidden(integer(1, 100000, 8192, "bound on the total nodes over all root paths"))
	props["maxPaths"] = integer(1, 1000, 128, "bound on the number of root paths")
	props["relationshipTypes"] = hidden(array(str(1, 128, ""), 1, "empty, or the package's hierarchy relationship type"))
	return object(props, "nodeId")
}

// relKey orders relationships by (sourceExportOrder, relationshipId).
func relLess(img *kgimg.Image, a, b uint32) bool {
	if oa, ob := img.RelOrder(a), img.RelOrder(b); oa != ob {
		return oa < ob
	}
	return img.RelString(a, kgimg.RelID) < img.RelString(b, kgimg.RelID)
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

// traversal walks ancestors or descendants; limit (at most maxNodes) is where
// the result ceiling stops the walk earlier (truncationReason byte_limit).
func hierarchyWalk(c *ctxTables, p *catalog.Package, origin uint32, dir kgimg.Direction, depth, maxNodes, limit int) Traversal {
	img := p.Img
	adj := img.Adjacency(kgimg.HasChild, dir)
	order, depths, complete := graph.Walk(adj, origin, depth, limit)
	if dir == kgimg.In {
		// Ancestors by (depth, curriculum position, node ID). Descendants stay
		// in the walk's order: level by level, each node's children in
		// curriculum order (its hasChild row), parents in that order.
		sort.Slice(order, func(i, j int) bool {
			if depths[order[i]] != depths[order[j]] {
				return depths[order[i]] < depths[order[j]]
			}
			return graph.Less(img, order[i], order[j])
		})
	}
	nodes := make([]DepthNode, 0, len(order))
	for _, n := range order {
		nodes = append(nodes, DepthNode{Depth: depths[n], NodeID: c.node(n)})
	}
	// Every hierarchy edge induced by the returned node set.
	var rels []uint32
	out := img.Adjacency(kgimg.HasChild, kgimg.Out)
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
	t := Traversal{Direction: "ancestors", IsComplete: complete, MaxDepth: depth, MaxNodes: maxNodes, Nodes: nodes,
		OriginNodeID: img.NodeString(origin, kgimg.NodeID), RelationshipIDs: ids, RelationshipType: p.Profile().Hierarchy.RelationshipType}
	if dir == kgimg.Out {
		t.Direction = "descendants"
	}
	if !complete {
		t.TruncationReason = reason("max_nodes")
		if limit < maxNodes {
			t.TruncationReason = reason("byte_limit")
		}
	}
	return t
}

// direct lists at most limit of origin's parents or children, from offset
// on, in row order (the contract's relationship-key order: the image writes
// hasChild rows so); maxNodes is the request's bound, which limit is unless the
// result ceiling cut the list (byte_limit). Only the listed ones are read.
func direct(c *ctxTables, p *catalog.Package, origin uint32, dir kgimg.Direction, offset, maxNodes, limit int) Direct {
	img := p.Img
	nb, ed := img.Adjacency(kgimg.HasChild, dir).Row(origin)
	total := nb.Len()
	lo := min(offset, total)
	hi := min(total, lo+limit)
	neighbors := make([]Neighbor, 0, hi-lo)
	for i := lo; i < hi; i++ {
		neighbors = append(neighbors, Neighbor{NodeID: c.node(nb.At(i)), RelationshipID: c.rel(ed.At(i))})
	}
	d := Direct{Direction: "parents", IsComplete: lo == 0 && hi == total, Neighbors: neighbors, Offset: offset,
		OriginNodeID: img.NodeString(origin, kgimg.NodeID), RelationshipType: p.Profile().Hierarchy.RelationshipType, TotalCount: total}
	if dir == kgimg.Out {
		d.Direction = "children"
		d.Order = OrderBasis(img.ChildOrder(origin))
	}
	if hi < total {
		d.TruncationReason = reason("max_nodes")
		if limit < maxNodes {
			d.TruncationReason = reason("byte_limit")
		}
	}
	return d
}

// OrderBasis names what the order of a node's children rests on ("" when it
// has none).
func OrderBasis(o kgimg.ChildOrder) string {
	switch o {
	case kgimg.OrderPublisher:
		return "publisher"
	case kgimg.OrderCode:
		return "code"
	case kgimg.OrderStatementNumbers:
		return "statement_numbers"
	case kgimg.OrderIdentifier:
		return "identifier"
	case kgimg.OrderGrade:
		return "grade"
	case kgimg.OrderCodesBelow:
		return "codes_below"
	case kgimg.OrderUnknown:
		return "file"
	}
	return ""
}

// rootPaths enumerates root→origin paths through nodes within ancestorDepth of
// the origin, depth first with each node's children in curriculum order,
// all-or-nothing per path;
// limit (at most maxPaths) is where the result ceiling stops it earlier.
func rootPaths(c *ctxTables, p *catalog.Package, origin uint32, depth, maxPaths, maxOcc, limit int) RootPaths {
	img := p.Img
	root := img.RootNode()
	_, within, _ := graph.Walk(img.Adjacency(kgimg.HasChild, kgimg.In), origin, depth, int(^uint(0)>>1))
	out := img.Adjacency(kgimg.HasChild, kgimg.Out)
	paths := []RootPath{}
	occurrences := 0
	var why *string
	_, rootWithin := within[root]
	var walk func(n uint32, nodes []uint32, rels []uint32) bool
	walk = func(n uint32, nodes []uint32, rels []uint32) bool {
		if n == origin {
			if len(paths) == limit {
				why = reason("max_paths")
				if limit < maxPaths {
					why = reason("byte_limit")
				}
				return false
			}
			if occurrences+len(nodes) > maxOcc {
				why = reason("max_path_node_occurrences")
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
			paths = append(paths, RootPath{NodeIDs: nids, RelationshipIDs: rids})
			return true
		}
		nb, ed := out.Row(n) // children in curriculum order: paths come in curriculum order
		for i := 0; i < nb.Len(); i++ {
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
		why = reason("max_depth")
	}
	return RootPaths{FrameworkRootID: img.NodeString(root, kgimg.NodeID), IsComplete: complete, MaxDepth: depth,
		MaxPathNodeOccurrences: maxOcc, MaxPaths: maxPaths, OriginNodeID: img.NodeString(origin, kgimg.NodeID),
		Paths: paths, RelationshipType: p.Profile().Hierarchy.RelationshipType, TruncationReason: why}
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
	q := contextQuery{p: p, origin: n, ancestorDepth: r.AncestorDepth, childDepth: r.ChildDepth, childOffset: r.ChildOffset,
		maxNodes: r.MaxNodes, maxPaths: r.MaxPaths, maxOcc: r.MaxPathNodeOccurrences,
		children: r.IncludeDirectChildren, descendants: r.IncludeDescendants,
		paths: r.IncludeAllRootPaths, records: map[uint32]StandardNode{}}
	return s.fitContext(q)
}

// MaxChildOffset bounds get_standard_context's childOffset.
const MaxChildOffset = 10_000_000

// contextQuery is a validated get_standard_context request.
type contextQuery struct {
	p                            *catalog.Package
	origin                       uint32
	ancestorDepth, childDepth    int
	childOffset                  int
	maxNodes, maxPaths, maxOcc   int
	children, descendants, paths bool
	records                      map[uint32]StandardNode // node records built so far
	relations                    *StandardRelations      // the standard's publisher relations
}

// The lists of a context result the result ceiling cuts, in the order it
// cuts them.
const (
	cutDescendants = iota
	cutChildren
	cutRootPaths
	cutParents
	cutAncestors
	cutStages
)

// contextLimits are where the result ceiling cuts the lists of a context
// result (indexed by the cut stages).
type contextLimits [cutStages]int

// fitContext builds the result, cutting it to the result ceiling when it is
// over: the descendants, the children, the root paths, the parents and the
// ancestors, each to the longest prefix that fits (an earlier list is cut to
// its minimum before a later one is cut at all). Every cut list says
// byte_limit. Each list is bounded by the request (maxNodes, maxPaths) before
// anything is built, so no build costs more than those bounds.
func (s *Service) fitContext(q contextQuery) (*ContextResult, error) {
	lim := contextLimits{q.maxNodes, q.maxNodes, q.maxPaths, q.maxNodes, q.maxNodes}
	q.relations = s.standardRelations(q.p, q.origin)
	full := s.contextResult(q, lim)
	if ok, err := anyCeiling.fits(full); err != nil || ok {
		return full, err
	}
	var lengths contextLimits
	if full.Descendants != nil {
		lengths[cutDescendants] = len(full.Descendants.Nodes)
	}
	if full.DirectChildren != nil {
		lengths[cutChildren] = len(full.DirectChildren.Neighbors)
	}
	if full.RootPaths != nil {
		lengths[cutRootPaths] = len(full.RootPaths.Paths)
	}
	lengths[cutParents] = len(full.DirectParents.Neighbors)
	lengths[cutAncestors] = len(full.Ancestors.Nodes)
	mins := contextLimits{1, 0, 0, 0, 1} // a walk always holds its origin
	for stage := range cutStages {
		if lengths[stage] <= mins[stage] {
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
		k, err := anyCeiling.largestBelow(lengths[stage]-mins[stage], func(k int) any {
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

// contextResult builds a context result with its lists limited.
func (s *Service) contextResult(q contextQuery, lim contextLimits) *ContextResult {
	p, n, img := q.p, q.origin, q.p.Img
	c := &ctxTables{img: img, nodes: map[uint32]bool{}, rels: map[uint32]bool{}}
	out := &ContextResult{
		Standard:      standardResult(p, n),
		DirectParents: direct(c, p, n, kgimg.In, 0, q.maxNodes, lim[cutParents]),
		Ancestors:     hierarchyWalk(c, p, n, kgimg.In, q.ancestorDepth, q.maxNodes, lim[cutAncestors]),
	}
	out.Standard.PublisherRelations = q.relations
	if q.children {
		d := direct(c, p, n, kgimg.Out, q.childOffset, q.maxNodes, lim[cutChildren])
		out.DirectChildren = &d
	}
	if q.descendants {
		t := hierarchyWalk(c, p, n, kgimg.Out, q.childDepth, q.maxNodes, lim[cutDescendants])
		out.Descendants = &t
	}
	if q.paths {
		rp := rootPaths(c, p, n, q.ancestorDepth, q.maxPaths, q.maxOcc, lim[cutRootPaths])
		out.RootPaths = &rp
	}
	nodes := make([]uint32, 0, len(c.nodes))
	for x := range c.nodes {
		nodes = append(nodes, x)
	}
	sort.Slice(nodes, func(i, j int) bool { return graph.Less(img, nodes[i], nodes[j]) })
	rels := make([]uint32, 0, len(c.rels))
	for x := range c.rels {
		rels = append(rels, x)
	}
	sort.Slice(rels, func(i, j int) bool { return relLess(img, rels[i], rels[j]) })
	out.Nodes = make([]StandardNode, 0, len(nodes))
	for _, x := range nodes {
		rec, ok := q.records[x]
		if !ok {
			rec = record.Standard(img, x)
			q.records[x] = rec
		}
		out.Nodes = append(out.Nodes, rec)
	}
	out.Relationships = make([]GraphRelationship, 0, len(rels))
	out.RelationshipStatuses = []RelationshipStatus{}
	for _, x := range rels {
		out.Relationships = append(out.Relationships, record.Relationship(img, x))
		if st := img.RelString(x, kgimg.RelResolutionStatus); st != "" {
			out.RelationshipStatuses = append(out.RelationshipStatuses, RelationshipStatus{RelationshipID: img.RelString(x, kgimg.RelID), ResolutionStatus: st})
		}
	}
	return out
}
