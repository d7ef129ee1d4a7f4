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
		standard(w, r)
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

// placement renders where a standard sits, with a note on other parents.
func placement(loc query.Location) string {
	p := path(loc.HierarchyPath)
	if p == "" {
		p = "top level"
	}
	if loc.ParentCount > 1 {
		p += fmt.Sprintf(" (first of %d parents; get_standard_context lists every path)", loc.ParentCount)
	}
	return p
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
