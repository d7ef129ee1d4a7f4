package pack_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kgc-project/kgc/compiler/pack"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/schema/finding"
)

// rewriteLine replaces old by new in line n (1-based) of the file at p and
// returns the path of the changed copy, written into a fresh directory under
// the same basename.
func rewriteLine(t *testing.T, p string, n int, old, new string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if !strings.Contains(lines[n-1], old) {
		t.Fatalf("%s:%d has no %q", p, n, old)
	}
	lines[n-1] = strings.Replace(lines[n-1], old, new, 1)
	out := filepath.Join(t.TempDir(), filepath.Base(p))
	if err := os.WriteFile(out, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// refused runs a pack that must be refused by the gate and returns the
// refusal.
func refused(t *testing.T, s *pack.Spec, profiles string) *pack.RefusedError {
	t.Helper()
	_, err := pack.Run(s, pack.Options{ProfileRoot: profiles})
	var re *pack.RefusedError
	if !errors.As(err, &re) || re.Gate == nil {
		t.Fatalf("%T %v, want a gate refusal", err, err)
	}
	if entries, _ := os.ReadDir(s.OutputRoot); len(entries) != 0 {
		t.Errorf("a refused pack left %v", entries)
	}
	return re
}

// The gate's first run over the staged package is provisional: a broken
// record gives exactly its own finding (no count or capability mismatch of
// the placeholder manifest), Gate.Dir is the destination, and Locate names
// the user's file and line, not the removed staging copy.
func TestRefusalFindingsNameTheInputs(t *testing.T) {
	s, profiles := shipped(t, filepath.Join(t.TempDir(), "out"))
	s.Nodes = rewriteLine(t, s.Nodes, 14, `"isCurrent":"`, `"isCurrent":"yes`)
	re := refused(t, s, profiles)
	if re.Gate.Findings.Errors() != 1 || re.Gate.Findings.HasCode(finding.CountMismatch) || re.Gate.Findings.HasCode(finding.CapabilityMismatch) {
		t.Errorf("findings %v, want the one broken record", re.Gate.Findings.CountsByCode())
	}
	if !strings.HasPrefix(re.Gate.Dir, filepath.Join(s.OutputRoot, pkggen.Shipped()[0].FrameworkID)+string(filepath.Separator)) {
		t.Errorf("Gate.Dir %s is not the destination", re.Gate.Dir)
	}
	f := re.Locate(re.Gate.Findings.Items()[0])
	if f.Path != s.Nodes || f.Line != 14 || f.Code != finding.DeliveryPropertyDecoding {
		t.Errorf("located at %s:%d (%s), want %s:14", f.Path, f.Line, f.Code, s.Nodes)
	}
}

// Progressions prepared from their exports are located line by line: a
// broken edge in the buildsTowards export is reported at its own line of
// that export, though pack wrote it elsewhere, in another order, into the
// delivery relationships.
func TestRefusalLocatesPreparedProgressionLines(t *testing.T) {
	w, profiles := generate(t, pkggen.Shipped()[1])
	base, _ := specFor(t, w.PackageDir, filepath.Join(t.TempDir(), "out"))
	rels, _ := os.ReadFile(base.Relationships)
	var prefix []string
	for _, l := range strings.SplitAfter(string(rels), "\n") {
		if l != "" && !strings.Contains(l, `"label":"buildsTowards"`) && !strings.Contains(l, `"label":"relatesTo"`) {
			prefix = append(prefix, l)
		}
	}
	base.Relationships = filepath.Join(t.TempDir(), "relationships.jsonl")
	os.WriteFile(base.Relationships, []byte(strings.Join(prefix, "")), 0o644)
	var kept []string
	for _, d := range base.DetailedArtifacts {
		if !strings.Contains(filepath.Base(d), "lp_") {
			kept = append(kept, d)
		}
	}
	base.DetailedArtifacts, base.AdditionalArtifacts = kept, nil
	detailed := filepath.Join(w.PackageDir, "detailed")
	builds := filepath.Join(detailed, "lp_relationships_builds_towards.jsonl")
	// The last line, which sorts anywhere but last among the edges.
	b, _ := os.ReadFile(builds)
	last := strings.Count(string(b), "\n")
	base.Progressions = &pack.Progressions{BuildsTowards: rewriteLine(t, builds, last, `"target_identifier":"`, `"target_identifier":"0`),
		RelatesTo: filepath.Join(detailed, "lp_relationships_relates_to.jsonl"), Provenance: filepath.Join(detailed, "lp_relationship_provenance.json")}
	re := refused(t, base, profiles)
	var located []finding.Finding
	for _, f := range re.Gate.Findings.Items() {
		located = append(located, re.Locate(f))
	}
	onLine := 0
	for _, f := range located {
		t.Logf("%s:%d: %s %s", f.Path, f.Line, f.Code, f.Message)
		if f.Line > 0 {
			onLine++
		}
		if f.Line > 0 && (f.Path != base.Progressions.BuildsTowards || f.Line != last) {
			t.Errorf("located at %s:%d, want %s:%d: %s %s", f.Path, f.Line, base.Progressions.BuildsTowards, last, f.Code, f.Message)
		}
		if strings.Contains(f.Path, ".kgc-pack-") {
			t.Errorf("a finding names the staging copy: %+v", f)
		}
	}
	if onLine == 0 {
		t.Error("no finding about the broken edge's line")
	}
}

// Without --created-at or SOURCE_DATE_EPOCH the createdAt is
// DefaultCreatedAt, whatever the inputs' modification times: packing again
// after they change is existing_identical.
func TestDefaultCreatedAtIgnoresModificationTimes(t *testing.T) {
	s, profiles := shipped(t, t.TempDir())
	none := func(string) string { return "" }
	r1, err := pack.Run(s, pack.Options{ProfileRoot: profiles, Getenv: none})
	if err != nil {
		t.Fatal(err)
	}
	if got := readManifest(t, r1.PackageDir)["createdAt"]; got != pack.DefaultCreatedAt || r1.CreatedAtSource != "default" {
		t.Errorf("createdAt %v from %s", got, r1.CreatedAtSource)
	}
	later := time.Now().Add(72 * time.Hour)
	for _, p := range append([]string{s.Nodes, s.Relationships}, s.DetailedArtifacts...) {
		os.Chtimes(p, later, later)
	}
	r2, err := pack.Run(s, pack.Options{ProfileRoot: profiles, Getenv: none})
	if err != nil || r2.Outcome != pack.ExistingIdentical {
		t.Errorf("packing again after the inputs were touched: %v %+v", err, r2)
	}
}

// An input over the gate's ceiling for its artifact (a sparse 1 GiB
// detailed document, or progression provenance) is refused as file_too_large
// at the user's path before anything is hashed or copied, and the output
// root pack would have created does not appear.
func TestOversizeInputsAreRefusedFirst(t *testing.T) {
	s, profiles := shipped(t, filepath.Join(t.TempDir(), "a", "out"))
	var big string
	for i, d := range s.DetailedArtifacts {
		if filepath.Base(d) == "as_entity_provenance.json" {
			big = filepath.Join(t.TempDir(), filepath.Base(d))
			s.DetailedArtifacts[i] = big
		}
	}
	if big == "" {
		t.Fatal("the sample has no as_entity_provenance.json")
	}
	if err := os.WriteFile(big, nil, 0o644); err != nil || os.Truncate(big, 1<<30) != nil {
		t.Fatal("cannot make a sparse file")
	}
	s.Progressions = &pack.Progressions{BuildsTowards: s.Nodes, RelatesTo: s.Nodes, Provenance: big}
	re := refused(t, s, profiles)
	if n := re.Gate.Findings.CountsByCode()[finding.FileTooLarge]; n != 2 || re.Gate.Findings.Errors() != 2 {
		t.Errorf("findings %v, want two file_too_large", re.Gate.Findings.CountsByCode())
	}
	for _, f := range re.Gate.Findings.Items() {
		if f = re.Locate(f); f.Path != big {
			t.Errorf("located at %s, want %s", f.Path, big)
		}
	}
	if _, err := os.Stat(filepath.Dir(s.OutputRoot)); !os.IsNotExist(err) {
		t.Errorf("the output root's parent exists: %v", err)
	}
}

// A dry run into an output root that does not exist yet leaves none behind
// (nor its missing parents); one that exists stays.
func TestDryRunLeavesNoOutputRoot(t *testing.T) {
	top := t.TempDir()
	s, profiles := shipped(t, filepath.Join(top, "a", "b", "out"))
	r, err := pack.Run(s, pack.Options{ProfileRoot: profiles, DryRun: true})
	if err != nil || r.Outcome != pack.DryRun {
		t.Fatalf("dry run: %v %+v", err, r)
	}
	if entries, _ := os.ReadDir(top); len(entries) != 0 {
		t.Errorf("a dry run left %v", entries)
	}
	s.OutputRoot = top
	if _, err := pack.Run(s, pack.Options{ProfileRoot: profiles, DryRun: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(top); err != nil {
		t.Errorf("an existing output root was removed: %v", err)
	}
}
