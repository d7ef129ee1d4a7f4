package textview

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kgc-project/kgc/runtime/query"
	"github.com/kgc-project/kgc/runtime/search"
	"github.com/kgc-project/kgc/runtime/uri"
)

// snapshots names the snapshots a page's hits come from: with one, its
// header; with several, a legend of letters the hits refer to.
type snapshots struct {
	order  []string
	letter map[string]string
	byID   map[string]query.FrameworkSnapshot
}

func newSnapshots(selected []query.FrameworkSnapshot, hitSnapshots []string) *snapshots {
	s := &snapshots{letter: map[string]string{}, byID: map[string]query.FrameworkSnapshot{}}
	for _, f := range selected {
		s.byID[f.SnapshotID] = f
	}
	for _, id := range hitSnapshots {
		if _, ok := s.letter[id]; !ok {
			s.letter[id] = marker(len(s.order))
			s.order = append(s.order, id)
		}
	}
	return s
}

// marker is the legend letter of the i-th snapshot: A–Z, then AA, AB, ….
func marker(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return marker(i/26-1) + string(rune('A'+i%26))
}

// tag is the hit's legend reference, empty when the page has one snapshot.
func (s *snapshots) tag(snapshotID string) string {
	if len(s.order) < 2 {
		return ""
	}
	return "[" + s.letter[snapshotID] + "] "
}

// write writes the snapshot header or legend: name, the URI pattern to cite
// records by (of each kind: the hits', then any other the hits name), and
// the attribution, once per snapshot.
func (s *snapshots) write(w *writer, kinds ...string) {
	for _, id := range s.order {
		f, ok := s.byID[id]
		prefix := "Snapshot "
		if len(s.order) > 1 {
			prefix = "[" + s.letter[id] + "] "
		}
		if !ok {
			w.line("%s%s", prefix, id)
			continue
		}
		w.line("%s%s — %s", prefix, id, snapshotName(f))
		cites := make([]string, len(kinds))
		for i, k := range kinds {
			cites[i] = strings.Replace(uri.RecordPattern(k, f.FrameworkID, id), "{id}", "{nodeId}", 1)
			if len(kinds) > 1 {
				cites[i] = strings.ReplaceAll(k, "_", " ") + "s " + cites[i]
			}
		}
		w.line("  Cite: %s", strings.Join(cites, "; "))
		if len(f.GraphPackages) > 0 {
			w.line("  %s", attribution(f.GraphPackages[0].Rights))
		}
	}
}

// snapshotName is a snapshot's name with where it is from.
func snapshotName(f query.FrameworkSnapshot) string {
	m := f.SourceMetadata
	return fmt.Sprintf("%s (%s)", flat(m.Name), join(", ", m.Jurisdiction, m.LocalSubject, deref(m.IssuingAuthority)))
}

// searchHeader is a page's first line: what was searched, how many match,
// which hits are shown and whether more follow.
func searchHeader(w *writer, tool string, request map[string]any, returned, total int, hasMore bool, cut string) {
	q, _ := request["query"].(string)
	mode, _ := request["mode"].(string)
	how := mode
	if m, ok := request["match"].(map[string]any); ok {
		switch m["matchMode"] {
		case "exact_phrase":
			how += ", exact phrase"
		case "stems":
			how += fmt.Sprintf(", %v word forms", m["operator"])
		default:
			how += fmt.Sprintf(", %v tokens", m["operator"])
		}
	}
	first := 1
	if c, _ := request["cursor"].(string); c != "" {
		first = 0 // a later page: its position is not known here
	}
	shown := "none shown"
	switch {
	case returned == 1 && first == 1:
		shown = "hit 1 shown"
	case returned > 0 && first == 1:
		shown = "hits 1–" + strconv.Itoa(returned) + " shown"
	case returned > 0:
		shown = plural(returned, "hit") + " shown on this page"
	}
	more := "no more"
	if hasMore {
		more = "more follow: call " + tool + " with the nextRequest in the next block"
	}
	if cut != "" {
		more += " (this page was cut at the size limit)"
	}
	w.line("%s %q (%s): %s; %s; %s.", tool, q, how, plural(total, "match"), shown, more)
}

