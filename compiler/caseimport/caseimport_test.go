package caseimport_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/kgc-project/kgc/compiler/caseimport"
	"github.com/kgc-project/kgc/compiler/pack"
	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/query"
)

// TestImportEndToEnd imports real and fixture CFPackages, packs the result
// with its own spec, builds the image through the gate and finds standards
// in it by CASE UUID and URI.
func TestImportEndToEnd(t *testing.T) {
	cases := []struct {
		file, uuid, uri, code string
		items, carried        int
		publisher             map[string]int // carried as publisher relations, by type
	}{
		{file: "riverbend-science-v1p1.json", uuid: "c0ffee00-0000-4000-8000-000000000022", uri: "https://case.example.org/uri/c0ffee00-0000-4000-8000-000000000022",
			code: "RES.PS.4.1", items: 9, carried: 11, publisher: map[string]int{"precedes": 1, "isRelatedTo": 1, "exactMatchOf": 1}},
		{file: "opensalt-smartlevel.json", uuid: "00000000-0000-0000-0000-000000000003", uri: "https://server/ims/case/v1p0/CFItems/00000000-0000-0000-0000-000000000003",
			items: 14, carried: 14, publisher: map[string]int{}},
		{file: "opensalt-sequencenumber.json", uuid: "ea98ab46-c0ea-11e7-820f-a71b35976453", uri: "http://server/ims/case/v1p0/CFItems/ea98ab46-c0ea-11e7-820f-a71b35976453",
			code: "SNT.2", items: 2, carried: 2, publisher: map[string]int{}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "import")
			rep, err := caseimport.Run([]string{filepath.Join("testdata", c.file)}, out, caseimport.Options{})
			if err != nil || len(findings(rep)) > 0 || !rep.Written {
				t.Fatalf("import: %v %+v", err, findings(rep))
			}
			doc := only(t, rep)
			if doc.Items.Read != c.items || doc.Associations.Carried != c.carried {
				t.Errorf("items %d, carried associations %d; want %d, %d", doc.Items.Read, doc.Associations.Carried, c.items, c.carried)
			}
			for k, v := range c.publisher {
				if doc.CarriedAssociations[k] != v {
					t.Errorf("carried %s: %d, want %d (%v)", k, doc.CarriedAssociations[k], v, doc.CarriedAssociations)
				}
			}
			if len(doc.NotCarriedAssociations) > 0 {
				t.Errorf("not carried: %v", doc.NotCarriedAssociations)
			}
			// Only hasChild edges: no association becomes a progression.
			for _, line := range lines(t, filepath.Join(out, "export", "relationships.jsonl")) {
				if !strings.Contains(line, `"label":"hasChild"`) {
					t.Errorf("a relationship that is not hasChild: %s", line)
				}
			}
			b, err := os.ReadFile(filepath.Join(out, "pack-spec.json"))
			if err != nil {
				t.Fatal(err)
			}
			spec, err := pack.DecodeSpec(b, out)
			if err != nil {
				t.Fatal(err)
			}
			profiles := filepath.Join(out, "profiles")
			res, err := pack.Run(spec, pack.Options{ProfileRoot: profiles, Getenv: func(string) string { return "" }})
			if err != nil {
				t.Fatalf("pack: %v", err)
			}
			data, gres := imgtest.Build(t, res.PackageDir, profiles, "")
			if n := len(gres.PublisherRelations); n != doc.Associations.Publisher {
				t.Errorf("the gate read %d publisher relations, the import carried %d", n, doc.Associations.Publisher)
			}
			images := t.TempDir()
			if err := os.WriteFile(filepath.Join(images, res.SnapshotID+".kgimg"), data, 0o644); err != nil {
				t.Fatal(err)
			}
			svc := query.New(imgtest.Catalog(t, images), query.Options{})
			for _, sel := range []query.Selector{
				{IdentifierType: "case_identifier_uuid", CaseIdentifierUUID: c.uuid},
				{IdentifierType: "case_identifier_uri", CaseIdentifierURI: c.uri},
			} {
				std, err := svc.Standard(context.Background(), query.NewStandardRequest(doc.FrameworkID, sel))
				if err != nil {
					t.Fatalf("get_standard %+v: %v", sel, err)
				}
				if std.Node.CaseIdentifierUUID == nil || *std.Node.CaseIdentifierUUID != c.uuid {
					t.Errorf("found %+v, want CASE UUID %s", std.Node.CaseIdentifierUUID, c.uuid)
				}
				if c.code != "" && (std.Node.StatementCode == nil || *std.Node.StatementCode != c.code) {
					t.Errorf("statement code %v, want %s", std.Node.StatementCode, c.code)
				}
			}
		})
	}
}

