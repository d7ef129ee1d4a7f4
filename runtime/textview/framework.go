package textview

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/query"
	"github.com/kgc-project/kgc/runtime/stats"
	"github.com/kgc-project/kgc/runtime/uri"
)

func capabilities(w *writer, r *query.CapabilitiesResult) {
	w.line("%s: %s, %s, %s (kgfegmcp://catalog and %d templates).", r.ServerName, plural(len(r.ToolNames), "tool"),
		plural(len(r.PromptNames), "prompt"), plural(len(r.ResourceURIs)+len(r.ResourceURITemplates), "resource"), len(r.ResourceURITemplates))
	w.line("Graph types: routing %s; contained %s.", list(r.AvailableGraphTypes), list(r.IncludedGraphTypes))
	w.line("Packages (%d):", len(r.Packages))
	for _, p := range r.Packages {
		c, n := p.Capabilities, p.Counts
		w.line("- %s (framework %s)", p.PackageIdentity.SnapshotID, p.PackageIdentity.FrameworkID)
		w.line("  contains %s: %d standards items, %d learning components, %d buildsTowards and %d relatesTo edges",
			list(p.IncludedGraphTypes), n.ItemNodes, n.LearningComponentNodes, n.BuildsTowardsRelationships, n.RelatesToRelationships)
		w.line("  search_standards modes: %s; search_learning_components modes: %s", or(list(p.ImplementedSearchModes), "none"),
			or(list(p.ImplementedLearningComponentSearchModes), "none"))
		w.line("  codes %s (%d coded); multi-parent %s; detailed provenance %s; unresolved edges %s",
			c.CodeSearch, p.SearchIndex.CodedNodeCount, yes(c.MultiParent), yes(c.HasDetailedProvenance), yes(c.HasUnresolvedRelationships))
		w.line("  rights: %s", rightsBrief(p.Rights))
	}
	if r.TruncationReason != "" {
		w.line("(%d more packages left out at the size limit; list_frameworks pages through them)", r.OmittedCount)
	}
	w.line("Tools: %s.", list(r.ToolNames))
	w.line("Prompts: %s.", list(r.PromptNames))
	w.line("Resource templates: %s.", list(r.ResourceURITemplates))
	w.line("Implemented features: %s.", list(r.ImplementedFeatures))
	w.line("Unavailable features: %s.", list(r.UnavailableFeatures))
}

// rightsBrief states a package's rights in one line.
func rightsBrief(r query.Rights) string {
	return fmt.Sprintf("license %s, review %s, full text %s, standard resources %s, bulk %s, generated derivatives %s",
		r.SourceLicense, r.ReviewStatus, yes(r.AllowFullText), yes(r.AllowStandardResources), yes(r.AllowBulkResource), r.AllowGeneratedDerivatives)
}

func frameworkList(w *writer, r *query.FrameworkList) {
	more := "all shown"
	if r.HasMore {
		more = "more follow: call list_frameworks with the nextRequest in the next block"
	}
	w.line("list_frameworks: %s match; %d shown; %s.", plural(r.TotalMatchingCount, "snapshot"), r.ReturnedCount, more)
	for i, f := range r.Items {
		w.line("%d. %s", i+1, f.SnapshotID)
		snapshot(w, f, "   ")
	}
	currents := map[string][]query.FrameworkSnapshot{}
	for _, f := range r.Items {
		if f.SourceMetadata.IsCurrent {
			currents[f.FrameworkID] = append(currents[f.FrameworkID], f)
		}
	}
	ids := make([]string, 0, len(currents))
	for id, fs := range currents {
		if len(fs) > 1 {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		w.line("Note: %s has %d current snapshots here; a call naming only frameworkId is ambiguous — pass snapshotId. They differ in: %s.",
			id, len(currents[id]), differences(currents[id]))
	}
	if r.TruncationReason != "" {
		w.line("(this page was cut at the size limit)")
	}
}

// snapshot writes one framework snapshot's facts, each line indented.
func snapshot(w *writer, f query.FrameworkSnapshot, indent string) {
	m := f.SourceMetadata
	current := "not current"
	if m.IsCurrent {
		current = "current"
	}
	w.line("%s%s — framework %s, version %s, %s", indent, flat(m.Name), f.FrameworkID, m.SourceVersion, current)
	w.line("%s%s", indent, join(" · ", join(" ", m.Jurisdiction, paren(deref(m.JurisdictionType))), deref(m.IssuingAuthority),
		m.LocalSubject, "grades "+or(list(m.LocalGradesOrStages), "none"), "languages "+list(m.Languages), deref(m.AdoptionStatus)))
	for _, p := range f.GraphPackages {
		c := p.Counts
		contents := []string{fmt.Sprintf("%d standards items", c.ItemNodes)}
		if c.LearningComponentNodes > 0 {
			contents = append(contents, fmt.Sprintf("%d learning components (%d supports edges)", c.LearningComponentNodes, c.SupportsRelationships))
		}
		if c.BuildsTowardsRelationships+c.RelatesToRelationships > 0 {
			contents = append(contents, fmt.Sprintf("%d buildsTowards and %d relatesTo progression edges", c.BuildsTowardsRelationships, c.RelatesToRelationships))
		}
		w.line("%scontains %s: %s; validation %s; package created %s", indent, list(p.IncludedGraphTypes), strings.Join(contents, ", "),
			p.ValidationStatus, or(p.CreatedAt, "(not stated)"))
		w.line("%srights: %s", indent, rightsBrief(p.Rights))
		w.line("%s%s", indent, attribution(p.Rights))
	}
	for _, rel := range f.SnapshotRelations {
		w.line("%s%s %s: %s", indent, rel.RelationType, rel.TargetSnapshotID, flat(rel.Evidence))
	}
}

func paren(s string) string {
	if s == "" {
		return ""
	}
	return "(" + s + ")"
}

// differences says what tells several snapshots of one framework apart.
func differences(fs []query.FrameworkSnapshot) string {
	describe := func(f query.FrameworkSnapshot) string {
		var types, created []string
		var items, comps, edges int64
		for _, p := range f.GraphPackages {
			created = append(created, p.CreatedAt)
			types = append(types, p.IncludedGraphTypes...)
			items += p.Counts.ItemNodes
			comps += p.Counts.LearningComponentNodes
			edges += p.Counts.BuildsTowardsRelationships + p.Counts.RelatesToRelationships
		}
		return fmt.Sprintf("%s has %s; %d standards, %d learning components, %d progression edges; version %s, created %s",
			f.SnapshotID, list(types), items, comps, edges, f.SourceMetadata.SourceVersion, or(list(created), "(not stated)"))
	}
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = describe(f)
	}
	return strings.Join(out, " | ")
}

