package diff

import (
	"strconv"
	"strings"

	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
)

// field is one rights, profile or metadata value of a snapshot, spelled for
// a reader: booleans true/false, lists joined with ", ", an absent value
// empty.
type field struct {
	Name, Value string
}

// metadata lists, in a fixed order, what a person deciding to publish reads
// first: the rights policy and its review, the profile and what it declares,
// then the framework's description and the package's identity. m or p may be
// nil (their fields are then left out).
func metadata(m *manifest.Manifest, p *profile.Profile) []field {
	var out []field
	add := func(name, value string) { out = append(out, field{Name: name, Value: value}) }
	str := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	if m != nil {
		r := m.Rights
		add("rights.sourceLicense", r.SourceLicense)
		add("rights.licenseUri", str(r.LicenseURI))
		add("rights.attributionStatement", r.AttributionStatement)
		add("rights.reviewStatus", r.ReviewStatus)
		add("rights.allowStandardResources", strconv.FormatBool(r.AllowStandardResources))
		add("rights.allowFullText", strconv.FormatBool(r.AllowFullText))
		add("rights.allowBulkResource", strconv.FormatBool(r.AllowBulkResource))
		add("rights.allowGeneratedDerivatives", r.AllowGeneratedDerivatives)
	}
	if p != nil {
		var by, at, note string
		if rr := p.RightsReview; rr != nil {
			by, at, note = rr.ReviewedBy, rr.ReviewedAt, str(rr.Note)
		}
		add("rightsReview.reviewedBy", by)
		add("rightsReview.reviewedAt", at)
		add("rightsReview.note", note)
	}
	if m != nil {
		add("profile", m.Profile.ProfileID+" "+m.Profile.ProfileVersion)
		add("profile.sha256", m.Profile.Sha256)
	}
	if p != nil {
		var types, grades []string
		for _, t := range p.StatementTypes {
			types = append(types, t.SourceStatementType+" → "+t.NormalizedStatementType)
		}
		for _, g := range p.GradeMappings {
			grades = append(grades, g.LocalLabel+" → "+strings.Join(g.NormalizedGrades, "/"))
		}
		add("profile.statementTypes", strings.Join(types, ", "))
		add("profile.gradeMappings", strings.Join(grades, ", "))
		add("profile.subjectMappingStatus", p.SubjectMappingStatus)
		add("profile.codeSearch", p.CodeSearchPolicy.Availability)
	}
	if m != nil {
		f := m.Framework
		add("framework.name", f.Name)
		add("framework.jurisdiction", f.Jurisdiction)
		add("framework.issuingAuthority", str(f.IssuingAuthority))
		add("framework.provider", str(f.Provider))
		add("framework.localSubject", f.LocalSubject)
		add("framework.normalizedSubjects", strings.Join(f.NormalizedSubjects, ", "))
		add("framework.localGradesOrStages", strings.Join(f.LocalGradesOrStages, ", "))
		add("framework.normalizedGrades", strings.Join(f.NormalizedGrades, ", "))
		add("framework.languages", strings.Join(f.Languages, ", "))
		add("framework.sourceVersion", f.SourceVersion)
		add("framework.sourcePublicationDate", str(f.SourcePublicationDate))
		add("framework.adoptionStatus", str(f.AdoptionStatus))
		add("framework.isCurrent", strconv.FormatBool(f.IsCurrent))
		add("package.packageRevision", strconv.FormatInt(m.PackageRevision, 10))
		add("package.createdAt", m.CreatedAt)
	}
	return out
}

// compareMetadata lists the fields whose values differ, in metadata's order.
// A field only one side has is compared with an empty value.
func compareMetadata(a, b []field) []fieldChange {
	out := []fieldChange{}
	old := make(map[string]string, len(a))
	for _, f := range a {
		old[f.Name] = f.Value
	}
	seen := map[string]bool{}
	for _, f := range b {
		seen[f.Name] = true
		if o := old[f.Name]; o != f.Value {
			out = append(out, fieldChange{Field: f.Name, Old: o, New: f.Value})
		}
	}
	for _, f := range a {
		if !seen[f.Name] && f.Value != "" {
			out = append(out, fieldChange{Field: f.Name, Old: f.Value})
		}
	}
	return out
}
