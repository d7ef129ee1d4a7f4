package gate

import (
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/manifest"
)

// reconcile compares the manifest's counts and capabilities with what the
// decoded package and its profile show (stage 11 of docs/validation.md). Under Options.Provisional
// it only records what it observed for the counts and the capabilities
// derived from them.
func (s *state) reconcile(g *graph, _ *claimTally) {
	m := s.res.Manifest
	c := countGraph(g)
	s.res.Observed = &Observed{TextItems: int64(c.textItems), Counts: manifest.Counts{
		FrameworkNodes: int64(c.frameworks), ItemNodes: int64(c.items), LearningComponentNodes: int64(c.components),
		Relationships: int64(c.relationships), SupportsRelationships: int64(c.supports),
		BuildsTowardsRelationships: int64(c.builds), RelatesToRelationships: int64(c.relates),
		CodedItems: int64(c.coded), MultiParentTargets: int64(c.multiParent), UnresolvedRelationships: int64(c.unresolved),
	}}
	provisional := s.opts.Provisional
	count := func(field string, declared int64, derived int) {
		if !provisional && int(declared) != derived {
			s.add(finding.New(finding.CountMismatch, "counts.%s is %d but the package has %d", field, declared, derived).At("manifest", manifest.FileName).In("counts." + field))
		}
	}
	mc := m.Counts
	count("frameworkNodes", mc.FrameworkNodes, c.frameworks)
	count("itemNodes", mc.ItemNodes, c.items)
	count("learningComponentNodes", mc.LearningComponentNodes, c.components)
	count("relationships", mc.Relationships, c.relationships)
	count("supportsRelationships", mc.SupportsRelationships, c.supports)
	count("buildsTowardsRelationships", mc.BuildsTowardsRelationships, c.builds)
	count("relatesToRelationships", mc.RelatesToRelationships, c.relates)
	count("additionalCounts.codedItems", mc.CodedItems, c.coded)
	count("additionalCounts.multiParentTargets", mc.MultiParentTargets, c.multiParent)
	count("additionalCounts.unresolvedRelationships", mc.UnresolvedRelationships, c.unresolved)

	capability := func(field string, declared, derived bool, why string) {
		if declared != derived {
			s.add(finding.New(finding.CapabilityMismatch, "capabilities.%s is %t but %s", field, declared, why).At("manifest", manifest.FileName).In("capabilities." + field))
		}
	}
	mcap := m.Capabilities
	if !provisional {
		if mcap.TextSearch && c.textItems == 0 {
			capability("textSearch", true, false, "no standards item has a description to search")
		}
		capability("multiParent", mcap.MultiParent, c.multiParent > 0, "the package has "+itoa(c.multiParent)+" multi-parent items")
		capability("hasUnresolvedRelationships", mcap.HasUnresolvedRelationships, c.unresolved > 0, "the package has "+itoa(c.unresolved)+" unresolved relationships")
	}
	_, hasProvenance := m.Artifact(manifest.EntityProvenance)
	capability("hasDetailedProvenance", mcap.HasDetailedProvenance, hasProvenance, "entityProvenance is "+map[bool]string{true: "declared", false: "not declared"}[hasProvenance])
	if p := s.res.Profile; p != nil {
		if mcap.CodeSearch != "" && mcap.CodeSearch != p.CodeSearchPolicy.Availability {
			s.add(finding.New(finding.CapabilityMismatch, "capabilities.codeSearch is %q but profile %s's code availability is %q", mcap.CodeSearch, p.ProfileID, p.CodeSearchPolicy.Availability).At("manifest", manifest.FileName).In("capabilities.codeSearch"))
		}
		if mcap.CodeSearch != "none" && mcap.CodeSearch != "" && c.coded == 0 {
			s.add(finding.New(finding.CapabilityMismatch, "capabilities.codeSearch is %q but no item has a statement code", mcap.CodeSearch).At("manifest", manifest.FileName).In("capabilities.codeSearch"))
		}
		sr := p.SourceRoleCapabilities
		capability("hasOfficialActivities", mcap.HasOfficialActivities, sr.HasOfficialActivities, "the profile says "+boolWord(sr.HasOfficialActivities))
		capability("hasOfficialAssessmentGuidance", mcap.HasOfficialAssessmentGuidance, sr.HasOfficialAssessmentGuidance, "the profile says "+boolWord(sr.HasOfficialAssessmentGuidance))
	}
}

func boolWord(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
