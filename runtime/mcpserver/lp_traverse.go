package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgimg"
	"github.com/kgc-project/kgc/schema/kgfb"
)

const traversalNotice = "A deterministic breadth-first walk over stored buildsTowards edges only; every edge keeps its stored " +
	"direction (an upstream walk follows edges backwards but reports them as stored). It asserts no new edge and no sequence " +
	"beyond the cited ones; completeness at the requested depth does not mean the whole graph was exhausted."

type traverseRequest struct {
	lpRoute
	Identifier selector `json:"identifier"`
	Direction  string   `json:"direction"`
	MaxDepth   *int     `json:"maxDepth"`
	MaxNodes   *int     `json:"maxNodes"`
	MaxEdges   *int     `json:"maxEdges"`
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
	order    []uint32       // returned nodes in discovery order (origin first)
	depth    map[uint32]int // minimum hops
	edges    []uint32       // returned edges in discovery order
	frontier map[uint32]*frontierNode
	reasons  map[string]bool
	counters obj
}

type frontierNode struct{ depthLimited, pending int }

// walk runs the breadth-first traversal: neighbours in relationship-ID order,
// each node at its minimum depth, every edge between returned nodes kept.
func walk(img *kgimg.Image, origin uint32, dir kgfb.Direction, maxDepth, maxNodes, maxEdges int) *traversal {
	adj := img.Adjacency(kgfb.RelLabelBuildsTowards, dir)
	t := &traversal{order: []uint32{origin}, depth: map[uint32]int{origin: 0}, frontier: map[uint32]*frontierNode{}, reasons: map[string]bool{}}
	front := func(n uint32) *frontierNode {
		if t.frontier[n] == nil {
			t.frontier[n] = &frontierNode{}
		}
		return t.frontier[n]
	}
	examined, depthExamined, fully := 0, 0, 0
	stopped := false
	for qi := 0; qi < len(t.order); qi++ {
		u := t.order[qi]
		nb, rels := adj.Row(u)
		if stopped {
			if nb.Len() > 0 {
				front(u).pending += nb.Len()
			}
			continue
		}
		if t.depth[u] == maxDepth {
			if nb.Len() > 0 {
				t.reasons["depth_limit"] = true
				front(u).depthLimited = nb.Len()
				depthExamined += nb.Len()
			}
			continue
		}
		complete := true
		for i := 0; i < nb.Len(); i++ {
			if examined == maxExaminedRelationships {
				t.reasons["work_limit"] = true
				front(u).pending += nb.Len() - i
				stopped, complete = true, false
				break
			}
			examined++
			v, r := nb.At(i), rels.At(i)
			if _, seen := t.depth[v]; !seen {
				if len(t.order) == maxNodes {
					t.reasons["node_limit"] = true
					front(u).pending++
					complete = false
					continue
				}
				t.depth[v] = t.depth[u] + 1
				t.order = append(t.order, v)
			}
			if len(t.edges) == maxEdges {
				t.reasons["edge_limit"] = true
				front(u).pending++
				complete = false
				continue
			}
			t.edges = append(t.edges, r)
		}
		if complete {
			fully++
		}
	}
	t.counters = obj{"depthFrontierExaminedRelationshipCount": depthExamined, "examinedRelationshipCount": examined,
		"fullyExaminedNodeCount": fully, "maxExaminedRelationships": maxExaminedRelationships}
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
func (s *Server) traversalResult(p *catalog.Package, req obj, origin uint32, t *traversal, k int, byteLimited bool) obj {
	img := p.Img
	e := newEvidence(p)
	e.nodes[origin] = true
	for _, r := range t.edges[:k] {
		e.addEdge(r)
	}
	keep := func(n uint32) bool { return !byteLimited || e.nodes[n] }
	distances, frontier := []obj{}, []obj{}
	for _, n := range t.order {
		if keep(n) {
			distances = append(distances, obj{"nodeId": img.NodeString(n, kgimg.NodeID), "depth": t.depth[n]})
			e.nodes[n] = true
		}
		if f := t.frontier[n]; f != nil && keep(n) {
			frontier = append(frontier, obj{"nodeId": img.NodeString(n, kgimg.NodeID), "depth": t.depth[n],
				"depthLimitedRelationshipCount": f.depthLimited, "pendingRelationshipCount": f.pending})
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
	counters := obj{}
	for key, v := range t.counters {
		counters[key] = v
	}
	counters["returnedNodeCount"] = len(distances)
	counters["returnedRelationshipCount"] = k
	scopeComplete := len(list) == 0 || len(list) == 1 && list[0] == "depth_limit"
	return s.lpResult(p, req, e, obj{
		"originNodeId": img.NodeString(origin, kgimg.NodeID), "distances": distances, "frontier": frontier, "counters": counters,
		"scopeComplete": scopeComplete, "graphExhausted": len(list) == 0, "truncationReasons": list,
		"epistemicStatus": "deterministic_derived", "traversalNotice": traversalNotice, "continuationNotice": noContinuation,
	})
}

func (s *Server) traverseLearningProgressions(_ context.Context, raw json.RawMessage) (any, error) {
	r, err := decode[traverseRequest](raw)
	if err != nil {
		return nil, err
	}
	p, err := s.lpPackage(r.lpRoute)
	if err != nil {
		return nil, err
	}
	origin, err := resolveEndpoint(p, r.Identifier)
	if err != nil {
		return nil, err
	}
	direction := r.Direction
	if direction == "" {
		direction = "downstream"
	}
	dir := kgfb.DirectionOut
	if direction == "upstream" {
		dir = kgfb.DirectionIn
	}
	maxDepth, maxNodes, maxEdges := intOr(r.MaxDepth, 8), intOr(r.MaxNodes, 100), intOr(r.MaxEdges, 100)
	req := pinned(r.lpRoute, p)
	req["identifier"] = selectorObject(r.Identifier)
	req["direction"] = direction
	req["maxDepth"], req["maxNodes"], req["maxEdges"] = maxDepth, maxNodes, maxEdges
	t := walk(p.Img, origin, dir, maxDepth, maxNodes, maxEdges)
	out := s.traversalResult(p, req, origin, t, len(t.edges), false)
	if ok, err := fitsCeiling(out); err != nil || ok {
		return out, err
	}
	lo, hi := 0, len(t.edges)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if ok, err := fitsCeiling(s.traversalResult(p, req, origin, t, mid, true)); err != nil {
			return nil, err
		} else if ok {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	out = s.traversalResult(p, req, origin, t, lo, true)
	if ok, err := fitsCeiling(out); err != nil {
		return nil, err
	} else if !ok {
		return nil, tooLarge("the traversal's origin")
	}
	return out, nil
}
