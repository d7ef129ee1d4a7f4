package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/pkgtest"
)

func TestBuildWritesVerifiedImages(t *testing.T) {
	f := pkgtest.Sample(t, maths)
	out := filepath.Join(f.Root, "images")
	code, stdout, stderr := run(t, "build", "--profiles", f.Profiles, "-o", out, f.Dir)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	img := filepath.Join(out, f.Snapshot+".kgimg")
	b, err := os.ReadFile(img)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	if !strings.Contains(stdout, digest) {
		t.Errorf("build output does not print the image SHA-256 %s:\n%s", digest, stdout)
	}
	code, vout, _ := run(t, "verify", img)
	if code != exitOK || !strings.Contains(vout, digest) {
		t.Errorf("verify: exit %d %q", code, vout)
	}
	code, iout, _ := run(t, "inspect", "--json", img)
	var rep struct {
		SnapshotID    string         `json:"snapshotId"`
		Sha256        string         `json:"sha256"`
		Nodes         map[string]int `json:"nodes"`
		Relationships map[string]int `json:"relationships"`
		Provenance    int            `json:"provenanceRecords"`
		Sections      []struct {
			Name  string `json:"name"`
			Bytes int64  `json:"bytes"`
		} `json:"sections"`
	}
	if err := json.Unmarshal([]byte(iout), &rep); err != nil || code != exitOK {
		t.Fatalf("inspect: exit %d %v\n%s", code, err, iout)
	}
	if rep.SnapshotID != f.Snapshot || rep.Sha256 != digest || rep.Nodes["Item"] != 120 || rep.Relationships["BuildsTowards"] != 54 || rep.Provenance != 108 || len(rep.Sections) < 10 {
		t.Errorf("inspect report: %+v", rep)
	}
	if code, text, _ := run(t, "inspect", img); code != exitOK || !strings.Contains(text, "snapshot   "+f.Snapshot) {
		t.Errorf("inspect text: %q", text)
	}
}

func TestBuildRefusesInvalidPackagesAndWritesNothing(t *testing.T) {
	f := pkgtest.Sample(t, english)
	bumpCount(t, f, "itemNodes", 1)
	out := filepath.Join(f.Root, "images")
	code, stdout, _ := run(t, "build", "--profiles", f.Profiles, "-o", out, f.Dir)
	if code != exitFindings || !strings.Contains(stdout, "count_mismatch") {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Fatalf("a refused package wrote %v", entries)
	}
	if code, _, _ := run(t, "build", "--profiles", f.Profiles, f.Dir); code != ExitFailure {
		t.Errorf("missing -o: exit %d", code)
	}
}

func TestVerifyExitCodes(t *testing.T) {
	f := pkgtest.Sample(t, english)
	out := filepath.Join(f.Root, "images")
	if code, o, e := run(t, "build", "--profiles", f.Profiles, "-o", out, f.Dir); code != exitOK {
		t.Fatalf("build: %d %s %s", code, o, e)
	}
	img := filepath.Join(out, f.Snapshot+".kgimg")
	b, _ := os.ReadFile(img)
	b[len(b)/2] ^= 0x10
	bad := filepath.Join(out, "bad.kgimg")
	os.WriteFile(bad, b, 0o644)
	code, stdout, _ := run(t, "verify", img, bad)
	if code != exitFindings || !strings.Contains(stdout, "CORRUPT "+bad) || !strings.Contains(stdout, "1 of 2 images are corrupt") {
		t.Errorf("corrupt: exit %d %q", code, stdout)
	}
	if code, _, _ := run(t, "verify", filepath.Join(out, "missing.kgimg")); code != ExitFailure {
		t.Errorf("missing: exit %d", code)
	}
	if code, _, _ := run(t, "verify", f.Dir); code != exitFindings {
		t.Errorf("a directory: exit %d", code)
	}
}
