package diff

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kgc-project/kgc/internal/termsafe"
	"github.com/kgc-project/kgc/kgimg"
)

// Output formats.
const (
	FormatText     = "text"
	formatMarkdown = "markdown"
	FormatJSON     = "json"
)

// Formats lists the output formats.
var Formats = []string{FormatText, formatMarkdown, FormatJSON}

// Write renders the report in a format: text (for a terminal; statement
// diffs as [-deleted-]{+inserted+}), markdown (a review document; ~~deleted~~
// **inserted**) or json (the Report, indented, fields in struct order).
func Write(w io.Writer, r *Report, format string) error {
	bw := bufio.NewWriter(w)
	switch format {
	case FormatJSON:
		enc := json.NewEncoder(termsafe.NewWriter(bw)) // C1 and bidi controls as \u escapes
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			return err
		}
	case formatMarkdown, FormatText:
		// Statements, codes and IDs come from the snapshots: escape the
		// controls a hostile one could use to drive the terminal.
		tw := termsafe.NewWriter(bw)
		if format == FormatText {
			writeText(tw, r)
		} else {
			writeMarkdown(tw, r)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
	}
	return bw.Flush()
}

// oneLine shows line breaks of a statement as \n, so each entry stays on
// its lines.
func oneLine(s string) string {
	return strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(s)
}

// label names a node for text: its code and ID, or its ID.
func label(n nodeRef) string {
	switch {
	case n.Root:
		return "(framework root)"
	case n.Code != "":
		return n.Code + " (" + n.ID + ")"
	}
	return n.ID
}

func stdLabel(s standard) string { return label(nodeRef{ID: s.ID, Code: s.Code}) }

func labels(refs []nodeRef, one func(nodeRef) string) string {
	if len(refs) == 0 {
		return "(none)"
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = one(r)
	}
	return strings.Join(out, ", ")
}

func grades(g []string) string {
	if len(g) == 0 {
		return "(none)"
	}
	return strings.Join(g, ", ")
}

// summaryLine is the one-line summary both text and Markdown print: every
// kind of change with a count, the others left out.
func summaryLine(s summary) string {
	var parts []string
	part := func(what string, counts ...any) {
		var ps []string
		for k := 0; k < len(counts); k += 2 {
			if n := counts[k+1].(int); n > 0 {
				ps = append(ps, fmt.Sprintf("%d %s", n, counts[k]))
			}
		}
		if len(ps) > 0 {
			parts = append(parts, what+": "+strings.Join(ps, ", "))
		}
	}
	part("rights, profile and metadata", "changed", s.MetadataChanged)
	part("standards", "added", s.StandardsAdded, "removed", s.StandardsRemoved, "changed", s.StandardsChanged)
	if s.StandardsChanged > 0 {
		part("  changes", "reworded", s.Reworded, "recoded", s.Recoded, "regraded", s.Regraded, "moved", s.Moved,
			"reidentified", s.Reidentified, "retyped", s.Retyped)
		parts[len(parts)-1] = strings.TrimPrefix(parts[len(parts)-1], "  changes: ")
		parts[len(parts)-2] += " (" + parts[len(parts)-1] + ")"
		parts = parts[:len(parts)-1]
	}
	if s.ChildrenReordered == 1 {
		part("children reordered", "parent", 1)
	} else {
		part("children reordered", "parents", s.ChildrenReordered)
	}
	part("learning components", "added", s.ComponentsAdded, "removed", s.ComponentsRemoved, "reworded", s.ComponentsReworded)
	part("supports edges", "added", s.SupportsAdded, "removed", s.SupportsRemoved, "rescored", s.SupportsRescored)
	part("progression edges", "added", s.EdgesAdded, "removed", s.EdgesRemoved)
	part("publisher relations", "added", s.PublisherAdded, "removed", s.PublisherRemoved)
	if len(parts) == 0 {
		return "no differences"
	}
	return strings.Join(parts, "; ")
}

func sideLine(s side) string {
	return fmt.Sprintf("%s (%s %s): %d standards, %d learning components, %d supports edges, %d progression edges, %d publisher relations",
		s.SnapshotID, s.Format, s.Source, s.Standards, s.LearningComponents, s.SupportsEdges, s.ProgressionEdges, s.PublisherRelations)
}

