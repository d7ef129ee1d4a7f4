package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/schema/finding"
)

// TestCorpusVerdicts validates every real package of the corpus with its own
// profile: complete (derived) packages pass; every incomplete snapshot is refused
// with exactly one artifact_missing finding per declared file that is absent,
// and nothing else.
func TestCorpusVerdicts(t *testing.T) {
	c := imgtest.Corpus(t)
	profiles, prompts := filepath.Join(c, "profiles"), filepath.Join(c, "prompts")
	complete, _ := filepath.Glob(filepath.Join(c, "derived", "graph_packages", "*", "*"))
	incomplete, _ := filepath.Glob(filepath.Join(c, "graph_packages", "*", "*"))
	if len(complete) == 0 || len(incomplete) == 0 {
		t.Fatalf("corpus has %d complete and %d incomplete packages; expected both", len(complete), len(incomplete))
	}
	for _, dir := range complete {
		t.Run("complete/"+filepath.Base(dir), func(t *testing.T) {
			code, rep := validateJSON(t, "--profiles", profiles, "--prompts", prompts, dir)
			if code != exitOK || !rep.Packages[0].IsValid {
				t.Fatalf("exit %d; findings: %+v", code, rep.Packages[0].Findings)
			}
		})
	}
	for _, dir := range incomplete {
		t.Run("incomplete/"+filepath.Base(dir), func(t *testing.T) {
			missing := missingDeclared(t, dir)
			code, rep := validateJSON(t, "--profiles", profiles, "--prompts", prompts, dir)
			if code != exitFindings {
				t.Fatalf("exit %d, want %d", code, exitFindings)
			}
			var got []string
			for _, f := range rep.Packages[0].Findings {
				if f.Code != finding.ArtifactMissing {
					t.Errorf("unexpected finding %s: %s", f.Code, f.Message)
					continue
				}
				got = append(got, f.Path)
			}
			sort.Strings(got)
			if len(got) != len(missing) {
				t.Fatalf("%d artifact_missing findings, want %d", len(got), len(missing))
			}
			for i := range got {
				if got[i] != missing[i] {
					t.Errorf("finding for %s, want %s", got[i], missing[i])
				}
			}
		})
	}
}

// missingDeclared lists the manifest's declared paths that are absent on disk,
// computed independently of the gate.
func missingDeclared(t *testing.T, dir string) []string {
	t.Helper()
	var m struct {
		Checksums map[string]string `json:"checksums"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "package_manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var out []string
	for p := range m.Checksums {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		t.Fatalf("%s is complete; the corpus says every real snapshot lacks files", dir)
	}
	return out
}

// TestShippedPackagesPass validates the packages that ship with the project,
// with the project's own profiles, exactly as the README's command does.
func TestShippedPackagesPass(t *testing.T) {
	root := imgtest.RepoRoot(t)
	dirs, _ := filepath.Glob(filepath.Join(root, "packages", "*", "*"))
	if len(dirs) < 2 {
		t.Fatalf("found %d shipped packages, want at least 2", len(dirs))
	}
	args := append([]string{"--profiles", filepath.Join(root, "profiles")}, dirs...)
	code, rep := validateJSON(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %+v", code, rep)
	}
	for _, p := range rep.Packages {
		if !p.IsValid || len(p.Findings) != 0 {
			t.Errorf("%s: valid=%v findings=%+v", p.Dir, p.IsValid, p.Findings)
		}
	}
}