// TestImportOrderAndProfile checks the sibling order (sequenceNumber, then
// listEnumeration), the orphan fallback, the grades and the rights derived
// from the fixture.
func TestImportOrderAndProfile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "import")
	rep, err := caseimport.Run([]string{filepath.Join("testdata", "riverbend-science-v1p1.json")}, out, caseimport.Options{JurisdictionType: "district"})
	if err != nil || len(findings(rep)) > 0 {
		t.Fatalf("import: %v %+v", err, findings(rep))
	}
	var targets []string
	for _, line := range lines(t, filepath.Join(out, "export", "relationships.jsonl")) {
		var r struct {
			Target     string            `json:"target_identifier"`
			Properties map[string]string `json:"properties"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r.Target == "c0ffee00-0000-4000-8000-000000000040" && r.Properties["resolutionStatus"] != "unresolvedRootFallback" {
			t.Errorf("the orphan's root edge is not a fallback: %v", r.Properties)
		}
		targets = append(targets, strings.TrimPrefix(r.Target, "c0ffee00-0000-4000-8000-0000000000"))
	}
	// Root: Physical Science (sequenceNumber 1) before Life Science (2),
	// then the orphan; under each, by sequenceNumber / listEnumeration.
	if got, want := strings.Join(targets, " "), "11 10 40 22 23 20 21 30 31"; got != want {
		t.Errorf("hasChild order %s, want %s", got, want)
	}
	if doc := only(t, rep); doc.Items.Orphans != 1 || doc.RootFallbacks != 1 {
		t.Errorf("orphans %d, fallbacks %d; want 1, 1", doc.Items.Orphans, doc.RootFallbacks)
	}
	var prof map[string]any
	b, err := os.ReadFile(filepath.Join(out, "profiles", "riverbend-elementary-science", "1.0", "profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &prof); err != nil {
		t.Fatal(err)
	}
	if r := prof["rights"].(map[string]any); r["sourceLicense"] != "CC BY 4.0" || r["allowFullText"] != true || r["reviewStatus"] != "unreviewed" {
		t.Errorf("rights %v", r)
	}
	if g := prof["gradeMappings"].([]any); len(g) != 3 {
		t.Errorf("grade mappings %v, want 03, 04, KG", g)
	}
	if cp := prof["codeSearchPolicy"].(map[string]any); cp["availability"] != "complete" {
		t.Errorf("code search %v", cp)
	}
	spec, _ := os.ReadFile(filepath.Join(out, "pack-spec.json"))
	if !strings.Contains(string(spec), `"jurisdictionType": "district"`) || !strings.Contains(string(spec), `"versionToken": "2024"`) {
		t.Errorf("pack spec %s", spec)
	}
}

func lines(t *testing.T, p string) []string {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// fixture returns the Riverbend fixture decoded, to be broken by a test.
func fixture(t *testing.T) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "riverbend-science-v1p1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v["CFPackage"].(map[string]any)
}

func write(t *testing.T, dir, name string, v any) string {
	t.Helper()
	p := filepath.Join(dir, name)
	var b []byte
	switch v := v.(type) {
	case string:
		b = []byte(v)
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func assocs(pkg map[string]any) []any { return pkg["CFAssociations"].([]any) }

func assocAt(pkg map[string]any, i int) map[string]any { return assocs(pkg)[i].(map[string]any) }

// TestImportBadInput: each bad input yields its finding (every one, when
// there are several) and writes nothing.
func TestImportBadInput(t *testing.T) {
	cases := []struct {
		name  string
		make  func(t *testing.T, dir string) []string
		codes []string
	}{
		{"not JSON", func(t *testing.T, dir string) []string {
			return []string{write(t, dir, "a.json", `{"CFDocument": `)}
		}, []string{"case_not_json"}},
		{"not CASE", func(t *testing.T, dir string) []string {
			return []string{write(t, dir, "a.json", map[string]any{"items": []any{}})}
		}, []string{"case_not_case"}},
		{"missing file", func(t *testing.T, dir string) []string {
			return []string{filepath.Join(dir, "absent.json")}
		}, []string{"case_file_unreadable"}},
		{"too large", func(t *testing.T, dir string) []string {
			p := filepath.Join(dir, "big.json")
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(caseimport.MaxFileBytes + 1); err != nil { // sparse
				t.Fatal(err)
			}
			return []string{p}
		}, []string{"case_file_too_large"}},
		{"unsupported version", func(t *testing.T, dir string) []string {
			pkg := fixture(t)
			pkg["CFDocument"].(map[string]any)["caseVersion"] = "2.0"
			return []string{write(t, dir, "a.json", pkg)}
		}, []string{"case_unsupported_version"}},
		{"no items", func(t *testing.T, dir string) []string {
			pkg := fixture(t)
			pkg["CFItems"], pkg["CFAssociations"] = []any{}, []any{}
			return []string{write(t, dir, "a.json", pkg)}
		}, []string{"case_no_items"}},
		{"missing fields", func(t *testing.T, dir string) []string {
			pkg := fixture(t)
			delete(pkg["CFItems"].([]any)[0].(map[string]any), "fullStatement")
			delete(assocAt(pkg, 0), "associationType")
			return []string{write(t, dir, "a.json", pkg)}
		}, []string{"case_missing_field", "case_missing_field"}},
		{"wrong type", func(t *testing.T, dir string) []string {
			pkg := fixture(t)
			pkg["CFItems"].([]any)[0].(map[string]any)["educationLevel"] = 3
			return []string{write(t, dir, "a.json", pkg)}
		}, []string{"case_invalid_value"}},
		{"duplicate item identifier", func(t *testing.T, dir string) []string {
			pkg := fixture(t)
			items := pkg["CFItems"].([]any)
			dup := map[string]any{}
			for k, v := range items[1].(map[string]any) {
				dup[k] = v
			}
			dup["fullStatement"], dup["notes"] = "another statement", "a note" // a clash, not a repeat
			pkg["CFItems"] = append(items, dup)
			return []string{write(t, dir, "a.json", pkg)}
		}, []string{"case_duplicate_identifier"}},
		{"duplicate association identifier", func(t *testing.T, dir string) []string {
			pkg := fixture(t)
			assocAt(pkg, 9)["identifier"] = assocAt(pkg, 8)["identifier"] // another type and ends
			return []string{write(t, dir, "a.json", pkg)}
		}, []string{"case_duplicate_identifier"}},
		{"dangling isChildOf", func(t *testing.T, dir string) []string {
			pkg := fixture(t)
			assocAt(pkg, 2)["destinationNodeURI"] = map[string]any{"identifier": "nowhere", "uri": "https://x.example/nowhere"}
			return []string{write(t, dir, "a.json", pkg)}
		}, []string{"case_association_dangling"}},
		{"dangling association", func(t *testing.T, dir string) []string {
			pkg := fixture(t)
			a := assocAt(pkg, 9) // isRelatedTo
			a["originNodeURI"] = map[string]any{"identifier": "nowhere-1"}
			a["destinationNodeURI"] = map[string]any{"identifier": "nowhere-2"}
			return []string{write(t, dir, "a.json", pkg)}
		}, []string{"case_association_dangling"}},
		{"cycle", func(t *testing.T, dir string) []string {
			pkg := fixture(t)
			// Life Science (10) isChildOf its standard 20, which isChildOf 10.
			assocAt(pkg, 0)["destinationNodeURI"] = assocAt(pkg, 2)["originNodeURI"]
			return []string{write(t, dir, "a.json", pkg)}
		}, []string{"case_hierarchy_cycle"}},
		{"self parent", func(t *testing.T, dir string) []string {
			pkg := fixture(t)
			assocAt(pkg, 6)["destinationNodeURI"] = assocAt(pkg, 6)["originNodeURI"]
			return []string{write(t, dir, "a.json", pkg)}
		}, []string{"case_hierarchy_cycle"}},
		// Typed values the importer read as absent (or as another value).
		{"typed values", func(t *testing.T, dir string) []string {
			pkg := fixture(t)
			doc := pkg["CFDocument"].(map[string]any)
			doc["licenseURI"], doc["subject"], doc["caseVersion"], doc["creator"] = 5, map[string]any{}, 1.1, []any{"x"}
			assocAt(pkg, 0)["sequenceNumber"] = "first"
			assocAt(pkg, 1)["sequenceNumber"] = 1.5
			assocAt(pkg, 2)["sequenceNumber"] = true
			pkg["CFItems"].([]any)[0].(map[string]any)["language"] = 7
			return []string{write(t, dir, "a.json", pkg)}
		}, []string{"case_invalid_value", "case_invalid_value", "case_invalid_value", "case_invalid_value",
			"case_invalid_value", "case_invalid_value", "case_invalid_value", "case_invalid_value"}},
		// A chain 24,000 deep imported into a 17.5 MB profile kgc pack refused.
		{"too deep", func(t *testing.T, dir string) []string {
			pkg := fixture(t)
			doc := pkg["CFDocument"].(map[string]any)
			items, as := []any{}, []any{}
			parent := doc["identifier"].(string)
			for i := range 24000 {
				id := fmt.Sprintf("deep-%05d", i)
				items = append(items, map[string]any{"identifier": id, "uri": "https://x.example/" + id, "fullStatement": "level " + id})
				as = append(as, map[string]any{"identifier": "a-" + id, "associationType": "isChildOf",
					"originNodeURI": map[string]any{"identifier": id, "uri": "https://x.example/" + id}, "destinationNodeURI": map[string]any{"identifier": parent}})
				parent = id
			}
			pkg["CFItems"], pkg["CFAssociations"] = items, as
			return []string{write(t, dir, "a.json", pkg)}
		}, []string{"case_hierarchy_too_deep"}},
		// A FIFO (named, or a *.json in a directory) blocked the import for
		// ever; the docs promised case_file_unreadable.
		{"FIFO", func(t *testing.T, dir string) []string {
			sub := filepath.Join(dir, "in")
			os.Mkdir(sub, 0o755)
			for _, p := range []string{filepath.Join(dir, "pipe.json"), filepath.Join(sub, "pipe.json")} {
				if err := syscall.Mkfifo(p, 0o644); err != nil {
					t.Skipf("SKIP: mkfifo: %v", err)
				}
			}
			return []string{filepath.Join(dir, "pipe.json"), sub, "/dev/zero"}
		}, []string{"case_file_unreadable", "case_file_unreadable", "case_file_unreadable"}},
		// Files together over MaxInputBytes: three of 92 MiB ran out of memory
		// at 4 GB. The third is not read.
		{"input over the total", func(t *testing.T, dir string) []string {
			var files []string
			for _, n := range []string{"a.json", "b.json", "c.json"} {
				p := filepath.Join(dir, n)
				f, err := os.Create(p)
				if err != nil {
					t.Fatal(err)
				}
				f.Truncate(92 << 20) // sparse: NUL bytes, read as not JSON
				f.Close()
				files = append(files, p)
			}
			return files
		}, []string{"case_not_json", "case_not_json", "case_file_too_large"}},
		{"all at once", func(t *testing.T, dir string) []string {
			pkg := fixture(t)
			assocAt(pkg, 6)["destinationNodeURI"] = assocAt(pkg, 6)["originNodeURI"]
			assocAt(pkg, 2)["destinationNodeURI"] = map[string]any{"identifier": "nowhere"}
			assocAt(pkg, 9)["identifier"] = assocAt(pkg, 8)["identifier"]
			return []string{write(t, dir, "a.json", pkg), write(t, dir, "b.json", "[]")}
		}, []string{"case_not_case", "case_hierarchy_cycle", "case_association_dangling", "case_duplicate_identifier"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			files := c.make(t, dir)
			out := filepath.Join(dir, "out")
			rep, err := caseimport.Run(files, out, caseimport.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, f := range findings(rep) {
				got[f.Code]++
				if f.Message == "" {
					t.Errorf("finding without a message: %+v", f)
				}
			}
			want := map[string]int{}
			for _, code := range c.codes {
				want[code]++
			}
			for code, n := range want {
				if got[code] < n {
					t.Errorf("findings %v: want %d × %s", findings(rep), n, code)
				}
			}
			if rep.Written {
				t.Error("written despite findings")
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the output exists after findings: %v", err)
			}
			if m, _ := filepath.Glob(filepath.Join(dir, ".kgc-import-*")); len(m) > 0 {
				t.Errorf("a staging directory is left: %v", m)
			}
		})
	}
}

// TestImportOutputInTheWay: a non-empty output directory is refused.
func TestImportOutputInTheWay(t *testing.T) {
	out := t.TempDir()
	write(t, out, "keep.txt", "mine")
	_, err := caseimport.Run([]string{filepath.Join("testdata", "riverbend-science-v1p1.json")}, out, caseimport.Options{})
	if !errors.Is(err, caseimport.ErrOutputExists) {
		t.Fatalf("err %v, want ErrOutputExists", err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "keep.txt")); string(b) != "mine" {
		t.Error("the existing file was touched")
	}
}

// TestStringSequenceNumbersAreReadWithAWarning: real exports (OpenSALT's
// "What Standards Could Be") write sequenceNumber as "1": it is read as the
// integer, ordering the siblings as written, and the report says so.
func TestStringSequenceNumbersAreReadWithAWarning(t *testing.T) {
	dir := t.TempDir()
	pkg := fixture(t)
	n := 0
	for _, a := range assocs(pkg) {
		a := a.(map[string]any)
		if seq, ok := a["sequenceNumber"].(float64); ok {
			a["sequenceNumber"] = fmt.Sprint(seq)
			n++
		}
	}
	out := filepath.Join(dir, "out")
	rep, err := caseimport.Run([]string{write(t, dir, "a.json", pkg)}, out, caseimport.Options{})
	if err != nil || len(findings(rep)) > 0 {
		t.Fatalf("import: %v %+v", err, findings(rep))
	}
	doc := only(t, rep)
	if len(doc.Warnings) != n || doc.Warnings[0].Code != "case_value_coerced" || !strings.Contains(doc.Warnings[0].String(), "warning case_value_coerced") {
		t.Fatalf("%d string sequence numbers, warnings %+v", n, doc.Warnings)
	}
	var targets []string
	for _, line := range lines(t, filepath.Join(out, "export", "relationships.jsonl")) {
		var r struct {
			Target string `json:"target_identifier"`
		}
		json.Unmarshal([]byte(line), &r)
		targets = append(targets, strings.TrimPrefix(r.Target, "c0ffee00-0000-4000-8000-0000000000"))
	}
	if got, want := strings.Join(targets, " "), "11 10 40 22 23 20 21 30 31"; got != want {
		t.Errorf("hasChild order %s, want %s (as with integers)", got, want)
	}
}

// TestRepeatedRecordsAreMergedAndClashesNamed: a real export repeats records
// byte for byte (the Smarter Balanced mathematics specification, two
// associations): each is kept once with a warning naming both places; a
// record whose identifier is repeated with other members is refused with
// the members that differ.
func TestRepeatedRecordsAreMergedAndClashesNamed(t *testing.T) {
	dir := t.TempDir()
	pkg := fixture(t)
	items, as := pkg["CFItems"].([]any), assocs(pkg)
	pkg["CFItems"] = append(items, items[2])
	pkg["CFAssociations"] = append(as, as[3], as[9])
	rep, err := caseimport.Run([]string{write(t, dir, "a.json", pkg)}, filepath.Join(dir, "out"), caseimport.Options{})
	if err != nil || len(findings(rep)) > 0 {
		t.Fatalf("import: %v %+v", err, findings(rep))
	}
	doc := only(t, rep)
	if doc.Items.Duplicates != 1 || doc.Associations.Duplicates != 2 || len(doc.Warnings) != 3 {
		t.Fatalf("duplicates %d items, %d associations; warnings %+v", doc.Items.Duplicates, doc.Associations.Duplicates, doc.Warnings)
	}
	w := doc.Warnings[0]
	if w.Code != "case_duplicate_merged" || w.Where != "CFItems[9]" || !strings.Contains(w.Message, "a.json CFItems[2]") {
		t.Errorf("warning %+v", w)
	}
	// A clash: the same identifier, other members.
	clash := map[string]any{}
	for k, v := range as[3].(map[string]any) {
		clash[k] = v
	}
	clash["sequenceNumber"], clash["lastChangeDateTime"] = 7, "2025-01-01T00:00:00+00:00"
	pkg["CFAssociations"] = append(as, clash)
	rep, err = caseimport.Run([]string{write(t, dir, "b.json", pkg)}, filepath.Join(dir, "out2"), caseimport.Options{})
	if err != nil || len(findings(rep)) != 1 || !strings.Contains(findings(rep)[0].Message, "differs in lastChangeDateTime, sequenceNumber") {
		t.Fatalf("clash: %v %+v", err, findings(rep))
	}
}

// TestIdentifiersDifferingByCaseResolveExactly: two items whose identifiers
// differ only by case each keep their own children (the case-folded lookup
// attached both to the last one read); a reference in another case resolves
// where it names one identifier only.
func TestIdentifiersDifferingByCaseResolveExactly(t *testing.T) {
	dir := t.TempDir()
	pkg := fixture(t)
	doc := pkg["CFDocument"].(map[string]any)["identifier"].(string)
	item := func(id string) map[string]any {
		return map[string]any{"identifier": id, "uri": "https://x.example/" + id, "fullStatement": "item " + id, "CFItemType": "Domain"}
	}
	child := func(id, parent string) map[string]any {
		return map[string]any{"identifier": "a-" + id, "associationType": "isChildOf",
			"originNodeURI": map[string]any{"identifier": id}, "destinationNodeURI": map[string]any{"identifier": parent}}
	}
	pkg["CFItems"] = []any{item("AB-1"), item("ab-1"), item("k1"), item("k2"), item("k3")}
	pkg["CFAssociations"] = []any{child("AB-1", doc), child("ab-1", doc), child("k1", "AB-1"), child("k2", "ab-1"), child("k3", "K2")}
	out := filepath.Join(dir, "out")
	rep, err := caseimport.Run([]string{write(t, dir, "a.json", pkg)}, out, caseimport.Options{})
	if err != nil || len(findings(rep)) > 0 {
		t.Fatalf("import: %v %+v", err, findings(rep))
	}
	parent := map[string]string{}
	for _, line := range lines(t, filepath.Join(out, "export", "relationships.jsonl")) {
		var r struct {
			Source string `json:"source_identifier"`
			Target string `json:"target_identifier"`
		}
		json.Unmarshal([]byte(line), &r)
		parent[r.Target] = r.Source
	}
	if parent["k1"] != "AB-1" || parent["k2"] != "ab-1" || parent["k3"] != "k2" {
		t.Errorf("parents %v", parent)
	}
}

// only returns the report's one document (failing without exactly one).
func only(t *testing.T, rep *caseimport.Report) *caseimport.Document {
	t.Helper()
	if len(rep.Documents) != 1 {
		t.Fatalf("%d documents (findings %+v)", len(rep.Documents), rep.Findings)
	}
	return rep.Documents[0]
}

// findings are the report's findings and its documents'.
func findings(rep *caseimport.Report) []caseimport.Finding {
	out := append([]caseimport.Finding{}, rep.Findings...)
	for _, d := range rep.Documents {
		out = append(out, d.Findings...)
	}
	return out
}

// TestRealExportCarriedWhole imports a real CASE export, the Smarter Balanced
// Math Content Specification (585 items, 3,367 associations), together with
// a second framework built from the Common Core items its exactMatchOf
// associations name (no published pair resolves by identifier or URI; the
// second framework carries only those targets' identity and code, not their
// text). One import writes both; one kgc pack spec packs both; the images
// answer, across the two, "what is the equivalent of M.G3.C1OA.TA.3.OA.A.1
// in the other framework?" from the publisher's own data, and the precedes
// sequence around it.
func TestRealExportCarriedWhole(t *testing.T) {
	gz, err := os.ReadFile(filepath.Join("testdata", "smarter-balanced-math-content-spec.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sbac := write(t, dir, "sbac.json", string(raw))
	// The second framework: the exactMatchOf targets in Common Core (CCSS-M).
	var pkg struct {
		CFAssociations []struct {
			AssociationType    string `json:"associationType"`
			DestinationNodeURI struct{ Identifier, URI string }
		}
	}
	if err := json.Unmarshal(raw, &pkg); err != nil {
		t.Fatal(err)
	}
	doc := "c0ffee00-ccss-4000-8000-000000000001"
	var items, as []any
	seen := map[string]bool{}
	for _, a := range pkg.CFAssociations {
		d := a.DestinationNodeURI
		const marker = ":CCSS-M:"
		i := strings.Index(d.URI, marker)
		if a.AssociationType != "exactMatchOf" || i < 0 || seen[d.Identifier] {
			continue
		}
		seen[d.Identifier] = true
		code := d.URI[i+len(marker):]
		items = append(items, map[string]any{"identifier": d.Identifier, "uri": d.URI, "humanCodingScheme": code, "CFItemType": "Standard",
			"fullStatement": "Common Core mathematics " + code + " (named by the Smarter Balanced specification; its text is not reproduced here)"})
		as = append(as, map[string]any{"identifier": "x-" + d.Identifier, "associationType": "isChildOf",
			"originNodeURI": map[string]any{"identifier": d.Identifier, "uri": d.URI}, "destinationNodeURI": map[string]any{"identifier": doc}})
	}
	ccss := write(t, dir, "ccss.json", map[string]any{"CFDocument": map[string]any{"identifier": doc, "uri": "urn:kgc-test:ccss-m-targets",
		"title": "CCSS-M items named by Smarter Balanced (built by the kgc tests)", "creator": "kgc tests"}, "CFItems": items, "CFAssociations": as})

	out := filepath.Join(dir, "import")
	rep, err := caseimport.Run([]string{sbac, ccss}, out, caseimport.Options{})
	if err != nil || len(findings(rep)) > 0 || len(rep.Documents) != 2 {
		t.Fatalf("import: %v %+v", err, findings(rep))
	}
	d := rep.Documents[0]
	want := map[string]int{"isChildOf": 570, "exactMatchOf": 914, "isRelatedTo": 1460, "precedes": 422}
	for k, v := range want {
		if d.CarriedAssociations[k] != v {
			t.Errorf("carried %s: %d, want %d", k, d.CarriedAssociations[k], v)
		}
	}
	if d.Items.Read != 585 || d.Associations.Read != 3367 || d.Associations.NotCarried != 1 || d.Associations.Publisher != 2796 {
		t.Errorf("items %d, associations %d read, %d not carried, %d publisher", d.Items.Read, d.Associations.Read, d.Associations.NotCarried, d.Associations.Publisher)
	}
	b, err := os.ReadFile(filepath.Join(out, "pack-spec.json"))
	if err != nil {
		t.Fatal(err)
	}
	specs, err := pack.DecodeSpecs(b, out)
	if err != nil || len(specs) != 2 {
		t.Fatalf("specs: %v %d", err, len(specs))
	}
	// The starter profile: grades in school order (the export first uses
	// 09, 10, 11, 12, 03, …), the CASE "Grade" type as the grade-level type.
	var prof struct {
		GradeLevelStatementTypes []string
		GradeMappings            []struct{ LocalLabel string }
	}
	pb, err := os.ReadFile(filepath.Join(out, "profiles", d.FrameworkID, "1.0", "profile.json"))
	if err != nil || json.Unmarshal(pb, &prof) != nil {
		t.Fatalf("profile: %v", err)
	}
	var labels []string
	for _, g := range prof.GradeMappings {
		labels = append(labels, g.LocalLabel)
	}
	if got := strings.Join(labels, " "); got != "03 04 05 06 07 08 09 10 11 12" || fmt.Sprint(prof.GradeLevelStatementTypes) != "[Grade]" {
		t.Errorf("grades %s, grade-level types %v", got, prof.GradeLevelStatementTypes)
	}
	profiles, images := filepath.Join(out, "profiles"), t.TempDir()
	for i, spec := range specs {
		res, err := pack.Run(spec, pack.Options{ProfileRoot: profiles, Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatalf("pack: %v", err)
		}
		// createdAt: the CFDocument's lastChangeDateTime (was 1970-01-01).
		if i == 0 && (res.CreatedAtSource == "default" || res.CreatedAt == pack.DefaultCreatedAt) {
			t.Errorf("createdAt %s (%s)", res.CreatedAt, res.CreatedAtSource)
		}
		data, _ := imgtest.Build(t, res.PackageDir, profiles, "")
		if err := os.WriteFile(filepath.Join(images, res.SnapshotID+".kgimg"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat := imgtest.Catalog(t, images)
	// The publisher's sequenceNumbers order the siblings that have them
	// (204 of the 570 isChildOf): those parents' order rests on them.
	bases := map[kgimg.ChildOrder]int{}
	for _, p := range cat.Packages {
		if p.FrameworkID() == d.FrameworkID {
			for n := 0; n < p.Img.NodeCount(); n++ {
				bases[p.Img.ChildOrder(uint32(n))]++
			}
		}
	}
	if bases[kgimg.OrderPublisher] == 0 || bases[kgimg.OrderCode] == 0 {
		t.Errorf("child order bases %v: want some publisher, some code", bases)
	}
	// The document's top level (the grades, an uncoded grouping and items
	// the export leaves under the document) by the codes beneath them: the
	// grades first, in school order.
	for _, p := range cat.Packages {
		if p.FrameworkID() != d.FrameworkID {
			continue
		}
		img := p.Img
		root := img.RootNode()
		kids, _ := img.Adjacency(kgimg.HasChild, kgimg.Out).Row(root)
		var top []string
		for i := range min(kids.Len(), 7) {
			top = append(top, img.NodeString(kids.At(i), kgimg.NodeStatementCode))
		}
		if img.ChildOrder(root) != kgimg.OrderCodesBelow || strings.Join(top, " ") != "M.G3 M.G4 M.G5 M.G6 M.G7 M.G8 M.GHS" {
			t.Errorf("top level %v, ordered by %s", top, img.ChildOrder(root))
		}
	}
	svc := query.New(cat, query.Options{})
	ctx := context.Background()
	hit, err := svc.SearchStandards(ctx, query.NewCodeSearchRequest(query.SearchCodeExact, "M.G3.C1OA.TA.3.OA.A.1", d.FrameworkID))
	if err != nil || len(hit.Page.Hits) != 1 {
		t.Fatalf("search: %v %+v", err, hit)
	}
	r := query.NewPublisherRelationsRequest(d.FrameworkID, query.Selector{IdentifierType: "node_id", NodeID: hit.Page.Hits[0].Node.NodeID})
	r.SequenceDepth = 2
	res, err := svc.PublisherRelations(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	var match *query.EndStandard
	for _, x := range res.Relations {
		if x.AssociationType == "exactMatchOf" && x.Other.External != nil && deref(x.Other.External.Code) == "3.OA.A.1" && len(x.Other.Matches) == 1 {
			match = &x.Other.Matches[0]
		}
	}
	if match == nil || match.FrameworkID != rep.Documents[1].FrameworkID || deref(match.StatementCode) != "3.OA.A.1" {
		t.Fatalf("no served exactMatchOf 3.OA.A.1: %+v", res.Relations)
	}
	if res.Sequence == nil || len(res.Sequence.Before)+len(res.Sequence.After) == 0 {
		t.Errorf("no precedes sequence around it: %+v", res.Sequence)
	}
	// A comparison of the two lists the alignment first, though the text
	// search finds the statement in the Smarter Balanced framework only.
	cmp, err := svc.CompareFrameworkEvidence(ctx, query.NewCompareRequest("interpret products of whole numbers", d.FrameworkID, match.FrameworkID))
	if err != nil || cmp.PublisherAlignments == nil || cmp.PublisherAlignments.Alignments[0].AssociationType != "exactMatchOf" ||
		deref(cmp.PublisherAlignments.Alignments[0].Destination.StatementCode) != "3.OA.A.1" {
		t.Errorf("comparison alignments: %v %+v", err, cmp)
	}
	// From the other side: incoming, asserted by the Smarter Balanced snapshot.
	back, err := svc.PublisherRelations(ctx, query.NewPublisherRelationsRequest(match.FrameworkID, query.Selector{IdentifierType: "node_id", NodeID: match.NodeID}))
	if err != nil || len(back.Relations) == 0 || back.Relations[0].Direction != "incoming" || !strings.HasPrefix(back.Relations[0].AssertedIn, d.FrameworkID+"@") {
		t.Fatalf("incoming: %v %+v", err, back)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestIdentifiersAreCheckedAsThePackageFormatChecksThem: the importer
// measures identifiers in characters, as the gate does (an identifier of
// 500 CJK characters, 1,500 bytes, imports; it was refused as "1500
// characters"), and refuses at import what the gate would refuse in the
// package (a control character).
func TestIdentifiersAreCheckedAsThePackageFormatChecksThem(t *testing.T) {
	dir := t.TempDir()
	pkg := fixture(t)
	doc := pkg["CFDocument"].(map[string]any)["identifier"].(string)
	item := func(id string) map[string]any {
		return map[string]any{"identifier": id, "uri": "https://x.example/item", "fullStatement": "item", "CFItemType": "Domain"}
	}
	child := func(id string) map[string]any {
		return map[string]any{"identifier": "a-" + id, "associationType": "isChildOf",
			"originNodeURI": map[string]any{"identifier": id}, "destinationNodeURI": map[string]any{"identifier": doc}}
	}
	long := strings.Repeat("中", 500)
	pkg["CFItems"] = []any{item(long)}
	pkg["CFAssociations"] = []any{child(long)}
	if rep, err := caseimport.Run([]string{write(t, dir, "a.json", pkg)}, filepath.Join(dir, "a"), caseimport.Options{}); err != nil || len(findings(rep)) > 0 {
		t.Fatalf("a 500-character identifier: %v %+v", err, findings(rep))
	}
	pkg["CFItems"] = []any{item("k1\x7f")}
	pkg["CFAssociations"] = []any{child("k1\x7f")}
	rep, _ := caseimport.Run([]string{write(t, dir, "b.json", pkg)}, filepath.Join(dir, "b"), caseimport.Options{})
	var codes []string
	for _, f := range findings(rep) {
		codes = append(codes, f.Code)
	}
	if !slices.Contains(codes, "case_identifier_invalid") {
		t.Errorf("an identifier with a control character: findings %v, want %s", codes, "case_identifier_invalid")
	}
	if _, err := os.Stat(filepath.Join(dir, "b")); !os.IsNotExist(err) {
		t.Errorf("a refused import wrote its output: %v", err)
	}
}

// TestLargeSequenceNumbersAreKeptExactly: a sequenceNumber past 2^53 is
// written as published (it was read through a float64 and came out one
// less), and orders its siblings by its exact value.
func TestLargeSequenceNumbersAreKeptExactly(t *testing.T) {
	dir := t.TempDir()
	body, err := os.ReadFile(filepath.Join("testdata", "riverbend-science-v1p1.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Rewrite the JSON text itself: a decoded map would hold a float64.
	published := map[string]bool{}
	re := regexp.MustCompile(`"sequenceNumber":\s*(\d+)`)
	body = re.ReplaceAllFunc(body, func(m []byte) []byte {
		v := fmt.Sprintf("%d", int64(1)<<60+int64(2*len(published)+1)) // odd: no float64 holds it
		published[v] = true
		return []byte(`"sequenceNumber": ` + v)
	})
	if len(published) == 0 {
		t.Fatal("the fixture has no sequenceNumber")
	}
	out := filepath.Join(dir, "out")
	rep, err := caseimport.Run([]string{write(t, dir, "a.json", string(body))}, out, caseimport.Options{})
	if err != nil || len(findings(rep)) > 0 {
		t.Fatalf("import: %v %+v", err, findings(rep))
	}
	seen := 0
	for _, line := range lines(t, filepath.Join(out, "export", "relationships.jsonl")) {
		if m := regexp.MustCompile(`"sequenceNumber":"(\d+)"`).FindStringSubmatch(line); m != nil {
			seen++
			if !published[m[1]] {
				t.Errorf("sequenceNumber written as %s, which the export does not hold", m[1])
			}
		}
	}
	if seen == 0 {
		t.Error("no sequenceNumber written")
	}
}

// TestBadOptionsAreFindingsAboutTheWholeInput: an option the package
// format does not take is one finding about the input (not one per
// CFDocument, found after each was built), and nothing is written.
func TestBadOptionsAreFindingsAboutTheWholeInput(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "a.json", fixture(t))
	for _, o := range []caseimport.Options{{ProfileVersion: "BAD VERSION"}, {VersionToken: "x y"}, {CreatedAt: "yesterday"}, {FrameworkID: "X"}} {
		out := filepath.Join(dir, "out")
		rep, err := caseimport.Run([]string{in}, out, o)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Findings) != 1 || rep.Findings[0].Code != "case_invalid_value" || !strings.HasPrefix(rep.Findings[0].Where, "--") {
			t.Errorf("%+v: findings %+v", o, rep.Findings)
		}
		for _, d := range rep.Documents {
			if len(d.Findings) > 0 || d.Written {
				t.Errorf("%+v: document findings %+v, written %v", o, d.Findings, d.Written)
			}
		}
		if rep.Written {
			t.Errorf("%+v: written", o)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%+v: output exists (%v)", o, err)
		}
	}
}
