package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runAction runs the GitHub Action's script with the built kgc and returns
// its exit code, stdout and the $GITHUB_OUTPUT it wrote.
func runAction(t *testing.T, packages, output string) (int, string, string) {
	t.Helper()
	root, _ := filepath.Abs("../..")
	ghOut := filepath.Join(t.TempDir(), "github_output")
	cmd := exec.Command("sh", filepath.Join(root, "tools", "ci", "kgc-action.sh"))
	cmd.Env = append(os.Environ(), "KGC_BIN="+binary, "KGC_PACKAGES="+packages, "KGC_PROFILES="+filepath.Join(root, "profiles"),
		"KGC_OUTPUT="+output, "GITHUB_OUTPUT="+ghOut)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(ghOut)
	return code, out.String(), string(b)
}

// copyTree copies a package directory.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
}

// The Action's script on the shipped packages builds and verifies every image
// and reports them; on a broken copy it annotates the findings, exits 1 and
// builds nothing; with no package it exits 2.
func TestGitHubActionScript(t *testing.T) {
	root, _ := filepath.Abs("../..")
	out := filepath.Join(t.TempDir(), "build")
	code, stdout, ghOut := runAction(t, filepath.Join(root, "packages", "*", "*"), out)
	images, _ := filepath.Glob(filepath.Join(out, "*.kgimg"))
	if code != 0 || len(images) != 2 || !strings.HasPrefix(ghOut, "images=") || strings.Count(ghOut, ".kgimg") != 2 {
		t.Fatalf("shipped packages: exit %d, %d images, output %q\n%s", code, len(images), ghOut, stdout)
	}

	src, _ := filepath.Glob(filepath.Join(root, "packages", "kgc-sample-english-grades-1-2", "*"))
	broken := filepath.Join(t.TempDir(), "kgc-sample-english-grades-1-2", filepath.Base(src[0]))
	copyTree(t, src[0], broken)
	nodes := filepath.Join(broken, "delivery", "nodes.jsonl")
	b, _ := os.ReadFile(nodes)
	os.WriteFile(nodes, bytes.Replace(b, []byte("Sampleland"), []byte("Samplelanx"), 1), 0o644)
	out2 := filepath.Join(t.TempDir(), "build")
	code, stdout, ghOut = runAction(t, broken, out2)
	if code != 1 || !strings.Contains(stdout, "::error file="+nodes) || !strings.Contains(stdout, "title=artifact_checksum_mismatch") || ghOut != "" {
		t.Errorf("a broken package: exit %d, output %q\n%s", code, ghOut, stdout)
	}
	if images, _ := filepath.Glob(filepath.Join(out2, "*.kgimg")); len(images) != 0 {
		t.Errorf("images built from a broken package: %v", images)
	}

	if code, stdout, _ := runAction(t, filepath.Join(t.TempDir(), "none", "*"), out2); code != 2 || !strings.Contains(stdout, "::error title=kgc::no package matches") {
		t.Errorf("no package: exit %d\n%s", code, stdout)
	}
}
