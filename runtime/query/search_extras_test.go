package query

import (
	"context"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/search"
)

// sampleCatalog loads the shipped sample packages.
func sampleCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	return imgtest.Catalog(t, imgtest.Images(t, nil, nil))
}

// TestPackageSummaryCarriesCreatedAt checks the manifest's createdAt reaches
// the catalog objects.
func TestPackageSummaryCarriesCreatedAt(t *testing.T) {
	for _, p := range sampleCatalog(t).Packages {
		if got := record.Summary(p).CreatedAt; got == "" || got != p.Manifest.CreatedAt {
			t.Errorf("%s: createdAt %q, manifest %q", p.SnapshotID(), got, p.Manifest.CreatedAt)
		}
	}
}

// TestSupportedCodeSearchesCountTheirMatches: the supported-code modes of
// search_learning_components say how many components matched — every page
// the same total, equal to the hits paged through (they said 0).
func TestSupportedCodeSearchesCountTheirMatches(t *testing.T) {
	t.Parallel()
	svc := New(sampleCatalog(t), Options{})
	ctx := context.Background()
	for _, mode := range []string{search.ComponentCodeExact, search.ComponentCodePrefix} {
		r := NewComponentSearchRequest("M1.1", "kgc-sample-mathematics-grades-1-3")
		r.Mode, r.Match, r.Limit = SearchMode(mode), nil, 2
		if mode == search.ComponentCodeExact {
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
		if seen == 0 || mode == search.ComponentCodePrefix && pages < 2 {
			t.Errorf("%s: %d hits in %d pages: the test does not exercise paging", mode, seen, pages)
		}
	}
}
