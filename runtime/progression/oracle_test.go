package progression

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/kgimg"
)

// edge is a stored buildsTowards relationship, read from the relationship
// records (not the adjacency rows the engine walks).
type edge struct {
	id       string
	src, dst uint32
}

func storedEdges(img *kgimg.Image) []edge {
	var out []edge
	for r := range uint32(img.RelationshipCount()) {
		if img.RelLabel(r) == kgimg.BuildsTowards {
			out = append(out, edge{img.RelString(r, kgimg.RelID), img.RelSource(r), img.RelTarget(r)})
		}
	}
	return out
}

// oracleDistances is a brute-force breadth-first walk without bounds but depth.
func oracleDistances(edges []edge, origin uint32, upstream bool, maxDepth int) map[uint32]int {
	dist := map[uint32]int{origin: 0}
	frontier := []uint32{origin}
	for d := 1; d <= maxDepth && len(frontier) > 0; d++ {
		var next []uint32
		for _, u := range frontier {
			for _, e := range edges {
				from, to := e.src, e.dst
				if upstream {
					from, to = to, from
				}
				if _, ok := dist[to]; from == u && !ok {
					dist[to] = d
					next = append(next, to)
				}
			}
		}
		frontier = next
	}
	return dist
}

// oraclePaths enumerates every simple path of at most maxDepth edges by
// recursion, ordered by hop count then relationship-ID tuple; each path is
// its relationship IDs joined by commas.
func oraclePaths(edges []edge, source, target uint32, maxDepth int) []string {
	type path struct {
		nodes []uint32
		ids   []string
	}
	var found []path
	var walk func(p path)
	walk = func(p path) {
		last := p.nodes[len(p.nodes)-1]
		if last == target {
			found = append(found, path{slices.Clone(p.nodes), slices.Clone(p.ids)})
			return
		}
		if len(p.ids) == maxDepth {
			return
		}
		for _, e := range edges {
			if e.src == last && !slices.Contains(p.nodes, e.dst) {
				walk(path{append(p.nodes, e.dst), append(p.ids, e.id)})
			}
		}
	}
	walk(path{nodes: []uint32{source}})
	sort.Slice(found, func(i, j int) bool {
		if len(found[i].ids) != len(found[j].ids) {
			return len(found[i].ids) < len(found[j].ids)
		}
		return strings.Join(found[i].ids, ",") < strings.Join(found[j].ids, ",")
	})
	out := make([]string, len(found))
	for i, p := range found {
		out[i] = strings.Join(p.ids, ",")
	}
	return out
}

// lattice joins i → i+1 and i → i+2 over n indicators: Fibonacci many paths.
func lattice(n int) [][2]int {
	var out [][2]int
	for i := range n {
		for _, j := range []int{i + 1, i + 2} {
			if j < n {
				out = append(out, [2]int{i, j})
			}
		}
	}
	return out
}

// TestWalksAndPathsAgreeWithBruteForce compares BFS with a brute-force walk
// from every endpoint, both directions, at every depth from 1 to 12, and
// FindPaths with a recursive enumeration, on the shipped mathematics sample
// (its generated progressions) and on a path-rich lattice.
func TestWalksAndPathsAgreeWithBruteForce(t *testing.T) {
	t.Parallel()
	lat := pkggen.Shipped()[1]
	lat.FrameworkID, lat.GradeLabels, lat.Strands, lat.Standards, lat.Indicators = "kgc-test-lattice", []string{"GRADE ONE"}, 1, 1, 16
	lat.Components, lat.Builds = false, lattice(16)
	imgs := map[string]*kgimg.Image{}
	for _, spec := range []pkggen.Spec{pkggen.Shipped()[1], lat} {
		imgs[spec.FrameworkID] = openSpec(t, spec)
	}
	walks, pathSets := 0, 0
	for name, img := range imgs {
		edges := storedEdges(img)
		if len(edges) < 10 {
			t.Fatalf("%s: only %d buildsTowards edges", name, len(edges))
		}
		var nodes []uint32
		for _, e := range edges {
			for _, n := range []uint32{e.src, e.dst} {
				if !slices.Contains(nodes, n) {
					nodes = append(nodes, n)
				}
			}
		}
		slices.Sort(nodes)
		for i, origin := range nodes {
			for _, dir := range []kgimg.Direction{kgimg.Out, kgimg.In} {
				depth := 1 + i%12
				w := BFS(img, origin, dir, depth, 250, 100)
				got := map[uint32]int{}
				for _, n := range w.Order {
					got[n] = w.Depth(n)
				}
				want := oracleDistances(edges, origin, dir == kgimg.In, depth)
				if w.Reasons["edge_limit"] || w.Reasons["node_limit"] {
					t.Fatalf("%s: a walk of the test reached a size bound: %v", name, w.Reasons)
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s: walk from %d (%v, depth %d): %v, want %v", name, origin, dir, depth, got, want)
				}
				// Every edge from a reached node short of the depth bound to a
				// reached node, and only those, once each.
				var among []string
				for _, e := range edges {
					_, a := got[e.src]
					_, b := got[e.dst]
					if a && b && (w.Depth(e.src) < depth || dir == kgimg.In) && (w.Depth(e.dst) < depth || dir == kgimg.Out) {
						among = append(among, e.id)
					}
				}
				var kept []string
				for _, r := range w.Edges {
					kept = append(kept, img.RelString(r, kgimg.RelID))
				}
				slices.Sort(among)
				slices.Sort(kept)
				if !slices.Equal(kept, among) {
					t.Errorf("%s: walk from %d (%v, depth %d) keeps %v, want %v", name, origin, dir, depth, kept, among)
				}
				walks++
			}
		}
		for i, a := range nodes {
			for _, b := range []uint32{nodes[(i+1)%len(nodes)], nodes[(i+7)%len(nodes)], edges[i%len(edges)].dst} {
				if a == b {
					continue
				}
				for _, depth := range []int{3, 12} {
					ps := FindPaths(img, a, b, depth, 1000)
					var got []string
					for _, p := range ps.Paths {
						var ids []string
						for _, r := range p.Rels {
							ids = append(ids, img.RelString(r, kgimg.RelID))
						}
						got = append(got, strings.Join(ids, ","))
					}
					if ps.Reasons["work_limit"] || ps.Reasons["queue_limit"] || ps.Reasons["path_limit"] {
						t.Fatalf("%s: a path search of the test reached a work bound: %v", name, ps.Reasons)
					}
					if want := oraclePaths(edges, a, b, depth); fmt.Sprint(got) != fmt.Sprint(want) {
						t.Errorf("%s: paths %d → %d depth %d:\n got %v\nwant %v", name, a, b, depth, got, want)
					}
					pathSets++
				}
			}
		}
	}
	t.Logf("%d walks and %d path sets agree with brute force", walks, pathSets)
}
