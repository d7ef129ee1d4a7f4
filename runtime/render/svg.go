package render

import (
	"fmt"
	"strings"
)

// SVG geometry, in user units (pixels at 100%). Text is wrapped by an
// estimate of the average glyph width of a sans-serif face (svgCharW at
// svgFont); each node's text is also clipped to its box, so a face wider than
// the estimate can hide the end of a line but never spill over.
const (
	svgMargin    = 24
	svgBoxW      = 230
	svgColGap    = 90
	svgPad       = 9
	svgFont      = 11
	svgLineH     = 14
	svgCharW     = 6.1
	svgMaxText   = 4 // lines of statement text in a box
	svgNodeGap   = 10
	svgSecGap    = 22
	svgSecTitleH = 20
	svgMoreH     = 28
	svgTitleH    = 56
)

// svgWidthChars is how many characters of text a box holds on one line.
const svgWidthChars = 34

// svgDetailChars is the same for the smaller detail lines (a node ID fits).
const svgDetailChars = 38

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
	x, y, h    float64
	head, text []string
	detail     []string
}

// colGap is the space between columns: room for edges, or none needed in an
// overview.
func colGap(d *Diagram) int {
	if d.Overview {
		return 24
	}
	return svgColGap
}

// boxOf wraps a node's lines and sizes its box: an overview's boxes all take
// uniformH, so rows line up across columns; elsewhere a box is as tall as
// its lines.
func boxOf(n Node, col int, x, y, uniformH float64, uniform bool) *box {
	b := &box{n: n, col: col, x: x, y: y, h: svgMoreH}
	b.head = wrap(n.Heading, svgWidthChars, 2)
	b.text = wrap(Plain(n.Text), svgWidthChars, svgMaxText)
	b.detail = wrap(n.Detail, svgDetailChars, 2)
	switch {
	case n.Kind == More:
	case uniform:
		b.h = uniformH
	default:
		b.h = float64(2*svgPad + b.lines()*svgLineH)
	}
	return b
}

// lines is how many text lines the box holds.
func (b *box) lines() int { return len(b.head) + len(b.text) + len(b.detail) }

// layout places every node; it returns the boxes by node ID, their drawing
// order, the section titles' positions and the picture's size.
func layout(d *Diagram) (boxes map[string]*box, order []*box, titles [][3]any, width, height float64) {
	boxes = map[string]*box{}
	// One height for every ordinary box, so rows line up across columns.
	lines := 1
	for _, n := range d.nodes() {
		if n.Kind == More {
			continue
		}
		lines = max(lines, boxOf(n, 0, 0, 0, 0, false).lines())
	}
	boxH := float64(2*svgPad + lines*svgLineH)
	colH := make([]float64, len(d.Columns))
	for i, c := range d.Columns {
		y := 0.0
		for j, s := range c.Sections {
			if j > 0 {
				y += svgSecGap
			}
			if s.Title != "" {
				y += svgSecTitleH
			}
			for k, n := range s.Nodes {
				if k > 0 {
					y += svgNodeGap
				}
				y += boxOf(n, i, 0, 0, boxH, d.Overview).h
			}
		}
		colH[i] = y
	}
	tallest := 0.0
	for _, h := range colH {
		tallest = max(tallest, h)
	}
	top := float64(svgTitleH)
	for i, c := range d.Columns {
		x := float64(svgMargin + i*(svgBoxW+colGap(d)))
		y := top
		if !d.Overview {
			y += (tallest - colH[i]) / 2
		}
		for j, s := range c.Sections {
			if j > 0 {
				y += svgSecGap
			}
			if s.Title != "" {
				titles = append(titles, [3]any{x, y + 13, s.Title})
				y += svgSecTitleH
			}
			for k, n := range s.Nodes {
				if k > 0 {
					y += svgNodeGap
				}
				b := boxOf(n, i, x, y, boxH, d.Overview)
				boxes[n.ID] = b
				order = append(order, b)
				y += b.h
			}
		}
	}
	width = float64(2*svgMargin + len(d.Columns)*svgBoxW + max(0, len(d.Columns)-1)*colGap(d))
	height = top + tallest
	return boxes, order, titles, max(width, 520), height
}

