package query

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
)

var updateFormat1 = flag.Bool("update-format1", false, "rewrite testdata/format1/answers.txtar from the format 1 fixture")

// format1Calls are replayed on the format 1 fixture: the package's
// framework, standards by code and by text, hierarchy, learning components,
// progressions and the statistics that read the progression summary.
var format1Calls = []struct{ tool, args string }{
	{"get_capabilities", `{}`},
	{"list_frameworks", `{}`},
	{"get_framework", `{"request":{"frameworkId":"kgc-format1-fixture"}}`},
	{"get_framework_statistics", `{"request":{"frameworkId":"kgc-format1-fixture"}}`},
	{"search_standards", `{"request":{"frameworkIds":["kgc-format1-fixture"],"mode":"text","query":"count shapes","match":{"matchMode":"tokens","operator":"any"},"localGradeLabels":["grade one"]}}`},
	{"search_standards", `{"request":{"frameworkIds":["kgc-format1-fixture"],"mode":"code_prefix","query":"F2.1"}}`},
	{"get_standard", `{"request":{"frameworkId":"kgc-format1-fixture","identifier":{"identifierType":"node_id","nodeId":"3c05d5d4-43f6-51a4-bdce-d972992594d0"}}}`},
	{"get_standard_context", `{"request":{"frameworkId":"kgc-format1-fixture","nodeId":"7e32315f-ee6f-5963-9d96-0792c9cf703a"}}`},
	{"get_learning_components_for_standard", `{"request":{"frameworkId":"kgc-format1-fixture","identifier":{"identifierType":"node_id","nodeId":"c8051993-377f-53e0-a4e8-fe8584315ae7"}}}`},
	{"search_learning_components", `{"request":{"frameworkIds":["kgc-format1-fixture"],"mode":"learning_component_text","query":"count","match":{"matchMode":"tokens","operator":"any"}}}`},
	{"get_standard_progressions", `{"request":{"frameworkId":"kgc-format1-fixture","identifier":{"identifierType":"statement_code","statementCode":"F1.1.1.1"}}}`},
	{"search_learning_progressions", `{"request":{"frameworkId":"kgc-format1-fixture","localGradeLabels":["GRADE TWO"]}}`},
	{"traverse_learning_progressions", `{"request":{"frameworkId":"kgc-format1-fixture","identifier":{"identifierType":"statement_code","statementCode":"F1.1.1.1"}}}`},
}

// format1Resources are read on the format 1 fixture: the progression summary
// and the exact manifest and profile bytes.
var format1Resources = []string{
	"kgfegmcp://framework/kgc-format1-fixture/snapshot/kgc-format1-fixture%402026%2B0e56f30a2bca/learning-progressions",
	"kgfegmcp://framework/kgc-format1-fixture/snapshot/kgc-format1-fixture%402026%2B0e56f30a2bca/manifest",
	"kgfegmcp://framework/kgc-format1-fixture/snapshot/kgc-format1-fixture%402026%2B0e56f30a2bca/interpretation-profile",
}

// TestFormat1ImagesAnswerAsBefore opens an image the last format 1 compiler
// wrote (testdata/format1/fixture.kgimg.gz: a small generated package with
// codes, learning components and progressions, with its empty Policy table
// and its JSON progression summary, both gone from format 2) and requires the
// answers that compiler's server gave (answers.txtar, recorded with it), byte
// for byte. And an early format 1 image, written before images carried the
// compiled profile and manifest, is refused with ErrUnsupportedVersion and a
// word to rebuild: nothing is compiled at open any more.
func TestFormat1ImagesAnswerAsBefore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gunzip(t, "testdata/format1/fixture.kgimg.gz", filepath.Join(dir, "fixture.kgimg"))
	cat := imgtest.Catalog(t, dir)
	if v := cat.Packages[0].Img.Header().Version; v != 1 {
		t.Fatalf("the fixture is format %d, want 1", v)
	}
	if err := cat.Packages[0].Img.VerifyDeep(); err != nil {
		t.Fatalf("VerifyDeep refused the format 1 image: %v", err)
	}
	replayFixture(t, cat, format1Calls, format1Resources, "testdata/format1/answers.txtar", updateFormat1,
		"Answers of the server that read format 1, to the calls of TestFormat1ImagesAnswerAsBefore\non testdata/format1/fixture.kgimg.gz (canonical JSON, or the error).\n")

	early := filepath.Join(t.TempDir(), "without-compiled.kgimg")
	gunzip(t, "testdata/format1/without-compiled.kgimg.gz", early)
	_, err := catalog.Open([]string{early}, catalog.PolicyFail, nil)
	if !errors.Is(err, kgimg.ErrUnsupportedVersion) || !bytes.Contains([]byte(err.Error()), []byte("rebuild it with kgc build")) {
		t.Errorf("an early format 1 image: %v, want ErrUnsupportedVersion saying to rebuild", err)
	}

	// Written by kgc at 593fbe3: compiled profile and manifest, but its
	// progression summary only in the JSON form format 2 dropped. Refused
	// at open (it served no progressions through kgimg.Open before).
	summaryless := filepath.Join(t.TempDir(), "without-compiled-summary.kgimg")
	gunzip(t, "testdata/format1/without-compiled-summary.kgimg.gz", summaryless)
	if _, err := kgimg.Open(summaryless); !errors.Is(err, kgimg.ErrUnsupportedVersion) || !bytes.Contains([]byte(err.Error()), []byte("rebuild it with kgc build")) {
		t.Errorf("a format 1 image without the compiled progression summary: %v, want ErrUnsupportedVersion saying to rebuild", err)
	}
}

// replayFixture makes calls and reads resources on cat and requires the
// answers recorded in golden, byte for byte (update rewrites it).
func replayFixture(t *testing.T, cat *catalog.Catalog, calls []struct{ tool, args string }, resources []string, golden string, update *bool, comment string) {
	t.Helper()
	svc := New(cat, Options{})
	got := &txtar.Archive{Comment: []byte(comment)}
	for _, c := range calls {
		out, err := svc.Call(context.Background(), c.tool, json.RawMessage(c.args))
		got.Files = append(got.Files, txtar.File{Name: c.tool + " " + c.args, Data: []byte(encodeResult(t, out, err) + "\n")})
	}
	for _, uri := range resources {
		r, err := svc.ReadResource(context.Background(), uri)
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		got.Files = append(got.Files, txtar.File{Name: "read " + uri, Data: append(bytes.TrimSuffix(r.Data, []byte("\n")), '\n')})
	}
	if *update {
		if err := os.WriteFile(golden, txtar.Format(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	want := txtar.Parse(data)
	if len(want.Files) != len(got.Files) {
		t.Fatalf("%s has %d answers, the test makes %d calls (-update-format1 / -update-format2 rewrite it)", golden, len(want.Files), len(got.Files))
	}
	for i, w := range want.Files {
		if g := got.Files[i]; g.Name != w.Name || !bytes.Equal(g.Data, w.Data) {
			t.Errorf("%s:\ngot  %.600s\nwant %.600s", g.Name, g.Data, w.Data)
		}
	}
}

func gunzip(t *testing.T, from, to string) {
	t.Helper()
	f, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
