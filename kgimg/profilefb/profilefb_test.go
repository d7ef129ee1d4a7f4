package profilefb

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/internal/corpus"
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg/internal/fbkit/fbtest"
	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/schema/profile"
)

// profiles decodes the shipped profiles and, when the corpus is beside the
// project, every corpus profile (the corpus part skips visibly without it).
func profiles(t *testing.T) map[string]*profile.Profile {
	t.Helper()
	paths, _ := filepath.Glob("../../profiles/*/*/profile.json")
	if len(paths) == 0 {
		t.Fatal("no shipped profiles found")
	}
	corpusFiles, _ := filepath.Glob(filepath.Join(corpus.Dir(), "profiles/*/*/profile.json"))
	if len(corpusFiles) == 0 {
		t.Log("SKIP (part): the corpusFiles profiles (internal/corpusFiles) are absent; only the shipped profiles are checked")
	}
	out := map[string]*profile.Profile{}
	for _, path := range append(paths, corpusFiles...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p, _, fs := profile.Decode(data, "profile.json")
		if p == nil || len(fs) > 0 {
			t.Fatalf("%s does not decode cleanly: %v", path, fs)
		}
		out[path] = p
	}
	return out
}

func compile(p *profile.Profile) *kgfb.CompiledProfile {
	b := flatbuffers.NewBuilder(0)
	b.Finish(Build(b, p))
	return kgfb.GetRootAsCompiledProfile(b.FinishedBytes(), 0)
}

// TestRoundTrip: Decode(Build(p)) equals p for every real profile, and for
// variants of each where every list is absent, or present and empty, so
// presence is kept field by field (a wrong field number fails here).
func TestRoundTrip(t *testing.T) {
	for path, p := range profiles(t) {
		if got := Decode(compile(p)); !reflect.DeepEqual(got, p) {
			t.Errorf("%s: the compiled profile decodes to\n%+v\nwant\n%+v", path, got, p)
		}
		for _, variant := range []struct {
			name  string
			empty bool
		}{{"lists absent", false}, {"lists empty", true}} {
			v := clone(p)
			fbtest.SetLists(reflect.ValueOf(v), variant.empty)
			if got := Decode(compile(v)); !reflect.DeepEqual(got, v) {
				t.Errorf("%s (%s): the compiled profile decodes to\n%+v\nwant\n%+v", path, variant.name, got, v)
			}
		}
		// A recorded rights review, with and without a note.
		note := "CC BY 4.0 confirmed with the publisher"
		for _, r := range []*profile.RightsReview{{ReviewedBy: "A. Reviewer", ReviewedAt: "2026-12-06"}, {ReviewedBy: "B", ReviewedAt: "2026-12-06T10:00:00Z", Note: &note}} {
			v := clone(p)
			v.RightsReview = r
			if got := Decode(compile(v)); !reflect.DeepEqual(got, v) {
				t.Errorf("%s (review %+v): the compiled profile decodes to %+v", path, r, got.RightsReview)
			}
		}
	}
}

// clone deep-copies p through the compiled form's own inverse, checked above.
func clone(p *profile.Profile) *profile.Profile { return Decode(compile(p)) }

// TestTargets: every name a profile gives a grade, statement type or subject
// resolves to its owner through the compiled keys, however it is cased or
// spaced, and other values resolve to nothing.
func TestTargets(t *testing.T) {
	for path, p := range profiles(t) {
		cp := compile(p)
		for i, g := range p.GradeMappings {
			for _, n := range append([]string{g.LocalLabel, "  " + g.LocalLabel + " "}, g.Aliases...) {
				if got := Targets(cp, kgfb.ProfileKeyKindGradeName, textnorm.Facet(n)); !slices.Contains(got, i) {
					t.Errorf("%s: grade name %q resolves to %v, want mapping %d among them", path, n, got, i)
				}
			}
			for _, n := range g.NormalizedGrades {
				if !slices.Contains(Targets(cp, kgfb.ProfileKeyKindNormalizedGrade, textnorm.Facet(n)), i) {
					t.Errorf("%s: normalized grade %q does not resolve to mapping %d", path, n, i)
				}
			}
		}
		for i, st := range p.StatementTypes {
			for _, n := range append([]string{st.SourceStatementType}, st.Aliases...) {
				if got := Targets(cp, kgfb.ProfileKeyKindStatementTypeName, textnorm.Facet(n)); !slices.Equal(got, []int{i}) {
					t.Errorf("%s: statement type %q resolves to %v, want [%d]", path, n, got, i)
				}
			}
		}
		if Targets(cp, kgfb.ProfileKeyKindSubjectName, textnorm.Facet(p.LocalSubject)) == nil {
			t.Errorf("%s: the local subject %q does not resolve", path, p.LocalSubject)
		}
		for i, s := range p.NormalizedSubjects {
			if got := Targets(cp, kgfb.ProfileKeyKindNormalizedSubject, textnorm.Facet(s)); !slices.Equal(got, []int{i}) {
				t.Errorf("%s: normalized subject %q resolves to %v, want [%d]", path, s, got, i)
			}
		}
		for _, miss := range []string{"", "no such grade", "zz"} {
			for kind := kgfb.ProfileKeyKindGradeName; kind <= kgfb.ProfileKeyKindNormalizedSubject; kind++ {
				if got := Targets(cp, kind, textnorm.Facet(miss)); got != nil {
					t.Errorf("%s: %q under %v resolves to %v", path, miss, kind, got)
				}
			}
		}
		// A key of one kind is not found under another.
		if len(p.GradeMappings) > 0 {
			k := textnorm.Facet(p.GradeMappings[0].LocalLabel)
			if Targets(cp, kgfb.ProfileKeyKindStatementTypeName, k) != nil && !statementTypeNamed(p, k) {
				t.Errorf("%s: grade label %q found as a statement type", path, k)
			}
		}
	}
}

func statementTypeNamed(p *profile.Profile, k string) bool {
	for _, st := range p.StatementTypes {
		for _, n := range append([]string{st.SourceStatementType}, st.Aliases...) {
			if textnorm.Facet(n) == k {
				return true
			}
		}
	}
	return false
}
