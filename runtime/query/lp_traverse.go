package query

import (
	"context"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
)

const traversalNotice = "A deterministic breadth-first walk over stored buildsTowards edges only; every edge keeps its stored " +
	"direction (an upstream walk follows edges backwards but reports them as stored). It asserts no new edge and no sequence " +
	"beyond the cited ones; completeness at the requested depth does not mean the whole graph was exhausted."

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
	dir := enum("downstream: what the standard builds towards; upstream: what builds towards it", "downstream", "upstream")
	dir.Default = "downstream"
	props["direction"] = dir
	props["maxDepth"] = integer(1, 12, 8, "buildsTowards hops from the standard")
	props["maxNodes"] = integer(1, 250, 100, "standards returned, the origin included")
	props["maxEdges"] = integer(1, 100, 100, "edges returned")
	return object(props, "frameworkId", "identifier")
}

// traversal is the outcome of one bounded walk, before size fitting.
type traversal struct {
	order    []uint32    // returned nodes in discovery order (origin first)
	depth    *depthTable // minimum hops
	edges    []uint32    // returned edges in discovery order
	frontier map[uint32]*frontierNode
	reasons  map[string]bool
	counters TraversalCounters
	rows     *rowCache // rows built while fitting the ceiling
}

type frontierNode struct{ depthLimited, pending int }

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

// walk runs the breadth-first traversal: neighbours in relationship-ID order,
// each node at its minimum depth, every edge between returned nodes kept.
func walk(img *kgimg.Image, origin uint32, dir kgimg.Direction, maxDepth, maxNodes, maxEdges int) *traversal {
	adj := img.Adjacency(kgimg.BuildsTowards, dir)
	t := &traversal{order: []uint32{origin}, frontier: map[uint32]*frontierNode{}, reasons: map[string]bool{}}
	seen := newDepthTable(maxNodes)
	seen.put(origin, 0)
	t.depth = seen
	examined, depthExamined, fully := 0, 0, 0
	stopped := false
	for qi := 0; qi < len(t.order); qi++ {
		u := t.order[qi]
		du, _ := seen.get(u)
		nb, rels := adj.Row(u)
		if nb.Len() == 0 {
			fully++
			continue
		}
		var fu frontierNode
		switch {
		case stopped:
			fu.pending = nb.Len()
		case du == maxDepth:
			t.reasons["depth_limit"] = true
			fu.depthLimited = nb.Len()
			depthExamined += nb.Len()
		default:
			for i := 0; i < nb.Len(); i++ {
				if examined == maxExaminedRelationships {
					t.reasons["work_limit"] = true
					fu.pending += nb.Len() - i
					stopped = true
					break
				}
				examined++
				v := nb.At(i)
				if _, ok := seen.get(v); !ok {
					if len(t.order) == maxNodes {
						t.reasons["node_limit"] = true
						fu.pending++
						continue
					}
					seen.put(v, du+1)
					t.order = append(t.order, v)
				}
				if len(t.edges) == maxEdges {
					t.reasons["edge_limit"] = true
					fu.pending++
					continue
				}
				t.edges = append(t.edges, rels.At(i))
			}
			if fu.pending == 0 {
				fully++
			}
		}
		if fu != (frontierNode{}) {
			t.frontier[u] = &fu
		}
	}
	t.counters = TraversalCounters{DepthFrontierExaminedRelationshipCount: depthExamined, ExaminedRelationshipCount: examined,
		FullyExaminedNodeCount: fully, MaxExaminedRelationships: maxExaminedRelationships}
	return t
}

var traversalReasons = []string{"depth_limit", "node_limit", "edge_limit", "work_limit", "byte_limit"}

func orderedReasons(set map[string]bool, order []string) []string {
	out := []string{}
	for _, r := range order {
		if set[r] {
			out = append(out, r)
		}
	}
	return out
}

// result builds the traversal result keeping the first k edges (and the nodes
// they reach).
func (s *Service) traversalResult(p *catalog.Package, req obj, origin uint32, t *traversal, k int, byteLimited bool) *TraversalResult {
	img := p.Img
	e := newEvidence(p, t.rows)
	e.nodes[origin] = true
	for _, r := range t.edges[:k] {
		e.addEdge(r)
	}
	keep := func(n uint32) bool { return !byteLimited || e.nodes[n] }
	distances, frontier := []NodeDepth{}, []FrontierEntry{}
	for _, n := range t.order {
		depth, _ := t.depth.get(n)
		if keep(n) {
			distances = append(distances, NodeDepth{NodeID: img.NodeString(n, kgimg.NodeID), Depth: depth})
			e.nodes[n] = true
		}
		if f := t.frontier[n]; f != nil && keep(n) {
			frontier = append(frontier, FrontierEntry{NodeID: img.NodeString(n, kgimg.NodeID), Depth: depth,
				DepthLimitedRelationshipCount: f.depthLimited, PendingRelationshipCount: f.pending})
		}
	}
	reasons := map[string]bool{}
	for r := range t.reasons {
		reasons[r] = true
	}
	if byteLimited {
		reasons["byte_limit"] = true
	}
	list := orderedReasons(reasons, traversalReasons)
	counters := t.counters
	counters.ReturnedNodeCount, counters.ReturnedRelationshipCount = len(distances), k
	return &TraversalResult{
		ProgressionEvidence: s.lpEvidence(p, req, e, noContinuation),
		OriginNodeID:        img.NodeString(origin, kgimg.NodeID), Distances: distances, Frontier: frontier, Counters: counters,
		ScopeComplete: len(list) == 0 || len(list) == 1 && list[0] == "depth_limit", GraphExhausted: len(list) == 0,
		TruncationReasons: list, EpistemicStatus: "deterministic_derived", TraversalNotice: traversalNotice,
	}
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
	return s.traverse(ctx, r)
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
	t := walk(p.Img, origin, dir, maxDepth, maxNodes, maxEdges)
	t.rows = newRowCache()
	out := s.traversalResult(p, req, origin, t, len(t.edges), false)
	if len(t.edges) == 0 {
		out.NearbyNotice = nearbyEdges(p.Img, origin)
	}
	if ok, err := fitsCeiling(out); err != nil || ok {
		return out, err
	}
	k, err := accessCeiling.largestBelow(len(t.edges), func(k int) any { return s.traversalResult(p, req, origin, t, k, true) })
	if err != nil {
		return nil, err
	}
	if k < 0 {
		return nil, tooLarge("the traversal's origin")
	}
	out = s.traversalResult(p, req, origin, t, k, true)
	return out, nil
}
