package render_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/runtime/diagram"
	"github.com/kgc-project/kgc/runtime/query"
	"github.com/kgc-project/kgc/runtime/render"
)

var update = flag.Bool("update", false, "rewrite the golden pictures in testdata/")

// wideSpec is a package past every bound (13 grades, 13 strands a grade, 9
// indicators a standard, components) whose rights withhold full text.
func wideSpec() pkggen.Spec {
	return pkggen.Spec{
		FrameworkID: "kgc-render-wide", VersionToken: "2026", Name: "kgc Render Bounds Sample", Subject: "Mathematics",
		Jurisdiction: "Sampleland", Authority: "kgc project (test)",
		GradeLabels: []string{"G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8", "G9", "G10", "G11", "G12", "G13"},
		Strands:     13, Standards: 1, Indicators: 9, Codes: true, CodePrefix: "W", Components: true,
		DenyFullText: true, NoPromptConfig: true,
		Topics: []string{"secret topic alpha", "secret topic beta", "secret topic gamma"},
		Verbs:  []string{"Withheld"},
	}
}

// TestRender builds the shipped samples and the wide package once and runs
// every check over them.
func TestRender(t *testing.T) {
	dir := imgtest.Images(t, []pkggen.Spec{wideSpec()}, nil)
	svc := query.New(imgtest.Catalog(t, dir), query.Options{})
	t.Run("Samples", func(t *testing.T) { testSamples(t, svc) })
	t.Run("BoundsAndRights", func(t *testing.T) { testBoundsAndRights(t, svc) })
	t.Run("HostileLabels", testHostileLabels)
}

// golden compares got with testdata/name (rewriting it under -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./runtime/render -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (%d bytes, want %d); rerun with -update and review the diff", name, len(got), len(want))
	}
}

// docCopy keeps the example pictures of docs/render.md equal to the golden
// files (-update rewrites them too).
func docCopy(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "docs", "render", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
		t.Errorf("docs/render/%s is not the current picture (%v); rerun with -update", name, err)
	}
}

type renderCase struct {
	name      string
	framework string
	node      string // "" for the overview
}

// cases are the pictures checked against golden files: a standard and the
// overview of each sample, and of the wide package an indicator (siblings
// over the bound), its content standard (children over the bound) and the
// overview (grades and strands over the bounds).
func cases(t *testing.T, svc *query.Service) []renderCase {
	eng, maths, wide := pkggen.Shipped()[0], pkggen.Shipped()[1], wideSpec()
	indicator := pkggen.NodeID(wide, 1, 2, 0, 4)
	ctx, err := svc.StandardContext(context.Background(), query.NewContextRequest(wide.FrameworkID, indicator))
	if err != nil || len(ctx.DirectParents.Neighbors) != 1 {
		t.Fatalf("the wide indicator's parent: %v", err)
	}
	return []renderCase{
		{"maths-standard", maths.FrameworkID, pkggen.NodeID(maths, 1, 0, 1, 1)},
		{"maths-overview", maths.FrameworkID, ""},
		{"english-standard", eng.FrameworkID, pkggen.NodeID(eng, 0, 1, 0, 1)},
		{"english-overview", eng.FrameworkID, ""},
		{"wide-indicator", wide.FrameworkID, indicator},
		{"wide-standard", wide.FrameworkID, ctx.DirectParents.Neighbors[0].NodeID},
		{"wide-overview", wide.FrameworkID, ""},
	}
}

