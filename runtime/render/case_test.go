package render_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/compiler/caseimport"
	"github.com/kgc-project/kgc/compiler/pack"
	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/diagram"
	"github.com/kgc-project/kgc/runtime/render"
)

// smarterBalanced imports the committed Smarter Balanced Math Content
// Specification (a real CASE package) as a new user would, packs it and
// builds it twice: with the rights the import derives (no licence stated:
// text withheld) and with full text allowed by a rights review.
func smarterBalanced(t *testing.T) (withheld, full *catalog.Package) {
	t.Helper()
	root := imgtest.RepoRoot(t)
	gz, err := os.ReadFile(filepath.Join(root, "compiler", "caseimport", "testdata", "smarter-balanced-math-content-spec.json.gz"))
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
	in := filepath.Join(dir, "sbac.json")
	if err := os.WriteFile(in, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "import")
	rep, err := caseimport.Run([]string{in}, out, caseimport.Options{})
	if err != nil || !rep.Written || len(rep.Documents) != 1 {
		t.Fatalf("import: %v %+v", err, rep)
	}
	profiles := filepath.Join(out, "profiles")
	build := func() *catalog.Package {
		b, err := os.ReadFile(filepath.Join(out, "pack-spec.json"))
		if err != nil {
			t.Fatal(err)
		}
		spec, err := pack.DecodeSpec(b, out)
		if err != nil {
			t.Fatal(err)
		}
		res, err := pack.Run(spec, pack.Options{ProfileRoot: profiles, Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatalf("pack: %v", err)
		}
		data, _ := imgtest.Build(t, res.PackageDir, profiles, "")
		images := t.TempDir()
		if err := os.WriteFile(filepath.Join(images, res.SnapshotID+".kgimg"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		return imgtest.Catalog(t, images).Packages[0]
	}
	withheld = build()
	// The review kgc review-rights records: full text allowed.
	path := filepath.Join(profiles, rep.Documents[0].FrameworkID, "1.0", "profile.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var prof map[string]any
	if err := json.Unmarshal(b, &prof); err != nil {
		t.Fatal(err)
	}
	r := prof["rights"].(map[string]any)
	r["reviewStatus"], r["allowFullText"], r["allowStandardResources"] = "approved", true, true
	prof["rightsReview"] = map[string]any{"reviewedBy": "kgc render tests", "reviewedAt": "2026-01-01T00:00:00Z"}
	if b, err = json.MarshalIndent(prof, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return withheld, build()
}

// byCode finds a standard of p by its statement code.
func byCode(t *testing.T, p *catalog.Package, code string) string {
	t.Helper()
	img := p.Img
	for n := range uint32(img.NodeCount()) {
		if img.NodeString(n, kgimg.NodeStatementCode) == code {
			return img.NodeString(n, kgimg.NodeID)
		}
	}
	t.Fatalf("no standard %s", code)
	return ""
}

// emphasis is Markdown emphasis left in place: *n*, **n**, _n_ around a word.
var emphasis = regexp.MustCompile(`\*\*?[A-Za-z0-9]+\*\*?|(^|[\s(/])_[A-Za-z0-9]+_([\s).,;/]|$)`)

// TestSmarterBalancedPictures draws a real CASE import (issue 40) as a new
// user would: its overview fits a slide (at most 1,600 px wide, at most 3:1),
// the high-school grades that hold the same standards are one column, no box
// cuts its heading, the missing licence is said once, Markdown emphasis in
// the statements shows as the words, and every standard's picture keeps the
// same rules.
func TestSmarterBalancedPictures(t *testing.T) {
	withheld, full := smarterBalanced(t)
	for _, c := range []struct {
		name string
		p    *catalog.Package
	}{{"withheld", withheld}, {"full text", full}} {
		t.Run(c.name, func(t *testing.T) {
			ov := diagram.Overview(c.p)
			var titles []string
			for _, col := range ov.Columns {
				titles = append(titles, col.Sections[0].Title)
			}
			if got := strings.Join(titles, " "); got != "03 04 05 06 07 08 09–12" {
				t.Errorf("the overview's columns are %s; want the high-school grades (09 to 12, the same standards) as one", got)
			}
			node := byCode(t, c.p, "M.G3.C1MD.TI.3.MD.C.5a")
			std, err := diagram.Standard(c.p, node)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range []*render.Diagram{ov, std} {
				svg := written(t, d, render.SVG)
				checkSVG(t, svg)
				checkHeadings(t, d, svg)
				w, h := svgSize(t, svg)
				t.Logf("%s: %gx%g", d.Title, w, h)
				checkFacts(t, d)
			}
		})
	}
	// Every standard's picture, without rendering each to PNG.
	img := full.Img
	drawn := 0
	for n := range uint32(img.NodeCount()) {
		if img.NodeKind(n) != kgimg.ItemNode {
			continue
		}
		d, err := diagram.Standard(full, img.NodeString(n, kgimg.NodeID))
		if err != nil {
			t.Fatal(err)
		}
		svg := written(t, d, render.SVG)
		if w, h := svgSize(t, svg); w > maxWidth || w/h > maxRatio {
			t.Errorf("%s: %gx%g", d.Title, w, h)
		}
		checkHeadings(t, d, svg)
		checkFacts(t, d)
		drawn++
	}
	if drawn != 585 {
		t.Errorf("%d standards drawn, want 585", drawn)
	}
	// The standard whose siblings write *n*: the words, in every format.
	std, err := diagram.Standard(full, byCode(t, full, "M.G3.C1MD.TI.3.MD.C.5b"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range render.Formats() {
		if !strings.Contains(shown(t, std, f), "by n unit squares") {
			t.Errorf("%s: the statement's *n* is not shown as n", f)
		}
	}
}

// checkFacts requires a picture of the import, in every format, to say the
// missing licence once and to show no Markdown emphasis markup.
func checkFacts(t *testing.T, d *render.Diagram) {
	t.Helper()
	for _, f := range render.Formats() {
		out := shown(t, d, f)
		if n := strings.Count(out, "not stated in the CASE package"); n != 1 {
			t.Errorf("%s, %s: \"not stated in the CASE package\" %d times, want once", d.Title, f, n)
		}
		if m := emphasis.FindString(out); m != "" {
			t.Errorf("%s, %s: Markdown emphasis shown as markup: %q", d.Title, f, m)
		}
	}
}

// shown is the text a picture shows, its lines joined by spaces: the SVG's
// text elements, the Mermaid and DOT source with their line breaks undone.
func shown(t *testing.T, d *render.Diagram, f render.Format) string {
	t.Helper()
	out := string(written(t, d, f))
	switch f {
	case render.SVG:
		dec := xml.NewDecoder(strings.NewReader(out))
		var b strings.Builder
		in := false
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			switch x := tok.(type) {
			case xml.StartElement:
				in = x.Name.Local == "text"
			case xml.EndElement:
				in = false
				b.WriteByte(' ')
			case xml.CharData:
				if in {
					b.Write(x)
				}
			}
		}
		out = b.String()
	case render.Mermaid:
		out = strings.ReplaceAll(out, "<br/>", " ")
	case render.DOT:
		out = strings.NewReplacer(`\l`, " ", `\n`, " ").Replace(out)
	}
	return strings.Join(strings.Fields(out), " ")
}
