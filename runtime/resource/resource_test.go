package resource

import (
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/uri"
	"github.com/kgc-project/kgc/schema/ids"
)

// TestEveryStandardHasItsResources: on the shipped samples, every item's
// standard, diagram and components resources resolve (where the package
// lists those kinds as available), each document's metadata names its own
// address and the SHA-256 of its bytes, and an ID the package does not hold
// is not found.
func TestEveryStandardHasItsResources(t *testing.T) {
	lim := Limits{MaxBytes: 8 << 20, MaxSourceBytes: 64 << 20}
	for _, p := range imgtest.Catalog(t, imgtest.Images(t, nil, nil)).Packages {
		kinds, _ := Available(p, lim)
		has := map[string]bool{}
		for _, k := range kinds {
			has[k] = true
		}
		img := p.Img
		read := 0
		for n := 0; n < img.NodeCount(); n++ {
			if img.NodeKind(uint32(n)) != kgimg.ItemNode {
				continue
			}
			for _, kind := range []string{"standard", "standard_diagram", "standard_learning_components"} {
				if !has[kind] {
					continue
				}
				ref := uri.Ref{Kind: kind, FrameworkID: p.FrameworkID(), SnapshotID: p.SnapshotID(), ID: img.NodeString(uint32(n), kgimg.NodeID)}
				d, err := Package(ref, p, lim)
				if err != nil {
					t.Fatalf("%s: %v", ref, err)
				}
				m := d.Metadata()
				if m.CanonicalURI != ref.String() || m.ContentSha256 != ids.Sha256(d.Data) || m.ByteLength != len(d.Data) || m.SnapshotID != p.SnapshotID() {
					t.Fatalf("%s: metadata %+v", ref, m)
				}
				read++
			}
		}
		if read == 0 {
			t.Fatalf("%s: no standard resource read (kinds %v)", p.SnapshotID(), kinds)
		}
		missing := uri.Ref{Kind: "standard", FrameworkID: p.FrameworkID(), SnapshotID: p.SnapshotID(), ID: "no such node"}
		if _, err := Package(missing, p, lim); kgerr.CodeOf(err) != kgerr.StandardNotFound {
			t.Errorf("%s: %v, want standard_not_found", missing, err)
		}
	}
}