func draw(t *testing.T, svc *query.Service, c renderCase) *render.Diagram {
	t.Helper()
	for _, p := range svc.Catalog().Packages {
		if p.FrameworkID() != c.framework {
			continue
		}
		if c.node == "" {
			return diagram.Overview(p)
		}
		d, err := diagram.Standard(p, c.node)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	t.Fatalf("no package of %s", c.framework)
	return nil
}

// Every case in every format: the golden bytes, the same bytes twice, and
// each format's checks.
func testSamples(t *testing.T, svc *query.Service) {
	for _, c := range cases(t, svc) {
		t.Run(c.name, func(t *testing.T) {
			d := draw(t, svc, c)
			for _, f := range render.Formats() {
				var a, b bytes.Buffer
				if err := render.Write(&a, d, f); err != nil {
					t.Fatal(err)
				}
				render.Write(&b, draw(t, svc, c), f)
				if !bytes.Equal(a.Bytes(), b.Bytes()) {
					t.Errorf("%s: two renders differ", f)
				}
				ext := map[render.Format]string{render.SVG: "svg", render.Mermaid: "mmd", render.DOT: "dot"}[f]
				golden(t, c.name+"."+ext, a.Bytes())
				if f == render.SVG && strings.HasPrefix(c.name, "maths-") {
					docCopy(t, c.name+".svg", a.Bytes())
				}
				switch f {
				case render.SVG:
					checkSVG(t, a.Bytes())
					checkHeadings(t, d, a.Bytes())
				case render.Mermaid:
					checkMermaid(t, a.Bytes())
				case render.DOT:
					checkDOT(t, a.Bytes())
				}
			}
		})
	}
}

// The bounds cut the wide package's lists into "+k more" boxes, and its
// rights keep every statement text out of every format.
func testBoundsAndRights(t *testing.T, svc *query.Service) {
	wide := wideSpec()
	node := pkggen.NodeID(wide, 1, 2, 0, 4)
	std, err := svc.Standard(context.Background(), query.NewStandardRequest(wide.FrameworkID, query.ByNodeID(node)))
	if err != nil {
		t.Fatal(err)
	}
	if std.Node.Description == nil || *std.Node.Description == "" {
		t.Fatal("the tool returns no statement text to compare with")
	}
	all := cases(t, svc)
	for _, c := range all[4:] {
		d := draw(t, svc, c)
		for _, f := range render.Formats() {
			var b bytes.Buffer
			render.Write(&b, d, f)
			out := b.String()
			if strings.Contains(out, "secret topic") || strings.Contains(out, *std.Node.Description) {
				t.Errorf("%s %s shows statement text the rights withhold", c.name, f)
			}
			if !strings.Contains(out, "Statement text withheld") {
				t.Errorf("%s %s does not say the text is withheld", c.name, f)
			}
		}
	}
	for i, wants := range map[int][]string{
		4: {"+1 more siblings before", "+1 more siblings after", "Bounds: at most"},
		5: {"+1 more children", "Bounds: at most"},
		6: {"+1 more strands", "+1 more grades not drawn: G13."},
	} {
		var b bytes.Buffer
		render.Write(&b, draw(t, svc, all[i]), render.Mermaid)
		for _, want := range wants {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s lacks %q", all[i].name, want)
			}
		}
	}
}

// Labels that try to break out of their strings stay inside them, and
// statements (untrusted: markup, script, bidirectional controls, Markdown)
// show as text.
func testHostileLabels(t *testing.T) {
	hostile := "x\"]) --> evil[\"<script>alert(1)</script> & #quot; \\n `tick` {b} | ; %% \x00\x1b \xff end" +
		" %%%{init: {'theme':'dark'}}%%% %%{init: {\"securityLevel\":\"loose\"}}%% \u2028A-->B" +
		" \u202eevil\u202c \u2066x\u2069 \u200f *<b>bold</b>* _<i>x</i>_ &amp; &lt;"
	d := &render.Diagram{Title: hostile, Subtitle: hostile, Notes: []string{hostile},
		Columns: []render.Column{
			{Sections: []render.Section{{Title: hostile, Nodes: []render.Node{{ID: "a", Kind: render.Grouping, Heading: hostile, Text: hostile, Detail: hostile}}}}},
			{Sections: []render.Section{{Title: "b", Nodes: []render.Node{{ID: "b", Kind: render.Focus, Heading: hostile, Text: strings.Repeat("word ", 200)}}}}},
		},
		Edges: []render.Edge{{From: "a", To: "b", Kind: render.BuildsTowards}, {From: "b", To: "a", Kind: render.RelatesTo}},
	}
	checkSVG(t, written(t, d, render.SVG))
	checkMermaid(t, written(t, d, render.Mermaid))
	checkDOT(t, written(t, d, render.DOT))
	if s := string(written(t, d, render.SVG)); strings.Contains(s, "<script") {
		t.Error("the SVG holds a script element")
	}
	// Markup and entities are text: escaped once more, never interpreted;
	// Markdown emphasis around markup drops its asterisks, not its escapes.
	svg := string(written(t, d, render.SVG))
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt; &amp; #quot;", "&lt;b&gt;bold&lt;/b&gt;", "&amp;amp; &amp;lt;", `\u202eevil\u202c \u2066x\u2069 \u200f`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	for _, f := range render.Formats() {
		out := string(written(t, d, f))
		if i := strings.IndexFunc(out, func(r rune) bool {
			return r == 0x061C || r == 0x200E || r == 0x200F || 0x202A <= r && r <= 0x202E || 0x2066 <= r && r <= 0x2069
		}); i >= 0 {
			t.Errorf("%s holds a bidirectional control (%q): it would reorder what is shown", f, out[i:min(len(out), i+12)])
		}
	}
}

