// Package manifest decodes and checks package_manifest.json
// (docs/reference/package-format.md#manifest-package_manifestjson):
// strictly (one UTF-8 object, duplicate keys and unknown fields rejected, exact
// JSON types), with explicit version dispatch (manifest 1.0 and 1.1), reporting
// every problem as a finding rather than stopping at the first.
package manifest

import (
	"github.com/kgc-project/kgc/schema/rights"
)

// Graph types.
const (
	GraphAcademicStandards    = "academic_standards"
	GraphLearningComponents   = "learning_components"
	GraphLearningProgressions = "learning_progressions"
)

// Supported versions.
const (
	Version10 = "1.0"
	Version11 = "1.1"
)

// Manifest is a decoded package manifest. Fields that failed to decode keep their
// zero values; Decode's findings say which.
type Manifest struct {
	ManifestVersion       string
	FrameworkID           string
	SnapshotID            string
	GraphPackageID        string
	GraphType             string
	IncludedGraphTypes    []string
	PackageRevision       int64
	DeliverySchemaVersion string
	SourceSchemaVersion   string
	CreatedAt             string
	Framework             Framework
	Profile               ProfileRef
	// Artifacts holds every declared artifact, built-in and additional, sorted by
	// logical name.
	Artifacts []Artifact
	// Checksums maps each declared path to its `sha256:<hex>` digest.
	Checksums         map[string]string
	Counts            Counts
	Capabilities      Capabilities
	Rights            rights.Policy
	Validation        Validation
	SnapshotRelations []SnapshotRelation

	byName, byPath map[string]int // first artifact of each name and path (see Index)
}

// Framework is the manifest's FrameworkMetadata.
type Framework struct {
	Name                  string   `json:"name"`
	Jurisdiction          string   `json:"jurisdiction"`
	JurisdictionType      *string  `json:"jurisdictionType"`
	IssuingAuthority      *string  `json:"issuingAuthority"`
	Provider              *string  `json:"provider"`
	Languages             []string `json:"languages"`
	LocalSubject          string   `json:"localSubject"`
	NormalizedSubjects    []string `json:"normalizedSubjects"`
	LocalGradesOrStages   []string `json:"localGradesOrStages"`
	NormalizedGrades      []string `json:"normalizedGrades"`
	AdoptionStatus        *string  `json:"adoptionStatus"`
	IsCurrent             bool     `json:"isCurrent"`
	SourceVersion         string   `json:"sourceVersion"`
	SourcePublicationDate *string  `json:"sourcePublicationDate"`
	SourceDocumentSha256  *string  `json:"sourceDocumentSha256"`
	SubjectMappingStatus  string   `json:"subjectMappingStatus"`
	SubjectMappingNote    *string  `json:"subjectMappingNote"`
}

// ProfileRef binds the package to one interpretation profile by exact bytes.
type ProfileRef struct {
	ProfileID      string
	ProfileVersion string
	Sha256         string
}

// Counts is PackageCounts v1.
type Counts struct {
	FrameworkNodes             int64
	ItemNodes                  int64
	LearningComponentNodes     int64
	Relationships              int64
	SupportsRelationships      int64
	BuildsTowardsRelationships int64
	RelatesToRelationships     int64
	CodedItems                 int64
	MultiParentTargets         int64
	UnresolvedRelationships    int64
}

// Capabilities is FrameworkCapabilities.
type Capabilities struct {
	TextSearch                       bool
	CodeSearch                       string
	MultiParent                      bool
	HasDetailedProvenance            bool
	HasUnresolvedRelationships       bool
	HasOfficialActivities            bool
	HasOfficialAssessmentGuidance    bool
	HasLearningProgressions          bool
	HasLearningProgressionProvenance bool
}

// Validation is the manifest's lifecycle status.
type Validation struct {
	Status      string
	ValidatedAt string
}

// SnapshotRelation links this snapshot to another one.
type SnapshotRelation struct {
	RelationType     string `json:"relationType"`
	TargetSnapshotID string `json:"targetSnapshotId"`
	Evidence         string `json:"evidence"`
}

// Includes reports whether graph type t is included.
func (m *Manifest) Includes(t string) bool {
	for _, x := range m.IncludedGraphTypes {
		if x == t {
			return true
		}
	}
	return false
}

// Artifact returns the declared artifact named name.
func (m *Manifest) Artifact(name string) (Artifact, bool) {
	if m.byName != nil {
		i, ok := m.byName[name]
		if !ok {
			return Artifact{}, false
		}
		return m.Artifacts[i], true
	}
	for _, a := range m.Artifacts {
		if a.Name == name {
			return a, true
		}
	}
	return Artifact{}, false
}

// Index builds the lookups by name and path (Decode calls it once the
// artifacts are final, so that lookups are not linear in the artifacts; a
// Manifest built otherwise calls it once its Artifacts are set).
func (m *Manifest) Index() {
	m.byName = make(map[string]int, len(m.Artifacts))
	m.byPath = make(map[string]int, len(m.Artifacts))
	for i := len(m.Artifacts) - 1; i >= 0; i-- {
		m.byName[m.Artifacts[i].Name] = i
		m.byPath[m.Artifacts[i].Path] = i
	}
}

// Path returns the declared path of artifact name, or "".
func (m *Manifest) Path(name string) string {
	a, _ := m.Artifact(name)
	return a.Path
}

// NameOf returns the logical name declared for path, or "".
func (m *Manifest) NameOf(path string) string {
	if m.byPath != nil {
		if i, ok := m.byPath[path]; ok {
			return m.Artifacts[i].Name
		}
		return ""
	}
	for _, a := range m.Artifacts {
		if a.Path == path {
			return a.Name
		}
	}
	return ""
}