// svgBytes draws d as a self-contained SVG document.
func svgBytes(d *Diagram) []byte {
	boxes, order, titles, width, height := layout(d)
	kinds := d.edgeKinds()
	// Legend and notes under the picture.
	legendY := height + 28
	notes := []string{}
	noteChars := int((width - 2*svgMargin) / svgCharW)
	for _, n := range d.Notes {
		notes = append(notes, wrap(n, noteChars, 6)...)
	}
	height = legendY + 8
	if len(kinds) > 0 {
		height += 22
	}
	height += float64(len(notes)*svgLineH) + svgMargin

	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="%d">`+"\n",
		num(width), num(height), num(width), num(height), svgFont)
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(clean(d.Title)))
	b.WriteString("<defs>\n")
	for _, k := range []EdgeKind{HasChild, Supports, BuildsTowards} {
		st := edgeStyles[k]
		fmt.Fprintf(&b, `<marker id="arrow-%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`+"\n", k, st.color)
	}
	for i, bx := range order {
		fmt.Fprintf(&b, `<clipPath id="c%d"><rect x="%s" y="%s" width="%s" height="%s"/></clipPath>`+"\n",
			i, num(bx.x+2), num(bx.y+2), num(svgBoxW-4), num(bx.h-4))
	}
	b.WriteString("</defs>\n")
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", num(width), num(height))
	fmt.Fprintf(&b, `<text x="%d" y="26" font-size="16" font-weight="bold" fill="#0f172a">%s</text>`+"\n", svgMargin, esc(clip(d.Title, width, 16)))
	if d.Subtitle != "" {
		fmt.Fprintf(&b, `<text x="%d" y="44" font-size="11" fill="#475569">%s</text>`+"\n", svgMargin, esc(clip(d.Subtitle, width, 11)))
	}
	for _, t := range titles {
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="11" font-weight="bold" fill="#475569">%s</text>`+"\n",
			num(t[0].(float64)), num(t[1].(float64)), esc(clip(t[2].(string), svgBoxW+svgColGap, 11)))
	}
	b.WriteString(`<g fill="none">` + "\n")
	for _, e := range d.Edges {
		from, to := boxes[e.From], boxes[e.To]
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
	for i, bx := range order {
		writeBox(&b, i, bx)
	}
	// Legend.
	x := float64(svgMargin)
	if len(kinds) > 0 {
		for _, k := range kinds {
			st := edgeStyles[k]
			fmt.Fprintf(&b, `<path d="M%s,%s h36" fill="none" stroke="%s" stroke-width="%s"`, num(x), num(legendY), st.color, st.width)
			if st.dash != "" {
				fmt.Fprintf(&b, ` stroke-dasharray="%s"`, st.dash)
			}
			if st.arrow {
				fmt.Fprintf(&b, ` marker-end="url(#arrow-%s)"`, k)
			}
			b.WriteString("/>\n")
			fmt.Fprintf(&b, `<text x="%s" y="%s" fill="#334155">%s</text>`+"\n", num(x+44), num(legendY+4), esc(edgeLabel(k)))
			x += 150
		}
		legendY += 22
	}
	for i, line := range notes {
		fmt.Fprintf(&b, `<text x="%d" y="%s" fill="#475569">%s</text>`+"\n", svgMargin, num(legendY+8+float64(i*svgLineH)), esc(line))
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// writeBox draws one node: its rectangle, a tooltip with its whole text, and
// its lines clipped to the box.
func writeBox(b *strings.Builder, i int, bx *box) {
	st := nodeStyles[bx.n.Kind]
	fmt.Fprintf(b, `<g><title>%s</title>`, esc(clean(strings.Join(nonEmpty(bx.n.Heading, Plain(bx.n.Text), bx.n.Detail), " — "))))
	fmt.Fprintf(b, `<rect x="%s" y="%s" width="%d" height="%s" rx="6" fill="%s" stroke="%s" stroke-width="%s"`,
		num(bx.x), num(bx.y), svgBoxW, num(bx.h), st.fill, st.stroke, st.width)
	if st.dash != "" {
		fmt.Fprintf(b, ` stroke-dasharray="%s"`, st.dash)
	}
	b.WriteString("/>")
	fmt.Fprintf(b, `<g clip-path="url(#c%d)" fill="%s">`, i, st.text)
	y := bx.y + svgPad + 10
	if bx.n.Kind == More {
		y = bx.y + bx.h/2 + 4
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
		x := from.x + svgBoxW/2
		if to.y > from.y {
			return fmt.Sprintf("M%s,%s L%s,%s", num(x), num(from.y+from.h), num(x), num(to.y-1))
		}
		return fmt.Sprintf("M%s,%s L%s,%s", num(x), num(from.y), num(x), num(to.y+to.h+1))
	}
	y1, y2 := from.y+from.h/2, to.y+to.h/2
	x1, x2 := from.x+svgBoxW, to.x-1
	if to.col < from.col {
		x1, x2 = from.x, to.x+svgBoxW+1
	}
	mid := (x1 + x2) / 2
	return fmt.Sprintf("M%s,%s C%s,%s %s,%s %s,%s", num(x1), num(y1), num(mid), num(y1), num(mid), num(y2), num(x2), num(y2))
}

// clip shortens one line of text in font size size to what fits in width
// units.
func clip(s string, width, size float64) string {
	l := wrap(s, int((width-2*svgMargin)/(svgCharW*size/svgFont)), 1)
	if len(l) == 0 {
		return ""
	}
	return l[0]
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
