package progression

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// completeDAG builds a package whose n indicators are joined by a
// buildsTowards edge from every i to every j > i, and returns its image and
// the indicators' node ordinals in generation order.
func completeDAG(t *testing.T, n int) (*kgimg.Image, []uint32) {
	t.Helper()
	spec := pkggen.Shipped()[1]
	spec.FrameworkID, spec.GradeLabels, spec.Strands, spec.Standards, spec.Indicators = "kgc-test-dag", []string{"GRADE ONE"}, 1, 1, n
	spec.Components = false
	for i := range n {
		for j := i + 1; j < n; j++ {
			spec.Builds = append(spec.Builds, [2]int{i, j})
		}
	}
	img := openSpec(t, spec)
	nodes := make([]uint32, n)
	for i := range n {
		o, ok := img.NodeByID(pkggen.NodeID(spec, 0, 0, 0, i))
		if !ok {
			t.Fatalf("indicator %d not in the image", i)
		}
		nodes[i] = o
	}
	return img, nodes
}

// openSpec writes spec's package, builds it and opens the image.
func openSpec(tb testing.TB, spec pkggen.Spec) *kgimg.Image {
	tb.Helper()
	f := pkgtest.Write(tb, spec)
	data, res := imgtest.Build(tb, f.Dir, f.Profiles, "")
	return openImage(tb, filepath.Join(tb.TempDir(), res.Manifest.SnapshotID+".kgimg"), data)
}

// openImage opens the image at path, writing data there first when given.
func openImage(tb testing.TB, path string, data []byte) *kgimg.Image {
	tb.Helper()
	if data != nil {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	cat, err := catalog.Open([]string{path}, catalog.PolicyFail, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(cat.Close)
	return cat.Packages[0].Img
}

// edgeBetween reports whether r is a buildsTowards edge from a to b.
func edgeBetween(img *kgimg.Image, r, a, b uint32) bool {
	nb, rels := img.Adjacency(kgimg.BuildsTowards, kgimg.Out).Row(a)
	for i := 0; i < nb.Len(); i++ {
		if rels.At(i) == r && nb.At(i) == b {
			return true
		}
	}
	return false
}

// TestBFSOnACompleteDAG: from the first indicator every other is one hop
// away; the walk returns each once at that depth, keeps the edges between
// returned nodes up to its edge bound, and names each bound that stopped it.
func TestBFSOnACompleteDAG(t *testing.T) {
	img, nodes := completeDAG(t, 8)
	w := BFS(img, nodes[0], kgimg.Out, 12, 250, 100)
	if len(w.Reasons) != 0 {
		t.Fatalf("unbounded walk stopped by %v", w.Reasons)
	}
	if len(w.Order) != 8 || w.Order[0] != nodes[0] {
		t.Fatalf("reached %d nodes from the origin, want 8", len(w.Order))
	}
	for _, n := range w.Order[1:] {
		if d := w.Depth(n); d != 1 {
			t.Errorf("node %d at depth %d, want 1", n, d)
		}
	}
	if want := 8 * 7 / 2; len(w.Edges) != want || w.Examined != want {
		t.Errorf("%d edges kept and %d examined, want %d", len(w.Edges), w.Examined, want)
	}
	for _, r := range w.Edges {
		if !slices.Contains(w.Order, img.RelSource(r)) || !slices.Contains(w.Order, img.RelTarget(r)) {
			t.Errorf("edge %d joins a node the walk did not return", r)
		}
	}
	up := BFS(img, nodes[7], kgimg.In, 12, 250, 100)
	if len(up.Order) != 8 || up.Depth(nodes[0]) != 1 {
		t.Errorf("upstream walk from the last indicator: %d nodes, the first at depth %d", len(up.Order), up.Depth(nodes[0]))
	}

	for _, c := range []struct {
		name                      string
		maxDepth, maxNodes, edges int
		reason                    string
	}{
		{"nodes", 12, 4, 100, "node_limit"},
		{"edges", 12, 250, 5, "edge_limit"},
		{"depth", 1, 250, 100, "depth_limit"},
	} {
		w := BFS(img, nodes[0], kgimg.Out, c.maxDepth, c.maxNodes, c.edges)
		if !w.Reasons[c.reason] || len(w.Order) > c.maxNodes || len(w.Edges) > c.edges {
			t.Errorf("%s bound: reasons %v, %d nodes, %d edges", c.name, w.Reasons, len(w.Order), len(w.Edges))
		}
		pending := 0
		for _, f := range w.frontier {
			pending += f.Pending + f.DepthLimited
		}
		if pending == 0 {
			t.Errorf("%s bound: the frontier records nothing left unexamined", c.name)
		}
	}
}

// TestFindPathsOnACompleteDAG: between the ends of a complete DAG of n
// nodes there are 2^(n-2) simple paths; all are found, each valid and simple,
// in (hop count, relationship-ID tuple) order, and a path bound stops the
// search with the paths before it.
func TestFindPathsOnACompleteDAG(t *testing.T) {
	img, nodes := completeDAG(t, 8)
	src, dst := nodes[0], nodes[7]
	ps := FindPaths(img, src, dst, 12, 1000)
	if len(ps.Reasons) != 0 || len(ps.Paths) != 1<<6 {
		t.Fatalf("%d paths, reasons %v; want 64 and none", len(ps.Paths), ps.Reasons)
	}
	for k, p := range ps.Paths {
		if p.Nodes[0] != src || p.Nodes[len(p.Nodes)-1] != dst || len(p.Rels) != len(p.Nodes)-1 {
			t.Fatalf("path %d does not join the ends: %v", k, p)
		}
		for i, r := range p.Rels {
			if !edgeBetween(img, r, p.Nodes[i], p.Nodes[i+1]) {
				t.Fatalf("path %d: edge %d does not join its nodes", k, r)
			}
		}
		if len(slices.Compact(slices.Sorted(slices.Values(p.Nodes)))) != len(p.Nodes) {
			t.Fatalf("path %d repeats a node", k)
		}
		if k > 0 && len(ps.Paths[k-1].Rels) > len(p.Rels) {
			t.Fatalf("path %d is shorter than the one before it", k)
		}
	}
	if len(ps.Paths[0].Rels) != 1 {
		t.Errorf("the first path has %d hops, want the direct edge", len(ps.Paths[0].Rels))
	}
	few := FindPaths(img, src, dst, 12, 3)
	if !few.Reasons["path_limit"] || len(few.Paths) != 3 {
		t.Errorf("maxPaths 3: %d paths, reasons %v", len(few.Paths), few.Reasons)
	}
	for i := range few.Paths {
		if !slices.Equal(few.Paths[i].Rels, ps.Paths[i].Rels) {
			t.Errorf("maxPaths 3: path %d is not the unbounded search's path %d", i, i)
		}
	}
	if short := FindPaths(img, src, dst, 2, 1000); !short.Reasons["depth_limit"] || len(short.Paths) != 1+6 {
		t.Errorf("maxDepth 2: %d paths (want the direct one and six of two hops), reasons %v", len(short.Paths), short.Reasons)
	}
}
