package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kgc-project/kgc/internal/pkgtest"
)

// kgcIn runs the binary in dir with extra environment variables (KEY=VALUE)
// and reports its exit code, output and resource use.
func kgcIn(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peakRSS = ru.Maxrss << 10 // kilobytes on Linux
		r.outBlocks = ru.Oublock
		r.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return r
}

// exports lays out the English sample's delivery files and detailed
// documents as a team exports them, in <work>/<name>/, and returns work and
// the profile root. Paths given to kgc are relative to work, as a user types
// them.
func exports(t *testing.T, name string) (work, profiles string) {
	t.Helper()
	f := pkgtest.Sample(t, english)
	work = t.TempDir()
	copyTree(t, filepath.Join(f.Dir, "delivery"), filepath.Join(work, name))
	copyTree(t, filepath.Join(f.Dir, "detailed"), filepath.Join(work, name, "detailed"))
	return work, f.Profiles
}

// packArgs are the pack options for the exports in name, into out.
func packArgs(profiles, name, out string, more ...string) []string {
	return append([]string{"pack", "--profiles", profiles, "--jurisdiction-type", "country",
		"--nodes", name + "/nodes.jsonl", "--relationships", name + "/relationships.jsonl", "--detailed-root", name + "/detailed",
		"--profile-id", english, "--profile-version", "1.0", "--version-token", "2026", "--output-root", out}, more...)
}

