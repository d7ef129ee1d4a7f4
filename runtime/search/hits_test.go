package search

import (
	"reflect"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// sampleCatalog loads the shipped sample packages.
func sampleCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	return imgtest.Catalog(t, imgtest.Images(t, nil, nil))
}

// TestGroupingHitsListTheirChildren checks every grouping of the samples:
// its count is its hierarchy out-degree, its list the first children in
// hierarchy order, bounded per hit; other records list none.
func TestGroupingHitsListTheirChildren(t *testing.T) {
	groupings := 0
	for _, p := range sampleCatalog(t).Packages {
		img := p.Img
		out := img.Adjacency(kgimg.HasChild, kgimg.Out)
		for n := 0; n < img.NodeCount(); n++ {
			o := uint32(n)
			got := NewChildBudget().children(p, o)
			if img.NodeString(o, kgimg.NodeNormalizedStatementType) != groupingType {
				if got != nil {
					t.Fatalf("%s: a non-grouping lists children", img.NodeString(o, kgimg.NodeID))
				}
				continue
			}
			groupings++
			nb, _ := out.Row(o) // the children in curriculum order
			idx := make([]int, nb.Len())
			for i := range idx {
				idx[i] = i
			}
			if got == nil || got.Count != nb.Len() || len(got.Nodes) != min(nb.Len(), maxHitChildren) {
				t.Fatalf("%s: children %+v, want %d of %d", img.NodeString(o, kgimg.NodeID), got, min(nb.Len(), maxHitChildren), nb.Len())
			}
			for i, c := range got.Nodes {
				if want := childSummary(img, nb.At(idx[i])); !reflect.DeepEqual(c, want) {
					t.Fatalf("child %d = %+v, want %+v", i, c, want)
				}
			}
		}
	}
	if groupings == 0 {
		t.Fatal("the samples hold no grouping")
	}
	var none *childBudget
	if none.children(sampleCatalog(t).Packages[0], 1) != nil {
		t.Error("a nil budget listed children")
	}
}

// TestAPageListsAtMostItsBudgetOfChildren lists the children of every
// grouping with one budget: the page's total stops at maxPageChildren, and
// the groupings past it still say how many children they have.
func TestAPageListsAtMostItsBudgetOfChildren(t *testing.T) {
	b := NewChildBudget()
	listed, counted, exhausted := 0, 0, false
	for _, p := range sampleCatalog(t).Packages {
		for n := 0; n < p.Img.NodeCount(); n++ {
			c := b.children(p, uint32(n))
			if c == nil {
				continue
			}
			listed += len(c.Nodes)
			counted += c.Count
			if exhausted && len(c.Nodes) > 0 || c.Count != p.Img.Adjacency(kgimg.HasChild, kgimg.Out).Degree(uint32(n)) {
				t.Fatalf("children %+v past a budget exhausted %v", c, exhausted)
			}
			exhausted = listed == maxPageChildren
		}
	}
	if counted <= maxPageChildren || listed != maxPageChildren {
		t.Errorf("listed %d of %d children, want the budget of %d", listed, counted, maxPageChildren)
	}
}
