package progression

import "github.com/kgc-project/kgc/kgimg"

// Path is one path: its nodes, and the edges between them.
type Path struct{ Nodes, Rels []uint32 }

// PathSearch is the outcome of a bounded path search.
type PathSearch struct {
	Paths []Path
	// Reasons names each bound that stopped the search: depth_limit,
	// path_limit, work_limit, queue_limit.
	Reasons map[string]bool
	// Examined counts the edges examined, DepthExamined those past the depth
	// bound; Enqueued the partial paths admitted, Peak the longest the queue
	// grew; Pending the edges of the node being expanded when a bound stopped
	// the search, DepthLimitedExtensions the extensions refused by depth,
	// Queued the partial paths left in the queue.
	Examined, DepthExamined, Enqueued, Peak, Pending int
	DepthLimitedExtensions, Queued                   int
}

// FindPaths enumerates directed simple buildsTowards paths source → target in
// (hop count, relationship-ID tuple) order: a FIFO of partial paths, per-path
// cycle protection, no global visited set (docs/reference/tools.md#get_learning_progression_paths).
// Partial paths are stored once each as (node, edge, parent) records, so the
// queue is the record slice itself and a path costs no copying until admitted.
func FindPaths(img *kgimg.Image, source, target uint32, maxDepth, maxPaths int) *PathSearch {
	type state struct {
		node, rel     uint32
		parent, depth int32
		mask          uint64 // a bit per node on the path (hashed): most cycle checks stop here
	}
	bit := func(n uint32) uint64 { return 1 << ((n * 2654435761) >> 26) }
	adj := img.Adjacency(kgimg.BuildsTowards, kgimg.Out)
	ps := &PathSearch{Reasons: map[string]bool{}, Enqueued: 1, Peak: 1}
	states := make([]state, 1, 64)
	states[0] = state{node: source, parent: -1, mask: bit(source)}
	onPath := func(i int32, n uint32) bool {
		if states[i].mask&bit(n) == 0 {
			return false
		}
		for ; i >= 0; i = states[i].parent {
			if states[i].node == n {
				return true
			}
		}
		return false
	}
	unwind := func(i int32) Path {
		d := states[i].depth
		st := Path{Nodes: make([]uint32, d+1), Rels: make([]uint32, d)}
		for ; i >= 0; i = states[i].parent {
			k := states[i].depth
			st.Nodes[k] = states[i].node
			if k > 0 {
				st.Rels[k-1] = states[i].rel
			}
		}
		return st
	}
	for head := 0; head < len(states); head++ {
		cur := states[head]
		if cur.node == target {
			ps.Paths = append(ps.Paths, unwind(int32(head)))
			if len(ps.Paths) == maxPaths && head+1 < len(states) {
				ps.Reasons["path_limit"] = true
				ps.Queued = len(states) - head - 1
				return ps
			}
			continue
		}
		nb, rels := adj.Row(cur.node)
		for i := 0; i < nb.Len(); i++ {
			if ps.Examined == MaxExaminedRelationships {
				ps.Reasons["work_limit"] = true
				ps.Pending = nb.Len() - i
				ps.Queued = len(states) - head - 1
				return ps
			}
			ps.Examined++
			v := nb.At(i)
			if onPath(int32(head), v) {
				continue
			}
			if int(cur.depth) == maxDepth {
				ps.Reasons["depth_limit"] = true
				ps.DepthLimitedExtensions++
				ps.DepthExamined++
				continue
			}
			if ps.Enqueued == maxPathQueueAdmissions {
				ps.Reasons["queue_limit"] = true
				ps.Pending = nb.Len() - i
				ps.Queued = len(states) - head - 1
				return ps
			}
			states = append(states, state{node: v, rel: rels.At(i), parent: int32(head), depth: cur.depth + 1, mask: cur.mask | bit(v)})
			ps.Enqueued++
			ps.Peak = max(ps.Peak, len(states)-head-1)
		}
	}
	return ps
}
