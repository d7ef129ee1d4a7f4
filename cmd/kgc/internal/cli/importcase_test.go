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
	if code != exitOK || !strings.Contains(errOut, "-framework-id") || !strings.Contains(errOut, "-o string") {
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
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Written   bool `json:"written"`
		Documents []struct {
			FrameworkID         string         `json:"frameworkId"`
			CarriedAssociations map[string]int `json:"carriedAssociations"`
		} `json:"documents"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err, stdout)
	}
	if !rep.Written || len(rep.Documents) != 1 || rep.Documents[0].FrameworkID != "riverbend-science" || rep.Documents[0].CarriedAssociations["precedes"] != 1 {
		t.Errorf("report %+v", rep)
	}
	for _, f := range []string{"export/nodes.jsonl", "export/relationships.jsonl", "profiles/riverbend-science/1.0/profile.json", "pack-spec.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	code, _, errOut = run(t, "check-profile", filepath.Join(out, "profiles/riverbend-science/1.0/profile.json"))
	if code != exitOK {
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
	if code != exitFindings || !strings.Contains(stdout, "case_no_items") {
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
	if code != exitOK {
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
	if code != exitFindings || strings.Contains(stdout, "\x1b") || !strings.Contains(stdout, `c0ffee00\x1b[2J`) {
		t.Errorf("finding: exit %d, %q", code, stdout)
	}
}

// TestImportBulkExport: a JSON list of CFPackages (a bulk export) was
// refused as "not a JSON object". Every CFDocument is imported as its own
// framework in one command; one with findings is refused (nothing of it
// written) and named, exit 1; the others' pack spec (an array) packs every
// one with one kgc pack, and kgc build builds them.
func TestImportBulkExport(t *testing.T) {
	b, err := os.ReadFile(importFixture)
	if err != nil {
		t.Fatal(err)
	}
	variant := func(prefix, title string) string {
		s := strings.ReplaceAll(string(b), "c0ffee00-0000-4000-8000-0000000000", prefix)
		return strings.ReplaceAll(s, "Riverbend Elementary Science", title)
	}
	var bulk []json.RawMessage
	for _, s := range []string{string(b), variant("decade00-0000-4000-8000-0000000000", "Riverbend Middle Science"),
		variant("0badbad0-0000-4000-8000-0000000000", "Riverbend Broken Science")} {
		bulk = append(bulk, json.RawMessage(s))
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "bulk.json")
	data, _ := json.Marshal(bulk)
	out := filepath.Join(dir, "imp")
	// Refuse the third: make one of its items its own parent.
	var pkgs []map[string]any
	json.Unmarshal(data, &pkgs)
	as := pkgs[2]["CFPackage"].(map[string]any)["CFAssociations"].([]any)
	as[0].(map[string]any)["destinationNodeURI"] = as[0].(map[string]any)["originNodeURI"]
	data, _ = json.Marshal(pkgs)
	os.WriteFile(in, data, 0o644)

	code, stdout, errOut := run(t, "import", "case", "-o", out, in)
	if code != exitFindings || !strings.Contains(errOut, "1 of 3 documents refused") ||
		!strings.Contains(stdout, `REFUSED "Riverbend Broken Science"`) || !strings.Contains(stdout, "case_hierarchy_cycle") ||
		!strings.Contains(stdout, `imported "Riverbend Middle Science"`) {
		t.Fatalf("exit %d\n%s%s", code, stdout, errOut)
	}
	for _, f := range []string{"export/riverbend-elementary-science/nodes.jsonl", "export/riverbend-middle-science/relationships.jsonl",
		"profiles/riverbend-middle-science/1.0/profile.json", "pack-spec.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "export/riverbend-broken-science")); err == nil {
		t.Error("the refused document was written")
	}
	code, stdout, errOut = run(t, "pack", "--profiles", filepath.Join(out, "profiles"), "--spec", filepath.Join(out, "pack-spec.json"))
	var results []struct {
		Outcome string `json:"outcome"`
	}
	if err := json.Unmarshal([]byte(stdout), &results); code != exitOK || err != nil || len(results) != 2 || results[0].Outcome != "created" {
		t.Fatalf("pack: exit %d %v\n%s%s", code, err, stdout, errOut)
	}
	pkgDirs, _ := filepath.Glob(filepath.Join(out, "packages", "*", "*"))
	code, stdout, errOut = run(t, append([]string{"build", "--profiles", filepath.Join(out, "profiles"), "-o", filepath.Join(dir, "images")}, pkgDirs...)...)
	if code != exitOK || len(pkgDirs) != 2 || strings.Count(stdout, "ok ") != 2 {
		t.Fatalf("build: exit %d, %v\n%s%s", code, pkgDirs, stdout, errOut)
	}
}

// TestReviewRightsInOneStep: the rights of an imported, unreviewed profile
// are reviewed with one command (no hand-edited JSON): the profile keeps its
// members' order, records who and when, passes the checker, and the package
// packed from it carries the reviewed rights; a review that would not pass is
// refused and writes nothing.
func TestReviewRightsInOneStep(t *testing.T) {
	out := filepath.Join(t.TempDir(), "imp")
	if code, _, errOut := run(t, "import", "case", "-o", out, importFixture); code != exitOK {
		t.Fatalf("import: %s", errOut)
	}
	prof := filepath.Join(out, "profiles/riverbend-elementary-science/1.0/profile.json")
	before, _ := os.ReadFile(prof)
	code, stdout, errOut := run(t, "review-rights", "--status", "nonsense", "--by", "R. Reviewer", prof)
	if after, _ := os.ReadFile(prof); code != exitFindings || string(after) != string(before) || !strings.Contains(errOut, "rights.reviewStatus") {
		t.Fatalf("a bad review: exit %d, %s%s", code, stdout, errOut)
	}
	if code, _, errOut := run(t, "review-rights", prof); code != ExitFailure || !strings.Contains(errOut, "--by is required") {
		t.Errorf("no reviewer: exit %d, %s", code, errOut)
	}
	code, stdout, errOut = run(t, "review-rights", "--by", "R. Reviewer", "--at", "2026-12-06", "--derivatives", "allowed", "--note", "CC BY 4.0 confirmed", prof)
	if code != exitOK || !strings.Contains(stdout, "pack the package again") {
		t.Fatalf("review: exit %d, %s%s", code, stdout, errOut)
	}
	after, _ := os.ReadFile(prof)
	var p struct {
		Rights       map[string]any
		RightsReview map[string]any
	}
	json.Unmarshal(after, &p)
	if p.Rights["reviewStatus"] != "approved" || p.Rights["allowGeneratedDerivatives"] != "allowed" || p.RightsReview["reviewedBy"] != "R. Reviewer" ||
		p.RightsReview["reviewedAt"] != "2026-12-06" || p.RightsReview["note"] != "CC BY 4.0 confirmed" {
		t.Errorf("profile rights %v, review %v", p.Rights, p.RightsReview)
	}
	// Only the rights changed, and the review was added at the end.
	if !strings.HasPrefix(string(after), string(before[:strings.Index(string(before), `"rights"`)])) {
		t.Error("the members before the rights changed")
	}
	if code, _, errOut := run(t, "check-profile", prof); code != exitOK {
		t.Errorf("check-profile: %s", errOut)
	}
	code, stdout, errOut = run(t, "pack", "--profiles", filepath.Join(out, "profiles"), "--spec", filepath.Join(out, "pack-spec.json"))
	if code != exitOK {
		t.Fatalf("pack: %s%s", stdout, errOut)
	}
	m, _ := filepath.Glob(filepath.Join(out, "packages", "*", "*", "package_manifest.json"))
	mb, _ := os.ReadFile(m[0])
	if !strings.Contains(string(mb), `"reviewStatus": "approved"`) && !strings.Contains(string(mb), `"reviewStatus":"approved"`) {
		t.Errorf("the package's rights are not the reviewed ones")
	}
}
