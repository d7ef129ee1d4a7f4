package cli

import (
	"bytes"
	"context"
	"encoding/json"
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
