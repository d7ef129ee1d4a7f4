package record

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sort"
	"strconv"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/rights"
)

// ProfileFacets are the manifest's normalized facets.
type ProfileFacets struct {
	NormalizedGrades     []string `json:"normalizedGrades"`
	NormalizedSubjects   []string `json:"normalizedSubjects"`
	SubjectMappingNote   *string  `json:"subjectMappingNote"`
	SubjectMappingStatus string   `json:"subjectMappingStatus"`
}

func profileFacetsOf(p *catalog.Package) ProfileFacets {
	f := p.Manifest.Framework
	return ProfileFacets{NormalizedGrades: nonNil(f.NormalizedGrades), NormalizedSubjects: nonNil(f.NormalizedSubjects),
		SubjectMappingNote: f.SubjectMappingNote, SubjectMappingStatus: f.SubjectMappingStatus}
}

// Capabilities are a package's FrameworkCapabilities.
type Capabilities struct {
	CodeSearch                       string `json:"codeSearch"`
	HasDetailedProvenance            bool   `json:"hasDetailedProvenance"`
	HasLearningProgressionProvenance bool   `json:"hasLearningProgressionProvenance"`
	HasLearningProgressions          bool   `json:"hasLearningProgressions"`
	HasOfficialActivities            bool   `json:"hasOfficialActivities"`
	HasOfficialAssessmentGuidance    bool   `json:"hasOfficialAssessmentGuidance"`
	HasUnresolvedRelationships       bool   `json:"hasUnresolvedRelationships"`
	MultiParent                      bool   `json:"multiParent"`
	TextSearch                       bool   `json:"textSearch"`
}

func capabilitiesOf(c manifest.Capabilities) Capabilities {
	return Capabilities{
		CodeSearch: c.CodeSearch, HasDetailedProvenance: c.HasDetailedProvenance,
		HasLearningProgressionProvenance: c.HasLearningProgressionProvenance, HasLearningProgressions: c.HasLearningProgressions,
		HasOfficialActivities: c.HasOfficialActivities, HasOfficialAssessmentGuidance: c.HasOfficialAssessmentGuidance,
		HasUnresolvedRelationships: c.HasUnresolvedRelationships, MultiParent: c.MultiParent, TextSearch: c.TextSearch,
	}
}

// Counts are a package's declared counts.
type Counts struct {
	AdditionalCounts           AdditionalCounts `json:"additionalCounts"`
	BuildsTowardsRelationships int64            `json:"buildsTowardsRelationships"`
	FrameworkNodes             int64            `json:"frameworkNodes"`
	ItemNodes                  int64            `json:"itemNodes"`
	LearningComponentNodes     int64            `json:"learningComponentNodes"`
	RelatesToRelationships     int64            `json:"relatesToRelationships"`
	Relationships              int64            `json:"relationships"`
	SupportsRelationships      int64            `json:"supportsRelationships"`
}

// AdditionalCounts are the counts derived from the data.
type AdditionalCounts struct {
	CodedItems              int64 `json:"codedItems"`
	MultiParentTargets      int64 `json:"multiParentTargets"`
	UnresolvedRelationships int64 `json:"unresolvedRelationships"`
}

func countsOf(c manifest.Counts) Counts {
	return Counts{
		AdditionalCounts:           AdditionalCounts{CodedItems: c.CodedItems, MultiParentTargets: c.MultiParentTargets, UnresolvedRelationships: c.UnresolvedRelationships},
		BuildsTowardsRelationships: c.BuildsTowardsRelationships, FrameworkNodes: c.FrameworkNodes, ItemNodes: c.ItemNodes,
		LearningComponentNodes: c.LearningComponentNodes, RelatesToRelationships: c.RelatesToRelationships,
		Relationships: c.Relationships, SupportsRelationships: c.SupportsRelationships,
	}
}

// PackageSummary is a graph package inside a framework snapshot.
type PackageSummary struct {
	Capabilities Capabilities `json:"capabilities"`
	Counts       Counts       `json:"counts"`
	// CreatedAt is when the package was made (its manifest's createdAt,
	// RFC 3339; beyond the contract): of two snapshots, the later one is
	// the newer build.
	CreatedAt          string          `json:"createdAt"`
	IncludedGraphTypes []string        `json:"includedGraphTypes"`
	PackageIdentity    PackageIdentity `json:"packageIdentity"`
	ProfileFacets      ProfileFacets   `json:"profileFacets"`
	Rights             rights.Policy   `json:"rights"`
	ValidationStatus   string          `json:"validationStatus"`
}

func Summary(p *catalog.Package) PackageSummary {
	m := p.Manifest
	return PackageSummary{
		PackageIdentity: Identity(p), Capabilities: capabilitiesOf(m.Capabilities), Counts: countsOf(m.Counts),
		ProfileFacets: profileFacetsOf(p), Rights: m.Rights, ValidationStatus: m.Validation.Status,
		IncludedGraphTypes: m.IncludedGraphTypes, CreatedAt: m.CreatedAt,
	}
}

