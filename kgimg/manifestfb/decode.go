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
	m := &manifest.Manifest{
		ManifestVersion:       string(cm.ManifestVersion()),
		FrameworkID:           string(cm.FrameworkId()),
		SnapshotID:            string(cm.SnapshotId()),
		GraphPackageID:        string(cm.GraphPackageId()),
		GraphType:             string(cm.GraphType()),
		IncludedGraphTypes:    fbkit.StrsAt(t, cmIncludedGraphTypes),
		PackageRevision:       cm.PackageRevision(),
		DeliverySchemaVersion: string(cm.DeliverySchemaVersion()),
		SourceSchemaVersion:   string(cm.SourceSchemaVersion()),
		CreatedAt:             string(cm.CreatedAt()),
		Profile:               manifest.ProfileRef{ProfileID: string(cm.ProfileId()), ProfileVersion: string(cm.ProfileVersion()), Sha256: string(cm.ProfileSha256())},
		Counts: manifest.Counts{
			FrameworkNodes: cm.FrameworkNodes(), ItemNodes: cm.ItemNodes(), LearningComponentNodes: cm.LearningComponentNodes(),
			Relationships: cm.Relationships(), SupportsRelationships: cm.SupportsRelationships(),
			BuildsTowardsRelationships: cm.BuildsTowardsRelationships(), RelatesToRelationships: cm.RelatesToRelationships(),
			CodedItems: cm.CodedItems(), MultiParentTargets: cm.MultiParentTargets(), UnresolvedRelationships: cm.UnresolvedRelationships(),
		},
		Capabilities: manifest.Capabilities{
			TextSearch: cm.TextSearch(), CodeSearch: string(cm.CodeSearch()), MultiParent: cm.MultiParent(),
			HasDetailedProvenance: cm.HasDetailedProvenance(), HasUnresolvedRelationships: cm.HasUnresolvedRelationships(),
			HasOfficialActivities: cm.HasOfficialActivities(), HasOfficialAssessmentGuidance: cm.HasOfficialAssessmentGuidance(),
			HasLearningProgressions: cm.HasLearningProgressions(), HasLearningProgressionProvenance: cm.HasLearningProgressionProvenance(),
		},
		Rights:     fbkit.Rights(cm.Rights(nil)),
		Validation: manifest.Validation{Status: string(cm.ValidationStatus()), ValidatedAt: string(cm.ValidatedAt())},
	}
	if f := cm.Framework(nil); f != nil {
		m.Framework = framework(f)
	}
	m.Artifacts = fbkit.Slice[manifest.Artifact](t, cmArtifacts)
	var a kgfb.ManifestArtifact
	for i := range m.Artifacts {
		cm.Artifacts(&a, i)
		m.Artifacts[i] = manifest.Artifact{Name: string(a.Name()), Path: string(a.Path()), Additional: a.Additional()}
	}
	if n := fbkit.Slice[struct{}](t, cmChecksums); n != nil {
		m.Checksums = make(map[string]string, len(n))
		var c kgfb.ChecksumEntry
		for i := range n {
			cm.Checksums(&c, i)
			m.Checksums[string(c.Path())] = string(c.Sha256())
		}
	}
	m.SnapshotRelations = fbkit.Slice[manifest.SnapshotRelation](t, cmSnapshotRelations)
	var r kgfb.SnapshotRelation
	for i := range m.SnapshotRelations {
		cm.SnapshotRelations(&r, i)
		m.SnapshotRelations[i] = manifest.SnapshotRelation{RelationType: string(r.RelationType()), TargetSnapshotID: string(r.TargetSnapshotId()), Evidence: string(r.Evidence())}
	}
	m.Index()
	return m
}

func framework(f *kgfb.FrameworkMetadata) manifest.Framework {
	t := f.Table()
	return manifest.Framework{
		Name:                  string(f.Name()),
		Jurisdiction:          string(f.Jurisdiction()),
		JurisdictionType:      fbkit.OptStr(f.JurisdictionType()),
		IssuingAuthority:      fbkit.OptStr(f.IssuingAuthority()),
		Provider:              fbkit.OptStr(f.Provider()),
		Languages:             fbkit.StrsAt(t, fwLanguages),
		LocalSubject:          string(f.LocalSubject()),
		NormalizedSubjects:    fbkit.StrsAt(t, fwNormalizedSubjects),
		LocalGradesOrStages:   fbkit.StrsAt(t, fwLocalGrades),
		NormalizedGrades:      fbkit.StrsAt(t, fwNormalizedGrades),
		AdoptionStatus:        fbkit.OptStr(f.AdoptionStatus()),
		IsCurrent:             f.IsCurrent(),
		SourceVersion:         string(f.SourceVersion()),
		SourcePublicationDate: fbkit.OptStr(f.SourcePublicationDate()),
		SourceDocumentSha256:  fbkit.OptStr(f.SourceDocumentSha256()),
		SubjectMappingStatus:  string(f.SubjectMappingStatus()),
		SubjectMappingNote:    fbkit.OptStr(f.SubjectMappingNote()),
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
