// Package diagram draws pictures of one package's graph as render.Diagrams:
// a standard's neighbourhood (Standard) and a framework's overview by grade
// and strand (Overview), bounded (a "+k more" box counts what is left out)
// and under the package's rights (statement text only where they allow full
// text). kgmcp serves the Mermaid form as the standard_diagram resource and
// kgc render writes SVG, Mermaid or DOT; both draw through this package.
// A Diagram's labels alias the package's mapped image: render or copy it
// before the catalog is closed.
package diagram

import (
	"fmt"
	"strings"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/graph"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/render"
)

// The bounds of a diagram (docs/render.md#bounds): what is over one is drawn
// as a "+k more" box.
const (
	MaxPath            = 8  // hierarchy path nodes, root included
	MaxSiblings        = 6  // siblings beside the standard
	MaxChildren        = 8  // direct children
	MaxComponents      = 6  // learning components
	MaxProgressions    = 6  // progression links of each kind
	OverviewMaxGrades  = 12 // grade columns of an overview
	OverviewMaxStrands = 12 // strands in one grade column

	maxWalk = 1 << 10 // hierarchy levels walked up before the path is cut
)

// Standard draws the neighbourhood of the standard nodeID: its hierarchy path,
// siblings and children, the learning components that support it and its
// progression links in and out, bounded by the Max* limits. A node ID that is
// not a standard of p is kgerr.StandardNotFound.
func Standard(p *catalog.Package, nodeID string) (*render.Diagram, error) {
	n, ok := p.Img.NodeByID(nodeID)
	if !ok || p.Img.NodeKind(n) != kgimg.ItemNode {
		return nil, kgerr.New(kgerr.StandardNotFound, "no standard with node ID %s in %s", nodeID, p.SnapshotID())
	}
	return standard(p, n), nil
}

// fullText reports whether p's rights allow statement text.
func fullText(p *catalog.Package) bool {
	r := p.Manifest.Rights
	return r.Reviewed() && r.AllowFullText
}

// diagramLabels makes the labels of one package's nodes under its rights.
type diagramLabels struct {
	img  *kgimg.Image
	text bool // the rights allow full text
}

func (l diagramLabels) node(id string, kind render.NodeKind, n uint32) render.Node {
	img := l.img
	out := render.Node{ID: id, Kind: kind}
	switch img.NodeKind(n) {
	case kgimg.FrameworkNode:
		out.Heading, out.Text = "Framework", img.NodeString(n, kgimg.NodeName)
		return out
	case kgimg.ComponentNode:
		out.Heading = "Learning component"
	default:
		out.Heading = img.NodeString(n, kgimg.NodeStatementType)
		if out.Heading == "" {
			out.Heading = "Standard"
		}
		if c := img.NodeString(n, kgimg.NodeStatementCode); c != "" {
			out.Heading = c + " · " + out.Heading
		}
	}
	if l.text {
		out.Text = img.NodeString(n, kgimg.NodeDescription)
	} else {
		id := img.NodeString(n, kgimg.NodeID)
		out.Heading += " · " + id[:min(8, len(id))]
	}
	return out
}

func more(id string, k int, what string) render.Node {
	return render.Node{ID: id, Kind: render.More, Heading: fmt.Sprintf("+%d more %s", k, what)}
}