func framework(w *writer, r *query.FrameworkResult) {
	f := r.Framework
	w.line("Framework snapshot %s", f.SnapshotID)
	snapshot(w, f, "")
	w.line("Cite: %s", "kgfegmcp://framework/"+f.FrameworkID)
	w.line("Standards cite as %s", strings.Replace(uri.RecordPattern("standard", f.FrameworkID, f.SnapshotID), "{id}", "{nodeId}", 1))
	if t := r.TopLevel; t != nil && t.TotalCount > 0 {
		w.line("Top level (%d, %s; get_standard_context on a nodeId lists what is under it):", t.TotalCount, kgimg.OrderPhrase(t.Order))
		for _, s := range t.Standards {
			w.line("  - %s%s | %s | %d children — %s", codePrefix(s.StatementCode), s.NodeID, or(deref(s.StatementType), "(no type)"), s.ChildCount, clip(flat(deref(s.Description)), 120))
		}
		if !t.IsComplete {
			w.line("  (%d more)", t.TotalCount-len(t.Standards))
		}
	}
}

// codePrefix is "CODE | " for a code, "" for none.
func codePrefix(code *string) string {
	if code == nil || *code == "" {
		return ""
	}
	return flat(*code) + " | "
}

func statistics(w *writer, r *query.StatisticsResult) {
	id, s := r.Package.PackageIdentity, r.Statistics
	w.line("Statistics of %s (%s)", id.SnapshotID, flat(r.SourceMetadata.Name))
	w.line("Standards: %d items, %d framework root(s), %d nodes, %d relationships; depth up to %d; %d unreachable.",
		s.TotalItemNodes, s.TotalFrameworkNodes, s.TotalNodes, s.TotalRelationships, s.MaximumStructuralDepth, s.UnreachableNodeCount)
	w.line("Items per local grade: %s.", counts(s.LocalGradeLabelCounts))
	w.line("Items per normalized grade: %s.", counts(s.NormalizedGradeCounts))
	w.line("Items per statement type: %s.", counts(s.StatementTypeCounts))
	w.line("Items per normalized statement type: %s.", counts(s.NormalizedStatementTypeCounts))
	depths := make([]string, len(s.MinimumStructuralDepthCounts))
	for i, d := range s.MinimumStructuralDepthCounts {
		depths[i] = fmt.Sprintf("depth %d: %d", d.Depth, d.Count)
	}
	w.line("Items per depth: %s.", or(strings.Join(depths, ", "), "none"))
	w.line("Codes: %d coded, %d uncoded.", s.CodePresence.CodedItemCount, s.CodePresence.UncodedItemCount)
	mp := s.MultiParent
	if mp.TargetCount > 0 {
		w.line("Multi-parent: %d items with more than one parent (at most %d); their types: %s; their parents' types: %s.",
			mp.TargetCount, mp.MaximumParentCount, counts(mp.StatementTypeCounts), counts(mp.ParentStatementTypes))
	} else {
		w.line("Multi-parent: %d items with more than one parent (at most %d).", mp.TargetCount, mp.MaximumParentCount)
	}
	u := s.UnresolvedRelationships
	w.line("Hierarchy edges: %d resolved, %d unresolved (%s).", u.ResolvedCount, u.UnresolvedCount, or(counts(u.StatusCounts), "none"))
	if lc := s.LearningComponents; lc.TotalLearningComponents > 0 {
		w.line("Learning components (reported apart from the standards): %d components, %d supports edges, %d supporting several standards, %d standards without any.",
			lc.TotalLearningComponents, lc.TotalSupportsRelationships, lc.MultiStandardComponentCount, lc.StandardsWithoutComponents)
	} else {
		w.line("Learning components: none in this package.")
	}
	if lp := s.LearningProgressions; lp.HasLearningProgressions {
		w.line("Learning progressions (reported apart): %d buildsTowards and %d relatesTo edges.", lp.BuildsTowardsRelationships, lp.RelatesToRelationships)
	} else {
		w.line("Learning progressions: none in this package.")
	}
	w.line("%s", attribution(r.Package.Rights))
}

// counts writes value counts as "value: n".
func counts(vc []stats.ValueCount) string {
	out := make([]string, len(vc))
	for i, c := range vc {
		out[i] = or(deref(c.Value), "(none)") + ": " + strconv.Itoa(c.Count)
	}
	return or(strings.Join(out, ", "), "none")
}
