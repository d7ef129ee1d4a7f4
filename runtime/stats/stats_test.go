package stats

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
)

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
	mp := Of(pkgs[0]).MultiParent
	str := func(s string) *string { return &s }
	if want := []ValueCount{{Value: str("Content Domain Specific Learning Outcome"), Count: 235}}; mp.TargetCount != 235 || !reflect.DeepEqual(mp.StatementTypeCounts, want) {
		t.Errorf("multi-parent %d, types %v", mp.TargetCount, mp.StatementTypeCounts)
	}
	if want := []ValueCount{{Value: str("Chapter + NCERT Learning Outcome"), Count: 235}}; !reflect.DeepEqual(mp.ParentStatementTypes, want) {
		t.Errorf("parent types %v", mp.ParentStatementTypes)
	}
}
