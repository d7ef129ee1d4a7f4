package diff

import (
	"fmt"
	"io"
	"strings"
)

// mdEscaper escapes the characters Markdown would read as markup, and keeps
// a value on its table row.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "~", `\~`, "|", `\|`, "[", `\[`, "]", `\]`,
	"<", "&lt;", ">", "&gt;", "#", `\#`, "\r", " ", "\n", "<br>",
)

func md(s string) string { return mdEscaper.Replace(s) }

func mdLabel(n nodeRef) string {
	switch {
	case n.Root:
		return "(framework root)"
	case n.Code != "":
		return md(n.Code) + " (" + md(n.ID) + ")"
	}
	return md(n.ID)
}

func mdStatement(s *string) string {
	if s == nil {
		return ""
	}
	return md(*s)
}

// wordDiffMarkdown renders a word diff: deletions struck through,
// insertions in bold.
func wordDiffMarkdown(ops []wordOp) string {
	parts := make([]string, len(ops))
	for i, op := range ops {
		t := md(op.Text)
		switch op.Op {
		case opDelete:
			t = "~~" + t + "~~"
		case opInsert:
			t = "**" + t + "**"
		}
		parts[i] = t
	}
	return strings.Join(parts, " ")
}

func writeMarkdown(w io.Writer, r *Report) {
	fmt.Fprintf(w, "# Changes in %s\n\n", md(r.FrameworkID))
	fmt.Fprintln(w, "| | snapshot | read from | standards | learning components | supports edges | progression edges | publisher relations |")
	fmt.Fprintln(w, "|---|---|---|---:|---:|---:|---:|---:|")
	for _, s := range []struct {
		name string
		side side
	}{{"old", r.Old}, {"new", r.New}} {
		fmt.Fprintf(w, "| %s | %s | %s %s | %d | %d | %d | %d | %d |\n", s.name, md(s.side.SnapshotID), s.side.Format, md(s.side.Source),
			s.side.Standards, s.side.LearningComponents, s.side.SupportsEdges, s.side.ProgressionEdges, s.side.PublisherRelations)
	}
	if r.Equal {
		fmt.Fprint(w, "\nNo differences.\n")
		return
	}
	s := r.Summary
	fmt.Fprint(w, "\n## Summary\n\n| change | count |\n|---|---:|\n")
	for _, row := range []struct {
		name string
		n    int
	}{
		{"rights, profile and metadata fields changed", s.MetadataChanged},
		{"standards added", s.StandardsAdded}, {"standards removed", s.StandardsRemoved}, {"standards changed", s.StandardsChanged},
		{"— reworded", s.Reworded}, {"— recoded", s.Recoded}, {"— regraded", s.Regraded}, {"— moved", s.Moved}, {"— reidentified", s.Reidentified},
		{"— retyped", s.Retyped}, {"parents whose children were reordered", s.ChildrenReordered},
		{"learning components added", s.ComponentsAdded}, {"learning components removed", s.ComponentsRemoved},
		{"learning components reworded", s.ComponentsReworded},
		{"supports edges added", s.SupportsAdded}, {"supports edges removed", s.SupportsRemoved}, {"supports edges rescored", s.SupportsRescored},
		{"progression edges added", s.EdgesAdded}, {"progression edges removed", s.EdgesRemoved},
		{"publisher relations added", s.PublisherAdded}, {"publisher relations removed", s.PublisherRemoved},
	} {
		if row.n > 0 { // a review document lists what changed
			fmt.Fprintf(w, "| %s | %d |\n", row.name, row.n)
		}
	}
	fmt.Fprintf(w, "\nStandards present in both were matched by node ID (%d), CASE UUID (%d) or statement code (%d).\n",
		r.MatchedBy.NodeID, r.MatchedBy.CaseUUID, r.MatchedBy.StatementCode)
	if len(r.MetadataChanged) > 0 {
		fmt.Fprintf(w, "\n## Rights, profile and metadata (%d changed)\n\n| field | old | new |\n|---|---|---|\n", len(r.MetadataChanged))
		for _, f := range r.MetadataChanged {
			fmt.Fprintf(w, "| %s | %s | %s |\n", md(f.Field), orNone(md(f.Old)), orNone(md(f.New)))
		}
	}
	for _, l := range []struct {
		title string
		list  []standard
	}{{"Standards added", r.StandardsAdded}, {"Standards removed", r.StandardsRemoved}} {
		if len(l.list) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n## %s (%d)\n\n| standard | type | grades | under | statement |\n|---|---|---|---|---|\n", l.title, len(l.list))
		for _, st := range l.list {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", mdLabel(nodeRef{ID: st.ID, Code: st.Code}), md(typeText(st.Type)), md(grades(st.Grades)),
				labels(st.Parents, mdLabel), mdStatement(st.Statement))
		}
	}
	if len(r.StandardsChanged) > 0 {
		fmt.Fprintf(w, "\n## Standards changed (%d)\n", len(r.StandardsChanged))
		for _, c := range r.StandardsChanged {
			writeMarkdownChange(w, c)
		}
	}
	if len(r.ChildrenReordered) > 0 {
		fmt.Fprintf(w, "\n## Children reordered (%d parents)\n\nThe children under the parent on both sides, in each snapshot's order.\n\n| parent | order | old | new |\n|---|---|---|---|\n", len(r.ChildrenReordered))
		for _, ro := range r.ChildrenReordered {
			order := md(basisText(ro.NewBasis))
			if ro.OldBasis != ro.NewBasis {
				order += " (was " + md(basisText(ro.OldBasis)) + ")"
			}
			short := func(n nodeRef) string { return md(shortLabel(n)) }
			fmt.Fprintf(w, "| %s | %s | %s | %s |\n", mdLabel(ro.Parent), order, listed(ro.Old, short), listed(ro.New, short))
		}
	}
	for _, l := range []struct {
		title string
		list  []component
	}{{"Learning components added", r.ComponentsAdded}, {"Learning components removed", r.ComponentsRemoved}} {
		if len(l.list) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n## %s (%d)\n\n| component | statement |\n|---|---|\n", l.title, len(l.list))
		for _, c := range l.list {
			fmt.Fprintf(w, "| %s | %s |\n", md(c.ID), mdStatement(c.Statement))
		}
	}
	if len(r.ComponentsReworded) > 0 {
		fmt.Fprintf(w, "\n## Learning components reworded (%d)\n\n| component | statement |\n|---|---|\n", len(r.ComponentsReworded))
		for _, c := range r.ComponentsReworded {
			fmt.Fprintf(w, "| %s | %s |\n", md(c.ID), wordDiffMarkdown(c.StatementDiff))
		}
	}
	writeMarkdownGroups(w, titleSupports, fmt.Sprintf("%d added, %d removed, %d rescored", len(r.SupportsAdded), len(r.SupportsRemoved), len(r.SupportsRescored)),
		groupSupports(r.SupportsAdded, r.SupportsRemoved, r.SupportsRescored))
	writeMarkdownGroups(w, titleProgression, fmt.Sprintf("%d added, %d removed", len(r.EdgesAdded), len(r.EdgesRemoved)),
		groupProgressions(r.EdgesAdded, r.EdgesRemoved))
	writeMarkdownGroups(w, titlePublisher, fmt.Sprintf("%d added, %d removed", len(r.PublisherAdded), len(r.PublisherRemoved)),
		groupPublisher(r.PublisherAdded, r.PublisherRemoved))
}

