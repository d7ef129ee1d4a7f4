package query

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
)

// TestFederatedEchoIsBounded searches 70 frameworks at once (clones of the
// English sample): past MaxEchoedPackages the scope and selectedSnapshots
// name only the packages on the page, with the selection's count and digest;
// past MaxPageWarnings the warnings are counted; and paging through every
// page still returns every hit exactly once.
func TestFederatedEchoIsBounded(t *testing.T) {
	t.Parallel()
	const n = 70
	dir := t.TempDir()
	for i := 0; i < n; i++ {
		spec := pkggen.Shipped()[0]
		spec.FrameworkID = fmt.Sprintf("kgc-clone-%03d", i)
		spec.NoPromptConfig = true
		f := pkgtest.Write(t, spec)
		data, _ := imgtest.Build(t, f.Dir, f.Profiles, "")
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(i, ".kgimg")), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat := imgtest.Catalog(t, dir)
	s := New(cat, Options{})
	ctx := context.Background()

	r := searchReq("text", "read")
	r.Limit = 100
	seen := map[string]bool{}
	pages := 0
	for {
		page, err := s.SearchStandards(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		scope := page.EffectiveScope.(FederatedScope)
		onPage := map[string]bool{}
		for _, h := range page.Page.Hits {
			key := h.PackageIdentity.SnapshotID + " " + h.Node.NodeID
			if seen[key] {
				t.Fatalf("%s returned twice", key)
			}
			seen[key] = true
			onPage[h.PackageIdentity.SnapshotID] = true
		}
		if scope.SelectedPackageCount != n || scope.SelectionSha256 == "" || len(scope.SnapshotIDs) != len(onPage) || len(page.SelectedSnapshots) != len(onPage) {
			t.Fatalf("page %d: scope %d/%d snapshots (%d on the page), selectedSnapshots %d", pages, len(scope.SnapshotIDs), scope.SelectedPackageCount, len(onPage), len(page.SelectedSnapshots))
		}
		for _, id := range scope.SnapshotIDs {
			if !onPage[id] {
				t.Errorf("scope echoes %s, which has no hit on the page", id)
			}
		}
		if b, _ := canonjson.Marshal(page); len(b) > 512<<10 {
			t.Errorf("page %d is %d bytes", pages, len(b))
		}
		if page.Page.NextCursor == nil {
			break
		}
		r.Cursor = page.Page.NextCursor
	}
	// Every clone has the same hits as the first, alone.
	one := searchReq("text", "read")
	one.SnapshotIDs, one.Limit = []string{cat.Packages[0].SnapshotID()}, 100
	alone, err := s.SearchStandards(ctx, one)
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != n*len(alone.Page.Hits) || len(alone.Page.Hits) == 0 {
		t.Errorf("%d hits over %d pages; %d clones × %d", len(seen), pages, n, len(alone.Page.Hits))
	}

	code := searchReq("code_exact", "E1")
	res, err := s.SearchStandards(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Page.Warnings) != maxPageWarnings || res.Page.WarningsOmitted != n-maxPageWarnings {
		t.Errorf("%d warnings, %d omitted", len(res.Page.Warnings), res.Page.WarningsOmitted)
	}
}

func searchReq(mode SearchMode, query string) StandardSearchRequest {
	r := StandardSearchRequest{Mode: mode, Query: query, SearchScope: SearchScope{Limit: 25}}
	if mode == SearchText {
		r.Match = Words(MatchTokens, OperatorAny)
	}
	return r
}
