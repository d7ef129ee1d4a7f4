// Package render draws curriculum diagrams — one standard's neighbourhood,
// or a framework's overview by grade and strand — as SVG, Mermaid or DOT
// (docs/render.md). It knows nothing of images or packages: runtime/diagram
// gathers a Diagram under the package's rights (statement text only where
// they allow full text) and bounded as docs/render.md says, and this package
// lays it out and writes it.
//
// Every writer is deterministic: the same Diagram gives the same bytes. The
// SVG is self-contained (no scripts, no external fonts, stylesheets or
// images: the generic sans-serif family, inline attributes), each node's
// text wrapped to its box by measured glyph widths and clipped to it, and it
// fits a slide (at most 1,600 px wide and 3:1); the Mermaid and DOT sources
// escape every label, so no label can end a string or open a bracket.
// Statements are text in every format: escaped, bidirectional controls
// written as their escapes, Markdown emphasis shown as the words (Plain).
package render

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/termsafe"
)

// NodeKind says what a node is, which decides its style.
type NodeKind string

// The node kinds.
const (
	Focus     NodeKind = "focus"     // the standard the diagram is about
	Standard  NodeKind = "standard"  // a standards item (sibling, child, progression end)
	Grouping  NodeKind = "grouping"  // a hierarchy node above the standard, or a strand
	Framework NodeKind = "framework" // the framework root
	Component NodeKind = "component" // a learning component
	More      NodeKind = "more"      // "+k more": what a bound left out
)

// EdgeKind is a relationship type, which decides an edge's style.
type EdgeKind string

// The edge kinds.
const (
	HasChild      EdgeKind = "hasChild"      // hierarchy, parent to child
	Supports      EdgeKind = "supports"      // learning component to standard
	BuildsTowards EdgeKind = "buildsTowards" // progression, earlier to later
	RelatesTo     EdgeKind = "relatesTo"     // progression, undirected
)

// Node is one box: a heading (code, statement type or grade), the statement
// text when the rights allow it, and a detail line (counts, grades). Every
// writer shows the whole heading and the whole detail, wrapped onto as many
// lines as they take; the text is cut after a few lines (the SVG's tooltip
// holds all of it). The text is a statement as its publisher wrote it: its
// Markdown inline emphasis (*x*, _x_, **x**) is shown as the words (Plain).
type Node struct {
	ID      string // unique within the diagram
	Kind    NodeKind
	Heading string
	Text    string
	Detail  string
}

// Section is a titled group of nodes stacked in a column.
type Section struct {
	Title string
	Nodes []Node
}

// Column is a vertical lane of sections, left to right.
type Column struct {
	Sections []Section
}

// Edge joins two nodes by ID. Edges are drawn between nodes of adjacent
// columns or of one column.
type Edge struct {
	From, To string
	Kind     EdgeKind
}

// Diagram is what the writers draw.
type Diagram struct {
	Title    string
	Subtitle string
	Columns  []Column
	Edges    []Edge
	// Notes are printed under the picture: bounds that cut lists, text the
	// rights withheld, the origin of generated edges.
	Notes []string
	// Overview marks a framework overview: its columns (grades) are
	// top-aligned, in the SVG laid out in the rows that best fit a slide,
	// and the DOT and Mermaid forms stack each column's nodes.
	Overview bool
}

// Format is an output format.
type Format string

// The formats.
const (
	SVG     Format = "svg"
	Mermaid Format = "mermaid"
	DOT     Format = "dot"
)

// Formats lists the formats, in the order the CLI documents them.
func Formats() []Format { return []Format{SVG, Mermaid, DOT} }

// MermaidMIME is the media type of the Mermaid form, as Mermaid's own
// integration guide names it.
const MermaidMIME = "text/vnd.mermaid"

// Write writes d in format f.
func Write(w io.Writer, d *Diagram, f Format) error {
	var b []byte
	switch f {
	case SVG:
		b = svgBytes(d)
	case Mermaid:
		b = MermaidBytes(d)
	case DOT:
		b = dotBytes(d)
	default:
		return fmt.Errorf("unknown format %q (want svg, mermaid or dot)", f)
	}
	_, err := w.Write(b)
	return err
}

// nodes lists every node in column, section and node order.
func (d *Diagram) nodes() []Node {
	var out []Node
	for _, c := range d.Columns {
		for _, s := range c.Sections {
			out = append(out, s.Nodes...)
		}
	}
	return out
}

// shortIDs numbers the nodes n0, n1, … in drawing order, for the formats
// whose identifiers must stay plain.
func (d *Diagram) shortIDs() map[string]string {
	ids := map[string]string{}
	for i, n := range d.nodes() {
		ids[n.ID] = fmt.Sprintf("n%d", i)
	}
	return ids
}

// edgeKinds lists the edge kinds in use, in a fixed order (for legends).
func (d *Diagram) edgeKinds() []EdgeKind {
	used := map[EdgeKind]bool{}
	for _, e := range d.Edges {
		used[e.Kind] = true
	}
	var out []EdgeKind
	for _, k := range []EdgeKind{HasChild, Supports, BuildsTowards, RelatesTo} {
		if used[k] {
			out = append(out, k)
		}
	}
	return out
}

// edgeLabel is how an edge kind reads in a legend or on an edge.
func edgeLabel(k EdgeKind) string {
	switch k {
	case HasChild:
		return "has child"
	case Supports:
		return "supports"
	case BuildsTowards:
		return "builds towards"
	case RelatesTo:
		return "relates to"
	}
	return string(k)
}

// clean makes s one line of printable text: invalid UTF-8 replaced, control
// characters and runs of white space turned into one space, and the
// bidirectional controls, which would reorder what is shown, written as the
// text of their escapes (\u202e), as kgc writes them to a terminal.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '\uFFFE' || r == '\uFFFF' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if termsafe.BidiControl(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// wrap breaks s into lines of at most width runes, at spaces where it can
// (a longer word is cut), and keeps at most maxLines (0: every line): when
// text is left over, the last line ends with "…".
func wrap(s string, width, maxLines int) []string {
	s = clean(s)
	if s == "" {
		return nil
	}
	var lines []string
	line := ""
	flush := func() {
		lines = append(lines, line)
		line = ""
	}
	for _, word := range strings.Split(s, " ") {
		for utf8.RuneCountInString(word) > width {
			if line != "" {
				flush()
			}
			r := []rune(word)
			lines = append(lines, string(r[:width]))
			word = string(r[width:])
		}
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= width:
			line += " " + word
		default:
			flush()
			line = word
		}
	}
	if line != "" {
		flush()
	}
	if maxLines > 0 && len(lines) > maxLines {
		last := []rune(lines[maxLines-1])
		if len(last) >= width {
			last = last[:width-1]
		}
		lines = append(lines[:maxLines-1], strings.TrimRight(string(last), " ")+"…")
	}
	return lines
}

// nodeLines is a node's text as lines for the text formats (Mermaid, DOT):
// the whole heading, the text (at most maxText lines), the whole detail.
func nodeLines(n Node, width, maxText int) []string {
	var out []string
	out = append(out, wrap(n.Heading, width, 0)...)
	out = append(out, wrap(Plain(n.Text), width, maxText)...)
	out = append(out, wrap(n.Detail, width, 0)...)
	return out
}
