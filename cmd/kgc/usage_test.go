package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/pkgtest"
)

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// brokenProfile writes the English sample's profile with four problems into
// <work>/profiles/<id>/1.0/profile.json and returns work and the file.
func brokenProfile(t *testing.T) (work, path string) {
	t.Helper()
	f := pkgtest.Sample(t, english)
	work = t.TempDir()
	copyTree(t, f.Profiles, filepath.Join(work, "profiles"))
	path = filepath.Join("profiles", english, "1.0", "profile.json")
	b, err := os.ReadFile(filepath.Join(work, path))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "subjectVocabulary")
	delete(doc, "localSubject")
	doc["gradeMappings"] = 7
	b, _ = json.Marshal(doc)
	if err := os.WriteFile(filepath.Join(work, path), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return work, path
}

// kgc check-profile reports every problem of a profile with validate's
// finding format and exit codes, and pack's refusal of a broken profile
// points at it.
func TestCheckProfileReportsEveryProblem(t *testing.T) {
	work, path := brokenProfile(t)
	r := kgcIn(t, work, nil, "check-profile", path)
	if r.code != 1 || strings.Count(r.stdout, path+": error ") != 4 || !strings.Contains(r.stdout, "FAIL "+english+"/1.0 ("+path) {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"subjectVocabulary is required", "localSubject is required", "gradeMappings must be an array"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in\n%s", want, r.stdout)
		}
	}
	r = kgcIn(t, work, nil, "check-profile", "--error-format", "json", path)
	var rep struct {
		Profiles []struct {
			Path       string
			ProfileID  string `json:"profileId"`
			ErrorCount int    `json:"errorCount"`
			Findings   []struct{ Code, Path string }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Profiles) != 1 || rep.Profiles[0].ErrorCount != 4 || rep.Profiles[0].ProfileID != english {
		t.Errorf("json: %v %+v\n%s", err, rep, r.stdout)
	}
	r = kgcIn(t, work, nil, "check-profile", "--error-format", "github-actions", path)
	if !strings.Contains(r.stdout, "::error file="+path+",title=schema_missing_field::") {
		t.Errorf("github-actions:\n%s", r.stdout)
	}

	// The shipped profiles, each with the prompt config beside it, are clean.
	shipped, _ := filepath.Glob(filepath.Join("..", "..", "profiles", "*", "*", "profile.json"))
	r = kgcIn(t, "", nil, append([]string{"check-profile"}, shipped...)...)
	if len(shipped) < 2 || r.code != 0 || strings.Count(r.stdout, "ok   ") != len(shipped) || !strings.Contains(r.stdout, "prompts.json") {
		t.Errorf("shipped profiles: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Another profile's prompt config is an identity mismatch.
	r = kgcIn(t, "", nil, "check-profile", "--prompt-config", filepath.Join(filepath.Dir(shipped[1]), "prompts.json"), shipped[0])
	if r.code != 1 || !strings.Contains(r.stdout, "prompt_config_identity_mismatch") {
		t.Errorf("another profile's prompt config: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r = kgcIn(t, work, nil, "check-profile", "profiles/none.json"); r.code != 2 || !strings.Contains(r.stderr, "could not check") {
		t.Errorf("a missing file: exit %d %s", r.code, r.stderr)
	}
	if r = kgcIn(t, work, nil, "check-profile"); r.code != 2 || firstLine(r.stderr) != "kgc check-profile: no profile file given" {
		t.Errorf("no argument: exit %d %q", r.code, r.stderr)
	}

	exp, _ := exports(t, "good")
	r = kgcIn(t, exp, nil, packArgs(filepath.Join(work, "profiles"), "good", "out")...)
	if r.code != 2 || !strings.Contains(r.stderr, "kgc check-profile "+filepath.Join(work, path)) {
		t.Errorf("pack with a broken profile: exit %d %s", r.code, r.stderr)
	}
}

// A framework directory or a package root given to validate (or build) says
// which directories to pass instead; a missing profile, or profile root, says
// where kgc looked and how to give it.
func TestWrongDirectoryLevels(t *testing.T) {
	f := pkgtest.Sample(t, english)
	framework := filepath.Dir(f.Dir)
	r := kgc(t, "validate", "--profiles", f.Profiles, framework)
	if r.code != 2 || !strings.Contains(r.stderr, "pass "+filepath.Join(framework, "<snapshot-id>")) || !strings.Contains(r.stderr, f.Dir) {
		t.Errorf("a framework directory: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, "snapshot_dir_invalid") || strings.Contains(r.stdout+r.stderr, "^[a-z0-9]") {
		t.Errorf("a framework directory is judged as a package:\n%s%s", r.stdout, r.stderr)
	}
	root := filepath.Dir(framework)
	r = kgc(t, "build", "--profiles", f.Profiles, "-o", t.TempDir(), root)
	if r.code != 2 || !strings.Contains(r.stderr, "pass "+filepath.Join(root, "<framework-id>", "<snapshot-id>")) || !strings.Contains(r.stderr, f.Dir) {
		t.Errorf("a package root: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	empty := t.TempDir()
	r = kgc(t, "validate", "--profiles", empty, f.Dir)
	if r.code != 1 || !strings.Contains(r.stdout, "profile_missing") || !strings.Contains(r.stdout, "profile root "+empty) || !strings.Contains(r.stdout, "--profiles") {
		t.Errorf("profile_missing: exit %d\n%s", r.code, r.stdout)
	}
	missing := filepath.Join(empty, "no-profiles")
	r = kgc(t, "validate", "--profiles", missing, f.Dir, f.Dir)
	if r.code != 2 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, missing+" does not exist") || !strings.Contains(r.stderr, "--profiles DIR") {
		t.Errorf("a missing profile root: exit %d\n%s", r.code, r.stderr)
	}
}

// Every usage error says what is wrong in its first line; --version works
// like the version command; a command without flags shows no empty Flags
// section.
func TestUsageErrorsSayWhatIsWrong(t *testing.T) {
	r := kgc(t, "--version")
	v := kgc(t, "version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "kgc ") || r.stdout != v.stdout || r.stderr != "" {
		t.Errorf("--version: exit %d %q %q (version: %q)", r.code, r.stdout, r.stderr, v.stdout)
	}
	cases := []struct {
		args []string
		want string
	}{
		{nil, "kgc: no command given"},
		{[]string{"build", "some/package"}, "kgc build: -o DIR is required (the directory the images are written into)"},
		{[]string{"build", "-o", "out"}, "kgc build: no package directory given (a package is <root>/<framework-id>/<snapshot-id>/)"},
		{[]string{"validate"}, "kgc validate: no package directory given (a package is <root>/<framework-id>/<snapshot-id>/)"},
		{[]string{"verify"}, "kgc verify: no image given"},
		{[]string{"inspect", "a", "b"}, "kgc inspect: give exactly one image (got 2)"},
		{[]string{"inspect"}, "kgc inspect: give exactly one image (got 0)"},
	}
	for _, c := range cases {
		r := kgc(t, c.args...)
		if r.code != 2 || firstLine(r.stderr) != c.want || !strings.Contains(r.stderr, "Usage:") {
			t.Errorf("kgc %v: exit %d, first line %q, want %q", c.args, r.code, firstLine(r.stderr), c.want)
		}
	}
	r = kgc(t, "verify", "-h")
	if r.code != 0 || strings.Contains(r.stderr, "Flags:") || !strings.Contains(r.stderr, "Usage: kgc verify IMAGE...") {
		t.Errorf("verify -h: exit %d\n%s", r.code, r.stderr)
	}
	r = kgc(t, "inspect", "-h")
	if r.code != 0 || !strings.Contains(r.stderr, "Flags:\n  -json") {
		t.Errorf("inspect -h: exit %d\n%s", r.code, r.stderr)
	}
}