// SnapshotRelation links a snapshot to another one.
type SnapshotRelation = manifest.SnapshotRelation

// FrameworkSnapshot is a CatalogFrameworkSnapshot: one snapshot of a
// framework with its packages.
type FrameworkSnapshot struct {
	// AvailableGraphTypes are the primary graph types of the snapshot's
	// packages (how tools select them); IncludedGraphTypes everything they
	// contain (learning components and progressions too, where present).
	AvailableGraphTypes []string           `json:"availableGraphTypes"`
	FrameworkID         string             `json:"frameworkId"`
	GraphPackages       []PackageSummary   `json:"graphPackages"`
	IncludedGraphTypes  []string           `json:"includedGraphTypes"`
	SnapshotID          string             `json:"snapshotId"`
	SnapshotRelations   []SnapshotRelation `json:"snapshotRelations"`
	SourceMetadata      SourceMetadata     `json:"sourceMetadata"`
}

func Snapshot(s *catalog.Snapshot) FrameworkSnapshot {
	available, included := GraphTypes(s.Packages)
	pkgs := make([]PackageSummary, 0, len(s.Packages))
	for _, p := range s.Packages {
		pkgs = append(pkgs, Summary(p))
	}
	first := s.Packages[0]
	return FrameworkSnapshot{
		AvailableGraphTypes: available, FrameworkID: s.FrameworkID, GraphPackages: pkgs, IncludedGraphTypes: included,
		SnapshotID: s.SnapshotID, SnapshotRelations: append([]SnapshotRelation{}, first.Manifest.SnapshotRelations...),
		SourceMetadata: Source(first),
	}
}

// GraphTypes are the primary graph types of packages and the union of the
// graph types they include, each sorted and never nil.
func GraphTypes(pkgs []*catalog.Package) (available, included []string) {
	available, included = []string{}, []string{}
	for _, p := range pkgs {
		if !slices.Contains(available, p.Manifest.GraphType) {
			available = append(available, p.Manifest.GraphType)
		}
		for _, t := range p.Manifest.IncludedGraphTypes {
			if !slices.Contains(included, t) {
				included = append(included, t)
			}
		}
	}
	sort.Strings(available)
	sort.Strings(included)
	return available, included
}

// Catalog is the public catalog document (the kgfegmcp://catalog resource).
type Catalog struct {
	FrameworkCount    int         `json:"frameworkCount"`
	Frameworks        []Framework `json:"frameworks"`
	GraphPackageCount int         `json:"graphPackageCount"`
	SnapshotCount     int         `json:"snapshotCount"`
}

func CatalogOf(c *catalog.Catalog) Catalog {
	out := Catalog{FrameworkCount: len(c.Frameworks), Frameworks: make([]Framework, 0, len(c.Frameworks))}
	for _, f := range c.Frameworks {
		out.Frameworks = append(out.Frameworks, FrameworkOf(f))
		out.SnapshotCount += len(f.Snapshots)
		for _, s := range f.Snapshots {
			out.GraphPackageCount += len(s.Packages)
		}
	}
	return out
}

// Framework is one framework family with its snapshots.
type Framework struct {
	FrameworkID string              `json:"frameworkId"`
	Snapshots   []FrameworkSnapshot `json:"snapshots"`
}

func FrameworkOf(f *catalog.Framework) Framework {
	snaps := make([]FrameworkSnapshot, 0, len(f.Snapshots))
	for _, s := range f.Snapshots {
		snaps = append(snaps, Snapshot(s))
	}
	return Framework{FrameworkID: f.ID, Snapshots: snaps}
}

// CatalogDigest is canonjson.Sha256 of c, hashed as it is encoded, one
// framework at a time through a reused buffer: the document of a large
// catalog (about 1.5 KB a framework) is never held whole, nor its buffer
// regrown. The keys are written in canonical (sorted) order;
// TestCatalogDigest holds it to canonjson.Sha256.
func CatalogDigest(c Catalog) string {
	h := sha256.New()
	b := make([]byte, 0, 32<<10)
	b = append(b, `{"frameworkCount":`...)
	b = strconv.AppendInt(b, int64(c.FrameworkCount), 10)
	b = append(b, `,"frameworks":`...)
	if c.Frameworks == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range c.Frameworks {
			if i > 0 {
				b = append(b, ',')
			}
			b, _ = canonjson.Append(b, &c.Frameworks[i])
			if len(b) >= 16<<10 {
				h.Write(b)
				b = b[:0]
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"graphPackageCount":`...)
	b = strconv.AppendInt(b, int64(c.GraphPackageCount), 10)
	b = append(b, `,"snapshotCount":`...)
	b = strconv.AppendInt(b, int64(c.SnapshotCount), 10)
	b = append(b, '}')
	h.Write(b)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
