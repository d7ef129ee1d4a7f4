package standard

import (
	"reflect"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/record"
)

// sampleCatalog loads the shipped sample packages.
func sampleCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	return imgtest.Catalog(t, imgtest.Images(t, nil, nil))
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
			for _, c := range Components(p, uint32(n)).Components {
				for _, s := range c.SupportedStandards {
					edges++
					std, _ := img.NodeByID(s.NodeID)
					if s.StandardURI != URI(p, s.NodeID) {
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
