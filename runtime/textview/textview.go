// Package textview renders query results as the compact, line-oriented text
// a model reads: the text block of a tool result, for hosts that pass the
// model nothing else. Each answer holds the facts needed to answer and to go
// on — every ID, code, statement, grade and type label, the URI to cite,
// hierarchy paths as labels, paging state, warnings, and the attribution
// once — in a stable layout, at a fraction of the JSON's bytes; the complete
// typed result stays in structuredContent.
//
// Rendering is deterministic (the same result gives the same bytes) and
// never fails: a result textview does not know is left to the caller, which
// sends canonical JSON instead. The five progression tools, read_evidence and
// get_workflow_instructions keep canonical JSON text (Render reports false
// for their results).
package textview

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kgc-project/kgc/runtime/query"
)

// Render returns the readable text of a tool result, and false for a result
// whose text stays canonical JSON. request is the paged tools' effective
// request (nil for the others).
func Render(result any, request map[string]any) (string, bool) {
	w := &writer{}
	switch r := result.(type) {
	case *query.CapabilitiesResult:
		capabilities(w, r)
	case *query.FrameworkList:
		frameworkList(w, r)
	case *query.FrameworkResult:
		framework(w, r)
	case *query.StatisticsResult:
		statistics(w, r)
	case *query.SearchResult[query.StandardHit]:
		standardSearch(w, r, request)
	case *query.SearchResult[query.ComponentHit]:
		componentSearch(w, r, request)
	case *query.StandardResult:
		standardText(w, r)
	case *query.ContextResult:
		standardContext(w, r)
	case *query.StandardComponentsResult:
		standardComponents(w, r)
	case *query.ComponentResult:
		component(w, r, nil)
	case *query.ComponentContextResult:
		component(w, &r.ComponentResult, r.SupportedStandards)
	case *query.ComparisonResult:
		comparison(w, r)
	case *query.PublisherRelationsResult:
		publisherRelations(w, r)
	default:
		return "", false
	}
	return w.String(), true
}

// writer builds one answer.
type writer struct{ strings.Builder }

// line writes one line.
func (w *writer) line(format string, a ...any) {
	if len(a) == 0 {
		w.WriteString(format)
	} else {
		fmt.Fprintf(w, format, a...)
	}
	w.WriteByte('\n')
}

// Bounds of the text. Statements are never cut; labels in paths and lists
// are, marked with an ellipsis.
const (
	labelChars = 80  // a hierarchy label
	briefChars = 160 // a statement shown only to identify a record
)

// flat collapses every run of white space (newlines included) to one space,
// so each record stays on its line.
func flat(s string) string {
	if !strings.ContainsFunc(s, unicode.IsSpace) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// clip flattens s and cuts it to n characters, marking the cut.
func clip(s string, n int) string {
	s = flat(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n-1 {
			return strings.TrimRight(s[:k], " ") + "…"
		}
		i++
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// or returns s, or alt where s is empty.
func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// join joins the non-empty parts.
func join(sep string, parts ...string) string {
	out := parts[:0:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// list joins values with ", ".
func list(values []string) string { return strings.Join(values, ", ") }

// yes spells a boolean.
func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// plural writes n and the noun, pluralized with s.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "ch") || strings.HasSuffix(noun, "s") {
		return strconv.Itoa(n) + " " + noun + "es"
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// path renders a hierarchy path's labels: the framework root and the record
// itself left out (they are named elsewhere), each label clipped.
func path(labels []string) string {
	if len(labels) <= 2 {
		return ""
	}
	inner := labels[1 : len(labels)-1]
	out := make([]string, len(inner))
	for i, l := range inner {
		out[i] = clip(l, labelChars)
	}
	return strings.Join(out, " > ")
}

// placement renders where a standard sits: the path through each parent it
// lists, each with the parent's ID to open, how many more parents it has,
// and why it hangs from the root when its parent could not be resolved. The
// first line follows "in: ", the others "also in: ".
func placement(loc query.Location) []string {
	if loc.RootFallback {
		return []string{"top level, because the source's parent for it could not be resolved (attached to the framework root as a fallback)"}
	}
	if len(loc.Parents) == 0 {
		return []string{or(path(loc.HierarchyPath), "top level")}
	}
	var out []string
	for _, p := range loc.Parents {
		// path leaves out the root and the last label: keep the parent's.
		out = append(out, or(path(append(slices.Clone(p.Path), "")), "top level")+" (parent "+join(" ", deref(p.StatementType), p.NodeID)+")")
	}
	if more := loc.ParentCount - len(loc.Parents); more > 0 {
		noun := "parents"
		if more == 1 {
			noun = "parent"
		}
		out[len(out)-1] += fmt.Sprintf("; %d more %s: get_standard_context lists every path", more, noun)
	}
	return out
}

// placeLines writes a standard's placement: "in:" and "also in:" lines at
// the indent given, or "in: as hit k" when an earlier hit (same) sits in
// exactly the same place.
func placeLines(w *writer, indent string, loc query.Location, same int) {
	if same > 0 {
		w.line("%sin: as hit %d", indent, same)
		return
	}
	for i, l := range placement(loc) {
		if i == 0 {
			w.line("%sin: %s", indent, l)
		} else {
			w.line("%salso in: %s", indent, l)
		}
	}
}

// placeKey identifies a placement: hits with equal keys sit in one place.
func placeKey(loc query.Location) string {
	k := fmt.Sprint(loc.RootFallback, loc.ParentCount)
	for _, p := range loc.Parents {
		k += " " + p.NodeID
	}
	if len(loc.Parents) == 0 {
		k += " " + strings.Join(loc.HierarchyPath[:max(0, len(loc.HierarchyPath)-1)], "\x00")
	}
	return k
}

// gradeLabel is a standard's grade: its local labels, else its grade levels.
func gradeLabel(f query.FacetEvidence) string {
	if len(f.ResolvedLocalGradeLabels) > 0 {
		return list(f.ResolvedLocalGradeLabels)
	}
	if len(f.NodeGradeLevels) > 0 {
		return "grade " + list(f.NodeGradeLevels)
	}
	return ""
}

// typeLabel is a standard's statement type, with its normalized type where
// it is a grouping.
func typeLabel(n query.StandardNode) string {
	t := deref(n.StatementType)
	if deref(n.NormalizedStatementType) == "Standard Grouping" {
		return join(" ", t, "(grouping)")
	}
	return t
}

// attribution is the rights line every answer carries once per package.
func attribution(r query.Rights) string {
	line := "Attribution: " + flat(r.AttributionStatement) + " License: " + r.SourceLicense
	if r.LicenseURI != nil {
		line += " (" + *r.LicenseURI + ")"
	}
	return line + "."
}

func formatFloat(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// AppendLinks adds to a readable text the resource links of its result that
// it does not already name, one line each.
func AppendLinks(text string, links []query.Link) string {
	var b strings.Builder
	for _, l := range links {
		if !strings.Contains(text, l.URI) {
			fmt.Fprintf(&b, "Also readable: %s %s\n", l.Title, l.URI)
		}
	}
	return text + b.String()
}
