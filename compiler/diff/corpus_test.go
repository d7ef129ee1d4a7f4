package diff

import (
	"strings"
	"testing"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/imgtest"
)

// TestDiffCorpusNigeria compares the two published Nigeria mathematics
// snapshots, older (created 2026-07-22, standards only) to newer (2026-09-06,
// with learning components): the standards are the same nodes, unchanged; the
// newer adds its learning components and their supports edges.
func TestDiffCorpusNigeria(t *testing.T) {
	dirs, profiles, prompts := imgtest.CorpusPackages(t)
	var old, new string
	for _, d := range dirs {
		switch {
		case strings.HasSuffix(d, "nigeria-nerdc-mathematics-primary-1-3@undated+530f13dcf3c3"):
			old = d
		case strings.HasSuffix(d, "nigeria-nerdc-mathematics-primary-1-3@undated+3f35e11c6624"):
			new = d
		}
	}
	if old == "" || new == "" {
		t.Skipf("SKIP: the two Nigeria mathematics snapshots are not among the corpus packages (%d found)", len(dirs))
	}
	opts := gate.Options{ProfileRoot: profiles, PromptRoot: prompts}
	a, err := Load(old, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Load(new, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r := compare(t, a, b)
	s := r.Summary
	t.Logf("Nigeria: %+v matched %+v", s, r.MatchedBy)
	if r.Equal || r.MatchedBy.NodeID != r.Old.Standards || r.Old.Standards != r.New.Standards {
		t.Errorf("standards should all pair by node ID: %+v (old %d, new %d)", r.MatchedBy, r.Old.Standards, r.New.Standards)
	}
	if s.StandardsAdded+s.StandardsRemoved+s.StandardsChanged+s.ComponentsRemoved+s.EdgesAdded+s.EdgesRemoved != 0 {
		t.Errorf("unexpected standards or progression changes: %+v", s)
	}
	if s.ComponentsAdded != r.New.LearningComponents || r.Old.LearningComponents != 0 || s.SupportsAdded != r.New.SupportsEdges || s.SupportsAdded == 0 {
		t.Errorf("want every learning component and supports edge of the newer snapshot added: %+v (new %+v)", s, r.New)
	}
	for _, c := range r.ComponentsAdded {
		if c.Statement == nil || *c.Statement == "" {
			t.Errorf("component %s added without its statement", c.ID)
			break
		}
	}
}
