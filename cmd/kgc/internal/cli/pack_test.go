package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/pkggen"
)

// kgc pack from a spec file and from explicit options: the same package,
// exit 0 and a JSON summary; then existing_identical; a spec mixed with
// explicit options, a spec with an unknown field and a package the gate
// refuses get exit 2, 2 and 1 with nothing written.
func TestPackCommand(t *testing.T) {
	root := t.TempDir()
	packages, profiles := filepath.Join(root, "packages"), filepath.Join(root, "profiles")
	os.MkdirAll(packages, 0o755)
	os.MkdirAll(profiles, 0o755)
	spec := pkggen.Shipped()[0]
	w, err := pkggen.Write(spec, packages, profiles)
	if err != nil {
		t.Fatal(err)
	}
	detailed := filepath.Join(w.PackageDir, "detailed")
	out := filepath.Join(root, "out")
	specFile := filepath.Join(w.PackageDir, "..", "build.json")
	rel := func(p string) string { r, _ := filepath.Rel(filepath.Dir(specFile), p); return r }
	specDoc := map[string]any{"jurisdictionType": "sample", "nodes": rel(filepath.Join(w.PackageDir, "delivery", "nodes.jsonl")),
		"relationships": rel(filepath.Join(w.PackageDir, "delivery", "relationships.jsonl")), "profileId": spec.FrameworkID,
		"profileVersion": "1.0", "versionToken": spec.VersionToken, "outputRoot": out, "detailedRoot": rel(detailed),
		"createdAt": "2026-12-01T00:00:00Z"}
	b, _ := json.Marshal(specDoc)
	os.WriteFile(specFile, b, 0o644)

	code, stdout, stderr := run(t, "pack", "--profiles", profiles, "--spec", specFile)
	var res struct{ Outcome, SnapshotID, PackageDir string }
	if json.Unmarshal([]byte(stdout), &res); code != 0 || res.Outcome != "created" || res.SnapshotID != w.SnapshotID {
		t.Fatalf("pack --spec: %d %s %s", code, stdout, stderr)
	}
	if code, _, stderr := run(t, "validate", "--profiles", profiles, res.PackageDir); code != 0 {
		t.Errorf("the packed package does not validate: %s", stderr)
	}
	code, stdout, _ = run(t, "pack", "--profiles", profiles, "--jurisdiction-type", "sample",
		"--nodes", filepath.Join(w.PackageDir, "delivery", "nodes.jsonl"), "--relationships", filepath.Join(w.PackageDir, "delivery", "relationships.jsonl"),
		"--profile-id", spec.FrameworkID, "--profile-version", "1.0", "--version-token", spec.VersionToken, "--output-root", out,
		"--detailed-root", detailed, "--created-at", "2026-12-01T00:00:00Z")
	if json.Unmarshal([]byte(stdout), &res); code != 0 || res.Outcome != "existing_identical" {
		t.Errorf("explicit options over the same package: %d %s", code, stdout)
	}

	if code, _, stderr := run(t, "pack", "--profiles", profiles, "--spec", specFile, "--version-token", "x"); code != 2 || !strings.Contains(stderr, "mutually exclusive") {
		t.Errorf("--spec with explicit options: %d %s", code, stderr)
	}
	specDoc["unknownField"] = true
	b, _ = json.Marshal(specDoc)
	os.WriteFile(specFile, b, 0o644)
	if code, _, stderr := run(t, "pack", "--profiles", profiles, "--spec", specFile); code != 2 || !strings.Contains(stderr, "unknownField") {
		t.Errorf("spec with an unknown field: %d %s", code, stderr)
	}
	broken := filepath.Join(root, "broken.jsonl")
	nodes, _ := os.ReadFile(filepath.Join(w.PackageDir, "delivery", "nodes.jsonl"))
	os.WriteFile(broken, append(nodes, []byte("{\"type\":\"node\"}\n")...), 0o644)
	fresh := filepath.Join(root, "fresh")
	code, stdout, stderr = run(t, "pack", "--profiles", profiles, "--error-format", "github-actions", "--jurisdiction-type", "sample",
		"--nodes", broken, "--relationships", filepath.Join(w.PackageDir, "delivery", "relationships.jsonl"),
		"--profile-id", spec.FrameworkID, "--profile-version", "1.0", "--version-token", spec.VersionToken, "--output-root", fresh)
	if code != 1 || !strings.Contains(stdout, "::error") || !strings.Contains(stderr, "nothing written") {
		t.Errorf("a package the gate refuses: %d\n%s\n%s", code, stdout, stderr)
	}
	if entries, _ := os.ReadDir(fresh); len(entries) != 0 {
		t.Errorf("a refused pack left %v", entries)
	}
}

// kgc smoke needs exactly one target: a server command or --url.
func TestSmokeCommandUsage(t *testing.T) {
	if code, _, stderr := run(t, "smoke"); code != 2 || !strings.Contains(stderr, "either --url or a server command") {
		t.Errorf("no target: %d %s", code, stderr)
	}
	if code, _, _ := run(t, "smoke", "--url", "http://127.0.0.1:1/mcp", "--", "kgmcp"); code != 2 {
		t.Errorf("both targets: %d", code)
	}
	if code, _, stderr := run(t, "smoke", "--timeout", "5s", "--url", "http://127.0.0.1:1/mcp"); code != 1 || !strings.Contains(stderr, "failed") {
		t.Errorf("nothing listening: %d %s", code, stderr)
	}
}