// breakLine replaces old by new in one line (1-based) of a file.
func breakLine(t *testing.T, path string, line int, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if !strings.Contains(lines[line-1], old) {
		t.Fatalf("%s:%d has no %q", path, line, old)
	}
	lines[line-1] = strings.Replace(lines[line-1], old, new, 1)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A refused pack names the user's files and lines (not the staging copy it
// removed), and reports only the real problems: the provisional manifest it
// wrote for the first gate run adds no count or capability findings of its
// own. Nothing is left behind, the output root included.
func TestPackRefusalNamesTheUserFiles(t *testing.T) {
	work, profiles := exports(t, "bad")
	breakLine(t, filepath.Join(work, "bad", "nodes.jsonl"), 14, `"isCurrent":"`, `"isCurrent":"yes`)
	r := kgcIn(t, work, nil, packArgs(profiles, "bad", "bad-out")...)
	if r.code != 1 || !strings.Contains(r.stdout, "bad/nodes.jsonl:14: error delivery_property_decoding_error") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, wrong := range []string{".kgc-pack-", "count_mismatch", "capability_mismatch", "package_manifest.json"} {
		if strings.Contains(r.stdout+r.stderr, wrong) {
			t.Errorf("the refusal mentions %s:\n%s%s", wrong, r.stdout, r.stderr)
		}
	}
	if !strings.Contains(r.stdout, ": 1 error(s), 0 warning(s)") || !strings.Contains(r.stderr, "nothing written") {
		t.Errorf("summary:\n%s%s", r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(work, "bad-out")); !os.IsNotExist(err) {
		t.Errorf("a refused pack left its output root: %v", err)
	}

	r = kgcIn(t, work, nil, packArgs(profiles, "bad", "bad-out", "--error-format", "json")...)
	var rep struct {
		Packages []struct {
			Dir        string
			ErrorCount int `json:"errorCount"`
			Findings   []struct {
				Code, Path string
				Line       int
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Packages) != 1 {
		t.Fatalf("json: %v\n%s", err, r.stdout)
	}
	p := rep.Packages[0]
	if p.ErrorCount != 1 || len(p.Findings) != 1 || p.Findings[0].Path != "bad/nodes.jsonl" || p.Findings[0].Line != 14 || strings.Contains(p.Dir, ".kgc-pack-") {
		t.Errorf("json report: %+v", p)
	}
	r = kgcIn(t, work, nil, packArgs(profiles, "bad", "bad-out", "--error-format", "github-actions")...)
	if !strings.Contains(r.stdout, "::error file=bad/nodes.jsonl,line=14,title=delivery_property_decoding_error::") {
		t.Errorf("github-actions:\n%s", r.stdout)
	}
}

// Packing unchanged exports again is existing_identical, however their
// modification times changed (createdAt no longer comes from them); a pack
// that would change the createdAt of the package in place is refused with
// the flag and variable that reproduce it.
func TestRepackingUnchangedExportsIsIdentical(t *testing.T) {
	work, profiles := exports(t, "good")
	r := kgcIn(t, work, nil, packArgs(profiles, "good", "out")...)
	var res struct{ Outcome, CreatedAt, CreatedAtSource string }
	if json.Unmarshal([]byte(r.stdout), &res); r.code != 0 || res.Outcome != "created" || res.CreatedAt != "1970-01-01T00:00:00Z" || res.CreatedAtSource != "default" {
		t.Fatalf("first pack: exit %d %+v\n%s", r.code, res, r.stderr)
	}
	if !strings.Contains(r.stderr, "--created-at or SOURCE_DATE_EPOCH") {
		t.Errorf("no note about the default createdAt: %q", r.stderr)
	}
	later := time.Now().Add(48 * time.Hour)
	for _, name := range []string{"nodes.jsonl", "relationships.jsonl"} {
		if err := os.Chtimes(filepath.Join(work, "good", name), later, later); err != nil {
			t.Fatal(err)
		}
	}
	for _, env := range [][]string{nil, {"SOURCE_DATE_EPOCH=0"}} {
		r = kgcIn(t, work, env, packArgs(profiles, "good", "out")...)
		if json.Unmarshal([]byte(r.stdout), &res); r.code != 0 || res.Outcome != "existing_identical" {
			t.Errorf("packing again (env %v): exit %d %s%s", env, r.code, r.stdout, r.stderr)
		}
	}
	r = kgcIn(t, work, nil, packArgs(profiles, "good", "out", "--created-at", "2026-12-01T00:00:00Z")...)
	for _, want := range []string{"already holds a different package", "createdAt", "--created-at 1970-01-01T00:00:00Z", "SOURCE_DATE_EPOCH=0"} {
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("another createdAt: exit %d, stderr does not say %q:\n%s", r.code, want, r.stderr)
		}
	}
}

// An input over the gate's ceiling for its artifact (a 1 GiB sparse detailed
// document) is refused by its size before anything is hashed or copied:
// the refusal writes almost nothing and costs almost no CPU.
func TestPackRefusesOversizeInputsBeforeCopying(t *testing.T) {
	work, profiles := exports(t, "big")
	if err := os.Truncate(filepath.Join(work, "big", "detailed", "as_entity_provenance.json"), 1<<30); err != nil {
		t.Fatal(err)
	}
	r := kgcIn(t, work, nil, packArgs(profiles, "big", "out")...)
	if r.code != 1 || !strings.Contains(r.stdout, "big/detailed/as_entity_provenance.json: error file_too_large") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Copying the file wrote 2,097,544 blocks of 512 bytes and took 6 s of
	// CPU with the hashing.
	if r.outBlocks > 8192 || r.cpu > time.Second {
		t.Errorf("the refusal wrote %d blocks and took %s of CPU", r.outBlocks, r.cpu)
	}
	if _, err := os.Stat(filepath.Join(work, "out")); !os.IsNotExist(err) {
		t.Errorf("the refusal left its output root: %v", err)
	}
}

// A dry run, and a pack refused at any stage, leave no trace: not the output
// root pack created (nor its missing parents), and not a framework
// directory; an output root that was there before stays.
func TestPackLeavesNothingWhenItWritesNothing(t *testing.T) {
	work, profiles := exports(t, "good")
	r := kgcIn(t, work, nil, packArgs(profiles, "good", "a/b/out", "--dry-run")...)
	if r.code != 0 || !strings.Contains(r.stdout, `"outcome": "dry_run"`) {
		t.Fatalf("dry run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(work, "a")); !os.IsNotExist(err) {
		t.Errorf("a dry run left the output root's parents: %v", err)
	}
	breakLine(t, filepath.Join(work, "good", "relationships.jsonl"), 2, `"identifier":"`, `"identifier":"x`)
	if r = kgcIn(t, work, nil, packArgs(profiles, "good", "a/b/out")...); r.code != 1 {
		t.Fatalf("a broken relationship: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(work, "a")); !os.IsNotExist(err) {
		t.Errorf("a refused pack left the output root's parents: %v", err)
	}
	if err := os.Mkdir(filepath.Join(work, "mine"), 0o755); err != nil {
		t.Fatal(err)
	}
	if r = kgcIn(t, work, nil, packArgs(profiles, "good", "mine")...); r.code != 1 {
		t.Fatalf("a refused pack into an existing root: exit %d", r.code)
	}
	if entries, err := os.ReadDir(filepath.Join(work, "mine")); err != nil || len(entries) != 0 {
		t.Errorf("an existing output root: %v %v", entries, err)
	}
}