// basisText says what an order of children rests on.
func basisText(b string) string {
	if p := kgimg.OrderPhrase(b); p != "" {
		return p
	}
	return "(no children)"
}

// valueText shows a metadata value, quoted, or (none).
func valueText(v string) string {
	if v == "" {
		return "(none)"
	}
	return strconv.Quote(v)
}

// Edge sections: each kind apart, the three never mixed.
const (
	titleSupports    = "supports edges (learning component → standard), by standard"
	titleProgression = "progression edges (generated learning progressions), by standard"
	titlePublisher   = "publisher relations (asserted by the framework's publisher), by standard"
)

// maxListed bounds the children a text or Markdown reorder lists per side
// (JSON lists them all).
const maxListed = 40

// wordDiffText renders a word diff as git's --word-diff=plain does.
func wordDiffText(ops []wordOp) string {
	parts := make([]string, len(ops))
	for i, op := range ops {
		t := oneLine(op.Text)
		switch op.Op {
		case opDelete:
			t = "[-" + t + "-]"
		case opInsert:
			t = "{+" + t + "+}"
		}
		parts[i] = t
	}
	return strings.Join(parts, " ")
}

func writeText(w io.Writer, r *Report) {
	fmt.Fprintf(w, "kgc diff %s\n--- old %s\n+++ new %s\n", r.FrameworkID, sideLine(r.Old), sideLine(r.New))
	if r.Equal {
		fmt.Fprintln(w, "no differences")
		return
	}
	fmt.Fprintf(w, "%s\nmatched standards: %d by node ID, %d by CASE UUID, %d by statement code\n",
		summaryLine(r.Summary), r.MatchedBy.NodeID, r.MatchedBy.CaseUUID, r.MatchedBy.StatementCode)
	if len(r.MetadataChanged) > 0 {
		fmt.Fprintf(w, "\nrights, profile and metadata changed (%d):\n", len(r.MetadataChanged))
		for _, f := range r.MetadataChanged {
			fmt.Fprintf(w, "  ~ %s: %s -> %s\n", f.Field, valueText(f.Old), valueText(f.New))
		}
	}
	for _, l := range []struct {
		title string
		mark  string
		list  []standard
	}{{"standards added", "+", r.StandardsAdded}, {"standards removed", "-", r.StandardsRemoved}} {
		if len(l.list) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (%d):\n", l.title, len(l.list))
		for _, s := range l.list {
			fmt.Fprintf(w, "  %s %s  %s  grades %s  under %s\n", l.mark, stdLabel(s), typeText(s.Type), grades(s.Grades), labels(s.Parents, label))
			if s.Statement != nil {
				fmt.Fprintf(w, "      %s\n", oneLine(*s.Statement))
			}
		}
	}
	if len(r.StandardsChanged) > 0 {
		fmt.Fprintf(w, "\nstandards changed (%d):\n", len(r.StandardsChanged))
		for _, c := range r.StandardsChanged {
			writeTextChange(w, c)
		}
	}
	if len(r.ChildrenReordered) > 0 {
		fmt.Fprintf(w, "\nchildren reordered under %d parent(s) (the children under the parent on both sides, in each snapshot's order):\n", len(r.ChildrenReordered))
		for _, ro := range r.ChildrenReordered {
			fmt.Fprintf(w, "  ~ %s: %s", label(ro.Parent), basisText(ro.NewBasis))
			if ro.OldBasis != ro.NewBasis {
				fmt.Fprintf(w, " (was %s)", basisText(ro.OldBasis))
			}
			fmt.Fprintf(w, "\n      old: %s\n      new: %s\n", listed(ro.Old, shortLabel), listed(ro.New, shortLabel))
		}
	}
	for _, l := range []struct {
		title, mark string
		list        []component
	}{{"learning components added", "+", r.ComponentsAdded}, {"learning components removed", "-", r.ComponentsRemoved}} {
		if len(l.list) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (%d):\n", l.title, len(l.list))
		for _, c := range l.list {
			fmt.Fprintf(w, "  %s %s\n", l.mark, c.ID)
			if c.Statement != nil {
				fmt.Fprintf(w, "      %s\n", oneLine(*c.Statement))
			}
		}
	}
	if len(r.ComponentsReworded) > 0 {
		fmt.Fprintf(w, "\nlearning components reworded (%d):\n", len(r.ComponentsReworded))
		for _, c := range r.ComponentsReworded {
			fmt.Fprintf(w, "  ~ %s\n", c.ID)
			if c.StatementDiff != nil {
				fmt.Fprintf(w, "      statement: %s\n", wordDiffText(c.StatementDiff))
			}
		}
	}
	writeTextGroups(w, titleSupports, fmt.Sprintf("%d added, %d removed, %d rescored", len(r.SupportsAdded), len(r.SupportsRemoved), len(r.SupportsRescored)),
		groupSupports(r.SupportsAdded, r.SupportsRemoved, r.SupportsRescored))
	writeTextGroups(w, titleProgression, fmt.Sprintf("%d added, %d removed", len(r.EdgesAdded), len(r.EdgesRemoved)),
		groupProgressions(r.EdgesAdded, r.EdgesRemoved))
	writeTextGroups(w, titlePublisher, fmt.Sprintf("%d added, %d removed", len(r.PublisherAdded), len(r.PublisherRemoved)),
		groupPublisher(r.PublisherAdded, r.PublisherRemoved))
}

