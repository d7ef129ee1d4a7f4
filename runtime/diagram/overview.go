package diagram

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/graph"
	"github.com/kgc-project/kgc/runtime/render"
)

// overviewCell counts the standards of one strand in one grade.
type overviewCell struct {
	strand  uint32
	none    bool // the standards directly under a grade (or the root)
	counts  map[string]int
	members []uint32 // the standards, in curriculum order
}

// sameCells reports whether two grades hold the same standards in the same
// strands (their cells in drawing order).
func sameCells(a, b []*overviewCell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].none != b[i].none || a[i].strand != b[i].strand || !slices.Equal(a[i].members, b[i].members) {
			return false
		}
	}
	return true
}

// Overview draws a framework snapshot's overview by grade and
// strand: one column per grade (the profile's local labels, in its order),
// and in each the strands with how many standards of each statement type
// they hold in that grade. Adjacent grades that hold the same standards in
// the same strands (a high-school band tagged 09 to 12) are one column,
// "09–12", and a note says so. A standard's strand is the first node of its first
// root path below the root that is not a grade-level statement type
// (docs/render.md#overview). Bounded by OverviewMaxGrades and
// OverviewMaxStrands; strand text only where the rights allow full text.
func Overview(p *catalog.Package) *render.Diagram {
	img, prof := p.Img, p.Profile()
	lab := diagramLabels{img: img, text: fullText(p)}
	gradeTypes := map[string]bool{}
	for _, t := range prof.GradeLevelStatementTypes {
		gradeTypes[t] = true
	}
	gradeRank := map[string]int{}
	labelOf := map[string]string{}
	for i, gm := range prof.GradeMappings {
		if _, ok := gradeRank[gm.LocalLabel]; !ok {
			gradeRank[gm.LocalLabel] = i
		}
		for _, g := range gm.NormalizedGrades {
			if _, ok := labelOf[g]; !ok {
				labelOf[g] = gm.LocalLabel
			}
		}
	}
	typeRank := map[string]int{}
	for i, t := range prof.Hierarchy.StatementTypeOrder {
		typeRank[t] = i + 1
	}

	var items []uint32
	for i := 0; i < img.NodeCount(); i++ {
		if img.NodeKind(uint32(i)) == kgimg.ItemNode {
			items = append(items, uint32(i))
		}
	}
	sort.Slice(items, func(i, j int) bool { return graph.Less(img, items[i], items[j]) })
	cells := map[string][]*overviewCell{} // by grade label, strands in first-seen order
	total := 0
	strands := map[uint32]bool{}
	down := img.Adjacency(kgimg.HasChild, kgimg.Out)
	for _, n := range items {
		typ := img.NodeString(n, kgimg.NodeStatementType)
		if gradeTypes[typ] {
			continue
		}
		path := graph.FirstPath(img, n, maxWalk)
		cell := &overviewCell{none: true}
		for _, a := range path {
			if img.NodeKind(a) == kgimg.ItemNode && !gradeTypes[img.NodeString(a, kgimg.NodeStatementType)] {
				cell = &overviewCell{strand: a}
				break
			}
		}
		if !cell.none && cell.strand == n {
			if kids, _ := down.Row(n); kids.Len() > 0 {
				continue // a strand itself
			}
			cell = &overviewCell{none: true}
		}
		if !cell.none {
			strands[cell.strand] = true
		}
		total++
		grades := []string{}
		for _, g := range img.NodeGradeLevel(n).Strings() {
			if l, ok := labelOf[g]; ok {
				g = l
			}
			grades = append(grades, g)
		}
		if len(grades) == 0 {
			grades = []string{"(no grade)"}
		}
		counted := map[string]bool{}
		for _, g := range grades {
			if counted[g] {
				continue
			}
			counted[g] = true
			var c *overviewCell
			for _, x := range cells[g] {
				if x.none == cell.none && x.strand == cell.strand {
					c = x
				}
			}
			if c == nil {
				c = &overviewCell{strand: cell.strand, none: cell.none, counts: map[string]int{}}
				cells[g] = append(cells[g], c)
			}
			c.counts[typ]++
			c.members = append(c.members, n)
		}
	}

	grades := make([]string, 0, len(cells))
	for g := range cells {
		grades = append(grades, g)
	}
	sort.Slice(grades, func(i, j int) bool {
		ri, oki := gradeRank[grades[i]]
		rj, okj := gradeRank[grades[j]]
		switch {
		case oki && okj:
			return ri < rj
		case oki != okj:
			return oki
		case (grades[i] == "(no grade)") != (grades[j] == "(no grade)"):
			return grades[j] == "(no grade)"
		}
		return grades[i] < grades[j]
	})

	d := &render.Diagram{Overview: true, Title: img.NodeString(img.RootNode(), kgimg.NodeName),
		Subtitle: p.SnapshotID() + " · overview by grade and strand"}
	if d.Title == "" {
		d.Title = p.FrameworkID()
	}
	for _, g := range grades {
		list := cells[g]
		sort.SliceStable(list, func(i, j int) bool {
			if list[i].none != list[j].none {
				return !list[i].none
			}
			return !list[i].none && graph.Less(img, list[i].strand, list[j].strand)
		})
	}
	// Runs of adjacent grades with the same cells are drawn as one column.
	var runs [][]string
	for _, g := range grades {
		if k := len(runs) - 1; k >= 0 && sameCells(cells[runs[k][0]], cells[g]) {
			runs[k] = append(runs[k], g)
			continue
		}
		runs = append(runs, []string{g})
	}
	var merged []string
	cut := false
	for gi, run := range runs {
		if gi == OverviewMaxGrades {
			var rest []string
			for _, r := range runs[gi:] {
				rest = append(rest, r...)
			}
			d.Notes = append(d.Notes, fmt.Sprintf("+%d more grades not drawn: %s.", len(rest), strings.Join(rest, ", ")))
			cut = true
			break
		}
		sec := render.Section{Title: run[0]}
		if len(run) > 1 {
			sec.Title = run[0] + "–" + run[len(run)-1]
			merged = append(merged, fmt.Sprintf("%s: the grades %s hold the same standards in the same strands, drawn once.", sec.Title, strings.Join(run, ", ")))
		}
		list := cells[run[0]]
		rest, restStd := 0, 0
		for si, c := range list {
			if si >= OverviewMaxStrands {
				rest++
				for _, k := range c.counts {
					restStd += k
				}
				continue
			}
			var node render.Node
			if c.none {
				node = render.Node{ID: fmt.Sprintf("g%d:none", gi), Kind: render.Grouping, Heading: "Not in a strand"}
			} else {
				node = lab.node(fmt.Sprintf("g%d:%s", gi, img.NodeString(c.strand, kgimg.NodeID)), render.Grouping, c.strand)
			}
			node.Detail = countsLine(c.counts, typeRank)
			sec.Nodes = append(sec.Nodes, node)
		}
		if rest > 0 {
			m := more(fmt.Sprintf("g%d:more", gi), rest, "strands")
			m.Heading += fmt.Sprintf(" (%d standards)", restStd)
			sec.Nodes = append(sec.Nodes, m)
			cut = true
		}
		d.Columns = append(d.Columns, render.Column{Sections: []render.Section{sec}})
	}
	d.Notes = append(d.Notes, fmt.Sprintf("%d standards in %d strands across %d grades; each box counts a strand's standards "+
		"in that grade by statement type.", total, len(strands), len(grades)))
	d.Notes = append(d.Notes, merged...)
	if cut {
		d.Notes = append(d.Notes, fmt.Sprintf("Bounds: at most %d grades and %d strands per grade are drawn; a \"+k more\" box counts the rest.",
			OverviewMaxGrades, OverviewMaxStrands))
	}
	return withRightsNotes(d, p, lab.text)
}

// countsLine is "Content Standard: 3 · Indicator: 9", in the hierarchy's
// statement-type order.
func countsLine(counts map[string]int, rank map[string]int) string {
	types := make([]string, 0, len(counts))
	for t := range counts {
		types = append(types, t)
	}
	sort.Slice(types, func(i, j int) bool {
		ri, rj := rank[types[i]], rank[types[j]]
		if ri == 0 {
			ri = 1 << 20
		}
		if rj == 0 {
			rj = 1 << 20
		}
		if ri != rj {
			return ri < rj
		}
		return types[i] < types[j]
	})
	parts := make([]string, len(types))
	for i, t := range types {
		name := t
		if name == "" {
			name = "Standard"
		}
		parts[i] = fmt.Sprintf("%s: %d", name, counts[t])
	}
	return strings.Join(parts, " · ")
}
