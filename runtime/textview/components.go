package textview

import (
	"strings"

	"github.com/kgc-project/kgc/runtime/query"
	"github.com/kgc-project/kgc/runtime/standard"
	"github.com/kgc-project/kgc/runtime/uri"
)

// component writes get_learning_component (records nil) and
// get_learning_component_context (the supported standards' records and
// supports edges).
func component(w *writer, r *query.ComponentResult, records []standard.SupportedRecord) {
	id := r.Package.PackageIdentity
	n := r.Node
	w.line("Learning component %s | tags: %s", n.NodeID, or(list(n.Tags), "none"))
	w.line("Text: %s", flat(n.Description))
	w.line("Cite: %s", strings.Replace(uri.RecordPattern("learning_component", id.FrameworkID, id.SnapshotID), "{id}", n.NodeID, 1))
	w.line("%s", packageLine(id, r.SourceMetadata))
	w.line("A learning component is a generated decomposition of the standards, not curriculum-authored.")
	w.line("Supports %s:", plural(len(r.Placements), "standard"))
	rec := map[string]standard.SupportedRecord{}
	for _, s := range records {
		rec[s.Standard.NodeID] = s
	}
	for i, p := range r.Placements {
		w.line("%d. %s", i+1, supportedBrief(p.SupportedStandard, false))
		w.line("   %s", or(flat(deref(p.Description)), "(no description)"))
		w.line("   in: %s", or(path(p.HierarchyPath), "top level"))
		if s, ok := rec[p.NodeID]; ok {
			w.line("   supports edge %s; type %s", s.Relationship.RelationshipID, or(typeLabel(s.Standard), "none"))
		}
	}
	if r.TruncationReason != "" {
		w.line("(%d more standards left out at the size limit)", r.OmittedCount)
	}
	w.line("Standards cite as %s", strings.Replace(uri.RecordPattern("standard", id.FrameworkID, id.SnapshotID), "{id}", "{nodeId}", 1))
	w.line("%s", attribution(r.Package.Rights))
}
