package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/schema/finding"
)

// run executes kgc in-process.
func run(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

type jsonReport struct {
	Packages []struct {
		Dir             string            `json:"dir"`
		SnapshotID      string            `json:"snapshotId"`
		IsValid         bool              `json:"isValid"`
		Error           string            `json:"error"`
		ErrorCount      int               `json:"errorCount"`
		Findings        []finding.Finding `json:"findings"`
		FindingsOmitted int               `json:"findingsOmitted"`
	} `json:"packages"`
}

// validateJSON runs `kgc validate --error-format json` and decodes the report.
func validateJSON(t testing.TB, args ...string) (int, jsonReport) {
	t.Helper()
	code, out, errOut := run(t, append([]string{"validate", "--error-format", "json", "--max-findings", "0"}, args...)...)
	var rep jsonReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("validate output is not JSON: %v\nstdout: %s\nstderr: %s", err, out, errOut)
	}
	return code, rep
}

func codes(fs []finding.Finding) map[finding.Code]int {
	m := map[finding.Code]int{}
	for _, f := range fs {
		m[f.Code]++
	}
	return m
}

// repoRoot finds the module root (for the shipped packages and profiles).
func repoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}

// corpus returns ../shared/corpus beside the checkout, or skips the test with a
// visible message when it is absent.
func corpus(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("SKIP: this test needs the real corpus at %s (absent: %v)", dir, err)
	}
	return dir
}
