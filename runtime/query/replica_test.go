package query_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/query"
)

// Paging across a rolling update: a cursor one replica issued is honoured
// by another serving the same images (everything a cursor binds is derived
// from the images, not from the process), and refused by one serving other
// images with invalid_cursor saying the catalog changed and to restart.
func TestCursorsCrossReplicasOfTheSameImages(t *testing.T) {
	dir := imgtest.Images(t, nil, nil)
	one := query.New(imgtest.Catalog(t, dir), query.Options{})
	two := query.New(imgtest.Catalog(t, dir), query.Options{})
	ctx := context.Background()
	r := query.NewStandardSearchRequest("understanding")
	r.Match = query.Words(query.MatchTokens, query.OperatorAny)
	r.Limit = 5
	first, err := one.SearchStandards(ctx, r)
	if err != nil || first.Page.NextCursor == nil {
		t.Fatalf("%v %+v", err, first)
	}
	next, _ := r.Next(first)
	fromTwo, err := two.SearchStandards(ctx, next)
	if err != nil {
		t.Fatalf("another replica of the same images refused the cursor: %v", err)
	}
	fromOne, _ := one.SearchStandards(ctx, next)
	if len(fromTwo.Page.Hits) != 5 || fromTwo.Page.Hits[0].Node.NodeID != fromOne.Page.Hits[0].Node.NodeID {
		t.Error("the two replicas' next pages differ")
	}

	other := t.TempDir()
	m, _ := filepath.Glob(filepath.Join(dir, "kgc-sample-mathematics*.kgimg"))
	b, _ := os.ReadFile(m[0])
	os.WriteFile(filepath.Join(other, filepath.Base(m[0])), b, 0o644)
	three := query.New(imgtest.Catalog(t, other), query.Options{})
	_, err = three.SearchStandards(ctx, next)
	if kgerr.CodeOf(err) != kgerr.InvalidCursor || !strings.Contains(err.Error(), "the catalog changed") || !strings.Contains(err.Error(), "restart the listing") {
		t.Errorf("a replica serving other images: %v", err)
	}
}
