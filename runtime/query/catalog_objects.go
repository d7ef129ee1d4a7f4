package query

import (
	"sort"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/rights"
)

func strPtr(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

func packageIdentity(p *catalog.Package) obj {
	m := p.Manifest
	return obj{
		"frameworkId": m.FrameworkID, "graphPackageId": m.GraphPackageID, "graphType": m.GraphType,
		"packageRevision": m.PackageRevision, "profileId": m.Profile.ProfileID, "profileSha256": m.Profile.Sha256,
		"profileVersion": m.Profile.ProfileVersion, "snapshotId": m.SnapshotID,
	}
}

func rightsObject(r rights.Policy) obj {
	return obj{
		"sourceLicense": r.SourceLicense, "licenseUri": strPtr(r.LicenseURI), "attributionStatement": r.AttributionStatement,
		"reviewStatus": r.ReviewStatus, "allowStandardResources": r.AllowStandardResources, "allowFullText": r.AllowFullText,
		"allowBulkResource": r.AllowBulkResource, "allowGeneratedDerivatives": r.AllowGeneratedDerivatives,
	}
}

func sourceMetadata(p *catalog.Package) obj {
	f := p.Manifest.Framework
	return obj{
		"adoptionStatus": strPtr(f.AdoptionStatus), "isCurrent": f.IsCurrent, "issuingAuthority": strPtr(f.IssuingAuthority),
		"jurisdiction": f.Jurisdiction, "jurisdictionType": strPtr(f.JurisdictionType), "languages": f.Languages,
		"localGradesOrStages": nonNil(f.LocalGradesOrStages), "localSubject": f.LocalSubject, "name": f.Name,
		"provider": strPtr(f.Provider), "sourceDocumentSha256": strPtr(f.SourceDocumentSha256),
		"sourcePublicationDate": strPtr(f.SourcePublicationDate), "sourceVersion": f.SourceVersion,
	}
}

func profileFacets(p *catalog.Package) obj {
	f := p.Manifest.Framework
	return obj{
		"normalizedGrades": nonNil(f.NormalizedGrades), "normalizedSubjects": nonNil(f.NormalizedSubjects),
		"subjectMappingNote": strPtr(f.SubjectMappingNote), "subjectMappingStatus": f.SubjectMappingStatus,
	}
}

func capabilitiesObject(c manifest.Capabilities) obj {
	return obj{
		"textSearch": c.TextSearch, "codeSearch": c.CodeSearch, "multiParent": c.MultiParent,
		"hasDetailedProvenance": c.HasDetailedProvenance, "hasUnresolvedRelationships": c.HasUnresolvedRelationships,
		"hasOfficialActivities": c.HasOfficialActivities, "hasOfficialAssessmentGuidance": c.HasOfficialAssessmentGuidance,
		"hasLearningProgressions": c.HasLearningProgressions, "hasLearningProgressionProvenance": c.HasLearningProgressionProvenance,
	}
}

func countsObject(c manifest.Counts) obj {
	return obj{
		"frameworkNodes": c.FrameworkNodes, "itemNodes": c.ItemNodes, "learningComponentNodes": c.LearningComponentNodes,
		"relationships": c.Relationships, "supportsRelationships": c.SupportsRelationships,
		"buildsTowardsRelationships": c.BuildsTowardsRelationships, "relatesToRelationships": c.RelatesToRelationships,
		"additionalCounts": obj{"codedItems": c.CodedItems, "multiParentTargets": c.MultiParentTargets, "unresolvedRelationships": c.UnresolvedRelationships},
	}
}

// packageSummary is a graph package inside a framework snapshot.
func packageSummary(p *catalog.Package) obj {
	m := p.Manifest
	return obj{
		"packageIdentity": packageIdentity(p), "capabilities": capabilitiesObject(m.Capabilities), "counts": countsObject(m.Counts),
		"profileFacets": profileFacets(p), "rights": rightsObject(m.Rights), "validationStatus": m.Validation.Status,
		"includedGraphTypes": m.IncludedGraphTypes,
	}
}

// frameworkSnapshot is a CatalogFrameworkSnapshot.
func frameworkSnapshot(s *catalog.Snapshot) obj {
	var types []string
	pkgs := make([]obj, 0, len(s.Packages))
	for _, p := range s.Packages {
		if !contains(types, p.Manifest.GraphType) {
			types = append(types, p.Manifest.GraphType)
		}
		pkgs = append(pkgs, packageSummary(p))
	}
	sort.Strings(types)
	first := s.Packages[0]
	rels := make([]obj, 0, len(first.Manifest.SnapshotRelations))
	for _, r := range first.Manifest.SnapshotRelations {
		rels = append(rels, obj{"evidence": r.Evidence, "relationType": r.RelationType, "targetSnapshotId": r.TargetSnapshotID})
	}
	return obj{
		"availableGraphTypes": types, "frameworkId": s.FrameworkID, "graphPackages": pkgs,
		"snapshotId": s.SnapshotID, "snapshotRelations": rels, "sourceMetadata": sourceMetadata(first),
	}
}

// catalogObject is the public catalog document (the kgfegmcp://catalog resource).
func catalogObject(c *catalog.Catalog) obj {
	fams := make([]obj, 0, len(c.Frameworks))
	snaps, pkgs := 0, 0
	for _, f := range c.Frameworks {
		fams = append(fams, frameworkObject(f))
		snaps += len(f.Snapshots)
		for _, s := range f.Snapshots {
			pkgs += len(s.Packages)
		}
	}
	return obj{"frameworkCount": len(c.Frameworks), "frameworks": fams, "graphPackageCount": pkgs, "snapshotCount": snaps}
}

func frameworkObject(f *catalog.Framework) obj {
	snaps := make([]obj, 0, len(f.Snapshots))
	for _, s := range f.Snapshots {
		snaps = append(snaps, frameworkSnapshot(s))
	}
	return obj{"frameworkId": f.ID, "snapshots": snaps}
}

// catalogSha256 hashes the canonical JSON of the public catalog, once.
func (s *Service) catalogSha256() string {
	return s.memo.get("catalogSha256", func() any {
		h, _ := canonjson.Sha256(s.catalogObject())
		return h
	}).(string)
}

// catalogObject is the public catalog document, built once.
func (s *Service) catalogObject() obj {
	return s.memo.get("catalog", func() any { return catalogObject(s.cat) }).(obj)
}
