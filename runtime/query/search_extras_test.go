package query

import (
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/standard"

	"context"
	"os"
	"path/filepath"
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
			got := newChildBudget().children(p, o)
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
	b := newChildBudget()
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

// TestSupportedStandardsCarryGradeLabelAndURI checks every supports edge of
// the samples: the summary names the standard's grade labels as a search
// hit's facets do, and its resource URI.
func TestSupportedStandardsCarryGradeLabelAndURI(t *testing.T) {
	edges := 0
	for _, p := range sampleCatalog(t).Packages {
		img := p.Img
		for n := 0; n < img.NodeCount(); n++ {
			if img.NodeKind(uint32(n)) != kgimg.ItemNode {
				continue
			}
			for _, c := range standard.Components(p, uint32(n)).Components {
				for _, s := range c.SupportedStandards {
					edges++
					std, _ := img.NodeByID(s.NodeID)
					if s.StandardURI != standard.URI(p, s.NodeID) {
						t.Fatalf("%s: URI %q", s.NodeID, s.StandardURI)
					}
					want := record.Facets(p, std).ResolvedLocalGradeLabels
					if len(want) == 0 || !reflect.DeepEqual(s.LocalGradeLabels, want) {
						t.Fatalf("%s: grade labels %v, want %v", s.NodeID, s.LocalGradeLabels, want)
					}
				}
			}
		}
	}
	if edges == 0 {
		t.Fatal("the samples hold no supports edge")
	}
}

// TestPackageSummaryCarriesCreatedAt checks the manifest's createdAt reaches
// the catalog objects.
func TestPackageSummaryCarriesCreatedAt(t *testing.T) {
	for _, p := range sampleCatalog(t).Packages {
		if got := packageSummary(p).CreatedAt; got == "" || got != p.Manifest.CreatedAt {
			t.Errorf("%s: createdAt %q, manifest %q", p.SnapshotID(), got, p.Manifest.CreatedAt)
		}
	}
}

// TestMultiParentTypesOnTheCorpus checks the multi-parent statistics of the
// CBSE package (skipped without the corpus): its 235 multi-parent items are
// Content Domain Specific Learning Outcomes, each under a Chapter and an
// NCERT Learning Outcome.
func TestMultiParentTypesOnTheCorpus(t *testing.T) {
	dirs, profiles, prompts := imgtest.CorpusPackages(t)
	out := t.TempDir()
	for _, d := range dirs {
		if filepath.Base(filepath.Dir(d)) != "india-cbse-science-learning-framework-classes-9-10" {
			continue
		}
		data, res := imgtest.Build(t, d, profiles, prompts)
		if err := os.WriteFile(filepath.Join(out, res.Manifest.SnapshotID+".kgimg"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs := imgtest.Catalog(t, out).Packages
	if len(pkgs) != 1 {
		t.Fatalf("%d CBSE packages", len(pkgs))
	}
	mp := statistics(pkgs[0]).MultiParent
	str := func(s string) *string { return &s }
	if want := []ValueCount{{Value: str("Content Domain Specific Learning Outcome"), Count: 235}}; mp.TargetCount != 235 || !reflect.DeepEqual(mp.StatementTypeCounts, want) {
		t.Errorf("multi-parent %d, types %v", mp.TargetCount, mp.StatementTypeCounts)
	}
	if want := []ValueCount{{Value: str("Chapter + NCERT Learning Outcome"), Count: 235}}; !reflect.DeepEqual(mp.ParentStatementTypes, want) {
		t.Errorf("parent types %v", mp.ParentStatementTypes)
	}
}

// TestSupportedCodeSearchesCountTheirMatches: the supported-code modes of
// search_learning_components say how many components matched — every page
// the same total, equal to the hits paged through (they said 0).
func TestSupportedCodeSearchesCountTheirMatches(t *testing.T) {
	t.Parallel()
	svc := New(sampleCatalog(t), Options{})
	ctx := context.Background()
	for _, mode := range []string{lcCodeExact, lcCodePrefix} {
		r := NewComponentSearchRequest("M1.1", "kgc-sample-mathematics-grades-1-3")
		r.Mode, r.Match, r.Limit = SearchMode(mode), nil, 2
		if mode == lcCodeExact {
			r.Query = "M1.1.1.1"
		}
		seen, pages := 0, 0
		for {
			res, err := svc.SearchComponents(ctx, r)
			if err != nil {
				t.Fatalf("%s: %v", mode, err)
			}
			pages++
			seen += len(res.Page.Hits)
			if res.Page.TotalMatchingCount == 0 {
				t.Fatalf("%s page %d: %d hits but a total of 0", mode, pages, len(res.Page.Hits))
			}
			next, ok := r.Next(res)
			if !ok {
				if res.Page.TotalMatchingCount != seen {
					t.Errorf("%s: total %d, %d hits paged through", mode, res.Page.TotalMatchingCount, seen)
				}
				break
			}
			r = next
		}
		if seen == 0 || mode == lcCodePrefix && pages < 2 {
			t.Errorf("%s: %d hits in %d pages: the test does not exercise paging", mode, seen, pages)
		}
	}
}
