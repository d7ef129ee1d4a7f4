package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/pkgtest"
	"github.com/kgc-project/kgc/schema/finding"
)

func TestValidateExitCodes(t *testing.T) {
	f := pkgtest.Sample(t, english)
	if code, out, _ := run(t, "validate", "--profiles", f.Profiles, f.Dir); code != exitOK || !strings.HasPrefix(out, "ok   "+f.Snapshot) {
		t.Errorf("valid package: exit %d, output %q", code, out)
	}
	if code, _, errOut := run(t, "validate", "--profiles", f.Profiles, filepath.Join(f.Root, "no-such-package")); code != ExitFailure || !strings.Contains(errOut, "could not validate") {
		t.Errorf("missing path: exit %d, stderr %q", code, errOut)
	}
	if code, _, _ := run(t, "validate", "--profiles", filepath.Join(f.Root, "no-profiles"), f.Dir); code != ExitFailure {
		t.Errorf("missing profile root: exit %d, want %d", code, ExitFailure)
	}
	if code, _, _ := run(t, "validate", "--error-format", "xml", f.Dir); code != ExitFailure {
		t.Errorf("bad format: exit %d", code)
	}
	if code, _, _ := run(t, "validate"); code != ExitFailure {
		t.Errorf("no arguments: exit %d", code)
	}
	if code, _, _ := run(t, "frobnicate"); code != ExitFailure {
		t.Errorf("unknown command: exit %d", code)
	}
	if code, out, _ := run(t, "help"); code != exitOK || !strings.Contains(out, "validate") {
		t.Errorf("help: exit %d %q", code, out)
	}
}

func TestValidateFormatsAndCap(t *testing.T) {
	f := pkgtest.Sample(t, english)
	// 55 isCurrent findings, one per node.
	f.Records(t, nodesF, func(rec map[string]any) []map[string]any {
		props(rec)["isCurrent"] = "yes"
		return []map[string]any{rec}
	})
	f.Seal(t)
	code, out, _ := run(t, "validate", "--profiles", f.Profiles, "--max-findings", "3", f.Dir)
	if code != exitFindings {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || !strings.Contains(lines[3], "more findings not shown") || !strings.HasPrefix(lines[4], "FAIL") {
		t.Fatalf("text output:\n%s", out)
	}
	if !strings.Contains(lines[0], "delivery/nodes.jsonl:1: error delivery_property_decoding_error") {
		t.Errorf("text line: %q", lines[0])
	}
	_, gh, _ := run(t, "validate", "--profiles", f.Profiles, "--error-format", "github-actions", "--max-findings", "1", f.Dir)
	if !strings.HasPrefix(gh, "::error file=") || !strings.Contains(gh, ",line=1,title=delivery_property_decoding_error::") {
		t.Errorf("github-actions output: %q", gh)
	}
	code, rep := validateJSON(t, "--profiles", f.Profiles, f.Dir)
	p := rep.Packages[0]
	if code != exitFindings || p.IsValid || p.ErrorCount != 55 || len(p.Findings) != 55 || p.SnapshotID != f.Snapshot {
		t.Errorf("json: exit %d %+v", code, p)
	}
	if p.Findings[0].Line != 1 || p.Findings[0].Artifact != "nodes" || p.Findings[0].Record == "" || p.Findings[0].Stage != finding.StageDelivery {
		t.Errorf("finding fields: %+v", p.Findings[0])
	}
}

func TestListRules(t *testing.T) {
	code, out, _ := run(t, "validate", "--list-rules", "--error-format", "json")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		Rules []struct {
			Code, Stage, Severity, Summary string
		} `json:"rules"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Rules) != len(finding.Rules) {
		t.Fatalf("%d rules listed, registry has %d", len(doc.Rules), len(finding.Rules))
	}
	for _, r := range doc.Rules {
		if r.Summary == "" || (r.Severity != "error" && r.Severity != "warning") || r.Stage == "" {
			t.Errorf("incomplete rule %+v", r)
		}
	}
	_, text, _ := run(t, "validate", "--list-rules")
	if !strings.Contains(text, "hierarchy_cycle") || strings.Count(text, "\n") != len(finding.Rules) {
		t.Errorf("text rules: %d lines", strings.Count(text, "\n"))
	}
}