// markWords spells an edge line's mark for a review document.
var markWords = map[string]string{"+": "added", "-": "removed", "~": "rescored"}

// writeMarkdownGroups writes one kind of edge as a list per standard.
func writeMarkdownGroups(w io.Writer, title, counts string, groups []edgeGroup) {
	if len(groups) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## %s%s\n\n%s.\n\n", strings.ToUpper(title[:1]), md(title[1:]), counts)
	for _, g := range groups {
		if g.Head == nil {
			fmt.Fprintln(w, "- (both ends outside the package)")
		} else {
			fmt.Fprintf(w, "- %s\n", mdWithStatement(*g.Head))
		}
		for _, l := range g.Lines {
			other := md(extText(l.External))
			if l.Other != nil {
				other = mdWithStatement(*l.Other)
			}
			fmt.Fprintf(w, "  - %s: %s %s", markWords[l.Mark], md(l.Verb), other)
			if l.Note != "" {
				fmt.Fprintf(w, " (%s)", md(l.Note))
			}
			fmt.Fprintln(w)
		}
	}
}

func mdWithStatement(n nodeRef) string {
	if n.Statement == nil || *n.Statement == "" {
		return mdLabel(n)
	}
	return mdLabel(n) + ": " + md(clip(*n.Statement, 160))
}

func writeMarkdownChange(w io.Writer, c change) {
	fmt.Fprintf(w, "\n### %s: %s\n\nMatched by %s.\n\n", mdLabel(nodeRef{ID: c.New.ID, Code: c.New.Code}), strings.Join(c.Changes, ", "), c.MatchedBy)
	for _, k := range c.Changes {
		switch k {
		case changeReworded:
			if c.StatementDiff != nil {
				fmt.Fprintf(w, "- statement: %s\n", wordDiffMarkdown(c.StatementDiff))
			} else {
				fmt.Fprintln(w, "- statement: changed")
			}
		case changeRecoded:
			fmt.Fprintf(w, "- code: %s → %s\n", orNone(md(c.Old.Code)), orNone(md(c.New.Code)))
		case changeRegraded:
			fmt.Fprintf(w, "- grades: %s → %s\n", md(grades(c.Old.Grades)), md(grades(c.New.Grades)))
		case changeMoved:
			fmt.Fprintf(w, "- under: %s → %s\n", labels(c.Old.Parents, mdLabel), labels(c.New.Parents, mdLabel))
		case changeRetyped:
			fmt.Fprintf(w, "- statement type: %s → %s\n", md(typeText(c.Old.Type)), md(typeText(c.New.Type)))
		case changeReidentified:
			if c.Old.ID != c.New.ID {
				fmt.Fprintf(w, "- node ID: %s → %s\n", md(c.Old.ID), md(c.New.ID))
			}
			if c.Old.CaseUUID != c.New.CaseUUID {
				fmt.Fprintf(w, "- CASE UUID: %s → %s\n", orNone(md(c.Old.CaseUUID)), orNone(md(c.New.CaseUUID)))
			}
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
