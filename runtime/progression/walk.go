// Package progression is the engine under the learning-progression tools:
// a bounded breadth-first walk over the stored buildsTowards edges (BFS) and
// the enumeration of simple paths between two standards (FindPaths), both in
// relationship-ID order and reporting which bound stopped them. It reads
// images in place and answers in node and relationship ordinals;
// runtime/query turns its outcomes into answers. The edges it walks are
// generated (llm_inferred): nothing here asserts a sequence of its own.
package progression

import "github.com/kgc-project/kgc/kgimg"

// The work bounds of one call (docs/reference/tools.md#get_learning_progression).
const (
	// MaxExaminedRelationships bounds the edges one walk, path search or
	// edge list examines.
	MaxExaminedRelationships = 5000
	// maxPathQueueAdmissions bounds the partial paths a path search admits.
	maxPathQueueAdmissions = 5000
)

// nodeFrontier is what a walk left unexamined at one node: edges past the depth
// bound, and edges not examined because another bound stopped it.
type nodeFrontier struct{ DepthLimited, Pending int }

// depthTable maps the nodes of one walk to their depth: open addressing over a
// power-of-two table at least twice the node budget (no per-node allocation).
type depthTable struct {
	keys  []uint32 // node+1; 0 is empty
	depth []int32
	mask  uint32
}

func newDepthTable(maxNodes int) *depthTable {
	n := 16
	for n < 2*maxNodes {
		n *= 2
	}
	return &depthTable{keys: make([]uint32, n), depth: make([]int32, n), mask: uint32(n - 1)}
}

func (t *depthTable) slot(node uint32) uint32 {
	i := (node * 2654435761) & t.mask
	for t.keys[i] != 0 && t.keys[i] != node+1 {
		i = (i + 1) & t.mask
	}
	return i
}

func (t *depthTable) get(node uint32) (int, bool) {
	i := t.slot(node)
	return int(t.depth[i]), t.keys[i] != 0
}

func (t *depthTable) put(node uint32, d int) {
	i := t.slot(node)
	t.keys[i], t.depth[i] = node+1, int32(d)
}

// Walk is the outcome of one bounded breadth-first walk.
type Walk struct {
	Order    []uint32 // the nodes reached, in discovery order (origin first)
	Edges    []uint32 // the edges kept, in discovery order
	frontier map[uint32]*nodeFrontier
	// Reasons names each bound that stopped the walk somewhere:
	// depth_limit, node_limit, edge_limit, work_limit.
	Reasons map[string]bool
	// Examined counts the edges examined, DepthExamined those seen past the
	// depth bound, FullyExamined the nodes whose every edge was examined.
	Examined, DepthExamined, FullyExamined int

	depth *depthTable // minimum hops
}

// Depth returns a reached node's minimum number of hops from the origin.
func (t *Walk) Depth(n uint32) int {
	d, _ := t.depth.get(n)
	return d
}

// BFS walks buildsTowards edges from origin in direction dir (Out:
// downstream, In: upstream) breadth first: neighbours in relationship-ID
// order, each node at its minimum depth, every edge between returned nodes
// kept, within maxDepth hops, maxNodes nodes, maxEdges edges and
// MaxExaminedRelationships edges examined.
func BFS(img *kgimg.Image, origin uint32, dir kgimg.Direction, maxDepth, maxNodes, maxEdges int) *Walk {
	adj := img.Adjacency(kgimg.BuildsTowards, dir)
	t := &Walk{Order: []uint32{origin}, frontier: map[uint32]*nodeFrontier{}, Reasons: map[string]bool{}}
	seen := newDepthTable(maxNodes)
	seen.put(origin, 0)
	t.depth = seen
	examined, depthExamined, fully := 0, 0, 0
	stopped := false
	for qi := 0; qi < len(t.Order); qi++ {
		u := t.Order[qi]
		du, _ := seen.get(u)
		nb, rels := adj.Row(u)
		if nb.Len() == 0 {
			fully++
			continue
		}
		var fu nodeFrontier
		switch {
		case stopped:
			fu.Pending = nb.Len()
		case du == maxDepth:
			t.Reasons["depth_limit"] = true
			fu.DepthLimited = nb.Len()
			depthExamined += nb.Len()
		default:
			for i := 0; i < nb.Len(); i++ {
				if examined == MaxExaminedRelationships {
					t.Reasons["work_limit"] = true
					fu.Pending += nb.Len() - i
					stopped = true
					break
				}
				examined++
				v := nb.At(i)
				if _, ok := seen.get(v); !ok {
					if len(t.Order) == maxNodes {
						t.Reasons["node_limit"] = true
						fu.Pending++
						continue
					}
					seen.put(v, du+1)
					t.Order = append(t.Order, v)
				}
				if len(t.Edges) == maxEdges {
					t.Reasons["edge_limit"] = true
					fu.Pending++
					continue
				}
				t.Edges = append(t.Edges, rels.At(i))
			}
			if fu.Pending == 0 {
				fully++
			}
		}
		if fu != (nodeFrontier{}) {
			t.frontier[u] = &fu
		}
	}
	t.Examined, t.DepthExamined, t.FullyExamined = examined, depthExamined, fully
	return t
}