// filters names the request's active filters, for the reader to check.
func filters(request map[string]any) string {
	var out []string
	for _, k := range []string{"frameworkIds", "snapshotIds", "localGradeLabels", "normalizedGrades", "statementTypes",
		"normalizedStatementTypes", "subjects", "normalizedSubjects", "jurisdictions", "languages", "tags"} {
		if l, ok := request[k].([]any); ok && len(l) > 0 {
			vals := make([]string, len(l))
			for i, v := range l {
				vals[i] = fmt.Sprint(v)
			}
			out = append(out, k+"="+strings.Join(vals, "|"))
		}
	}
	if b, _ := request["includeGroupings"].(bool); b {
		out = append(out, "includeGroupings")
	}
	return strings.Join(out, "; ")
}

// warnings writes a page's warnings, each with its snapshot.
func warnings(w *writer, ws []query.SearchWarning, omitted int, s *snapshots) {
	for _, x := range ws {
		where := x.PackageIdentity.SnapshotID
		if s != nil && s.tag(where) != "" {
			where = strings.TrimSpace(s.tag(where))
		}
		w.line("Warning %s (%s): %s", x.Code, where, flat(x.Message))
	}
	if omitted > 0 {
		w.line("(%s more not shown)", plural(omitted, "warning"))
	}
}

func standardSearch(w *writer, r *query.SearchResult[query.StandardHit], request map[string]any) {
	pg := r.Page
	ids := make([]string, len(pg.Hits))
	for i, h := range pg.Hits {
		ids[i] = h.PackageIdentity.SnapshotID
	}
	snaps := newSnapshots(r.SelectedSnapshots, ids)
	searchHeader(w, "search_standards", request, pg.ReturnedCount, pg.TotalMatchingCount, pg.HasMore, pg.TruncationReason)
	if f := filters(request); f != "" {
		w.line("Filters: %s.", f)
	}
	snaps.write(w, "standard")
	if len(pg.Hits) > 0 {
		order := "best first"
		if mode, _ := request["mode"].(string); mode != "text" {
			order = "by code"
		}
		w.line("Hits are retrieval candidates, not alignments; %s, ties in curriculum order.", order)
	}
	hitNumber := map[string]int{} // snapshot and node ID → hit number
	for i, h := range pg.Hits {
		hitNumber[h.PackageIdentity.SnapshotID+" "+h.Node.NodeID] = i + 1
	}
	placed := map[string]int{} // snapshot and placement → the first hit there
	said := map[string]int{}   // a statement → the first hit that has it
	for i, h := range pg.Hits {
		n := h.Node
		w.line("%d. %s%s", i+1, snaps.tag(h.PackageIdentity.SnapshotID),
			join(" | ", deref(n.StatementCode), n.NodeID, typeLabel(n), gradeLabel(h.Facets)))
		d := flat(deref(n.Description))
		if k := said[d]; k > 0 && len(d) > 40 {
			w.line("   (the statement of hit %d, word for word)", k)
		} else {
			w.line("   %s", d)
			if k == 0 {
				said[d] = i + 1
			}
		}
		key := h.PackageIdentity.SnapshotID + " " + placeKey(h.Location)
		placeLines(w, "   ", h.Location, placed[key])
		if placed[key] == 0 {
			placed[key] = i + 1
		}
		if h.Score.MatchedTermCount < h.Score.QueryTermCount {
			w.line("   matched %d of %d terms: %s", h.Score.MatchedTermCount, h.Score.QueryTermCount, list(h.MatchedTerms))
		}
		if h.Children != nil {
			hitChildren(w, h.Children, func(id string) int { return hitNumber[h.PackageIdentity.SnapshotID+" "+id] })
		}
		for _, x := range h.Warnings {
			w.line("   warning %s: %s", x.Code, flat(x.Message))
		}
	}
	warnings(w, pg.Warnings, pg.WarningsOmitted, snaps)
	suggestions(w, pg.Suggestions)
}

