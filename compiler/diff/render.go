package diff

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/kgc-project/kgc/internal/termsafe"
)

// Output formats.
const (
	FormatText     = "text"
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
)

// Formats lists the output formats.
var Formats = []string{FormatText, FormatMarkdown, FormatJSON}

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
	case FormatMarkdown, FormatText:
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
func label(n NodeRef) string {
	switch {
	case n.Root:
		return "(framework root)"
	case n.Code != "":
		return n.Code + " (" + n.ID + ")"
	}
	return n.ID
}

func stdLabel(s Standard) string { return label(NodeRef{ID: s.ID, Code: s.Code}) }

func labels(refs []NodeRef, one func(NodeRef) string) string {
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

// summaryLine is the one-line summary both text and Markdown print.
func summaryLine(s Summary) string {
	return fmt.Sprintf("standards: %d added, %d removed, %d changed (%d reworded, %d recoded, %d regraded, %d moved, %d reidentified); "+
		"learning components: %d added, %d removed, %d reworded; supports edges: %d added, %d removed; progression edges: %d added, %d removed",
		s.StandardsAdded, s.StandardsRemoved, s.StandardsChanged, s.Reworded, s.Recoded, s.Regraded, s.Moved, s.Reidentified,
		s.ComponentsAdded, s.ComponentsRemoved, s.ComponentsReworded, s.SupportsAdded, s.SupportsRemoved, s.EdgesAdded, s.EdgesRemoved)
}

func sideLine(s Side) string {
	return fmt.Sprintf("%s (%s %s): %d standards, %d learning components, %d supports edges, %d progression edges",
		s.SnapshotID, s.Format, s.Source, s.Standards, s.LearningComponents, s.SupportsEdges, s.ProgressionEdges)
}

// wordDiffText renders a word diff as git's --word-diff=plain does.
func wordDiffText(ops []WordOp) string {
	parts := make([]string, len(ops))
	for i, op := range ops {
		t := oneLine(op.Text)
		switch op.Op {
		case OpDelete:
			t = "[-" + t + "-]"
		case OpInsert:
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
	for _, l := range []struct {
		title string
		mark  string
		list  []Standard
	}{{"standards added", "+", r.StandardsAdded}, {"standards removed", "-", r.StandardsRemoved}} {
		if len(l.list) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (%d):\n", l.title, len(l.list))
		for _, s := range l.list {
			fmt.Fprintf(w, "  %s %s  grades %s  under %s\n", l.mark, stdLabel(s), grades(s.Grades), labels(s.Parents, label))
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
	for _, l := range []struct {
		title, mark string
		list        []Component
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
	for _, l := range []struct {
		title, mark string
		list        []GraphEdge
	}{{"supports edges added", "+", r.SupportsAdded}, {"supports edges removed", "-", r.SupportsRemoved},
		{"progression edges added", "+", r.EdgesAdded}, {"progression edges removed", "-", r.EdgesRemoved}} {
		if len(l.list) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (%d):\n", l.title, len(l.list))
		for _, e := range l.list {
			fmt.Fprintf(w, "  %s %s %s -> %s\n", l.mark, e.Type, label(e.Source), label(e.Target))
		}
	}
}

func writeTextChange(w io.Writer, c Change) {
	fmt.Fprintf(w, "  ~ %s  %s (matched by %s)\n", stdLabel(c.New), strings.Join(c.Changes, ", "), c.MatchedBy)
	for _, k := range c.Changes {
		switch k {
		case ChangeReworded:
			if c.StatementDiff != nil {
				fmt.Fprintf(w, "      statement: %s\n", wordDiffText(c.StatementDiff))
			} else {
				fmt.Fprintln(w, "      statement: changed")
			}
		case ChangeRecoded:
			fmt.Fprintf(w, "      code: %q -> %q\n", c.Old.Code, c.New.Code)
		case ChangeRegraded:
			fmt.Fprintf(w, "      grades: %s -> %s\n", grades(c.Old.Grades), grades(c.New.Grades))
		case ChangeMoved:
			fmt.Fprintf(w, "      parents: %s -> %s\n", labels(c.Old.Parents, label), labels(c.New.Parents, label))
		case ChangeReidentified:
			if c.Old.ID != c.New.ID {
				fmt.Fprintf(w, "      node ID: %s -> %s\n", c.Old.ID, c.New.ID)
			}
			if c.Old.CaseUUID != c.New.CaseUUID {
				fmt.Fprintf(w, "      CASE UUID: %s -> %s\n", c.Old.CaseUUID, c.New.CaseUUID)
			}
		}
	}
}
