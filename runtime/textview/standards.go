package textview

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/query"
	"github.com/kgc-project/kgc/runtime/standard"
	"github.com/kgc-project/kgc/runtime/uri"
)

// packageLine names the package a single-record answer comes from.
func packageLine(id query.PackageIdentity, m query.SourceMetadata) string {
	current := "not current"
	if m.IsCurrent {
		current = "current"
	}
	return "Snapshot " + id.SnapshotID + " — " + flat(m.Name) + " (" + join(", ", m.Jurisdiction, m.LocalSubject, current) + ")"
}

// standardFacts writes the lines that identify and place one standard.
func standardFacts(w *writer, n query.StandardNode, f query.FacetEvidence, loc *query.Location) {
	w.line("Standard %s", join(" | ", deref(n.StatementCode), n.NodeID, typeLabel(n), gradeLabel(f)))
	w.line("Text: %s", or(flat(deref(n.Description)), "(no description)"))
	if loc != nil {
		for i, l := range placement(*loc) {
			if i == 0 {
				w.line("In: %s", l)
			} else {
				w.line("Also in: %s", l)
			}
		}
	}
	var facts []string
	if t := deref(f.NormalizedStatementType); t != "" {
		facts = append(facts, "normalized type "+t)
	}
	if len(f.NormalizedGrades) > 0 {
		facts = append(facts, "normalized grades "+list(f.NormalizedGrades))
	}
	if s := deref(f.LocalSubject); s != "" {
		facts = append(facts, "subject "+s)
	}
	if u := deref(n.CaseIdentifierUUID); u != "" {
		facts = append(facts, "CASE UUID "+u)
	}
	if len(facts) > 0 {
		w.line("Facts: %s.", strings.Join(facts, "; "))
	}
}

func standardText(w *writer, r *query.StandardResult) {
	id := r.Package.PackageIdentity
	standardFacts(w, r.Node, r.Facets, &r.Location)
	w.line("Cite: %s", r.StandardURI)
	w.line("%s", packageLine(id, r.SourceMetadata))
	standardRelations(w, r.PublisherRelations, id.SnapshotID)
	w.line("%s", attribution(r.Package.Rights))
}

// label is a record's short name in a list: its code, else its clipped
// description, else (the framework root) its name.
func label(n query.StandardNode) string {
	switch {
	case deref(n.StatementCode) != "" && deref(n.Description) != "":
		return deref(n.StatementCode) + " " + clip(deref(n.Description), labelChars)
	case deref(n.StatementCode) != "":
		return deref(n.StatementCode)
	case deref(n.Description) != "":
		return clip(deref(n.Description), labelChars)
	}
	return rootName(n)
}

// rootName is the framework root's name ("" for any other record).
func rootName(n query.StandardNode) string {
	if n.FrameworkName == nil {
		return ""
	}
	return flat(deref(n.Name))
}

// entry is one record of a list: ID, type, grade and text.
func entry(n query.StandardNode) string {
	return join(" | ", deref(n.StatementCode), n.NodeID, typeLabel(n), list(n.GradeLevel)) + " — " + or(clip(deref(n.Description), 400), rootName(n))
}

