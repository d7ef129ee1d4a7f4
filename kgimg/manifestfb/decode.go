package manifestfb

import (
	"errors"
	"reflect"

	"github.com/kgc-project/kgc/kgimg/internal/fbkit"
	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/schema/manifest"
)

// Field numbers (schema order from 0) of the vectors Decode reads through
// presence; the round-trip test catches a wrong number.
const (
	cmIncludedGraphTypes = 5
	cmArtifacts          = 14
	cmChecksums          = 15
	cmSnapshotRelations  = 38

	fwLanguages          = 5
	fwNormalizedSubjects = 7
	fwLocalGrades        = 8
	fwNormalizedGrades   = 9
)

// Decode copies a compiled manifest into a manifest.Manifest equal to the one
// Build was given (its artifact lookups built). It never points into cm's
// buffer.
func Decode(cm *kgfb.CompiledManifest) *manifest.Manifest {
	t := cm.Table()
	ar := &fbkit.Arena{}
	m := &manifest.Manifest{
		ManifestVersion:       ar.Str(cm.ManifestVersion()),
		FrameworkID:           ar.Str(cm.FrameworkId()),
		SnapshotID:            ar.Str(cm.SnapshotId()),
		GraphPackageID:        ar.Str(cm.GraphPackageId()),
		GraphType:             ar.Str(cm.GraphType()),
		IncludedGraphTypes:    ar.StrsAt(t, cmIncludedGraphTypes),
		PackageRevision:       cm.PackageRevision(),
		DeliverySchemaVersion: ar.Str(cm.DeliverySchemaVersion()),
		SourceSchemaVersion:   ar.Str(cm.SourceSchemaVersion()),
		CreatedAt:             ar.Str(cm.CreatedAt()),
		Profile:               manifest.ProfileRef{ProfileID: ar.Str(cm.ProfileId()), ProfileVersion: ar.Str(cm.ProfileVersion()), Sha256: ar.Str(cm.ProfileSha256())},
		Counts: manifest.Counts{
			FrameworkNodes: cm.FrameworkNodes(), ItemNodes: cm.ItemNodes(), LearningComponentNodes: cm.LearningComponentNodes(),
			Relationships: cm.Relationships(), SupportsRelationships: cm.SupportsRelationships(),
			BuildsTowardsRelationships: cm.BuildsTowardsRelationships(), RelatesToRelationships: cm.RelatesToRelationships(),
			CodedItems: cm.CodedItems(), MultiParentTargets: cm.MultiParentTargets(), UnresolvedRelationships: cm.UnresolvedRelationships(),
		},
		Capabilities: manifest.Capabilities{
			TextSearch: cm.TextSearch(), CodeSearch: ar.Str(cm.CodeSearch()), MultiParent: cm.MultiParent(),
			HasDetailedProvenance: cm.HasDetailedProvenance(), HasUnresolvedRelationships: cm.HasUnresolvedRelationships(),
			HasOfficialActivities: cm.HasOfficialActivities(), HasOfficialAssessmentGuidance: cm.HasOfficialAssessmentGuidance(),
			HasLearningProgressions: cm.HasLearningProgressions(), HasLearningProgressionProvenance: cm.HasLearningProgressionProvenance(),
		},
		Rights:     ar.Rights(cm.Rights(nil)),
		Validation: manifest.Validation{Status: ar.Str(cm.ValidationStatus()), ValidatedAt: ar.Str(cm.ValidatedAt())},
	}
	if f := cm.Framework(nil); f != nil {
		m.Framework = framework(ar, f)
	}
	m.Artifacts = fbkit.Slice[manifest.Artifact](t, cmArtifacts)
	var a kgfb.ManifestArtifact
	for i := range m.Artifacts {
		cm.Artifacts(&a, i)
		m.Artifacts[i] = manifest.Artifact{Name: ar.Str(a.Name()), Path: ar.Str(a.Path()), Additional: a.Additional()}
	}
	if n := fbkit.Slice[struct{}](t, cmChecksums); n != nil {
		m.Checksums = make(map[string]string, len(n))
		var c kgfb.ChecksumEntry
		for i := range n {
			cm.Checksums(&c, i)
			m.Checksums[ar.Str(c.Path())] = ar.Str(c.Sha256())
		}
	}
	m.SnapshotRelations = fbkit.Slice[manifest.SnapshotRelation](t, cmSnapshotRelations)
	var r kgfb.SnapshotRelation
	for i := range m.SnapshotRelations {
		cm.SnapshotRelations(&r, i)
		m.SnapshotRelations[i] = manifest.SnapshotRelation{RelationType: ar.Str(r.RelationType()), TargetSnapshotID: ar.Str(r.TargetSnapshotId()), Evidence: ar.Str(r.Evidence())}
	}
	m.Index()
	return m
}

func framework(ar *fbkit.Arena, f *kgfb.FrameworkMetadata) manifest.Framework {
	t := f.Table()
	return manifest.Framework{
		Name:                  ar.Str(f.Name()),
		Jurisdiction:          ar.Str(f.Jurisdiction()),
		JurisdictionType:      ar.OptStr(f.JurisdictionType()),
		IssuingAuthority:      ar.OptStr(f.IssuingAuthority()),
		Provider:              ar.OptStr(f.Provider()),
		Languages:             ar.StrsAt(t, fwLanguages),
		LocalSubject:          ar.Str(f.LocalSubject()),
		NormalizedSubjects:    ar.StrsAt(t, fwNormalizedSubjects),
		LocalGradesOrStages:   ar.StrsAt(t, fwLocalGrades),
		NormalizedGrades:      ar.StrsAt(t, fwNormalizedGrades),
		AdoptionStatus:        ar.OptStr(f.AdoptionStatus()),
		IsCurrent:             f.IsCurrent(),
		SourceVersion:         ar.Str(f.SourceVersion()),
		SourcePublicationDate: ar.OptStr(f.SourcePublicationDate()),
		SourceDocumentSha256:  ar.OptStr(f.SourceDocumentSha256()),
		SubjectMappingStatus:  ar.Str(f.SubjectMappingStatus()),
		SubjectMappingNote:    ar.OptStr(f.SubjectMappingNote()),
	}
}

// Check reports whether cm is the compiled form of m: nil when Decode(cm)
// equals m. kgc verify runs it against the image's manifest_json.
func Check(cm *kgfb.CompiledManifest, m *manifest.Manifest) error {
	if !reflect.DeepEqual(Decode(cm), m) {
		return errors.New("the compiled manifest is not the embedded manifest")
	}
	return nil
}
