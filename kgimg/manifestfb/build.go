// Package manifestfb stores a package manifest in its compiled form, the
// kgfb.CompiledManifest table of an image: everything the gate decoded and
// checked. The compiler writes it once (Build); the server copies it into a
// manifest.Manifest at open (Decode) instead of parsing and re-checking
// manifest_json, and reads single fields of it in place before that.
package manifestfb

import (
	"sort"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/kgimg/internal/fbkit"
	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/schema/manifest"
)

// Build writes m as a CompiledManifest table into b and returns its offset.
// Lists and optional strings are written exactly when m has them, so Decode
// gives back a manifest equal to m.
func Build(b *flatbuffers.Builder, m *manifest.Manifest) flatbuffers.UOffsetT {
	w := fbkit.Builder{B: b}
	s := w.Str
	version, fw, snap, pkg, graphType := s(m.ManifestVersion), s(m.FrameworkID), s(m.SnapshotID), s(m.GraphPackageID), s(m.GraphType)
	included, delivery, source, created := w.Strs(m.IncludedGraphTypes), s(m.DeliverySchemaVersion), s(m.SourceSchemaVersion), s(m.CreatedAt)
	framework := buildFramework(w, &m.Framework)
	profileID, profileVersion, profileSha := s(m.Profile.ProfileID), s(m.Profile.ProfileVersion), s(m.Profile.Sha256)
	artifacts := buildArtifacts(w, m.Artifacts)
	checksums := buildChecksums(w, m.Checksums)
	cp := m.Capabilities
	codeSearch := s(cp.CodeSearch)
	rightsPolicy := w.Rights(&m.Rights)
	status, validatedAt := s(m.Validation.Status), s(m.Validation.ValidatedAt)
	relations := buildRelations(w, m.SnapshotRelations)

	kgfb.CompiledManifestStart(b)
	kgfb.CompiledManifestAddManifestVersion(b, version)
	kgfb.CompiledManifestAddFrameworkId(b, fw)
	kgfb.CompiledManifestAddSnapshotId(b, snap)
	kgfb.CompiledManifestAddGraphPackageId(b, pkg)
	kgfb.CompiledManifestAddGraphType(b, graphType)
	kgfb.CompiledManifestAddIncludedGraphTypes(b, included)
	kgfb.CompiledManifestAddPackageRevision(b, m.PackageRevision)
	kgfb.CompiledManifestAddDeliverySchemaVersion(b, delivery)
	kgfb.CompiledManifestAddSourceSchemaVersion(b, source)
	kgfb.CompiledManifestAddCreatedAt(b, created)
	kgfb.CompiledManifestAddFramework(b, framework)
	kgfb.CompiledManifestAddProfileId(b, profileID)
	kgfb.CompiledManifestAddProfileVersion(b, profileVersion)
	kgfb.CompiledManifestAddProfileSha256(b, profileSha)
	kgfb.CompiledManifestAddArtifacts(b, artifacts)
	kgfb.CompiledManifestAddChecksums(b, checksums)
	c := m.Counts
	kgfb.CompiledManifestAddFrameworkNodes(b, c.FrameworkNodes)
	kgfb.CompiledManifestAddItemNodes(b, c.ItemNodes)
	kgfb.CompiledManifestAddLearningComponentNodes(b, c.LearningComponentNodes)
	kgfb.CompiledManifestAddRelationships(b, c.Relationships)
	kgfb.CompiledManifestAddSupportsRelationships(b, c.SupportsRelationships)
	kgfb.CompiledManifestAddBuildsTowardsRelationships(b, c.BuildsTowardsRelationships)
	kgfb.CompiledManifestAddRelatesToRelationships(b, c.RelatesToRelationships)
	kgfb.CompiledManifestAddCodedItems(b, c.CodedItems)
	kgfb.CompiledManifestAddMultiParentTargets(b, c.MultiParentTargets)
	kgfb.CompiledManifestAddUnresolvedRelationships(b, c.UnresolvedRelationships)
	kgfb.CompiledManifestAddTextSearch(b, cp.TextSearch)
	kgfb.CompiledManifestAddCodeSearch(b, codeSearch)
	kgfb.CompiledManifestAddMultiParent(b, cp.MultiParent)
	kgfb.CompiledManifestAddHasDetailedProvenance(b, cp.HasDetailedProvenance)
	kgfb.CompiledManifestAddHasUnresolvedRelationships(b, cp.HasUnresolvedRelationships)
	kgfb.CompiledManifestAddHasOfficialActivities(b, cp.HasOfficialActivities)
	kgfb.CompiledManifestAddHasOfficialAssessmentGuidance(b, cp.HasOfficialAssessmentGuidance)
	kgfb.CompiledManifestAddHasLearningProgressions(b, cp.HasLearningProgressions)
	kgfb.CompiledManifestAddHasLearningProgressionProvenance(b, cp.HasLearningProgressionProvenance)
	kgfb.CompiledManifestAddRights(b, rightsPolicy)
	kgfb.CompiledManifestAddValidationStatus(b, status)
	kgfb.CompiledManifestAddValidatedAt(b, validatedAt)
	kgfb.CompiledManifestAddSnapshotRelations(b, relations)
	return kgfb.CompiledManifestEnd(b)
}

