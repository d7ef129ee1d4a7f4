package render

import (
	"fmt"
	"strings"
)

// dotEscaper escapes a DOT double-quoted string: a backslash would start an
// escape sequence (\n, \l, \N …) and a quote would end the string.
var dotEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// dotLabel joins escaped lines with DOT's centred line break.
func dotLabel(lines []string) string { return dotJoin(lines, `\n`) }

// dotJoin escapes lines and joins them with a DOT line break (\n centred,
// \l left-justified).
func dotJoin(lines []string, sep string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = dotEscaper.Replace(l)
	}
	return strings.Join(out, sep)
}

var dotNodeAttrs = map[NodeKind]string{
	Focus:     `fillcolor="#fef3c7", color="#b45309", penwidth=2.5`,
	Standard:  `fillcolor="#ffffff", color="#94a3b8"`,
	Grouping:  `fillcolor="#f1f5f9", color="#64748b"`,
	Framework: `fillcolor="#e2e8f0", color="#334155"`,
	Component: `fillcolor="#ecfdf5", color="#0f766e"`,
	More:      `fillcolor="#ffffff", color="#94a3b8", style="rounded,filled,dashed", fontcolor="#64748b"`,
}

var dotEdgeAttrs = map[EdgeKind]string{
	HasChild:      `color="#64748b"`,
	Supports:      `color="#0f766e", style=dotted, label="supports"`,
	BuildsTowards: `color="#b45309", penwidth=1.8, label="builds towards"`,
	RelatesTo:     `color="#7c3aed", style=dashed, dir=none, label="relates to"`,
}

// dotBytes writes d as a Graphviz digraph: one cluster per section, left to
// right (an overview stacks each cluster's nodes with invisible edges); the
// notes are the graph's bottom label.
func dotBytes(d *Diagram) []byte {
	var b strings.Builder
	label := []string{clean(d.Title)}
	if d.Subtitle != "" {
		label = append(label, clean(d.Subtitle))
	}
	rankdir := "LR"
	if d.Overview {
		rankdir = "TB"
	}
	b.WriteString("digraph kgc {\n")
	fmt.Fprintf(&b, "  graph [rankdir=%s, fontname=\"sans-serif\", fontsize=12, labelloc=t, labeljust=l, label=\"%s\", nodesep=0.25, ranksep=0.6];\n",
		rankdir, dotLabel(label))
	b.WriteString("  node [shape=box, style=\"rounded,filled\", fontname=\"sans-serif\", fontsize=10, margin=\"0.12,0.06\"];\n")
	b.WriteString("  edge [fontname=\"sans-serif\", fontsize=9, arrowsize=0.7];\n")
	ids := d.shortIDs()
	sec := 0
	for _, c := range d.Columns {
		for _, s := range c.Sections {
			fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=\"%s\"; style=\"rounded\"; color=\"#cbd5e1\";\n", sec, dotLabel([]string{clean(s.Title)}))
			sec++
			for _, n := range s.Nodes {
				fmt.Fprintf(&b, "    %s [label=\"%s\", %s];\n", ids[n.ID], dotLabel(nodeLines(n, textWidth, textMaxLines)), dotNodeAttrs[n.Kind])
			}
			if d.Overview {
				for i := 1; i < len(s.Nodes); i++ {
					fmt.Fprintf(&b, "    %s -> %s [style=invis];\n", ids[s.Nodes[i-1].ID], ids[s.Nodes[i].ID])
				}
			}
			b.WriteString("  }\n")
		}
	}
	for _, e := range d.Edges {
		from, to := ids[e.From], ids[e.To]
		if from == "" || to == "" {
			continue
		}
		fmt.Fprintf(&b, "  %s -> %s [%s];\n", from, to, dotEdgeAttrs[e.Kind])
	}
	if len(d.Notes) > 0 {
		var lines []string
		for _, n := range d.Notes {
			lines = append(lines, wrap(n, 100, 6)...)
		}
		fmt.Fprintf(&b, "  notes [shape=plaintext, style=\"\", fontsize=9, label=\"%s\\l\"];\n", dotJoin(lines, `\l`))
	}
	b.WriteString("}\n")
	return []byte(b.String())
}
