package render

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

// SVG geometry, in user units (pixels at 100%). Text is wrapped by its
// measured width: the advance widths of the wider of DejaVu Sans and
// Liberation Sans (metrics.go), the faces a generic sans-serif most often
// is. Each box's lines are also clipped to it, so a face wider still can hide
// the end of a line but never spill over.
const (
	svgMargin     = 24
	svgBoxW       = 230 // a box's width
	svgMinBoxW    = 190 // an overview's boxes narrow down to this to fit more grades on a row
	svgColGap     = 90  // between the columns of a neighbourhood: room for edges
	svgGridGap    = 24  // between the grades of an overview
	svgRowGap     = 28  // between the rows of grades of an overview
	svgPad        = 9
	svgFont       = 11
	svgDetailFont = 9
	svgTitleFont  = 16
	svgLineH      = 14
	svgTitleLineH = 20
	svgMaxText    = 4 // lines of statement text in a box
	svgMaxNote    = 12
	svgNodeGap    = 10
	svgSecGap     = 22
	svgMoreH      = 28
	svgLegendW    = 150
	svgMinW       = 520
	// A picture is at most svgMaxW wide and at most svgMaxRatio times as
	// wide as it is high (a slide's proportions, docs/render.md); an
	// overview's grades are laid out in the rows that come nearest
	// svgSlideRatio.
	svgMaxW       = 1600
	svgMaxRatio   = 3
	svgSlideRatio = 16.0 / 9
	// svgUnknownEm is the width of a character metrics.go does not list
	// (CJK ideographs are an em wide; most others are narrower).
	svgUnknownEm = 1.0
)

// glyphBlock holds the advance widths of the runes lo..hi (metrics.go).
type glyphBlock struct {
	lo, hi        rune
	regular, bold []uint8
}

// glyphEm is r's advance width in ems.
func glyphEm(r rune, bold bool) float64 {
	for _, b := range glyphBlocks {
		if r < b.lo || r > b.hi {
			continue
		}
		w := b.regular
		if bold {
			w = b.bold
		}
		if v := w[r-b.lo]; v != 255 {
			return float64(v) / 100
		}
		break
	}
	if unicode.In(r, unicode.Mn, unicode.Me) {
		return 0
	}
	return svgUnknownEm
}

// textW is the width of s in font size size.
func textW(s string, size float64, bold bool) float64 {
	w := 0.0
	for _, r := range s {
		w += glyphEm(r, bold)
	}
	return w * size
}

// font is how a run of text is set.
type font struct {
	size float64
	bold bool
}

var (
	bodyFont    = font{svgFont, false}
	headFont    = font{svgFont, true}
	detailFont  = font{svgDetailFont, false}
	titleFont   = font{svgTitleFont, true}
	sectionFont = font{svgFont, true}
)

func (f font) w(s string) float64 { return textW(s, f.size, f.bold) }

// breakAfter are the characters a word too long for a line (a code such as
// M.G3.C1MD.TI.3.MD.C.5a) is broken after, where one falls in the line.
const breakAfter = ".-/_,:;·)]+=|"

// wrapW breaks s into lines at most maxW wide in font f, at spaces where it
// can; a word wider than a line is broken after a punctuation mark where one
// falls in the second half of the line, else after the last character that
// fits. It keeps at most maxLines lines (0: every line): when text is left
// over, the last line ends with "…". Every character of s but its spaces is
// on some line unless it is cut so. Each character is measured a bounded
// number of times, so a long text costs time in proportion to its length.
func wrapW(s string, maxW float64, f font, maxLines int) []string {
	s = clean(s)
	if s == "" {
		return nil
	}
	full := func(lines []string) bool { return maxLines > 0 && len(lines) > maxLines }
	var lines []string
	line, lineW := "", 0.0
	space := f.w(" ")
	for _, word := range strings.Split(s, " ") {
		if full(lines) {
			break
		}
		ww := f.w(word)
		if line != "" {
			if lineW+space+ww <= maxW {
				line, lineW = line+" "+word, lineW+space+ww
				continue
			}
			lines = append(lines, line)
		}
		if ww > maxW {
			r := []rune(word)
			start := 0
			for !full(lines) {
				fit, w := start, 0.0
				for fit < len(r) {
					g := glyphEm(r[fit], f.bold) * f.size
					if fit > start && w+g > maxW {
						break
					}
					w += g
					fit++
				}
				if fit == len(r) {
					break
				}
				cut := fit
				for k := fit; k > start+(fit-start)/2; k-- {
					if strings.ContainsRune(breakAfter, r[k-1]) {
						cut = k
						break
					}
				}
				lines = append(lines, string(r[start:cut]))
				start = cut
			}
			word = string(r[start:])
			ww = f.w(word)
		}
		line, lineW = word, ww
	}
	if line != "" && !full(lines) {
		lines = append(lines, line)
	}
	if full(lines) {
		last := []rune(lines[maxLines-1])
		for w := f.w(lines[maxLines-1] + "…"); len(last) > 0 && w > maxW; last = last[:len(last)-1] {
			w -= glyphEm(last[len(last)-1], f.bold) * f.size
		}
		lines = append(lines[:maxLines-1], strings.TrimRight(string(last), " ")+"…")
	}
	return lines
}