func buildFramework(w fbkit.Builder, f *manifest.Framework) flatbuffers.UOffsetT {
	b, s, o := w.B, w.Str, w.OptStr
	name, jurisdiction, jurisdictionType, authority, provider := s(f.Name), s(f.Jurisdiction), o(f.JurisdictionType), o(f.IssuingAuthority), o(f.Provider)
	languages, subject, subjects, local, grades := w.Strs(f.Languages), s(f.LocalSubject), w.Strs(f.NormalizedSubjects), w.Strs(f.LocalGradesOrStages), w.Strs(f.NormalizedGrades)
	adoption, sourceVersion, published, docSha := o(f.AdoptionStatus), s(f.SourceVersion), o(f.SourcePublicationDate), o(f.SourceDocumentSha256)
	mapping, note := s(f.SubjectMappingStatus), o(f.SubjectMappingNote)
	kgfb.FrameworkMetadataStart(b)
	kgfb.FrameworkMetadataAddName(b, name)
	kgfb.FrameworkMetadataAddJurisdiction(b, jurisdiction)
	kgfb.FrameworkMetadataAddJurisdictionType(b, jurisdictionType)
	kgfb.FrameworkMetadataAddIssuingAuthority(b, authority)
	kgfb.FrameworkMetadataAddProvider(b, provider)
	kgfb.FrameworkMetadataAddLanguages(b, languages)
	kgfb.FrameworkMetadataAddLocalSubject(b, subject)
	kgfb.FrameworkMetadataAddNormalizedSubjects(b, subjects)
	kgfb.FrameworkMetadataAddLocalGradesOrStages(b, local)
	kgfb.FrameworkMetadataAddNormalizedGrades(b, grades)
	kgfb.FrameworkMetadataAddAdoptionStatus(b, adoption)
	kgfb.FrameworkMetadataAddIsCurrent(b, f.IsCurrent)
	kgfb.FrameworkMetadataAddSourceVersion(b, sourceVersion)
	kgfb.FrameworkMetadataAddSourcePublicationDate(b, published)
	kgfb.FrameworkMetadataAddSourceDocumentSha256(b, docSha)
	kgfb.FrameworkMetadataAddSubjectMappingStatus(b, mapping)
	kgfb.FrameworkMetadataAddSubjectMappingNote(b, note)
	return kgfb.FrameworkMetadataEnd(b)
}

func buildArtifacts(w fbkit.Builder, list []manifest.Artifact) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, a := range list {
		name, path := w.Str(a.Name), w.Str(a.Path)
		kgfb.ManifestArtifactStart(w.B)
		kgfb.ManifestArtifactAddName(w.B, name)
		kgfb.ManifestArtifactAddPath(w.B, path)
		kgfb.ManifestArtifactAddAdditional(w.B, a.Additional)
		offs[i] = kgfb.ManifestArtifactEnd(w.B)
	}
	return w.Offsets(offs, list != nil)
}

// buildChecksums writes the checksum map sorted by path (deterministic bytes).
func buildChecksums(w fbkit.Builder, sums map[string]string) flatbuffers.UOffsetT {
	paths := make([]string, 0, len(sums))
	for p := range sums {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	offs := make([]flatbuffers.UOffsetT, len(paths))
	for i, p := range paths {
		path, sum := w.Str(p), w.Str(sums[p])
		kgfb.ChecksumEntryStart(w.B)
		kgfb.ChecksumEntryAddPath(w.B, path)
		kgfb.ChecksumEntryAddSha256(w.B, sum)
		offs[i] = kgfb.ChecksumEntryEnd(w.B)
	}
	return w.Offsets(offs, sums != nil)
}

func buildRelations(w fbkit.Builder, list []manifest.SnapshotRelation) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, r := range list {
		typ, target, evidence := w.Str(r.RelationType), w.Str(r.TargetSnapshotID), w.Str(r.Evidence)
		kgfb.SnapshotRelationStart(w.B)
		kgfb.SnapshotRelationAddRelationType(w.B, typ)
		kgfb.SnapshotRelationAddTargetSnapshotId(w.B, target)
		kgfb.SnapshotRelationAddEvidence(w.B, evidence)
		offs[i] = kgfb.SnapshotRelationEnd(w.B)
	}
	return w.Offsets(offs, list != nil)
}
