package query

import (
	"context"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/runtime/kgerr"
)

// TestFrameworkRouting: a framework with one current snapshot routes to it;
// a second current snapshot of the English sample makes its routing
// ambiguous; a snapshot ID routes exactly, and not under another framework;
// an unknown framework is not found.
func TestFrameworkRouting(t *testing.T) {
	t.Parallel()
	second := pkggen.Shipped()[0]
	second.VersionToken = "2027"
	svc := New(imgtest.Catalog(t, imgtest.Images(t, []pkggen.Spec{second}, nil)), Options{})
	ctx := context.Background()
	get := func(framework, snapshot string) (*FrameworkResult, error) {
		r := FrameworkRequest{FrameworkID: framework}
		if snapshot != "" {
			r.SnapshotID = &snapshot
		}
		return svc.GetFramework(ctx, r)
	}
	if _, err := get(englishSample, ""); kgerr.CodeOf(err) != kgerr.AmbiguousFramework {
		t.Errorf("two current snapshots: %v", err)
	}
	res, err := get(mathsSample, "")
	if err != nil || res.Framework.FrameworkID != mathsSample || !strings.HasPrefix(res.Framework.SnapshotID, mathsSample+"@2026+") {
		t.Fatalf("unique current: %+v %v", res, err)
	}
	snap := res.Framework.SnapshotID
	if _, err := get(mathsSample, snap); err != nil {
		t.Errorf("exact routing: %v", err)
	}
	if _, err := get(englishSample, snap); kgerr.CodeOf(err) != kgerr.FrameworkNotFound {
		t.Errorf("snapshot of another framework: %v", err)
	}
	if _, err := get("no-such-framework", ""); kgerr.CodeOf(err) != kgerr.FrameworkNotFound {
		t.Errorf("unknown framework: %v", err)
	}
}