// writeTextGroups writes one kind of edge, grouped by standard, each end
// with its code and statement.
func writeTextGroups(w io.Writer, title, counts string, groups []edgeGroup) {
	if len(groups) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s: %s\n", title, counts)
	for _, g := range groups {
		if g.Head == nil {
			fmt.Fprintln(w, "  (both ends outside the package)")
		} else {
			fmt.Fprintf(w, "  %s\n", withStatement(*g.Head))
		}
		for _, l := range g.Lines {
			other := extText(l.External)
			if l.Other != nil {
				other = withStatement(*l.Other)
			}
			if l.Other == nil && l.External == nil {
				other = ""
			}
			fmt.Fprintf(w, "    %s %s %s", l.Mark, l.Verb, other)
			if l.Note != "" {
				fmt.Fprintf(w, "  [%s]", l.Note)
			}
			fmt.Fprintln(w)
		}
	}
}

// withStatement names a node and the start of its statement.
func withStatement(n nodeRef) string {
	if n.Statement == nil || *n.Statement == "" {
		return label(n)
	}
	return label(n) + "  " + clip(oneLine(*n.Statement), 100)
}

// shortLabel names a node by its code alone where it has one.
func shortLabel(n nodeRef) string {
	if n.Code != "" {
		return n.Code
	}
	return label(n)
}

// listed joins at most maxListed names.
func listed(refs []nodeRef, one func(nodeRef) string) string {
	if len(refs) <= maxListed {
		return labels(refs, one)
	}
	return labels(refs[:maxListed], one) + fmt.Sprintf(", … %d more", len(refs)-maxListed)
}

// typeText shows a statement type, or (no type).
func typeText(t string) string {
	if t == "" {
		return "(no type)"
	}
	return t
}

func writeTextChange(w io.Writer, c change) {
	fmt.Fprintf(w, "  ~ %s  %s (matched by %s)\n", stdLabel(c.New), strings.Join(c.Changes, ", "), c.MatchedBy)
	for _, k := range c.Changes {
		switch k {
		case changeReworded:
			if c.StatementDiff != nil {
				fmt.Fprintf(w, "      statement: %s\n", wordDiffText(c.StatementDiff))
			} else {
				fmt.Fprintln(w, "      statement: changed")
			}
		case changeRecoded:
			fmt.Fprintf(w, "      code: %q -> %q\n", c.Old.Code, c.New.Code)
		case changeRegraded:
			fmt.Fprintf(w, "      grades: %s -> %s\n", grades(c.Old.Grades), grades(c.New.Grades))
		case changeMoved:
			fmt.Fprintf(w, "      parents: %s -> %s\n", labels(c.Old.Parents, label), labels(c.New.Parents, label))
		case changeReidentified:
			if c.Old.ID != c.New.ID {
				fmt.Fprintf(w, "      node ID: %s -> %s\n", c.Old.ID, c.New.ID)
			}
			if c.Old.CaseUUID != c.New.CaseUUID {
				fmt.Fprintf(w, "      CASE UUID: %s -> %s\n", c.Old.CaseUUID, c.New.CaseUUID)
			}
		case changeRetyped:
			fmt.Fprintf(w, "      statement type: %s -> %s\n", typeText(c.Old.Type), typeText(c.New.Type))
		}
	}
}
