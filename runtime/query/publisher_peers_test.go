package query

import (
	"context"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/standard"
)

// A standard's publisher relations verify only what they read: get_standard
// in a package without relations verifies that package and the packages
// that declare publisher relations (they could assert one about it), not
// the rest of the catalog; a relation with an outside end verifies the
// packages whose catalog parts may hold the end, not the rest.
func TestPublisherRelationsVerifyOnlyWhatTheyRead(t *testing.T) {
	t.Parallel()
	target := pkggen.Spec{FrameworkID: "kgc-aligned-target", VersionToken: "test", Name: "Aligned target", Subject: "Mathematics",
		Jurisdiction: "Testland", Authority: "kgc tests", GradeLabels: []string{"GRADE ONE"},
		Strands: 1, Standards: 2, Indicators: 2, Codes: true, CodePrefix: "B",
		Topics: []string{"counting objects in groups"}, Verbs: []string{"Explain"}}
	source := target
	source.FrameworkID, source.Name, source.Indicators = "kgc-aligned-source", "Aligned source", 3
	source.Publisher, source.AlignTo = true, &target
	cat := imgtest.Catalog(t, imgtest.Images(t, []pkggen.Spec{source, target}, nil))
	svc := New(cat, Options{})
	pkg := map[string]*catalog.Package{}
	for _, p := range cat.Packages {
		if !p.Img.Lazy() {
			t.Fatalf("%s is not a lazily verified image", p.Path)
		}
		pkg[p.FrameworkID()] = p
	}
	verified := func() map[string]bool {
		out := map[string]bool{}
		for id, p := range pkg {
			out[id] = p.Img.Verified()
		}
		return out
	}
	if v := verified(); v[mathsSample] || v[source.FrameworkID] || v[target.FrameworkID] {
		t.Fatalf("verified before any call: %v", v)
	}
	spec := pkggen.Shipped()[1]
	if spec.FrameworkID != mathsSample {
		t.Fatalf("the second shipped spec is %s", spec.FrameworkID)
	}
	id := pkggen.NodeID(spec, 0, 0, 0, 0)
	if _, err := svc.Standard(context.Background(), StandardRequest{FrameworkID: ptr(mathsSample),
		Identifier: standard.Selector{IdentifierType: "node_id", NodeID: id}}); err != nil {
		t.Fatal(err)
	}
	v := verified()
	if !v[mathsSample] || !v[source.FrameworkID] || v[target.FrameworkID] || v[englishSample] {
		t.Errorf("after get_standard in the maths sample: %v, want it and the publishing source only", v)
	}
	// The source's standards have an exactMatchOf to the target, an
	// outside end: resolving it reads the packages whose catalog parts may
	// hold the end — the target — and no other.
	p := pkg[source.FrameworkID]
	n := p.Img.NodeCount()
	resolved := 0
	for i := uint32(0); i < uint32(n) && resolved == 0; i++ {
		for _, r := range standard.RelationsOf(standard.PeersOf(cat), p, i, func(kgimg.PublisherKind) bool { return true }) {
			if r.Other.External != nil {
				resolved += len(r.Other.Matches)
			}
		}
	}
	if v := verified(); resolved == 0 || !v[target.FrameworkID] || v[englishSample] {
		t.Errorf("after resolving an outside end (%d matches): %v, want the target verified, the English sample not", resolved, v)
	}
	if pkg[englishSample].Img.MayHold(target.FrameworkID) || !pkg[target.FrameworkID].Img.MayHold(pkg[target.FrameworkID].Img.NodeString(0, kgimg.NodeCaseIdentifierUUID)) {
		t.Error("MayHold does not follow the catalog parts' CASE keys")
	}
}
