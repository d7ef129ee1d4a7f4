package render

import (
	"fmt"
	"strings"
)

// Text formats wrap a label at textWidth characters and keep at most
// textMaxLines lines of statement text.
const (
	textWidth    = 36
	textMaxLines = 4
)

// mermaidEscaper writes every character that could end a label or be read as
// markup as a Mermaid entity code (#quot;, #35; …); % too, since Mermaid reads
// a directive (%%{init: …}) anywhere in its text, before any parsing. The
// writer itself adds only <br/> line breaks.
var mermaidEscaper = strings.NewReplacer(
	`"`, "#quot;", "#", "#35;", "&", "#38;", "<", "#lt;", ">", "#gt;",
	"[", "#91;", "]", "#93;", "{", "#123;", "}", "#125;", "(", "#40;", ")", "#41;",
	"|", "#124;", "`", "#96;", ";", "#59;", "\\", "#92;", "%", "#37;",
)

// mermaidTitle escapes a title for the front matter's double-quoted YAML
// string: \ and " as YAML escapes, and % as \x25, which YAML reads back as %
// but which cannot start a Mermaid directive.
var mermaidTitle = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "%", `\x25`)

// mermaidComment makes a note safe for a %% comment line: a % would let a
// note hold %%, and with it a directive; it is written as the fullwidth ％.
var mermaidComment = strings.NewReplacer("%", "％")

// mermaidLabel joins escaped lines with <br/>.
func mermaidLabel(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = mermaidEscaper.Replace(l)
	}
	return strings.Join(out, "<br/>")
}

var mermaidClasses = []struct {
	kind NodeKind
	def  string
}{
	{Focus, "fill:#fef3c7,stroke:#b45309,stroke-width:3px,color:#1f2937"},
	{Standard, "fill:#ffffff,stroke:#94a3b8,color:#1f2937"},
	{Grouping, "fill:#f1f5f9,stroke:#64748b,color:#1f2937"},
	{Framework, "fill:#e2e8f0,stroke:#334155,color:#0f172a"},
	{Component, "fill:#ecfdf5,stroke:#0f766e,color:#134e4a"},
	{More, "fill:#ffffff,stroke:#94a3b8,stroke-dasharray:4 3,color:#64748b"},
}

// MermaidBytes writes d as a Mermaid flowchart: the title in the front
// matter, one subgraph per section, the notes as %% comments at the end.
func MermaidBytes(d *Diagram) []byte {
	var b strings.Builder
	title := mermaidTitle.Replace(clean(d.Title))
	if d.Subtitle != "" {
		title += " — " + mermaidTitle.Replace(clean(d.Subtitle))
	}
	fmt.Fprintf(&b, "---\ntitle: \"%s\"\n---\n", title)
	b.WriteString("flowchart LR\n")
	ids := d.shortIDs()
	sec := 0
	var subgraphs []string
	used := map[NodeKind][]string{}
	for _, c := range d.Columns {
		for _, s := range c.Sections {
			sid := fmt.Sprintf("s%d", sec)
			sec++
			subgraphs = append(subgraphs, sid)
			fmt.Fprintf(&b, "  subgraph %s[\"%s\"]\n    direction TB\n", sid, mermaidLabel([]string{clean(s.Title)}))
			for _, n := range s.Nodes {
				id := ids[n.ID]
				fmt.Fprintf(&b, "    %s[\"%s\"]\n", id, mermaidLabel(nodeLines(n, textWidth, textMaxLines)))
				used[n.Kind] = append(used[n.Kind], id)
			}
			if d.Overview {
				for i := 1; i < len(s.Nodes); i++ {
					fmt.Fprintf(&b, "    %s ~~~ %s\n", ids[s.Nodes[i-1].ID], ids[s.Nodes[i].ID])
				}
			}
			b.WriteString("  end\n")
		}
	}
	if d.Overview {
		for i := 1; i < len(subgraphs); i++ {
			fmt.Fprintf(&b, "  %s ~~~ %s\n", subgraphs[i-1], subgraphs[i])
		}
	}
	for _, e := range d.Edges {
		from, to := ids[e.From], ids[e.To]
		if from == "" || to == "" {
			continue
		}
		switch e.Kind {
		case HasChild:
			fmt.Fprintf(&b, "  %s --> %s\n", from, to)
		case Supports:
			fmt.Fprintf(&b, "  %s -.->|supports| %s\n", from, to)
		case BuildsTowards:
			fmt.Fprintf(&b, "  %s ==>|builds towards| %s\n", from, to)
		case RelatesTo:
			fmt.Fprintf(&b, "  %s -.-|relates to| %s\n", from, to)
		}
	}
	for _, c := range mermaidClasses {
		if len(used[c.kind]) == 0 {
			continue
		}
		fmt.Fprintf(&b, "  classDef %s %s\n  class %s %s\n", c.kind, c.def, strings.Join(used[c.kind], ","), c.kind)
	}
	for _, n := range d.Notes {
		fmt.Fprintf(&b, "%%%% %s\n", mermaidComment.Replace(clean(n)))
	}
	return []byte(b.String())
}