// Markdown inline emphasis is shown as its words; a delimiter that pairs with
// nothing stays.
func TestPlain(t *testing.T) {
	for in, want := range map[string]string{
		"by *n* unit squares":                   "by n unit squares",
		"a fraction *a*/*b* with *a* > 1":       "a fraction a/b with a > 1",
		"1/*b*.":                                "1/b.",
		"**bold** and __strong__ and _it_":      "bold and strong and it",
		"***both*** and **nested *inner* end**": "both and nested inner end",
		"6 * 4 = 24 and 2 * 3":                  "6 * 4 = 24 and 2 * 3",
		"*X Vector and Matrix Quantities":       "*X Vector and Matrix Quantities",
		"snake_case_name and x_1":               "snake_case_name and x_1",
		`a literal \*star\* and \_under\_`:      "a literal *star* and _under_",
		"*<script>x</script>*":                  "<script>x</script>",
		"*For example, 8 × ? = 48, 5 = _ ÷ 3.*": "For example, 8 × ? = 48, 5 = _ ÷ 3.",
		"no emphasis at all":                    "no emphasis at all",
		"**unclosed and *closed*":               "**unclosed and closed",
		"*a _b* c_":                             "a _b c_",
		"_a *b_ c*":                             "a *b c*",
	} {
		if got := render.Plain(in); got != want {
			t.Errorf("Plain(%q) = %q, want %q", in, got, want)
		}
	}
}

// written returns d as render.Write writes it in format f.
func written(t *testing.T, d *render.Diagram, f render.Format) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := render.Write(&b, d, f); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The proportions every picture keeps (docs/render.md): a slide's.
const (
	maxWidth = 1600
	maxRatio = 3.0
)

// svgSize reads the SVG's width and height.
func svgSize(t *testing.T, svg []byte) (w, h float64) {
	t.Helper()
	var root struct {
		Width  float64 `xml:"width,attr"`
		Height float64 `xml:"height,attr"`
	}
	if err := xml.Unmarshal(svg, &root); err != nil || root.Width <= 0 || root.Height <= 0 {
		t.Fatalf("the SVG's size: %v (%+v)", err, root)
	}
	return root.Width, root.Height
}

// checkSVG parses the SVG as XML, requires it self-contained and of a slide's
// proportions, and renders it with librsvg (rsvg-convert) to a PNG that is not
// blank, in which nothing is clipped: it is the same PNG without the boxes'
// clip paths, and nothing is drawn in the right margin.
func checkSVG(t *testing.T, svg []byte) {
	t.Helper()
	if w, h := svgSize(t, svg); w > maxWidth || w/h > maxRatio {
		t.Errorf("the SVG is %gx%g: want at most %d wide and at most %g:1", w, h, maxWidth, maxRatio)
	}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	root := ""
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("the SVG is not well-formed XML: %v", err)
			}
			break
		}
		if se, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = se.Name.Local
			}
			switch se.Name.Local {
			case "script", "image", "foreignObject", "style", "a", "use":
				t.Errorf("the SVG holds a <%s> element", se.Name.Local)
			}
			for _, a := range se.Attr {
				if a.Name.Local == "href" || strings.HasPrefix(a.Name.Local, "on") ||
					(strings.Contains(a.Value, "url(") && !strings.HasPrefix(a.Value, "url(#")) {
					t.Errorf("the SVG refers outside itself: %s=%q", a.Name.Local, a.Value)
				}
			}
		}
	}
	if root != "svg" {
		t.Fatalf("the root element is %q", root)
	}
	rsvg, err := exec.LookPath("rsvg-convert")
	if err != nil {
		logSkip(t, "rsvg-convert (Debian's librsvg2-bin) is not installed: the SVG was not rendered; make test installs it (tools/install-renderers.sh)")
		return
	}
	img := rasterize(t, rsvg, svg)
	bounds := img.Bounds()
	if bounds.Dx() < 300 || bounds.Dy() < 150 {
		t.Fatalf("the PNG is %dx%d", bounds.Dx(), bounds.Dy())
	}
	inked, colours := 0, map[[3]uint32]bool{}
	for y := bounds.Min.Y; y < bounds.Max.Y; y += 2 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			if r < 0xf000 || g < 0xf000 || b < 0xf000 {
				inked++
			}
			colours[[3]uint32{r >> 12, g >> 12, b >> 12}] = true
		}
	}
	if total := (bounds.Dx() / 2) * (bounds.Dy() / 2); inked*100 < total {
		t.Errorf("the PNG is nearly blank: %d of %d sampled pixels inked", inked, total)
	}
	if len(colours) < 4 {
		t.Errorf("the PNG has %d colours", len(colours))
	}
	// Nothing clipped: without the clip paths not one pixel changes.
	unclipped := rasterize(t, rsvg, clipPathAttr.ReplaceAll(svg, nil))
	diff := 0
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			if img.At(x, y) != unclipped.At(x, y) {
				diff++
			}
		}
	}
	if diff > 0 {
		t.Errorf("a box clips its text: %d pixels differ without the clip paths", diff)
	}
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Max.X - 10; x < bounds.Max.X; x++ {
			if r, g, b, _ := img.At(x, y).RGBA(); r < 0xf000 || g < 0xf000 || b < 0xf000 {
				t.Fatalf("ink in the right margin at (%d, %d): a line runs off the picture", x, y)
			}
		}
	}
}

