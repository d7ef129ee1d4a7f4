package compare

import (
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/graph"
)

// TestHierarchyPathsEndAtTheMatch: on every item of the shipped samples the
// paths a comparison lists run from the framework root down to the match,
// the first one is the match's first path in curriculum order, and a
// node ID it does not know gives none.
func TestHierarchyPathsEndAtTheMatch(t *testing.T) {
	cat := imgtest.Catalog(t, imgtest.Images(t, nil, nil))
	items := 0
	for _, p := range cat.Packages {
		img := p.Img
		for n := 0; n < img.NodeCount(); n++ {
			if img.NodeKind(uint32(n)) != kgimg.ItemNode {
				continue
			}
			items++
			id := img.NodeString(uint32(n), kgimg.NodeID)
			paths, complete, _ := HierarchyPaths(p, id)
			if len(paths) == 0 || !complete {
				t.Fatalf("%s: %d paths, complete %v", id, len(paths), complete)
			}
			first := graph.FirstPath(img, uint32(n), pathDepth)
			for i, path := range paths {
				if path[len(path)-1].NodeID != id {
					t.Fatalf("%s: path %d ends at %s", id, i, path[len(path)-1].NodeID)
				}
			}
			if len(paths[0]) != len(first) {
				t.Fatalf("%s: first path has %d steps, the first root path %d nodes", id, len(paths[0]), len(first))
			}
			for i, m := range first {
				if paths[0][i].NodeID != img.NodeString(m, kgimg.NodeID) {
					t.Fatalf("%s: step %d is %s, the first root path's %s", id, i, paths[0][i].NodeID, img.NodeString(m, kgimg.NodeID))
				}
			}
		}
	}
	if items == 0 {
		t.Fatal("no items in the samples")
	}
	if paths, complete, _ := HierarchyPaths(cat.Packages[0], "no such node"); len(paths) != 0 || complete {
		t.Errorf("an unknown node: %v %v", paths, complete)
	}
}