func standardContext(w *writer, r *query.ContextResult) {
	id := r.Standard.Package.PackageIdentity
	nodes := map[string]query.StandardNode{}
	for _, n := range r.Nodes {
		nodes[n.NodeID] = n
	}
	labelOf := func(id string) string {
		if n, ok := nodes[id]; ok {
			return label(n)
		}
		return id
	}
	origin := r.Standard.Node.NodeID
	standardFacts(w, r.Standard.Node, r.Standard.Facets, nil)
	w.line("Cite: %s (other standards: %s)", r.Standard.StandardURI,
		strings.Replace(uri.RecordPattern("standard", id.FrameworkID, id.SnapshotID), "{id}", "{nodeId}", 1))
	w.line("%s", packageLine(id, r.Standard.SourceMetadata))
	if rp := r.RootPaths; rp != nil {
		w.line("Root paths (%d%s):", len(rp.Paths), completeness(rp.IsComplete, rp.TruncationReason))
		for i, p := range rp.Paths {
			labels := make([]string, 0, len(p.NodeIDs))
			for _, n := range p.NodeIDs[:len(p.NodeIDs)-1] {
				labels = append(labels, labelOf(n))
			}
			w.line("  %d. %s > [this standard]", i+1, strings.Join(labels, " > "))
		}
	} else {
		w.line("Ancestors (%d%s), nearest first:", len(r.Ancestors.Nodes)-1, completeness(r.Ancestors.IsComplete, r.Ancestors.TruncationReason))
		for _, a := range r.Ancestors.Nodes[1:] {
			w.line("  depth %d: %s | %s", a.Depth, a.NodeID, labelOf(a.NodeID))
		}
	}
	neighbors(w, "Parents", "", r.DirectParents, nodes)
	d := r.Descendants
	inTree := d != nil && len(d.Nodes) > 1 && r.DirectChildren != nil && childrenWalked(r.DirectChildren.Neighbors, d)
	basis := ""
	if c := r.DirectChildren; c != nil {
		basis = kgimg.OrderPhrase(c.Order)
	}
	if c := r.DirectChildren; c != nil && !inTree {
		neighbors(w, "Children", join("", ", ", basis), *c, nodes)
	}
	if d != nil && len(d.Nodes) > 1 {
		what := "Descendants"
		if inTree { // the tree's first level is the children: list them once
			what = fmt.Sprintf("Children (%d) and descendants", len(r.DirectChildren.Neighbors))
		}
		w.line("%s (%d to depth %d%s), each item's children in its curriculum order (this one's: %s):", what, len(d.Nodes)-1, d.MaxDepth,
			completeness(d.IsComplete, d.TruncationReason), or(basis, "none"))
		tree(w, origin, d, r.Relationships, nodes)
	} else if d != nil {
		w.line("Descendants: none.")
	}
	for _, s := range r.RelationshipStatuses {
		w.line("Note: hierarchy edge %s is %s (its child's real parent could not be resolved; it hangs from the root).", s.RelationshipID, s.ResolutionStatus)
	}
	standardRelations(w, r.Standard.PublisherRelations, id.SnapshotID)
	w.line("%s", attribution(r.Standard.Package.Rights))
}

// childrenWalked reports whether the descendant walk holds every direct
// child (it does unless the walk was cut), so that the tree lists them.
func childrenWalked(children []standard.Neighbor, d *standard.Traversal) bool {
	walked := map[string]bool{}
	for _, n := range d.Nodes {
		walked[n.NodeID] = true
	}
	for _, c := range children {
		if !walked[c.NodeID] {
			return false
		}
	}
	return true
}

// neighbors writes a list of direct neighbours, or says there are none; a
// cut list says which of how many it holds and how to read on.
func neighbors(w *writer, what, note string, d standard.Direct, nodes map[string]query.StandardNode) {
	nbs := d.Neighbors
	if d.TotalCount == 0 {
		w.line("%s: none.", what)
		return
	}
	count := strconv.Itoa(len(nbs))
	if !d.IsComplete {
		count = fmt.Sprintf("%d of %d", len(nbs), d.TotalCount)
		if len(nbs) > 0 {
			count = fmt.Sprintf("%d–%d of %d", d.Offset+1, d.Offset+len(nbs), d.TotalCount)
		}
	}
	w.line("%s (%s%s):", what, count, note)
	for _, nb := range nbs {
		w.line("  - %s", entryOf(nodes, nb.NodeID))
	}
	if next := d.Offset + len(nbs); !d.IsComplete && next < d.TotalCount {
		how := "raise maxNodes (at most 2000)"
		if d.Direction == "children" {
			how = fmt.Sprintf("next: childOffset %d (includeAllRootPaths false saves bytes)", next)
		}
		w.line("  … %d more (cut: %s); %s.", d.TotalCount-next, or(deref(d.TruncationReason), "bounded"), how)
	}
}

