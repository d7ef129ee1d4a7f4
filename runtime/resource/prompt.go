package resource

import (
	"slices"
	"strings"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/prompt"
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/uri"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/promptcfg"
)

// PromptPackage is what the workflow prompts know of p (runtime/prompt): its
// identity, rights, profile and source metadata, its embedded prompt config
// decoded and checked (prompt_configuration_error when it does not decode),
// and the resource addresses a workflow may cite under limits.
func PromptPackage(p *catalog.Package, limits Limits) (*prompt.Package, error) {
	m := p.Manifest
	out := &prompt.Package{
		FrameworkID: m.FrameworkID, SnapshotID: m.SnapshotID, GraphPackageID: m.GraphPackageID, GraphType: m.GraphType,
		Name: m.Framework.Name, ProfileID: m.Profile.ProfileID, ProfileVersion: m.Profile.ProfileVersion, ProfileSha256: m.Profile.Sha256,
		ManifestSha256: ids.Sha256(p.Img.ManifestJSON()), Rights: m.Rights, Profile: p.Profile(), SourceMetadata: record.Source(p),
		HasComponents:   m.Includes(manifest.GraphLearningComponents),
		HasProgressions: m.Includes(manifest.GraphLearningProgressions),
		Links:           promptLinks(p, limits),
	}
	if raw := p.Img.PromptConfigJSON(); raw != nil {
		cfg, findings := promptcfg.Decode(raw, promptcfg.FileName, m.Profile.ProfileID, m.Profile.ProfileVersion, p.Profile().FrameworkIDs)
		if len(findings) > 0 || cfg == nil {
			why := "it does not decode"
			if len(findings) > 0 {
				why = findings[0].Message
			}
			return nil, kgerr.New(kgerr.PromptConfigurationError, "the prompt config embedded in %s is invalid: %s", p.SnapshotID(), why).
				WithHint("rebuild the image with kgc build, which validates the prompt config")
		}
		out.Config = cfg
	}
	return out, nil
}

// promptLinks are the evidence addresses a workflow may read: the exact
// package-level resources the package serves, and per-record patterns for
// the record families it serves.
func promptLinks(p *catalog.Package, limits Limits) prompt.Links {
	kinds, _ := Available(p, limits)
	has := func(k string) bool { return slices.Contains(kinds, k) }
	ref := func(kind, id string) string {
		return uri.Ref{Kind: kind, FrameworkID: p.FrameworkID(), SnapshotID: p.SnapshotID(), ID: id}.String()
	}
	// A pattern keeps {nodeId} literal: built around a marker the escaping
	// leaves alone, then put back.
	pattern := func(kind string) string {
		const marker = "NODEIDMARKER"
		return strings.Replace(ref(kind, marker), marker, "{nodeId}", 1)
	}
	relPattern := func(kind string) string {
		const marker = "RELIDMARKER"
		return strings.Replace(ref(kind, marker), marker, "{relationshipId}", 1)
	}
	var l prompt.Links
	l.Manifest, l.Profile = ref("package_manifest", ""), ref("interpretation_profile", "")
	if has("validation") {
		l.Validation = ref("validation_report", "")
	}
	if has("unresolved") {
		l.Unresolved = ref("unresolved_items", "")
	}
	if p.Manifest.Includes(manifest.GraphLearningProgressions) {
		l.Progressions = ref("learning_progressions", "")
		if has("relationship_provenance") {
			l.RelationshipProvenance = relPattern("relationship_provenance")
		}
	}
	if has("standard") {
		l.Standard = pattern("standard")
	}
	if has("standard_provenance") {
		l.StandardProvenance = pattern("standard_provenance")
	}
	if has("standard_learning_components") {
		l.StandardComponents = pattern("standard_learning_components")
	}
	if has("learning_component") {
		l.Component = pattern("learning_component")
		l.ComponentProvenance = pattern("learning_component_provenance")
	}
	return l
}