// hitChildren writes a grouping hit's children: those that are hits of the
// page by their hit number (hit gives it, 0 for none), the others one a
// line (code, ID, the type of a grouping, the start of the statement), then
// how many the list leaves out.
func hitChildren(w *writer, c *search.HitChildren, hit func(nodeID string) int) {
	if c.Count == 0 {
		w.line("   children: none")
		return
	}
	var hits []string
	var others []search.ChildSummary
	for _, n := range c.Nodes {
		if k := hit(n.NodeID); k > 0 {
			hits = append(hits, strconv.Itoa(k))
		} else {
			others = append(others, n)
		}
	}
	head := fmt.Sprintf("   children (%d)", c.Count)
	switch {
	case len(hits) == 1:
		head += ": hit " + hits[0] + " on this page"
	case len(hits) > 1:
		head += ": hits " + strings.Join(hits, ", ") + " on this page"
	}
	if len(hits) > 0 && len(others) > 0 {
		head += "; others"
	}
	if len(others) > 0 || len(hits) == 0 {
		head += ":"
	}
	w.line("%s", head)
	for _, n := range others {
		kind := ""
		if deref(n.NormalizedStatementType) == "Standard Grouping" {
			kind = join(" ", deref(n.StatementType), "(grouping)")
		}
		w.line("     - %s — %s", join(" | ", deref(n.StatementCode), n.NodeID, kind), or(clip(deref(n.Description), briefChars), "(no description)"))
	}
	if left := c.Count - len(c.Nodes); left > 0 {
		w.line("     (%d more not listed: get_standard_context of this grouping lists them)", left)
	}
}

// suggestions writes the calls that find more than a search did.
func suggestions(w *writer, ss []query.SearchSuggestion) {
	if len(ss) == 0 {
		return
	}
	head := false
	for _, x := range ss {
		if x.Call == "" { // a finding, not a call: why nothing was found
			w.line("Note: %s.", x.Message)
			continue
		}
		if !head {
			w.line("To find more:")
			head = true
		}
		w.line("- %s: %s. Call: %s", plural(x.MatchCount, "match"), x.Message, x.Call)
	}
}

func componentSearch(w *writer, r *query.SearchResult[query.ComponentHit], request map[string]any) {
	pg := r.Page
	ids := make([]string, len(pg.Hits))
	for i, h := range pg.Hits {
		ids[i] = h.PackageIdentity.SnapshotID
	}
	snaps := newSnapshots(r.SelectedSnapshots, ids)
	searchHeader(w, "search_learning_components", request, pg.ReturnedCount, pg.TotalMatchingCount, pg.HasMore, pg.TruncationReason)
	if f := filters(request); f != "" {
		w.line("Filters: %s.", f)
	}
	snaps.write(w, "learning_component", "standard")
	if len(pg.Hits) > 0 {
		w.line("Learning components are a generated decomposition of the standards, not curriculum-authored; hits are retrieval candidates.")
	}
	seen := map[string]bool{}
	for i, h := range pg.Hits {
		w.line("%d. %s%s | tags: %s", i+1, snaps.tag(h.PackageIdentity.SnapshotID), h.Node.NodeID, or(list(h.Node.Tags), "none"))
		w.line("   %s", flat(h.Node.Description))
		supportedLines(w, "   supports: ", h.PackageIdentity.SnapshotID, h.SupportedStandards, seen)
	}
	warnings(w, pg.Warnings, pg.WarningsOmitted, snaps)
	suggestions(w, pg.Suggestions)
}

// supportedLines writes the standards a component supports, one a line
// under prefix: each one's code, ID, grade, the support's confidence and,
// the first time the answer names it (seen keys it by snapshot and node ID),
// the start of its statement.
func supportedLines(w *writer, prefix, snapshotID string, stds []query.SupportedStandard, seen map[string]bool) {
	if len(stds) == 0 {
		w.line("%sno standard", prefix)
	}
	for _, s := range stds {
		w.line("%s%s", prefix, supportedOnce(s, snapshotID, seen))
	}
}

// supportedOnce is supportedBrief with the statement the first time seen
// meets the standard, "see above" after.
func supportedOnce(s query.SupportedStandard, snapshotID string, seen map[string]bool) string {
	key := snapshotID + " " + s.NodeID
	if seen[key] {
		return supportedBrief(s, false) + " — see above"
	}
	seen[key] = true
	return supportedBrief(s, true)
}

// supportedBrief names a supported standard: code, node ID, grade label (or
// normalized grade) and confidence, and with text the start of its
// statement (briefChars characters).
func supportedBrief(s query.SupportedStandard, text bool) string {
	grade := list(s.LocalGradeLabels)
	if grade == "" && len(s.GradeLevels) > 0 {
		grade = "grade " + list(s.GradeLevels)
	}
	conf := ""
	if s.SupportConfidence != nil {
		conf = "confidence " + strconv.FormatFloat(*s.SupportConfidence, 'f', -1, 64)
	}
	out := join(" | ", deref(s.StatementCode), s.NodeID, grade, conf)
	if d := deref(s.Description); text && d != "" {
		out += " — " + clip(d, briefChars)
	}
	return out
}
