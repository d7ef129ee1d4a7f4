package query

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/render"
)

// The bounds of a diagram (docs/render.md#bounds): what is over one is drawn
// as a "+k more" box.
const (
	DiagramMaxPath         = 8  // hierarchy path nodes, root included
	DiagramMaxSiblings     = 6  // siblings beside the standard
	DiagramMaxChildren     = 8  // direct children
	DiagramMaxComponents   = 6  // learning components
	DiagramMaxProgressions = 6  // progression links of each kind
	OverviewMaxGrades      = 12 // grade columns of an overview
	OverviewMaxStrands     = 12 // strands in one grade column
)

// diagramPackage routes a diagram request: a framework's unique current
// snapshot, or a snapshot by ID.
func (s *Service) diagramPackage(frameworkID, snapshotID string) (*catalog.Package, error) {
	var snap *string
	if snapshotID != "" {
		snap = &snapshotID
	}
	if frameworkID == "" && snapshotID == "" {
		return nil, fail("request", "frameworkId or snapshotId is required")
	}
	return s.resolvePackage(frameworkID, snap, "")
}

// StandardDiagram gathers the neighbourhood of the standard nodeID: its
// hierarchy path, siblings and children, the learning components that support
// it and its progression links in and out, bounded by the Diagram* limits.
// Statement text is shown only where the package's rights allow full text.
func (s *Service) StandardDiagram(frameworkID, snapshotID, nodeID string) (*render.Diagram, error) {
	p, err := s.diagramPackage(frameworkID, snapshotID)
	if err != nil {
		return nil, err
	}
	n, ok := p.Img.NodeByID(nodeID)
	if !ok || p.Img.NodeKind(n) != kgimg.ItemNode {
		return nil, kgerr.New(kgerr.StandardNotFound, "no standard with node ID %s in %s", nodeID, p.SnapshotID()).
			WithHint("search_standards finds standards by text or code")
	}
	return standardDiagram(p, n), nil
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

// firstPath is the root-to-n path following each node's first parent (in
// relationship-key order, as hierarchyPath), n included.
func firstPath(img *kgimg.Image, n uint32) []uint32 {
	up := img.Adjacency(kgimg.HasChild, kgimg.In)
	path := []uint32{n}
	seen := map[uint32]bool{n: true}
	for len(path) < 1024 {
		parents, _ := up.Row(n)
		if parents.Len() == 0 {
			break
		}
		n = parents.At(0)
		if seen[n] {
			break
		}
		seen[n] = true
		path = append(path, n)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// children lists n's children in relationship-key order (the image's row
// order).
func children(img *kgimg.Image, n uint32) []uint32 {
	nb, _ := img.Adjacency(kgimg.HasChild, kgimg.Out).Row(n)
	return nb.AppendTo(nil)
}

// partners lists the other ends of n's label edges in direction dir (both
// directions when both), each once, in node order.
func partners(img *kgimg.Image, n uint32, label kgimg.RelLabel, dirs ...kgimg.Direction) []uint32 {
	seen := map[uint32]bool{}
	var out []uint32
	for _, d := range dirs {
		nb, _ := img.Adjacency(label, d).Row(n)
		for i := 0; i < nb.Len(); i++ {
			if m := nb.At(i); m != n && !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return nodeLess(img, out[i], out[j]) })
	return out
}

func standardDiagram(p *catalog.Package, n uint32) *render.Diagram {
	img := p.Img
	lab := diagramLabels{img: img, text: fullText(p) == nil}
	d := &render.Diagram{Subtitle: p.SnapshotID() + " · neighbourhood of one standard"}
	focus := lab.node("focus", render.Focus, n)
	focus.Detail = img.NodeString(n, kgimg.NodeID)
	d.Title = "Neighbourhood of " + focus.Heading
	if img.NodeString(n, kgimg.NodeStatementCode) == "" && lab.text {
		// No code to name it by: the start of its statement does.
		d.Title += ": " + placeLabel(img, n)
	}
	cut := false
	var left, mid, right []render.Section

	// The hierarchy path, root to parent, and the siblings under the parent.
	path := firstPath(img, n)
	ancestors := path[:len(path)-1]
	// drawn is the box of each node drawn so far: a node reached two ways
	// (a sibling that is also a relatesTo partner) is one box with an edge
	// for each relation.
	drawn := map[uint32]string{n: "focus"}
	var pathNodes []render.Node
	for i, a := range ancestors {
		if len(ancestors) > DiagramMaxPath && i == 1 {
			k := len(ancestors) - DiagramMaxPath + 1
			pathNodes = append(pathNodes, more("path:more", k, "levels"))
			cut = true
		}
		if len(ancestors) > DiagramMaxPath && i >= 1 && i < len(ancestors)-DiagramMaxPath+2 {
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
		sibs := children(img, ancestors[len(ancestors)-1])
		f := 0
		for i, x := range sibs {
			if x == n {
				f = i
			}
		}
		start, end := 0, len(sibs)
		if len(sibs) > DiagramMaxSiblings+1 {
			start = max(0, f-DiagramMaxSiblings/2)
			end = min(len(sibs), start+DiagramMaxSiblings+1)
			start = end - (DiagramMaxSiblings + 1)
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
		partners(img, n, kgimg.BuildsTowards, kgimg.In), DiagramMaxProgressions, render.BuildsTowards, true))
	add(&left, section("Learning components", "lc:", "components", render.Component,
		partners(img, n, kgimg.Supports, kgimg.In), DiagramMaxComponents, render.Supports, true))
	add(&right, section("Children", "child:", "children", render.Standard,
		children(img, n), DiagramMaxChildren, render.HasChild, false))
	towards := partners(img, n, kgimg.BuildsTowards, kgimg.Out)
	add(&right, section("Builds towards", "to:", "links", render.Standard, towards, DiagramMaxProgressions, render.BuildsTowards, false))
	related := partners(img, n, kgimg.RelatesTo, kgimg.In, kgimg.Out)
	add(&right, section("Relates to", "rel:", "links", render.Standard, related, DiagramMaxProgressions, render.RelatesTo, false))

	for _, col := range [][]render.Section{left, mid, right} {
		if len(col) > 0 {
			d.Columns = append(d.Columns, render.Column{Sections: col})
		}
	}
	if cut {
		d.Notes = append(d.Notes, fmt.Sprintf("Bounds: at most %d hierarchy levels, %d siblings, %d children, %d learning components "+
			"and %d progression links of each kind are drawn; a \"+k more\" box counts the rest.",
			DiagramMaxPath, DiagramMaxSiblings, DiagramMaxChildren, DiagramMaxComponents, DiagramMaxProgressions))
	}
	for _, e := range d.Edges {
		if e.Kind == render.BuildsTowards || e.Kind == render.RelatesTo {
			d.Notes = append(d.Notes, "Progression links are model-generated (llm_inferred): "+semanticNotice)
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
	if a := strings.TrimSpace(r.AttributionStatement); a != "" {
		d.Notes = append(d.Notes, "Source: "+a+" ("+r.SourceLicense+")")
	}
	return d
}

// diagramDoc is the standard_diagram resource: the Mermaid form of
// StandardDiagram, under the standard resources' rights gate (checked by the
// caller), so its text is always allowed.
func diagramDoc(ref resourceRef, p *catalog.Package) (*document, error) {
	n, ok := p.Img.NodeByID(ref.id)
	if !ok || p.Img.NodeKind(n) != kgimg.ItemNode {
		return nil, kgerr.New(kgerr.StandardNotFound, "no standard with node ID %s in %s", ref.id, p.SnapshotID())
	}
	d := &document{ref: ref, kind: "standard_diagram", representation: "deterministic_derived", mime: render.MermaidMIME,
		data: render.MermaidBytes(standardDiagram(p, n)), pkg: p}
	for _, name := range []string{"nodes", "relationships"} {
		if s, ok := sourceArtifact(p, name); ok {
			d.sources = append(d.sources, s)
		}
	}
	return d, nil
}
