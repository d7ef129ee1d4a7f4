package textview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/runtime/compare"
	"github.com/kgc-project/kgc/runtime/query"
	"github.com/kgc-project/kgc/runtime/uri"
)

func comparison(w *writer, r *query.ComparisonResult) {
	q := r.Request
	how := q.Mode
	if m := q.Match; m != nil {
		how += ", " + string(m.MatchMode)
		if m.Operator != nil {
			how += " " + string(*m.Operator)
		}
	}
	w.line("compare_framework_evidence %q (%s) in %s, each searched on its own (up to %d matches each).", q.Query, how,
		plural(len(r.Sections), "framework"), q.MaxMatchesPerFramework)
	for _, d := range r.Disclosures {
		w.line("Disclosure: %s", flat(d))
	}
	alignments(w, r)
	said := map[string]string{} // a profile disclosure → the section that stated it
	for i, s := range r.Sections {
		w.line("")
		w.line("%s. %s — %s", marker(i), s.SnapshotID, snapshotName(query.FrameworkSnapshot{SourceMetadata: s.SourceMetadata}))
		w.line("  grades %s; %s", or(list(s.LocalGradesOrStages), "none"), attribution(s.Rights))
		w.line("  Cite: %s", strings.Replace(uri.RecordPattern("standard", s.FrameworkID, s.SnapshotID), "{id}", "{nodeId}", 1))
		var same []string
		for _, d := range s.RequiredProfileDisclosures {
			if first, ok := said[d]; ok {
				if !slices.Contains(same, first) {
					same = append(same, first)
				}
				continue
			}
			said[d] = marker(i)
			w.line("  Disclosure: %s", flat(d))
		}
		if len(same) > 0 {
			w.line("  Disclosures of %s apply here too.", strings.Join(same, ", "))
		}
		for _, x := range s.Warnings {
			w.line("  Warning %s: %s", x.Code, flat(x.Message))
		}
		for _, x := range s.PackageSearchWarnings {
			w.line("  Warning %s: %s", x.Code, flat(x.Message))
		}
		switch n := len(s.Matches); {
		case n == 0:
		case s.TotalMatchingCount > n:
			w.line("  Matches: %d of %d, best first (the rest: More matches, below).", n, s.TotalMatchingCount)
		case n == 1:
			w.line("  Matches: the only one.")
		default:
			w.line("  Matches: all %d.", n)
		}
		for j, m := range s.Matches {
			h := m.SearchHit
			w.line("  %d. %s", j+1, join(" | ", deref(h.Node.StatementCode), h.Node.NodeID, typeLabel(h.Node), gradeLabel(h.Facets)))
			w.line("     %s", flat(deref(h.Node.Description)))
			if len(m.HierarchyPaths) > 0 {
				for _, p := range m.HierarchyPaths {
					w.line("     in: %s", steps(p))
				}
			} else {
				placeLines(w, "     ", h.Location, 0)
			}
		}
		if s.HasMore && s.NextCursor != nil {
			w.line("  More matches: search_standards %s", continueCompare(q, s))
		}
	}
	// The comparison's warnings are its sections' (each shown there); only
	// one no section holds is repeated here.
	shown := map[string]bool{}
	for _, sec := range r.Sections {
		for _, x := range sec.Warnings {
			shown[warningKey(x)] = true
		}
	}
	for _, x := range r.Warnings {
		if !shown[warningKey(x)] {
			w.line("Warning %s: %s", x.Code, flat(x.Message))
		}
	}
	suggestions(w, r.Suggestions)
}

func warningKey(x query.ComparisonWarning) string {
	return strings.Join([]string{x.Code, x.SnapshotID, x.Message, deref(x.NodeID), deref(x.RelationshipID)}, "\x00")
}

// alignments writes the publisher alignments between the compared
// frameworks, before the sections' search matches: each as CASE orients it,
// its ends by section letter, code and ID, and the statement and URI of an
// end that is not one of its section's matches.
func alignments(w *writer, r *query.ComparisonResult) {
	a := r.PublisherAlignments
	if a == nil || len(a.Alignments) == 0 {
		return
	}
	letter, matched := map[string]string{}, map[[2]string]bool{}
	for i, s := range r.Sections {
		letter[s.SnapshotID] = marker(i)
		for _, m := range s.Matches {
			matched[[2]string{s.SnapshotID, m.SearchHit.Node.NodeID}] = true
		}
	}
	count := plural(a.TotalCount, "alignment")
	if len(a.Alignments) < a.TotalCount {
		count = fmt.Sprintf("first %d of %d", len(a.Alignments), a.TotalCount)
	}
	w.line("")
	w.line("Publisher alignments between these frameworks (%s) — asserted by a publisher in its CASE data; not search matches, not generated:", count)
	end := func(e query.EndStandard) string {
		return letter[e.SnapshotID] + " " + join(" | ", deref(e.StatementCode), e.NodeID)
	}
	for i, x := range a.Alignments {
		rel := query.PublisherRelation{AssociationType: x.AssociationType, Direction: "outgoing"}
		w.line("  %d. %s %s (%s) %s; asserted by %s", i+1, end(x.Origin), relationVerb(rel), x.AssociationType, end(x.Destination), or(letter[x.AssertedIn], x.AssertedIn))
		for _, e := range []query.EndStandard{x.Origin, x.Destination} {
			if !matched[[2]string{e.SnapshotID, e.NodeID}] {
				w.line("     %s — %s; cite %s", end(e), clip(deref(e.Description), briefChars), e.StandardURI)
			}
		}
	}
}

// steps renders a comparison match's path (root and match left out).
func steps(p []compare.PathStep) string {
	labels := make([]string, len(p))
	for i, s := range p {
		labels[i] = join(" ", deref(s.StatementCode), deref(s.Description))
	}
	return or(path(labels), "top level")
}

// continueCompare is the exact search_standards call that continues a
// section: its snapshot, the comparison's query and filters, its cursor.
func continueCompare(q query.ComparisonRequest, s query.ComparisonSection) string {
	req := map[string]any{"snapshotIds": []string{s.SnapshotID}, "mode": q.Mode, "query": q.Query,
		"limit": q.MaxMatchesPerFramework, "cursor": *s.NextCursor}
	if q.Match != nil {
		req["match"] = q.Match
	}
	if len(q.LocalGradeLabels) > 0 {
		req["localGradeLabels"] = q.LocalGradeLabels
	}
	if len(q.NormalizedGrades) > 0 {
		req["normalizedGrades"] = q.NormalizedGrades
	}
	if q.IncludeGroupings {
		req["includeGroupings"] = true
	}
	b, err := canonjson.Marshal(map[string]any{"request": req})
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return string(b)
}