var clipPathAttr = regexp.MustCompile(` clip-path="url\(#c[0-9]+\)"`)

// rasterize renders an SVG with rsvg-convert.
func rasterize(t *testing.T, rsvg string, svg []byte) image.Image {
	t.Helper()
	cmd := exec.Command(rsvg, "--format", "png")
	cmd.Stdin = bytes.NewReader(svg)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("rsvg-convert refuses the SVG: %v: %s", err, stderr.String())
	}
	img, err := png.Decode(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatalf("rsvg-convert wrote no PNG: %v", err)
	}
	return img
}

// svgBox is one box of the SVG: its tooltip, rectangle and lines.
type svgBox struct {
	Title string `xml:"title"`
	Rect  *struct {
		Y      float64 `xml:"y,attr"`
		Height float64 `xml:"height,attr"`
	} `xml:"rect"`
	Lines []struct {
		Y      float64 `xml:"y,attr"`
		Weight string  `xml:"font-weight,attr"`
		Style  string  `xml:"font-style,attr"`
		Text   string  `xml:",chardata"`
	} `xml:"g>text"`
}

// svgBoxes reads the boxes of an SVG kgc wrote, in drawing order.
func svgBoxes(t *testing.T, svg []byte) []svgBox {
	t.Helper()
	var doc struct {
		Groups []svgBox `xml:"g"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Fatal(err)
	}
	var out []svgBox
	for _, g := range doc.Groups {
		if g.Rect != nil {
			out = append(out, g)
		}
	}
	return out
}

// checkHeadings requires every box of d to show its whole heading (on as
// many lines as it takes: joined, its words are the heading's), every line
// inside the box.
func checkHeadings(t *testing.T, d *render.Diagram, svg []byte) {
	t.Helper()
	boxes := svgBoxes(t, svg)
	var nodes []render.Node
	for _, c := range d.Columns {
		for _, s := range c.Sections {
			nodes = append(nodes, s.Nodes...)
		}
	}
	if len(boxes) != len(nodes) {
		t.Fatalf("%d boxes drawn for %d nodes", len(boxes), len(nodes))
	}
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	for i, n := range nodes {
		b := boxes[i]
		var head []string
		for _, l := range b.Lines {
			if l.Weight == "bold" || l.Style == "italic" {
				head = append(head, l.Text)
			}
			if l.Y-11 < b.Rect.Y || l.Y+3 > b.Rect.Y+b.Rect.Height {
				t.Errorf("box %q: the line %q at y=%g lies outside the box (y=%g, height %g)", n.Heading, l.Text, l.Y, b.Rect.Y, b.Rect.Height)
			}
		}
		if got := strings.Join(head, ""); squeeze(got) != squeeze(n.Heading) {
			t.Errorf("box %q shows the heading %q: cut", n.Heading, strings.Join(head, " / "))
		}
		if !strings.HasPrefix(b.Title, strings.Join(strings.Fields(n.Heading), " ")) {
			t.Errorf("box %q has the tooltip %q", n.Heading, b.Title)
		}
	}
}

// The Mermaid grammar kgc writes, line by line; a label holds no quote,
// bracket, brace, parenthesis, pipe, angle bracket, semicolon or backtick
// except through an entity code, and no markup but <br/>.
var (
	mermaidLabel = `(?:[^"\[\]{}()<>|;#&` + "`" + `\\]|#[a-z]+;|#[0-9]+;|<br/>)*`
	mermaidLines = []*regexp.Regexp{
		regexp.MustCompile(`^flowchart LR$`),
		regexp.MustCompile(`^  subgraph s[0-9]+\["` + mermaidLabel + `"\]$`),
		regexp.MustCompile(`^    direction TB$`),
		regexp.MustCompile(`^    n[0-9]+\["` + mermaidLabel + `"\]$`),
		regexp.MustCompile(`^    n[0-9]+ ~~~ n[0-9]+$`),
		regexp.MustCompile(`^  end$`),
		regexp.MustCompile(`^  s[0-9]+ ~~~ s[0-9]+$`),
		regexp.MustCompile(`^  n[0-9]+ (-->|-\.->\|supports\||==>\|builds towards\||-\.-\|relates to\|) n[0-9]+$`),
		regexp.MustCompile(`^  classDef (focus|standard|grouping|framework|component|more) [a-z0-9#:,. -]+$`),
		regexp.MustCompile(`^  class n[0-9]+(,n[0-9]+)* (focus|standard|grouping|framework|component|more)$`),
		regexp.MustCompile(`^%% [^\n]*$`),
	}
	mermaidTitle = regexp.MustCompile(`^title: "(?:[^"\\]|\\.)*"$`)
)

func checkMermaid(t *testing.T, src []byte) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	if len(lines) < 5 || lines[0] != "---" || !mermaidTitle.MatchString(lines[1]) || lines[2] != "---" {
		t.Fatalf("the Mermaid front matter is wrong: %q", lines[:min(3, len(lines))])
	}
	depth := 0
	for i, l := range lines[3:] {
		ok := false
		for _, re := range mermaidLines {
			if re.MatchString(l) {
				ok = true
				break
			}
		}
		if !ok {
			t.Errorf("Mermaid line %d is outside the grammar: %q", i+4, l)
		}
		if strings.HasPrefix(l, "  subgraph ") {
			depth++
		}
		if l == "  end" {
			depth--
		}
		if strings.HasPrefix(l, "%%") && strings.Contains(l[2:], "%") {
			t.Errorf("a note holds %%: %q", l)
		}
	}
	// Mermaid reads a directive (%%{init: …}%%, the closing optional)
	// anywhere in the text, front matter included.
	if strings.Contains(string(src), "%%{") || strings.Contains(lines[1], "%") {
		t.Errorf("the Mermaid text can hold a directive: %q", src)
	}
	if depth != 0 {
		t.Errorf("subgraphs are not closed (%d open)", depth)
	}
}

// checkDOT requires balanced quoting and, when Graphviz is installed, that
// dot lays the graph out.
func checkDOT(t *testing.T, src []byte) {
	t.Helper()
	in := false
	for i := 0; i < len(src); i++ {
		switch {
		case in && src[i] == '\\':
			i++
		case src[i] == '"':
			in = !in
		case in && src[i] == '\n':
			t.Fatal("a DOT string holds a raw newline")
		}
	}
	if in {
		t.Fatal("a DOT string is not closed")
	}
	dot, err := exec.LookPath("dot")
	if err != nil {
		logSkip(t, "dot (Graphviz) is not installed: the DOT form was not laid out; make test installs it (tools/install-renderers.sh)")
		return
	}
	cmd := exec.Command(dot, "-Tsvg")
	cmd.Stdin = bytes.NewReader(src)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("dot refuses the DOT source: %v: %s", err, stderr.String())
	}
	if !bytes.Contains(out.Bytes(), []byte("<svg")) {
		t.Fatal("dot wrote no SVG")
	}
}

var skipped sync.Map

// logSkip says, once per message, that a check was skipped: in the test log
// and, when $KGC_SKIP_LOG is set (make test), in that file.
func logSkip(t *testing.T, msg string) {
	t.Helper()
	if _, dup := skipped.LoadOrStore(msg, true); dup {
		return
	}
	t.Log("SKIP: " + msg)
	fmt.Fprintln(os.Stderr, "SKIP: "+msg)
	if p := os.Getenv("KGC_SKIP_LOG"); p != "" {
		if f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
			fmt.Fprintf(f, "SKIP %s (render): %s\n", t.Name(), msg)
			f.Close()
		}
	}
}
