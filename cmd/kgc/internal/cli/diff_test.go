package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkgtest"
)

// rewordedSample writes the mathematics sample twice, the second with the
// statement of M1.1.1.1 reworded.
func rewordedSample(t *testing.T) (old, new *pkgtest.Fixture) {
	old, new = pkgtest.Sample(t, "kgc-sample-mathematics-grades-1-3"), pkgtest.Sample(t, "kgc-sample-mathematics-grades-1-3")
	new.Records(t, "delivery/nodes.jsonl", func(rec map[string]any) []map[string]any {
		if p := rec["properties"].(map[string]any); p["statementCode"] == "M1.1.1.1" {
			p["description"] = "Count objects to twenty."
		}
		return []map[string]any{rec}
	})
	new.Seal(t)
	return old, new
}

func TestDiffCLIUsage(t *testing.T) {
	code, _, stderr := run(t, "diff", "-h")
	if code != exitOK || !strings.Contains(stderr, "-format") || !strings.Contains(stderr, "kgc diff [--format text|markdown|json]") {
		t.Errorf("diff -h: exit %d, usage %q", code, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", "only-one"}, "give exactly two snapshots"},
		{[]string{"diff", "--format", "yaml", "a", "b"}, `unknown --format "yaml"`},
		{[]string{"diff", "--max-findings", "-1", "a", "b"}, "--max-findings must be"},
		{[]string{"diff", "/nonexistent/old", "/nonexistent/new"}, "no such file"},
	} {
		code, _, stderr := run(t, c.args...)
		if code != ExitFailure || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

func TestDiffCLI(t *testing.T) {
	old, new := rewordedSample(t)
	code, stdout, stderr := run(t, "diff", "--profiles", old.Profiles, old.Dir, old.Dir)
	if code != exitOK || !strings.Contains(stdout, "no differences") {
		t.Errorf("a package against itself: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = run(t, "diff", "--profiles", old.Profiles, old.Dir, new.Dir)
	if code != exitFindings || !strings.Contains(stdout, "~ M1.1.1.1") || !strings.Contains(stdout, "reworded (matched by nodeId)") ||
		!strings.Contains(stdout, "{+objects to twenty.+}") {
		t.Errorf("reworded sample: exit %d\n%s%s", code, stdout, stderr)
	}
	code, md, _ := run(t, "diff", "--format", "markdown", "--profiles", old.Profiles, old.Dir, new.Dir)
	if code != exitFindings || !strings.Contains(md, "## Standards changed (1)") || !strings.Contains(md, "**objects to twenty.**") {
		t.Errorf("markdown: exit %d\n%s", code, md)
	}
	code, js, _ := run(t, "diff", "--format", "json", "--profiles", old.Profiles, old.Dir, new.Dir)
	var rep struct {
		FrameworkID string `json:"frameworkId"`
		Equal       bool   `json:"equal"`
		Summary     struct {
			Reworded int `json:"reworded"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil || code != exitFindings || rep.Equal || rep.Summary.Reworded != 1 {
		t.Errorf("json: exit %d, %+v, %v\n%s", code, rep, err, js)
	}
	if !strings.HasPrefix(js, "{\n  \"frameworkId\": \"kgc-sample-mathematics-grades-1-3\",\n  \"old\": {") {
		t.Errorf("json field order: %.80s", js)
	}
	_, again, _ := run(t, "diff", "--format", "json", "--profiles", old.Profiles, old.Dir, new.Dir)
	if again != js {
		t.Error("two runs printed different JSON")
	}

	// Images, and an image against a package, give the same comparison.
	dir := t.TempDir()
	img := func(f *pkgtest.Fixture, name string) string {
		data, _ := imgtest.Build(t, f.Dir, f.Profiles, "")
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	oldImg, newImg := img(old, "old.kgimg"), img(new, "new.kgimg")
	for _, args := range [][]string{{oldImg, newImg}, {"--profiles", old.Profiles, oldImg, new.Dir}} {
		code, out, stderr := run(t, append([]string{"diff"}, args...)...)
		if code != exitFindings || !strings.Contains(out, "{+objects to twenty.+}") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, stderr)
		}
	}
}

func TestDiffCLIRefusals(t *testing.T) {
	shipped, profiles := imgtest.ShippedPackages(t)
	code, _, stderr := run(t, "diff", "--profiles", profiles, shipped[0], shipped[1])
	if code != ExitFailure || !strings.Contains(stderr, "different frameworks") {
		t.Errorf("two frameworks: exit %d, %q", code, stderr)
	}
	math := pkgtest.Sample(t, "kgc-sample-mathematics-grades-1-3")
	bad := pkgtest.Sample(t, "kgc-sample-mathematics-grades-1-3")
	bad.Records(t, "delivery/nodes.jsonl", func(rec map[string]any) []map[string]any {
		rec["properties"].(map[string]any)["isCurrent"] = "yes"
		return []map[string]any{rec}
	})
	bad.Seal(t)
	code, stdout, stderr := run(t, "diff", "--profiles", math.Profiles, math.Dir, bad.Dir)
	if code != ExitFailure || stdout != "" || !strings.Contains(stderr, "does not pass the validation gate") ||
		!strings.Contains(stderr, "delivery_property_decoding_error") || !strings.Contains(stderr, "FAIL ") {
		t.Errorf("refused package: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr = run(t, "diff", "--profiles", math.Profiles, filepath.Dir(math.Dir), math.Dir)
	if code != ExitFailure || !strings.Contains(stderr, "a framework directory, not a package") {
		t.Errorf("framework directory: exit %d, %q", code, stderr)
	}
	// A resealed image that kgc verify calls corrupt (invalid UTF-8 in a
	// statement, the checksum made to match) is refused, not compared
	// ("no differences", exit 0, before).
	dir := imgtest.Images(t, nil, nil)
	imgs, _ := filepath.Glob(filepath.Join(dir, "kgc-sample-mathematics-*.kgimg"))
	b, err := os.ReadFile(imgs[0])
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(b), "Demonstrate understanding of addition")
	if i < 0 {
		t.Fatal("no statement to corrupt")
	}
	b[i] = 0xff
	resealed := filepath.Join(t.TempDir(), "resealed.kgimg")
	if err := os.WriteFile(resealed, imgtest.Reseal(b), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ = run(t, "verify", resealed)
	if code != exitFindings || !strings.Contains(stdout, "CORRUPT") {
		t.Fatalf("kgc verify of the resealed image: exit %d, %q", code, stdout)
	}
	for _, args := range [][]string{{imgs[0], resealed}, {resealed, imgs[0]}, {resealed, resealed}} {
		code, stdout, stderr = run(t, append([]string{"diff"}, args...)...)
		if code != ExitFailure || stdout != "" || !strings.Contains(stderr, "corrupt") {
			t.Errorf("diff %v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

// TestDiffEscapesTerminalControls: a new snapshot whose statement and code
// hold escape sequences (clear the screen, retitle the window, a C1 CSI)
// cannot drive the terminal showing its diff: text and Markdown write them
// as \x1b, \u009b.
func TestDiffEscapesTerminalControls(t *testing.T) {
	old := pkgtest.Sample(t, "kgc-sample-mathematics-grades-1-3")
	hostile := pkgtest.Sample(t, "kgc-sample-mathematics-grades-1-3")
	hostile.Records(t, "delivery/nodes.jsonl", func(rec map[string]any) []map[string]any {
		if p := rec["properties"].(map[string]any); p["statementCode"] == "M1.1.1.1" {
			p["description"] = "Count\x1b[2J\x1b]0;pwned\x07 objects \u009b31m."
			p["statementCode"] = "M1.1.1.1\x1b[8m"
		}
		return []map[string]any{rec}
	})
	hostile.Seal(t)
	for _, format := range []string{"text", "markdown"} {
		code, stdout, stderr := run(t, "diff", "--format", format, "--profiles", old.Profiles, old.Dir, hostile.Dir)
		if code != exitFindings {
			t.Fatalf("%s: exit %d\n%s%s", format, code, stdout, stderr)
		}
		if strings.ContainsAny(stdout, "\x1b\x07\u009b") || !strings.Contains(stdout, `Count\x1b`) || !strings.Contains(stdout, `\u009b31m`) {
			t.Errorf("%s: controls not escaped:\n%q", format, stdout)
		}
	}
}
