package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/pkggen"
)

// A pack stopped by SIGTERM at any moment leaves the output root with either
// nothing or the whole package (which passes the gate), and never a staging
// directory.
func TestPackStoppedBySignal(t *testing.T) {
	root := t.TempDir()
	profiles := filepath.Join(root, "profiles")
	spec := pkggen.Synthetic(10000)
	spec.Components = false
	for _, d := range []string{"packages", "profiles"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w, err := pkggen.Write(spec, filepath.Join(root, "packages"), profiles)
	if err != nil {
		t.Fatal(err)
	}
	args := func(out string) []string {
		a := []string{"pack", "--profiles", profiles, "--jurisdiction-type", "sample", "--nodes", filepath.Join(w.PackageDir, "delivery", "nodes.jsonl"),
			"--relationships", filepath.Join(w.PackageDir, "delivery", "relationships.jsonl"), "--profile-id", spec.FrameworkID,
			"--profile-version", "1.0", "--version-token", spec.VersionToken, "--output-root", out}
		for _, dir := range []string{"detailed", "additional"} {
			entries, _ := os.ReadDir(filepath.Join(w.PackageDir, dir))
			for _, e := range entries {
				a = append(a, "--detailed-artifact", filepath.Join(w.PackageDir, dir, e.Name()))
			}
		}
		return a
	}
	for _, delay := range []time.Duration{1500 * time.Millisecond} {
		out := filepath.Join(t.TempDir(), "out")
		cmd := exec.Command(binary, args(out)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		entries, _ := os.ReadDir(out)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".kgc-pack-") {
				t.Errorf("stopped after %s: staging directory %s left behind", delay, e.Name())
			}
		}
		snaps, _ := filepath.Glob(filepath.Join(out, spec.FrameworkID, "*"))
		for _, s := range snaps {
			res, err := gate.Run(s, gate.Options{ProfileRoot: profiles})
			if err != nil || !res.Valid() {
				t.Errorf("stopped after %s: a package that does not pass the gate is in place: %v", delay, err)
			}
		}
		t.Logf("stopped after %s: %d packages in place", delay, len(snaps))
	}
}
