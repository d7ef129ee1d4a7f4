package standard

import (
	"sort"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/graph"
	"github.com/kgc-project/kgc/runtime/record"
)

// ContextResult is get_standard_context's result: the standard, its direct
// neighbours, bounded ancestor and descendant walks and root paths, which
// refer by ID to the records, each listed once in Nodes and Relationships.
type ContextResult struct {
	Ancestors            Traversal                  `json:"ancestors"`
	Descendants          *Traversal                 `json:"descendants"`
	DirectChildren       *Direct                    `json:"directChildren"`
	DirectParents        Direct                     `json:"directParents"`
	Nodes                []record.StandardNode      `json:"nodes"`
	RelationshipStatuses []RelationshipStatus       `json:"relationshipStatuses"`
	Relationships        []record.GraphRelationship `json:"relationships"`
	RootPaths            *RootPaths                 `json:"rootPaths"`
	Standard             StandardResult             `json:"standard"`
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
		t.TruncationReason = ptr("max_nodes")
		if limit < maxNodes {
			t.TruncationReason = ptr("byte_limit")
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
		d.Order = img.ChildOrder(origin).Basis()
	}
	if hi < total {
		d.TruncationReason = ptr("max_nodes")
		if limit < maxNodes {
			d.TruncationReason = ptr("byte_limit")
		}
	}
	return d
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
				why = ptr("max_paths")
				if limit < maxPaths {
					why = ptr("byte_limit")
				}
				return false
			}
			if occurrences+len(nodes) > maxOcc {
				why = ptr("max_path_node_occurrences")
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
		why = ptr("max_depth")
	}
	return RootPaths{FrameworkRootID: img.NodeString(root, kgimg.NodeID), IsComplete: complete, MaxDepth: depth,
		MaxPathNodeOccurrences: maxOcc, MaxPaths: maxPaths, OriginNodeID: img.NodeString(origin, kgimg.NodeID),
		Paths: paths, RelationshipType: p.Profile().Hierarchy.RelationshipType, TruncationReason: why}
}

// ContextQuery is a validated get_standard_context request.
type ContextQuery struct {
	Package                   *catalog.Package
	Origin                    uint32
	AncestorDepth, ChildDepth int
	ChildOffset               int
	MaxNodes, MaxPaths        int
	MaxOccurrences            int
	Children, Descendants     bool
	Paths                     bool
	Records                   map[uint32]record.StandardNode // node records built so far
	Relations                 *StandardRelations             // the standard's publisher relations
}

// The lists of a context result the result ceiling cuts, in the order it
// cuts them.
const (
	CutDescendants = iota
	CutChildren
	CutRootPaths
	CutParents
	CutAncestors
	CutStages
)

// Limits are where the result ceiling cuts the lists of a context
// result (indexed by the cut stages).
type Limits [CutStages]int

// Context builds a context result with its lists limited.
func Context(q ContextQuery, lim Limits) *ContextResult {
	p, n, img := q.Package, q.Origin, q.Package.Img
	c := &ctxTables{img: img, nodes: map[uint32]bool{}, rels: map[uint32]bool{}}
	out := &ContextResult{
		Standard:      Result(p, n),
		DirectParents: direct(c, p, n, kgimg.In, 0, q.MaxNodes, lim[CutParents]),
		Ancestors:     hierarchyWalk(c, p, n, kgimg.In, q.AncestorDepth, q.MaxNodes, lim[CutAncestors]),
	}
	out.Standard.PublisherRelations = q.Relations
	if q.Children {
		d := direct(c, p, n, kgimg.Out, q.ChildOffset, q.MaxNodes, lim[CutChildren])
		out.DirectChildren = &d
	}
	if q.Descendants {
		t := hierarchyWalk(c, p, n, kgimg.Out, q.ChildDepth, q.MaxNodes, lim[CutDescendants])
		out.Descendants = &t
	}
	if q.Paths {
		rp := rootPaths(c, p, n, q.AncestorDepth, q.MaxPaths, q.MaxOccurrences, lim[CutRootPaths])
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
	out.Nodes = make([]record.StandardNode, 0, len(nodes))
	for _, x := range nodes {
		rec, ok := q.Records[x]
		if !ok {
			rec = record.Standard(img, x)
			q.Records[x] = rec
		}
		out.Nodes = append(out.Nodes, rec)
	}
	out.Relationships = make([]record.GraphRelationship, 0, len(rels))
	out.RelationshipStatuses = []RelationshipStatus{}
	for _, x := range rels {
		out.Relationships = append(out.Relationships, record.Relationship(img, x))
		if st := img.RelString(x, kgimg.RelResolutionStatus); st != "" {
			out.RelationshipStatuses = append(out.RelationshipStatuses, RelationshipStatus{RelationshipID: img.RelString(x, kgimg.RelID), ResolutionStatus: st})
		}
	}
	return out
}

// RootPathsOf lists the paths from the framework root down to standard n on
// their own (get_standard_context's rootPaths, limited to maxPaths).
func RootPathsOf(p *catalog.Package, n uint32, depth, maxPaths, maxOcc int) RootPaths {
	c := &ctxTables{img: p.Img, nodes: map[uint32]bool{}, rels: map[uint32]bool{}}
	return rootPaths(c, p, n, depth, maxPaths, maxOcc, maxPaths)
}
