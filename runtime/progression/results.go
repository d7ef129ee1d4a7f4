package progression

import (
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// EvidenceBase builds the evidence base of a result over p: the echoed
// request, the package's progression metadata and e's rows, with the notice
// that says how the result continues.
type EvidenceBase func(p *catalog.Package, req map[string]any, e *Evidence, notice string) ProgressionEvidence

// NoContinuation is the continuation notice of a result that has none.
const NoContinuation = "This result is complete for its request and has no continuation; narrow or widen the bounds and call again."

const traversalNotice = "A deterministic breadth-first walk over stored buildsTowards edges only; every edge keeps its stored " +
	"direction (an upstream walk follows edges backwards but reports them as stored). It asserts no new edge and no sequence " +
	"beyond the cited ones; completeness at the requested depth does not mean the whole graph was exhausted."

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

// Answer is the traversal_learning_progressions result of the walk from
// origin keeping its first k edges (and the nodes they reach); byteLimited
// says the result ceiling cut it. base builds the evidence every progression
// result carries (the echoed request, metadata, rows).
func (t *Walk) Answer(p *catalog.Package, base EvidenceBase, req map[string]any, origin uint32, rows *Rows, k int, byteLimited bool) *TraversalResult {
	img := p.Img
	e := NewEvidence(p, rows)
	e.Nodes[origin] = true
	for _, r := range t.Edges[:k] {
		e.AddEdge(r)
	}
	keep := func(n uint32) bool { return !byteLimited || e.Nodes[n] }
	distances, frontier := []NodeDepth{}, []FrontierEntry{}
	for _, n := range t.Order {
		depth := t.Depth(n)
		if keep(n) {
			distances = append(distances, NodeDepth{NodeID: img.NodeString(n, kgimg.NodeID), Depth: depth})
			e.Nodes[n] = true
		}
		if f := t.frontier[n]; f != nil && keep(n) {
			frontier = append(frontier, FrontierEntry{NodeID: img.NodeString(n, kgimg.NodeID), Depth: depth,
				DepthLimitedRelationshipCount: f.DepthLimited, PendingRelationshipCount: f.Pending})
		}
	}
	reasons := map[string]bool{}
	for r := range t.Reasons {
		reasons[r] = true
	}
	if byteLimited {
		reasons["byte_limit"] = true
	}
	list := orderedReasons(reasons, traversalReasons)
	counters := TraversalCounters{DepthFrontierExaminedRelationshipCount: t.DepthExamined, ExaminedRelationshipCount: t.Examined,
		FullyExaminedNodeCount: t.FullyExamined, MaxExaminedRelationships: MaxExaminedRelationships,
		ReturnedNodeCount: len(distances), ReturnedRelationshipCount: k}
	return &TraversalResult{
		ProgressionEvidence: base(p, req, e, NoContinuation),
		OriginNodeID:        img.NodeString(origin, kgimg.NodeID), Distances: distances, Frontier: frontier, Counters: counters,
		ScopeComplete: len(list) == 0 || len(list) == 1 && list[0] == "depth_limit", GraphExhausted: len(list) == 0,
		TruncationReasons: list, EpistemicStatus: "deterministic_derived", TraversalNotice: traversalNotice,
	}
}

var pathReasons = []string{"depth_limit", "path_limit", "work_limit", "queue_limit", "byte_limit"}

func pathObject(img *kgimg.Image, st Path) ProgressionPath {
	nodes := make([]string, len(st.Nodes))
	for i, n := range st.Nodes {
		nodes[i] = img.NodeString(n, kgimg.NodeID)
	}
	rels := make([]string, len(st.Rels))
	for i, r := range st.Rels {
		rels[i] = img.RelString(r, kgimg.RelID)
	}
	return ProgressionPath{NodeIDs: nodes, RelationshipIDs: rels}
}

// Answer is the get_learning_progression_paths result from source to
// target keeping the first k paths found (the next one named when k cut the
// search short).
func (ps *PathSearch) Answer(p *catalog.Package, base EvidenceBase, req map[string]any, source, target uint32, rows *Rows, k int) *PathsResult {
	img := p.Img
	e := NewEvidence(p, rows)
	e.Nodes[source], e.Nodes[target] = true, true
	paths := make([]ProgressionPath, 0, k)
	for _, st := range ps.Paths[:k] {
		for _, r := range st.Rels {
			e.AddEdge(r)
		}
		paths = append(paths, pathObject(img, st))
	}
	reasons := map[string]bool{}
	for r := range ps.Reasons {
		reasons[r] = true
	}
	var next *ProgressionPath
	if k < len(ps.Paths) {
		reasons["byte_limit"] = true
		n := pathObject(img, ps.Paths[k])
		next = &n
	}
	list := orderedReasons(reasons, pathReasons)
	return &PathsResult{
		ProgressionEvidence: base(p, req, e, NoContinuation),
		SourceNodeID:        img.NodeString(source, kgimg.NodeID), TargetNodeID: img.NodeString(target, kgimg.NodeID), Paths: paths,
		Counters: PathCounters{DepthFrontierExaminedRelationshipCount: ps.DepthExamined, EnqueuedStateCount: ps.Enqueued,
			ExaminedRelationshipCount: ps.Examined, PeakQueueStateCount: ps.Peak, ReturnedPathCount: k},
		Frontier: PathFrontier{DepthLimitedExtensionCount: ps.DepthLimitedExtensions, PendingAdjacencyCount: ps.Pending,
			QueuedStateCount: ps.Queued},
		TruncationReasons: list, GraphExhausted: len(list) == 0, ScopeComplete: len(list) == 0 || len(list) == 1 && list[0] == "depth_limit",
		EpistemicStatus: "deterministic_derived", NextUnreturnedPath: next, PathNotice: pathNotice,
	}
}

const pathNotice = "Directed simple paths over stored buildsTowards edges only, shortest first, then by their relationship IDs; " +
	"every edge keeps its stored direction. A path cites stored edges and asserts no new one; zero paths from an incomplete " +
	"search (see truncationReasons) do not prove disconnection, and even an exhausted absence means no stored connection, " +
	"not no pedagogical relationship."
