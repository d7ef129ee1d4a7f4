package textview

import (
	"fmt"
	"strings"

	"github.com/kgc-project/kgc/runtime/query"
	"github.com/kgc-project/kgc/runtime/standard"
)

// endLine names the other end of a publisher relation: a served standard
// (code, ID, statement, where it is served, URI to cite), or the outside
// reference as published with the served standards it resolves to.
func endLine(w *writer, indent string, e standard.EndResult, here string) {
	served := func(s query.EndStandard) string {
		where := ""
		if s.SnapshotID != here {
			where = " [" + s.SnapshotID + map[bool]string{true: "", false: ", not current"}[s.IsCurrent] + "]"
		}
		return join(" | ", deref(s.StatementCode), s.NodeID) + " — " + clip(deref(s.Description), briefChars) + where + "; cite " + s.StandardURI
	}
	switch {
	case e.Standard != nil:
		w.line("%s%s", indent, served(*e.Standard))
	case e.External != nil:
		x := e.External
		ref := join(" ", deref(x.Code), or(deref(x.URI), deref(x.Identifier)))
		if t := deref(x.Title); t != "" && t != deref(x.Code) && !strings.EqualFold(t, "Destination Node") && !strings.EqualFold(t, "Origin Node") {
			ref += " \"" + clip(t, briefChars) + "\""
		}
		if len(e.Matches) == 0 {
			w.line("%soutside this framework, not served: %s", indent, ref)
			return
		}
		w.line("%soutside this framework: %s; served as:", indent, ref)
		for _, m := range e.Matches {
			w.line("%s  = %s", indent, served(m))
		}
	}
}

// relationVerb says how the standard stands to the other end.
func relationVerb(r query.PublisherRelation) string {
	in := r.Direction == "incoming"
	switch r.AssociationType {
	case "precedes":
		if in {
			return "comes after"
		}
		return "comes before"
	case "exactMatchOf":
		if in {
			return "is matched exactly by"
		}
		return "is an exact match of"
	case "replacedBy":
		if in {
			return "replaces"
		}
		return "is replaced by"
	case "isPartOf":
		if in {
			return "has as part"
		}
		return "is part of"
	case "exemplar":
		if in {
			return "is an exemplar for"
		}
		return "has as exemplar"
	case "hasSkillLevel":
		if in {
			return "is a skill level of"
		}
		return "has skill level"
	case "isTranslationOf":
		if in {
			return "is translated by"
		}
		return "is a translation of"
	case "isPeerOf":
		return "is a peer of"
	}
	return "is related to"
}

// relationLines writes relations grouped by how the standard stands to them.
func relationLines(w *writer, rels []query.PublisherRelation, here string) {
	var order []string
	groups := map[string][]query.PublisherRelation{}
	for _, r := range rels {
		v := relationVerb(r) + " (" + r.AssociationType + ")"
		if _, ok := groups[v]; !ok {
			order = append(order, v)
		}
		groups[v] = append(groups[v], r)
	}
	for _, v := range order {
		w.line("  %s:", v)
		for _, r := range groups[v] {
			note := ""
			if r.AssertedIn != here {
				note = " (asserted by " + r.AssertedIn + ")"
			}
			if r.SequenceNumber != nil {
				note += fmt.Sprintf(" (sequence %d)", *r.SequenceNumber)
			}
			if note != "" {
				w.line("    relation %s%s", r.RelationID, note)
				endLine(w, "      ", r.Other, here)
				continue
			}
			endLine(w, "    ", r.Other, here)
		}
	}
}

// standardRelations writes a standard's publisher relations, or nothing.
func standardRelations(w *writer, r *standard.StandardRelations, here string) {
	if r == nil {
		return
	}
	count := fmt.Sprint(r.TotalCount)
	if len(r.Relations) < r.TotalCount {
		count = fmt.Sprintf("first %d of %d; get_publisher_relations lists them all", len(r.Relations), r.TotalCount)
	}
	w.line("Publisher relations (%s) — asserted by the publisher in its CASE data, not generated:", count)
	relationLines(w, r.Relations, here)
}

func publisherRelations(w *writer, r *query.PublisherRelationsResult) {
	id := r.Package.PackageIdentity
	s := r.Standard
	w.line("Publisher relations of %s — %s", join(" | ", deref(s.StatementCode), s.NodeID), clip(deref(s.Description), briefChars))
	w.line("Cite: %s", s.StandardURI)
	w.line("Snapshot %s", id.SnapshotID)
	w.line("%s", query.PublisherNotice)
	switch {
	case r.TotalCount == 0:
		w.line("Relations: none asserted (in this framework's CASE data, or by another served framework).")
	case r.Complete:
		w.line("Relations (%d):", r.TotalCount)
	default:
		w.line("Relations (first %d of %d; raise limit, at most 200, or filter associationTypes):", len(r.Relations), r.TotalCount)
	}
	relationLines(w, r.Relations, id.SnapshotID)
	if q := r.Sequence; q != nil && len(q.Before)+len(q.After) == 0 {
		w.line("The publisher's sequence (precedes): nothing before or after this standard.")
	} else if q != nil {
		state := "complete"
		if !q.Complete {
			state = "cut at the depth or size bound"
		}
		w.line("The publisher's sequence (precedes), %d steps each way, %s:", q.MaxDepth, state)
		for _, part := range []struct {
			what  string
			steps []standard.SequenceStep
		}{{"Before (nearest first)", q.Before}, {"After (nearest first)", q.After}} {
			if len(part.steps) == 0 {
				w.line("  %s: none.", part.what)
				continue
			}
			w.line("  %s:", part.what)
			for _, st := range part.steps {
				w.line("    step %d: %s — %s; cite %s", st.Depth, join(" | ", deref(st.Standard.StatementCode), st.Standard.NodeID),
					clip(deref(st.Standard.Description), briefChars), st.Standard.StandardURI)
			}
		}
	}
	w.line("%s", attribution(r.Package.Rights))
}
