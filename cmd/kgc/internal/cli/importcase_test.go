package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const importFixture = "../../../../compiler/caseimport/testdata/riverbend-science-v1p1.json"

// TestImportCaseUsage: -h lists the flags; usage errors say what is wrong.
func TestImportCaseUsage(t *testing.T) {
	code, _, errOut := run(t, "import", "case", "-h")
	if code != ExitOK || !strings.Contains(errOut, "-framework-id") || !strings.Contains(errOut, "-o string") {
		t.Errorf("import case -h: exit %d, %s", code, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"import"}, "no format given"},
		{[]string{"import", "xml"}, `unknown format "xml"`},
		{[]string{"import", "case", importFixture}, "no output directory"},
		{[]string{"import", "case", "-o", t.TempDir() + "/x"}, "no CFPackage given"},
		{[]string{"import", "case", "--format", "yaml", "-o", "x", importFixture}, `unknown --format "yaml"`},
	} {
		code, _, errOut := run(t, c.args...)
		if code != ExitFailure || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// TestImportCaseCLI imports the fixture (flags after the file), then
// refuses bad input with exit 1 and writes nothing.
func TestImportCaseCLI(t *testing.T) {
	out := filepath.Join(t.TempDir(), "imp")
	code, stdout, errOut := run(t, "import", "case", importFixture, "-o", out, "--format", "json", "--framework-id", "riverbend-science")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Written                bool           `json:"written"`
		FrameworkID            string         `json:"frameworkId"`
		NotCarriedAssociations map[string]int `json:"notCarriedAssociations"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err, stdout)
	}
	if !rep.Written || rep.FrameworkID != "riverbend-science" || rep.NotCarriedAssociations["precedes"] != 1 {
		t.Errorf("report %+v", rep)
	}
	for _, f := range []string{"export/nodes.jsonl", "export/relationships.jsonl", "profiles/riverbend-science/1.0/profile.json", "pack-spec.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	code, _, errOut = run(t, "check-profile", filepath.Join(out, "profiles/riverbend-science/1.0/profile.json"))
	if code != ExitOK {
		t.Errorf("check-profile: exit %d: %s", code, errOut)
	}
	code, _, errOut = run(t, "import", "case", "-o", out, importFixture)
	if code != ExitFailure || !strings.Contains(errOut, "not empty") {
		t.Errorf("into an existing import: exit %d, %s", code, errOut)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"CFDocument": {"identifier": "d", "uri": "u", "title": "T"}, "CFItems": [], "CFAssociations": []}`), 0o644)
	out2 := filepath.Join(t.TempDir(), "imp")
	code, stdout, _ = run(t, "import", "case", "-o", out2, bad)
	if code != ExitFindings || !strings.Contains(stdout, "case_no_items") {
		t.Errorf("bad input: exit %d, %s", code, stdout)
	}
	if _, err := os.Stat(out2); err == nil {
		t.Error("bad input wrote the output directory")
	}
}

// TestImportReportEscapesTerminalControls: item types, education levels,
// codes and identifiers of a hostile package reach the report (and its
// findings) with their escape sequences and C1 controls escaped.
func TestImportReportEscapesTerminalControls(t *testing.T) {
	b, err := os.ReadFile(importFixture)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	s = strings.Replace(s, `"CFItemType": "Domain"`, `"CFItemType": "Domain\u001b[2J\u009b31m"`, 1)
	s = strings.Replace(s, `"educationLevel": [`, `"educationLevel": ["K\u001b]0;pwned\u0007",`, 1)
	dir := t.TempDir()
	in := filepath.Join(dir, "hostile.json")
	if err := os.WriteFile(in, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, errOut := run(t, "import", "case", "-o", filepath.Join(dir, "out"), in)
	if code != ExitOK {
		t.Fatalf("exit %d: %s%s", code, stdout, errOut)
	}
	if strings.ContainsAny(stdout, "\x1b\x07\u009b") || !strings.Contains(stdout, `Domain\x1b[2J\u009b31m`) || !strings.Contains(stdout, `K\x1b]0;pwned\x07`) {
		t.Errorf("controls not escaped:\n%q", stdout)
	}
	// A finding quoting a hostile identifier.
	s = strings.Replace(string(b), `"identifier": "c0ffee00-0000-4000-8000-000000000010"`, `"identifier": "c0ffee00\u001b[2J"`, 1)
	if err := os.WriteFile(in, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ = run(t, "import", "case", "-o", filepath.Join(dir, "out2"), in)
	if code != ExitFindings || strings.Contains(stdout, "\x1b") || !strings.Contains(stdout, `c0ffee00\x1b[2J`) {
		t.Errorf("finding: exit %d, %q", code, stdout)
	}
}
