package query

import (
	"context"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
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
	props["maxDepth"] = integer(1, 12, 6, "buildsTowards hops a path may have")
	props["maxPaths"] = integer(1, 20, 3, "paths returned, shortest first")
	return object(props, "frameworkId", "sourceIdentifier", "targetIdentifier")
}

// pathState is a partial path of the search queue.
type pathState struct{ nodes, rels []uint32 }

// pathSearch is the outcome of the bounded path search, before size fitting.
type pathSearch struct {
	paths                                            []pathState
	reasons                                          map[string]bool
	examined, depthExamined, enqueued, peak, pending int
	depthLimitedExtensions, queued                   int
	rows                                             *rowCache // rows built while fitting the ceiling
}

// findPaths enumerates directed simple buildsTowards paths source → target in
// (hop count, relationship-ID tuple) order: a FIFO of partial paths, per-path
// cycle protection, no global visited set (docs/reference/tools.md#get_learning_progression_paths).
// Partial paths are stored once each as (node, edge, parent) records, so the
// queue is the record slice itself and a path costs no copying until admitted.
func findPaths(img *kgimg.Image, source, target uint32, maxDepth, maxPaths int) *pathSearch {
	type state struct {
		node, rel     uint32
		parent, depth int32
		mask          uint64 // a bit per node on the path (hashed): most cycle checks stop here
	}
	bit := func(n uint32) uint64 { return 1 << ((n * 2654435761) >> 26) }
	adj := img.Adjacency(kgimg.BuildsTowards, kgimg.Out)
	ps := &pathSearch{reasons: map[string]bool{}, enqueued: 1, peak: 1}
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
	unwind := func(i int32) pathState {
		d := states[i].depth
		st := pathState{nodes: make([]uint32, d+1), rels: make([]uint32, d)}
		for ; i >= 0; i = states[i].parent {
			k := states[i].depth
			st.nodes[k] = states[i].node
			if k > 0 {
				st.rels[k-1] = states[i].rel
			}
		}
		return st
	}
	for head := 0; head < len(states); head++ {
		cur := states[head]
		if cur.node == target {
			ps.paths = append(ps.paths, unwind(int32(head)))
			if len(ps.paths) == maxPaths && head+1 < len(states) {
				ps.reasons["path_limit"] = true
				ps.queued = len(states) - head - 1
				return ps
			}
			continue
		}
		nb, rels := adj.Row(cur.node)
		for i := 0; i < nb.Len(); i++ {
			if ps.examined == maxExaminedRelationships {
				ps.reasons["work_limit"] = true
				ps.pending = nb.Len() - i
				ps.queued = len(states) - head - 1
				return ps
			}
			ps.examined++
			v := nb.At(i)
			if onPath(int32(head), v) {
				continue
			}
			if int(cur.depth) == maxDepth {
				ps.reasons["depth_limit"] = true
				ps.depthLimitedExtensions++
				ps.depthExamined++
				continue
			}
			if ps.enqueued == maxPathQueueAdmissions {
				ps.reasons["queue_limit"] = true
				ps.pending = nb.Len() - i
				ps.queued = len(states) - head - 1
				return ps
			}
			states = append(states, state{node: v, rel: rels.At(i), parent: int32(head), depth: cur.depth + 1, mask: cur.mask | bit(v)})
			ps.enqueued++
			ps.peak = max(ps.peak, len(states)-head-1)
		}
	}
	return ps
}

var pathReasons = []string{"depth_limit", "path_limit", "work_limit", "queue_limit", "byte_limit"}

func pathObject(img *kgimg.Image, st pathState) ProgressionPath {
	nodes := make([]string, len(st.nodes))
	for i, n := range st.nodes {
		nodes[i] = img.NodeString(n, kgimg.NodeID)
	}
	rels := make([]string, len(st.rels))
	for i, r := range st.rels {
		rels[i] = img.RelString(r, kgimg.RelID)
	}
	return ProgressionPath{NodeIDs: nodes, RelationshipIDs: rels}
}

// pathsResult builds the result with the first k paths.
func (s *Service) pathsResult(p *catalog.Package, req obj, source, target uint32, ps *pathSearch, k int) *PathsResult {
	img := p.Img
	e := newEvidence(p, ps.rows)
	e.nodes[source], e.nodes[target] = true, true
	paths := make([]ProgressionPath, 0, k)
	for _, st := range ps.paths[:k] {
		for _, r := range st.rels {
			e.addEdge(r)
		}
		paths = append(paths, pathObject(img, st))
	}
	reasons := map[string]bool{}
	for r := range ps.reasons {
		reasons[r] = true
	}
	var next *ProgressionPath
	if k < len(ps.paths) {
		reasons["byte_limit"] = true
		n := pathObject(img, ps.paths[k])
		next = &n
	}
	list := orderedReasons(reasons, pathReasons)
	return &PathsResult{
		ProgressionEvidence: s.lpEvidence(p, req, e, noContinuation),
		SourceNodeID:        img.NodeString(source, kgimg.NodeID), TargetNodeID: img.NodeString(target, kgimg.NodeID), Paths: paths,
		Counters: PathCounters{DepthFrontierExaminedRelationshipCount: ps.depthExamined, EnqueuedStateCount: ps.enqueued,
			ExaminedRelationshipCount: ps.examined, PeakQueueStateCount: ps.peak, ReturnedPathCount: k},
		Frontier: PathFrontier{DepthLimitedExtensionCount: ps.depthLimitedExtensions, PendingAdjacencyCount: ps.pending,
			QueuedStateCount: ps.queued},
		TruncationReasons: list, GraphExhausted: len(list) == 0, ScopeComplete: len(list) == 0 || len(list) == 1 && list[0] == "depth_limit",
		EpistemicStatus: "deterministic_derived", NextUnreturnedPath: next, PathNotice: pathNotice,
	}
}

const pathNotice = "Directed simple paths over stored buildsTowards edges only, shortest first, then by their relationship IDs; " +
	"every edge keeps its stored direction. A path cites stored edges and asserts no new one; zero paths from an incomplete " +
	"search (see truncationReasons) do not prove disconnection, and even an exhausted absence means no stored connection, " +
	"not no pedagogical relationship."

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
	return s.paths(ctx, r)
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
		return nil, invalidProgression("sourceIdentifier and targetIdentifier select the same standard")
	}
	maxDepth, maxPaths := r.MaxDepth, r.MaxPaths
	req := pinned(r.ProgressionRoute, p)
	req["sourceIdentifier"], req["targetIdentifier"] = r.SourceIdentifier, r.TargetIdentifier
	req["maxDepth"], req["maxPaths"] = maxDepth, maxPaths
	ps := findPaths(p.Img, source, target, maxDepth, maxPaths)
	ps.rows = newRowCache()
	// Paths are admitted whole, in order, while they fit.
	k := len(ps.paths)
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