func standard(p *catalog.Package, n uint32) *render.Diagram {
	img := p.Img
	lab := diagramLabels{img: img, text: fullText(p)}
	d := &render.Diagram{Subtitle: p.SnapshotID() + " · neighbourhood of one standard"}
	focus := lab.node("focus", render.Focus, n)
	focus.Detail = img.NodeString(n, kgimg.NodeID)
	d.Title = "Neighbourhood of " + focus.Heading
	if img.NodeString(n, kgimg.NodeStatementCode) == "" && lab.text {
		// No code to name it by: the start of its statement does.
		d.Title += ": " + render.Plain(graph.PlaceLabel(img, n))
	}
	cut := false
	var left, mid, right []render.Section

	// The hierarchy path, root to parent, and the siblings under the parent.
	path := graph.FirstPath(img, n, maxWalk)
	ancestors := path[:len(path)-1]
	// drawn is the box of each node drawn so far: a node reached two ways
	// (a sibling that is also a relatesTo partner) is one box with an edge
	// for each relation.
	drawn := map[uint32]string{n: "focus"}
	var pathNodes []render.Node
	for i, a := range ancestors {
		if len(ancestors) > MaxPath && i == 1 {
			k := len(ancestors) - MaxPath + 1
			pathNodes = append(pathNodes, more("path:more", k, "levels"))
			cut = true
		}
		if len(ancestors) > MaxPath && i >= 1 && i < len(ancestors)-MaxPath+2 {
			continue
		}
		kind := render.Grouping
		if img.NodeKind(a) == kgimg.FrameworkNode {
			kind = render.Framework
		}
		pathNodes = append(pathNodes, lab.node("path:"+img.NodeString(a, kgimg.NodeID), kind, a))
		drawn[a] = pathNodes[len(pathNodes)-1].ID
	}
	for i := 1; i < len(pathNodes); i++ {
		d.Edges = append(d.Edges, render.Edge{From: pathNodes[i-1].ID, To: pathNodes[i].ID, Kind: render.HasChild})
	}
	if len(pathNodes) > 0 {
		left = append(left, render.Section{Title: "Hierarchy path", Nodes: pathNodes})
	}
	standard := render.Section{Title: "Standard", Nodes: []render.Node{focus}}
	if len(ancestors) > 0 {
		parent := pathNodes[len(pathNodes)-1].ID
		sibs := graph.Children(img, ancestors[len(ancestors)-1])
		f := 0
		for i, x := range sibs {
			if x == n {
				f = i
			}
		}
		start, end := 0, len(sibs)
		if len(sibs) > MaxSiblings+1 {
			start = max(0, f-MaxSiblings/2)
			end = min(len(sibs), start+MaxSiblings+1)
			start = end - (MaxSiblings + 1)
			cut = true
		}
		standard = render.Section{Title: "Standard and its siblings"}
		if len(sibs) == 1 {
			standard.Title = "Standard"
		}
		if start > 0 {
			standard.Nodes = append(standard.Nodes, more("sib:before", start, "siblings before"))
		}
		for _, x := range sibs[start:end] {
			node := focus
			if x != n {
				node = lab.node("sib:"+img.NodeString(x, kgimg.NodeID), render.Standard, x)
				drawn[x] = node.ID
			}
			standard.Nodes = append(standard.Nodes, node)
			d.Edges = append(d.Edges, render.Edge{From: parent, To: node.ID, Kind: render.HasChild})
		}
		if end < len(sibs) {
			standard.Nodes = append(standard.Nodes, more("sib:after", len(sibs)-end, "siblings after"))
		}
		if pc, _ := img.Adjacency(kgimg.HasChild, kgimg.In).Row(n); pc.Len() > 1 {
			d.Notes = append(d.Notes, fmt.Sprintf("This standard has %d parents; the path drawn follows the first.", pc.Len()))
		}
	}
	mid = append(mid, standard)

	// section lists up to limit partners of the standard not drawn yet, with
	// an edge to each partner (to its box where it is drawn already).
	section := func(title, prefix, what string, kind render.NodeKind, nodes []uint32, limit int, edge render.EdgeKind, into bool) render.Section {
		sec := render.Section{Title: title}
		link := func(id string) {
			e := render.Edge{From: "focus", To: id, Kind: edge}
			if into {
				e.From, e.To = id, "focus"
			}
			d.Edges = append(d.Edges, e)
		}
		listed, left := 0, 0
		for _, x := range nodes {
			if id, ok := drawn[x]; ok {
				link(id)
				continue
			}
			if listed == limit {
				left++
				continue
			}
			node := lab.node(prefix+img.NodeString(x, kgimg.NodeID), kind, x)
			drawn[x] = node.ID
			sec.Nodes = append(sec.Nodes, node)
			link(node.ID)
			listed++
		}
		if left > 0 {
			sec.Nodes = append(sec.Nodes, more(prefix+"more", left, what))
			cut = true
		}
		return sec
	}
	add := func(list *[]render.Section, sec render.Section) {
		if len(sec.Nodes) > 0 {
			*list = append(*list, sec)
		}
	}
	add(&left, section("Builds from", "from:", "links", render.Standard,
		graph.Partners(img, n, kgimg.BuildsTowards, kgimg.In), MaxProgressions, render.BuildsTowards, true))
	add(&left, section("Learning components", "lc:", "components", render.Component,
		graph.Partners(img, n, kgimg.Supports, kgimg.In), MaxComponents, render.Supports, true))
	add(&right, section("Children", "child:", "children", render.Standard,
		graph.Children(img, n), MaxChildren, render.HasChild, false))
	towards := graph.Partners(img, n, kgimg.BuildsTowards, kgimg.Out)
	add(&right, section("Builds towards", "to:", "links", render.Standard, towards, MaxProgressions, render.BuildsTowards, false))
	related := graph.Partners(img, n, kgimg.RelatesTo, kgimg.In, kgimg.Out)
	add(&right, section("Relates to", "rel:", "links", render.Standard, related, MaxProgressions, render.RelatesTo, false))

	for _, col := range [][]render.Section{left, mid, right} {
		if len(col) > 0 {
			d.Columns = append(d.Columns, render.Column{Sections: col})
		}
	}
	if cut {
		d.Notes = append(d.Notes, fmt.Sprintf("Bounds: at most %d hierarchy levels, %d siblings, %d children, %d learning components "+
			"and %d progression links of each kind are drawn; a \"+k more\" box counts the rest.",
			MaxPath, MaxSiblings, MaxChildren, MaxComponents, MaxProgressions))
	}
	for _, e := range d.Edges {
		if e.Kind == render.BuildsTowards || e.Kind == render.RelatesTo {
			d.Notes = append(d.Notes, "Progression links are model-generated (llm_inferred): "+graph.ProgressionSemantics)
			break
		}
	}
	return withRightsNotes(d, p, lab.text)
}

// withRightsNotes adds the withheld-text notice and the attribution.
func withRightsNotes(d *render.Diagram, p *catalog.Package, text bool) *render.Diagram {
	r := p.Manifest.Rights
	if !text {
		d.Notes = append(d.Notes, fmt.Sprintf("Statement text withheld: the package's rights do not allow full text "+
			"(review %s, allowFullText %t); boxes show codes, statement types and node IDs.", r.ReviewStatus, r.AllowFullText))
	}
	if note := sourceNote(r.AttributionStatement, r.SourceLicense); note != "" {
		d.Notes = append(d.Notes, note)
	}
	return d
}

// sourceNote is the attribution and the licence, each said once: an
// attribution that names the licence already (as kgc import case's does,
// "… (CASE …; not stated in the CASE package).") is not followed by it again.
func sourceNote(attribution, license string) string {
	a, l := strings.TrimSpace(attribution), strings.TrimSpace(license)
	switch {
	case a == "":
		return ""
	case l == "" || strings.Contains(strings.ToLower(a), strings.ToLower(l)):
		return "Source: " + a
	}
	return "Source: " + a + " (" + l + ")"
}