// wrapParts wraps a list joined by " · " (a detail line: "Target: 9 ·
// Measured Skill: 43") breaking between its parts where it can, so a part
// is broken only when it alone is wider than a line; a break between parts
// takes the place of their separator.
func wrapParts(s string, maxW float64, f font) []string {
	var lines []string
	line := ""
	for _, p := range strings.Split(clean(s), " · ") {
		if p == "" {
			continue
		}
		if line != "" && f.w(line+" · "+p) <= maxW {
			line += " · " + p
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		l := wrapW(p, maxW, f, 0)
		lines, line = append(lines, l[:len(l)-1]...), l[len(l)-1]
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// style is how a node kind is drawn.
type style struct{ fill, stroke, width, dash, text string }

var nodeStyles = map[NodeKind]style{
	Focus:     {"#fef3c7", "#b45309", "2.5", "", "#1f2937"},
	Standard:  {"#ffffff", "#94a3b8", "1", "", "#1f2937"},
	Grouping:  {"#f1f5f9", "#64748b", "1", "", "#1f2937"},
	Framework: {"#e2e8f0", "#334155", "1.5", "", "#0f172a"},
	Component: {"#ecfdf5", "#0f766e", "1", "", "#134e4a"},
	More:      {"#ffffff", "#94a3b8", "1", "4 3", "#64748b"},
}

var edgeStyles = map[EdgeKind]struct {
	color, width, dash string
	arrow              bool
}{
	HasChild:      {"#64748b", "1.2", "", true},
	Supports:      {"#0f766e", "1.2", "2 3", true},
	BuildsTowards: {"#b45309", "1.8", "", true},
	RelatesTo:     {"#7c3aed", "1.4", "6 4", false},
}

// box is a laid-out node.
type box struct {
	n          Node
	col        int
	x, y, w, h float64
	head, text []string
	detail     []string
}

// boxOf wraps a node's lines to a box w wide: the whole heading and detail,
// at most svgMaxText lines of text. Its height fits its lines; the layout
// gives an overview's boxes one height.
func boxOf(n Node, w float64) *box {
	inner := w - 2*svgPad
	b := &box{n: n, w: w}
	head := headFont
	if n.Kind == More {
		head = bodyFont // italic, as wide as regular
	}
	b.head = wrapW(n.Heading, inner, head, 0)
	b.text = wrapW(Plain(n.Text), inner, bodyFont, svgMaxText)
	b.detail = wrapParts(n.Detail, inner, detailFont)
	if n.Kind == More {
		b.h = max(svgMoreH, float64(svgLineH+b.lines()*svgLineH))
	} else {
		b.h = float64(2*svgPad + b.lines()*svgLineH)
	}
	return b
}

// lines is how many text lines the box holds.
func (b *box) lines() int { return len(b.head) + len(b.text) + len(b.detail) }

// textBlock is lines of text starting at a baseline.
type textBlock struct {
	x, y  float64
	lines []string
}

// sectionH is the height a section title of n lines takes.
func sectionH(n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(6 + n*svgLineH)
}

// svgLayout is a diagram placed on the page.
type svgLayout struct {
	boxes    map[string]*box
	order    []*box
	sections []textBlock
	title    []string
	subtitle []string
	top      float64 // where the columns start
	legend   [][]EdgeKind
	notes    []string
	width    float64
	height   float64 // before padding to svgMaxRatio
}

// layout places d; an overview is laid out for each number of grades a row
// that fits svgMaxW, and the one nearest a slide's proportions is kept.
func layout(d *Diagram) *svgLayout {
	if !d.Overview {
		return place(d, svgBoxW, len(d.Columns))
	}
	n := len(d.Columns)
	var best *svgLayout
	bestScore := 0.0
	for k := 1; k <= n; k++ {
		rows := (n + k - 1) / k
		if (n+rows-1)/rows != k {
			continue // the same rows as a smaller k, balanced
		}
		w := min(svgBoxW, math.Floor(float64(svgMaxW-2*svgMargin-(k-1)*svgGridGap)/float64(k)))
		if w < svgMinBoxW {
			break
		}
		l := place(d, w, k)
		score := math.Abs(math.Log(l.width/l.height) - math.Log(svgSlideRatio))
		if best == nil || score < bestScore-1e-9 {
			best, bestScore = l, score
		}
	}
	if best == nil {
		best = place(d, svgBoxW, max(1, n))
	}
	return best
}

// place lays d out with boxes boxW wide: a neighbourhood's columns side by
// side, centred on each other; an overview's columns perRow to a row, top
// aligned, every box one height so that rows of boxes line up.
func place(d *Diagram, boxW float64, perRow int) *svgLayout {
	l := &svgLayout{boxes: map[string]*box{}}
	gap := float64(svgColGap)
	if d.Overview {
		gap = svgGridGap
	}
	cols := len(d.Columns)
	across := min(cols, perRow)
	l.width = max(svgMinW, 2*svgMargin+float64(across)*boxW+float64(max(0, across-1))*gap)
	text := l.width - 2*svgMargin
	l.title = wrapW(d.Title, text, titleFont, 0)
	l.subtitle = wrapW(d.Subtitle, text, bodyFont, 0)
	l.top = 26 + float64(max(0, len(l.title)-1)*svgTitleLineH)
	if len(l.subtitle) > 0 {
		l.top += 18 + float64((len(l.subtitle)-1)*svgLineH)
	}
	l.top += 12

	// In an overview the k-th boxes of the grades on a row take one height
	// (the tallest's), so that the boxes line up across the row.
	uniform := map[[2]int]float64{}
	if d.Overview {
		for i, c := range d.Columns {
			k := 0
			for _, s := range c.Sections {
				for _, n := range s.Nodes {
					if n.Kind != More {
						at := [2]int{i / perRow, k}
						uniform[at] = max(uniform[at], boxOf(n, boxW).h)
					}
					k++
				}
			}
		}
	}
	sized := func(n Node, col, k int) *box {
		b := boxOf(n, boxW)
		if h, ok := uniform[[2]int{col / perRow, k}]; ok && n.Kind != More {
			b.h = h
		}
		return b
	}
	titles := make([][][]string, cols)
	heights := make([]float64, cols) // each column's height below its first title
	for i, c := range d.Columns {
		y, at := 0.0, 0
		for j, s := range c.Sections {
			titles[i] = append(titles[i], wrapW(s.Title, boxW, sectionFont, 0))
			if j > 0 {
				y += svgSecGap + sectionH(len(titles[i][j]))
			}
			for k, n := range s.Nodes {
				if k > 0 {
					y += svgNodeGap
				}
				y += sized(n, i, at).h
				at++
			}
		}
		heights[i] = y
	}
	rowTop := l.top
	bottom := l.top
	for first := 0; first < cols; first += perRow {
		last := min(cols, first+perRow)
		head, tallest := 0.0, 0.0
		for i := first; i < last; i++ {
			if len(titles[i]) > 0 {
				head = max(head, sectionH(len(titles[i][0])))
			}
		}
		for i := first; i < last; i++ {
			if d.Overview {
				tallest = max(tallest, heights[i])
			} else {
				first := 0.0
				if len(titles[i]) > 0 {
					first = sectionH(len(titles[i][0]))
				}
				tallest = max(tallest, first+heights[i])
			}
		}
		for i := first; i < last; i++ {
			x := float64(svgMargin) + float64(i-first)*(boxW+gap)
			y := rowTop
			if d.Overview {
				// The grades' titles take one height, so their boxes line up.
				if len(titles[i]) > 0 {
					y += head - sectionH(len(titles[i][0]))
				}
			} else {
				first := 0.0
				if len(titles[i]) > 0 {
					first = sectionH(len(titles[i][0]))
				}
				y += (tallest - first - heights[i]) / 2
			}
			at := 0
			for j, s := range d.Columns[i].Sections {
				if j > 0 {
					y += svgSecGap
				}
				if t := titles[i][j]; len(t) > 0 {
					l.sections = append(l.sections, textBlock{x, y + 13, t})
					y += sectionH(len(t))
				}
				for k, n := range s.Nodes {
					if k > 0 {
						y += svgNodeGap
					}
					b := sized(n, i, at)
					at++
					b.col, b.x, b.y = i, x, y
					l.boxes[n.ID] = b
					l.order = append(l.order, b)
					y += b.h
				}
			}
			bottom = max(bottom, y)
		}
		if d.Overview {
			tallest += head
		}
		rowTop += tallest + svgRowGap
	}

	// The legend, as many kinds to a row as fit, and the notes.
	perLegend := max(1, int(text/svgLegendW))
	kinds := d.edgeKinds()
	for len(kinds) > 0 {
		k := min(len(kinds), perLegend)
		l.legend = append(l.legend, kinds[:k])
		kinds = kinds[k:]
	}
	seen := map[string]bool{}
	for _, n := range d.Notes {
		if c := clean(n); c != "" && !seen[c] {
			seen[c] = true
			l.notes = append(l.notes, wrapW(n, text, bodyFont, svgMaxNote)...)
		}
	}
	l.height = bottom + 36 + float64(len(l.legend)*22+len(l.notes)*svgLineH) + svgMargin
	return l
}

// svgBytes draws d as a self-contained SVG document.
func svgBytes(d *Diagram) []byte {
	l := layout(d)
	width := l.width
	height := max(l.height, math.Ceil(width/svgMaxRatio))
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="%d">`+"\n",
		num(width), num(height), num(width), num(height), svgFont)
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(d.Title))
	b.WriteString("<defs>\n")
	for _, k := range []EdgeKind{HasChild, Supports, BuildsTowards} {
		st := edgeStyles[k]
		fmt.Fprintf(&b, `<marker id="arrow-%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`+"\n", k, st.color)
	}
	for i, bx := range l.order {
		fmt.Fprintf(&b, `<clipPath id="c%d"><rect x="%s" y="%s" width="%s" height="%s"/></clipPath>`+"\n",
			i, num(bx.x+2), num(bx.y+2), num(bx.w-4), num(bx.h-4))
	}
	b.WriteString("</defs>\n")
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", num(width), num(height))
	y := 26.0
	for _, line := range l.title {
		fmt.Fprintf(&b, `<text x="%d" y="%s" font-size="%d" font-weight="bold" fill="#0f172a">%s</text>`+"\n", svgMargin, num(y), svgTitleFont, esc(line))
		y += svgTitleLineH
	}
	y += 18 - svgTitleLineH
	for _, line := range l.subtitle {
		fmt.Fprintf(&b, `<text x="%d" y="%s" font-size="11" fill="#475569">%s</text>`+"\n", svgMargin, num(y), esc(line))
		y += svgLineH
	}
	for _, t := range l.sections {
		for i, line := range t.lines {
			fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="11" font-weight="bold" fill="#475569">%s</text>`+"\n",
				num(t.x), num(t.y+float64(i*svgLineH)), esc(line))
		}
	}
	b.WriteString(`<g fill="none">` + "\n")
	for _, e := range d.Edges {
		from, to := l.boxes[e.From], l.boxes[e.To]
		if from == nil || to == nil {
			continue
		}
		st := edgeStyles[e.Kind]
		fmt.Fprintf(&b, `<path d="%s" stroke="%s" stroke-width="%s"`, edgePath(from, to), st.color, st.width)
		if st.dash != "" {
			fmt.Fprintf(&b, ` stroke-dasharray="%s"`, st.dash)
		}
		if st.arrow {
			fmt.Fprintf(&b, ` marker-end="url(#arrow-%s)"`, e.Kind)
		}
		fmt.Fprintf(&b, "><title>%s</title></path>\n", esc(edgeLabel(e.Kind)))
	}
	b.WriteString("</g>\n")
	for i, bx := range l.order {
		writeBox(&b, i, bx)
	}
	// The legend, then the notes.
	y = l.height - svgMargin - float64(len(l.legend)*22+len(l.notes)*svgLineH) - 8
	for _, row := range l.legend {
		x := float64(svgMargin)
		for _, k := range row {
			st := edgeStyles[k]
			fmt.Fprintf(&b, `<path d="M%s,%s h36" fill="none" stroke="%s" stroke-width="%s"`, num(x), num(y), st.color, st.width)
			if st.dash != "" {
				fmt.Fprintf(&b, ` stroke-dasharray="%s"`, st.dash)
			}
			if st.arrow {
				fmt.Fprintf(&b, ` marker-end="url(#arrow-%s)"`, k)
			}
			b.WriteString("/>\n")
			fmt.Fprintf(&b, `<text x="%s" y="%s" fill="#334155">%s</text>`+"\n", num(x+44), num(y+4), esc(edgeLabel(k)))
			x += svgLegendW
		}
		y += 22
	}
	for i, line := range l.notes {
		fmt.Fprintf(&b, `<text x="%d" y="%s" fill="#475569">%s</text>`+"\n", svgMargin, num(y+8+float64(i*svgLineH)), esc(line))
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// writeBox draws one node: its rectangle, a tooltip with its whole text, and
// its lines clipped to the box.
func writeBox(b *strings.Builder, i int, bx *box) {
	st := nodeStyles[bx.n.Kind]
	fmt.Fprintf(b, `<g><title>%s</title>`, esc(strings.Join(nonEmpty(clean(bx.n.Heading), clean(Plain(bx.n.Text)), clean(bx.n.Detail)), " — ")))
	fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" rx="6" fill="%s" stroke="%s" stroke-width="%s"`,
		num(bx.x), num(bx.y), num(bx.w), num(bx.h), st.fill, st.stroke, st.width)
	if st.dash != "" {
		fmt.Fprintf(b, ` stroke-dasharray="%s"`, st.dash)
	}
	b.WriteString("/>")
	fmt.Fprintf(b, `<g clip-path="url(#c%d)" fill="%s">`, i, st.text)
	y := bx.y + svgPad + 10
	if bx.n.Kind == More {
		y = bx.y + bx.h/2 + 4 - float64((bx.lines()-1)*svgLineH)/2
	}
	line := func(s, attrs string) {
		fmt.Fprintf(b, `<text x="%s" y="%s"%s>%s</text>`, num(bx.x+svgPad), num(y), attrs, esc(s))
		y += svgLineH
	}
	for _, s := range bx.head {
		attrs := ` font-weight="bold"`
		if bx.n.Kind == More {
			attrs = ` font-style="italic"`
		}
		line(s, attrs)
	}
	for _, s := range bx.text {
		line(s, "")
	}
	for _, s := range bx.detail {
		line(s, ` fill="#475569" font-size="9"`)
	}
	b.WriteString("</g></g>\n")
}

// edgePath joins two boxes: side to side with a curve across columns, bottom
// to top within one.
func edgePath(from, to *box) string {
	if from.col == to.col {
		x := from.x + from.w/2
		if to.y > from.y {
			return fmt.Sprintf("M%s,%s L%s,%s", num(x), num(from.y+from.h), num(x), num(to.y-1))
		}
		return fmt.Sprintf("M%s,%s L%s,%s", num(x), num(from.y), num(x), num(to.y+to.h+1))
	}
	y1, y2 := from.y+from.h/2, to.y+to.h/2
	x1, x2 := from.x+from.w, to.x-1
	if to.col < from.col {
		x1, x2 = from.x, to.x+to.w+1
	}
	mid := (x1 + x2) / 2
	return fmt.Sprintf("M%s,%s C%s,%s %s,%s %s,%s", num(x1), num(y1), num(mid), num(y1), num(mid), num(y2), num(x2), num(y2))
}

func nonEmpty(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// num prints a coordinate with at most one decimal, the same on every
// platform.
func num(f float64) string {
	s := fmt.Sprintf("%.1f", f)
	return strings.TrimSuffix(s, ".0")
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

// esc escapes text for XML character data and attribute values; clean has
// already removed the characters XML cannot hold.
func esc(s string) string { return xmlEscaper.Replace(clean(s)) }