func entryOf(nodes map[string]query.StandardNode, id string) string {
	if n, ok := nodes[id]; ok {
		return entry(n)
	}
	return id
}

// completeness notes whether a walk or path list is complete.
func completeness(complete bool, reason *string) string {
	if complete {
		return ", complete"
	}
	return ", cut: " + or(deref(reason), "bounded")
}

// tree writes a descendant walk depth first, each node's children in the
// walk's (curriculum) order, indented by depth; a node reached twice (a
// multi-parent hierarchy) is written under its first parent only.
func tree(w *writer, origin string, d *standard.Traversal, rels []query.GraphRelationship, nodes map[string]query.StandardNode) {
	in := map[string]int{}
	for _, n := range d.Nodes {
		in[n.NodeID] = n.Depth
	}
	children := map[string][]string{}
	for _, r := range rels {
		if _, ok := in[r.TargetNodeID]; ok && r.TargetNodeID != origin {
			if _, ok := in[r.SourceNodeID]; ok {
				children[r.SourceNodeID] = append(children[r.SourceNodeID], r.TargetNodeID)
			}
		}
	}
	// The walk lists each parent's children in its curriculum order: order
	// every child list by position in the walk.
	pos := map[string]int{}
	for i, n := range d.Nodes {
		pos[n.NodeID] = i
	}
	for _, c := range children {
		sort.SliceStable(c, func(a, b int) bool { return pos[c[a]] < pos[c[b]] })
	}
	seen := map[string]bool{origin: true}
	var walk func(id string, depth int)
	walk = func(id string, depth int) {
		for _, c := range children[id] {
			if seen[c] {
				continue
			}
			seen[c] = true
			w.line("%s- %s", strings.Repeat("  ", depth), entryOf(nodes, c))
			walk(c, depth+1)
		}
	}
	walk(origin, 1)
}

func standardComponents(w *writer, r *query.StandardComponentsResult) {
	id := r.Package.PackageIdentity
	w.line("Learning components of standard %s: %s.", join(" | ", deref(r.Standard.StatementCode), r.Standard.NodeID),
		plural(len(r.Components), "component"))
	w.line("Standard text: %s", or(flat(deref(r.Standard.Description)), "(no description)"))
	var others []query.SupportedStandard // the other standards the components support
	for _, c := range r.Components {
		for _, s := range c.SupportedStandards {
			if s.NodeID != r.Standard.NodeID {
				others = append(others, s)
			}
		}
	}
	cite := "Cite: standard " + r.StandardURI + "; this list " + r.LearningComponentsURI
	if len(others) > 0 {
		cite += "; other standards " + strings.Replace(uri.RecordPattern("standard", id.FrameworkID, id.SnapshotID), "{id}", "{nodeId}", 1)
	}
	w.line("%s", cite)
	w.line("%s", packageLine(id, r.SourceMetadata))
	if len(r.Components) > 0 {
		w.line("Components are a generated decomposition of the standards, not curriculum-authored; confidence is the generator's.")
	}
	seen := map[string]bool{}
	for i, c := range r.Components {
		conf := ""
		if x := c.Relationship.SupportConfidence; x != nil {
			conf = ", confidence " + formatFloat(*x)
		}
		w.line("%d. %s | tags: %s", i+1, c.Node.NodeID, or(list(c.Node.Tags), "none"))
		w.line("   %s", flat(c.Node.Description))
		w.line("   supports edge %s%s; cite %s and %s", c.Relationship.RelationshipID, conf, c.ComponentURI, c.RelationshipURI)
		for _, s := range c.SupportedStandards {
			if s.NodeID != r.Standard.NodeID {
				w.line("   also supports: %s", supportedOnce(s, id.SnapshotID, seen))
			}
		}
	}
	if r.TruncationReason != "" {
		w.line("(%d more components left out at the size limit; read %s)", r.OmittedCount, r.LearningComponentsURI)
	}
	w.line("%s", attribution(r.Package.Rights))
}
