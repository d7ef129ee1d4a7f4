// Package record builds the records answers are made of, from one package's
// image read in place: nodes (standards, the framework root, learning
// components) and relationships as the contract spells them, the facet
// evidence of an item read through the profile (with the ancestors that
// scope its code), and the identity, rights and source metadata of a
// package. The strings of a record alias the image; runtime/query copies
// what it hands out.
package record

import (
	"slices"
	"sort"

	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/graph"
	"github.com/kgc-project/kgc/schema/profile"
	"github.com/kgc-project/kgc/schema/rights"
)

// NodeCommon holds the fields every node kind shares (docs/reference/tools.md); a
// nil pointer is a property the record does not carry (JSON null).
type NodeCommon struct {
	AcademicSubject      *string  `json:"academicSubject"`
	AdoptionStatus       *string  `json:"adoptionStatus"`
	AttributionStatement *string  `json:"attributionStatement"`
	Author               *string  `json:"author"`
	InLanguage           *string  `json:"inLanguage"`
	IsCurrent            *bool    `json:"isCurrent"`
	Jurisdiction         *string  `json:"jurisdiction"`
	Labels               []string `json:"labels"`
	License              *string  `json:"license"`
	NodeID               string   `json:"nodeId"`
	PropertyIdentifier   *string  `json:"propertyIdentifier"`
	Provider             *string  `json:"provider"`
	SourceExportOrder    uint32   `json:"sourceExportOrder"`
}

// StandardNode is a standards item or the framework root.
type StandardNode struct {
	NodeCommon
	CaseIdentifierURI       *string  `json:"caseIdentifierUri"`
	CaseIdentifierUUID      *string  `json:"caseIdentifierUuid"`
	Description             *string  `json:"description"`
	GradeLevel              []string `json:"gradeLevel"`
	NormalizedStatementType *string  `json:"normalizedStatementType"`
	StatementCode           *string  `json:"statementCode"`
	StatementType           *string  `json:"statementType"`
	// *FrameworkName is set only on the framework root (its name may be null).
	*FrameworkName
}

// Code is the node's statement code ("" when it has none).
func (n StandardNode) Code() string { return deref(n.StatementCode) }

// Statement is the node's statement text, its description ("" when it has
// none, or the package's rights withhold it).
func (n StandardNode) Statement() string { return deref(n.Description) }

// Type is the node's statement type in the source's words ("" when it has
// none).
func (n StandardNode) Type() string { return deref(n.StatementType) }

// FrameworkName is the framework root's name.
type FrameworkName struct {
	Name *string `json:"name"`
}

// LearningComponentNode is a learning component: never CASE identity, grade
// levels, statement code or type.
type LearningComponentNode struct {
	NodeCommon
	Description string   `json:"description"`
	IdentityKey *string  `json:"identityKey"`
	Tags        []string `json:"tags"`
}

// GraphRelationship is a stored relationship (docs/reference/tools.md).
type GraphRelationship struct {
	AttributionStatement *string  `json:"attributionStatement"`
	Author               *string  `json:"author"`
	Description          *string  `json:"description"`
	Label                string   `json:"label"`
	License              *string  `json:"license"`
	PropertyIdentifier   *string  `json:"propertyIdentifier"`
	Provider             *string  `json:"provider"`
	RelationshipID       string   `json:"relationshipId"`
	RelationshipType     *string  `json:"relationshipType"`
	ResolutionStatus     *string  `json:"resolutionStatus"`
	SourceEntity         *string  `json:"sourceEntity"`
	SourceEntityKey      *string  `json:"sourceEntityKey"`
	SourceEntityValue    *string  `json:"sourceEntityValue"`
	SourceExportOrder    uint32   `json:"sourceExportOrder"`
	SourceLabels         []string `json:"sourceLabels"`
	SourceNodeID         string   `json:"sourceNodeId"`
	SupportConfidence    *float64 `json:"supportConfidence"`
	TargetEntity         *string  `json:"targetEntity"`
	TargetEntityKey      *string  `json:"targetEntityKey"`
	TargetEntityValue    *string  `json:"targetEntityValue"`
	TargetLabels         []string `json:"targetLabels"`
	TargetNodeID         string   `json:"targetNodeId"`
}

// NodeString returns a node string field, or nil when the property is absent.
func NodeString(img *kgimg.Image, n uint32, f kgimg.NodeField, p uint) *string {
	if img.NodePresent(n)&(1<<p) == 0 {
		return nil
	}
	s := img.NodeString(n, f)
	return &s
}

// common is the NodeCommon of n.
func common(img *kgimg.Image, n uint32) NodeCommon {
	var isCurrent *bool
	if img.NodePresent(n)&(1<<kgimg.PIsCurrent) != 0 {
		c := img.NodeIsCurrent(n)
		isCurrent = &c
	}
	return NodeCommon{
		AcademicSubject:      NodeString(img, n, kgimg.NodeAcademicSubject, kgimg.PAcademicSubject),
		AdoptionStatus:       NodeString(img, n, kgimg.NodeAdoptionStatus, kgimg.PAdoptionStatus),
		AttributionStatement: NodeString(img, n, kgimg.NodeAttributionStatement, kgimg.PAttributionStatement),
		Author:               NodeString(img, n, kgimg.NodeAuthor, kgimg.PAuthor),
		InLanguage:           NodeString(img, n, kgimg.NodeInLanguage, kgimg.PInLanguage),
		IsCurrent:            isCurrent,
		Jurisdiction:         NodeString(img, n, kgimg.NodeJurisdiction, kgimg.PJurisdiction),
		Labels:               img.NodeLabels(n).Views(),
		License:              NodeString(img, n, kgimg.NodeLicense, kgimg.PLicense),
		NodeID:               img.NodeString(n, kgimg.NodeID),
		// The gate proves the identifier property equals the node ID.
		PropertyIdentifier: NodeString(img, n, kgimg.NodeID, kgimg.PIdentifier),
		Provider:           NodeString(img, n, kgimg.NodeProvider, kgimg.PProvider),
		SourceExportOrder:  img.NodeOrder(n),
	}
}

// Standard is the StandardNode of n (an item or the framework root).
func Standard(img *kgimg.Image, n uint32) StandardNode {
	var grades []string
	if img.NodePresent(n)&(1<<kgimg.PGradeLevel) != 0 {
		grades = img.NodeGradeLevel(n).Views()
	}
	out := StandardNode{
		NodeCommon:              common(img, n),
		CaseIdentifierURI:       NodeString(img, n, kgimg.NodeCaseIdentifierURI, kgimg.PCaseIdentifierURI),
		CaseIdentifierUUID:      NodeString(img, n, kgimg.NodeCaseIdentifierUUID, kgimg.PCaseIdentifierUUID),
		Description:             NodeString(img, n, kgimg.NodeDescription, kgimg.PDescription),
		GradeLevel:              grades,
		NormalizedStatementType: NodeString(img, n, kgimg.NodeNormalizedStatementType, kgimg.PNormalizedStatementType),
		StatementCode:           NodeString(img, n, kgimg.NodeStatementCode, kgimg.PStatementCode),
		StatementType:           NodeString(img, n, kgimg.NodeStatementType, kgimg.PStatementType),
	}
	if img.NodeKind(n) == kgimg.FrameworkNode {
		out.FrameworkName = &FrameworkName{Name: NodeString(img, n, kgimg.NodeName, kgimg.PName)}
	}
	return out
}

// Component is the LearningComponentNode of n.
func Component(img *kgimg.Image, n uint32) LearningComponentNode {
	var tags []string
	if img.NodePresent(n)&(1<<kgimg.PTags) != 0 {
		tags = img.NodeTags(n).Views()
	}
	return LearningComponentNode{
		NodeCommon:  common(img, n),
		Description: img.NodeString(n, kgimg.NodeDescription),
		IdentityKey: NodeString(img, n, kgimg.NodeIdentityKey, kgimg.PIdentityKey),
		Tags:        tags,
	}
}

// relString returns a relationship string field, or nil when absent.
func relString(img *kgimg.Image, r uint32, f kgimg.RelField, p uint) *string {
	if img.RelPresent(r)&(1<<p) == 0 {
		return nil
	}
	s := img.RelString(r, f)
	return &s
}

// derived returns a derived relationship property when it was present.
func derived(img *kgimg.Image, r uint32, p uint, v string) *string {
	if img.RelPresent(r)&(1<<p) == 0 {
		return nil
	}
	return &v
}

// Relationship is the GraphRelationship of r.
func Relationship(img *kgimg.Image, r uint32) GraphRelationship {
	s, t := img.RelSource(r), img.RelTarget(r)
	sk, sv := img.EntityKey(s)
	tk, tv := img.EntityKey(t)
	var conf *float64
	if img.RelPresent(r)&(1<<kgimg.RPSupportConfidence) != 0 {
		c := img.RelConfidence(r)
		conf = &c
	}
	id := img.RelString(r, kgimg.RelID)
	return GraphRelationship{
		AttributionStatement: relString(img, r, kgimg.RelAttributionStatement, kgimg.RPAttributionStatement),
		Author:               relString(img, r, kgimg.RelAuthor, kgimg.RPAuthor),
		Description:          relString(img, r, kgimg.RelDescription, kgimg.RPDescription),
		Label:                img.RelTypeName(r),
		License:              relString(img, r, kgimg.RelLicense, kgimg.RPLicense),
		PropertyIdentifier:   derived(img, r, kgimg.RPIdentifier, id),
		Provider:             relString(img, r, kgimg.RelProvider, kgimg.RPProvider),
		RelationshipID:       id,
		RelationshipType:     derived(img, r, kgimg.RPRelationshipType, img.RelTypeName(r)),
		ResolutionStatus:     relString(img, r, kgimg.RelResolutionStatus, kgimg.RPResolutionStatus),
		SourceEntity:         derived(img, r, kgimg.RPSourceEntity, kgimg.NodeKindLabel(img.NodeKind(s))),
		SourceEntityKey:      derived(img, r, kgimg.RPSourceEntityKey, sk),
		SourceEntityValue:    derived(img, r, kgimg.RPSourceEntityValue, sv),
		SourceExportOrder:    img.RelOrder(r),
		SourceLabels:         img.NodeLabels(s).Views(),
		SourceNodeID:         img.NodeString(s, kgimg.NodeID),
		SupportConfidence:    conf,
		TargetEntity:         derived(img, r, kgimg.RPTargetEntity, kgimg.NodeKindLabel(img.NodeKind(t))),
		TargetEntityKey:      derived(img, r, kgimg.RPTargetEntityKey, tk),
		TargetEntityValue:    derived(img, r, kgimg.RPTargetEntityValue, tv),
		TargetLabels:         img.NodeLabels(t).Views(),
		TargetNodeID:         img.NodeString(t, kgimg.NodeID),
	}
}

// FacetEvidence is a SearchFacetEvidence: how an item's grades, subject and
// statement type read through the profile.
type FacetEvidence struct {
	LocalSubject             *string  `json:"localSubject"`
	NodeGradeLevels          []string `json:"nodeGradeLevels"`
	NormalizedGrades         []string `json:"normalizedGrades"`
	NormalizedStatementType  *string  `json:"normalizedStatementType"`
	NormalizedSubjects       []string `json:"normalizedSubjects"`
	ResolvedLocalGradeLabels []string `json:"resolvedLocalGradeLabels"`
	StatementType            *string  `json:"statementType"`
}

// Facets is the FacetEvidence of an item.
func Facets(p *catalog.Package, n uint32) FacetEvidence {
	return FacetsWithScopes(p, n, CodeScopes(p, n))
}

// FacetsWithScopes is facetEvidence for a node whose code scopes are known.
func FacetsWithScopes(p *catalog.Package, n uint32, scopes []uint32) FacetEvidence {
	img, prof := p.Img, p.Profile()
	grades := Grades(p, n, scopes)
	var resolved []string
	for _, gm := range prof.GradeMappings {
		for _, g := range gm.NormalizedGrades {
			if slices.Contains(grades, g) {
				resolved = append(resolved, gm.LocalLabel)
				break
			}
		}
	}
	normSubjects := []string{}
	if SubjectResolves(p, img.NodeString(n, kgimg.NodeAcademicSubject)) {
		normSubjects = append(normSubjects, prof.NormalizedSubjects...)
	}
	return FacetEvidence{
		LocalSubject:             NodeString(img, n, kgimg.NodeAcademicSubject, kgimg.PAcademicSubject),
		NodeGradeLevels:          img.NodeGradeLevel(n).Views(),
		NormalizedGrades:         grades,
		NormalizedStatementType:  NodeString(img, n, kgimg.NodeNormalizedStatementType, kgimg.PNormalizedStatementType),
		NormalizedSubjects:       normSubjects,
		ResolvedLocalGradeLabels: nonNil(resolved),
		StatementType:            NodeString(img, n, kgimg.NodeStatementType, kgimg.PStatementType),
	}
}

// SubjectResolves reports whether a subject names the package profile's
// subject (by any of its names).
func SubjectResolves(p *catalog.Package, subject string) bool {
	return p.ProfileTargets(kgimg.KeySubjectName, textnorm.Facet(subject)) != nil
}

// CodeTypeOf returns the profile code type of a node's statement type, or "".
func CodeTypeOf(p *catalog.Package, n uint32) string {
	st := p.Img.NodeString(n, kgimg.NodeStatementType)
	for _, t := range p.Profile().StatementTypes {
		if t.SourceStatementType == st && t.CodeType != nil {
			return *t.CodeType
		}
	}
	return ""
}

// codeTypeInfo returns the code type named name of a code search policy,
// nil when there is none.
func codeTypeInfo(cp profile.CodeSearchPolicy, name string) *profile.CodeType {
	for i := range cp.CodeTypes {
		if cp.CodeTypes[i].CodeType == name {
			return &cp.CodeTypes[i]
		}
	}
	return nil
}

// CodeScopes returns the ancestors of n whose statement type scopes its code
// (the code type's scopeStatementTypes), in curriculum order (nodeLess).
func CodeScopes(p *catalog.Package, n uint32) []uint32 {
	ct := codeTypeInfo(p.Profile().CodeSearchPolicy, CodeTypeOf(p, n))
	if ct == nil || len(ct.ScopeStatementTypes) == 0 {
		return nil
	}
	img := p.Img
	order, _, _ := graph.Walk(img.Adjacency(kgimg.HasChild, kgimg.In), n, 1<<30, 1<<30)
	var out []uint32
	for _, a := range order {
		if a != n && slices.Contains(ct.ScopeStatementTypes, img.NodeString(a, kgimg.NodeStatementType)) {
			out = append(out, a)
		}
	}
	sort.Slice(out, func(i, j int) bool { return graph.Less(img, out[i], out[j]) })
	return out
}

// Grades is a search hit's normalizedGrades: the node's grades, then its code
// scopes' grades, each once.
func Grades(p *catalog.Package, n uint32, scopes []uint32) []string {
	grades := p.Img.NodeGradeLevel(n).Views()
	for _, sc := range scopes {
		grades = append(grades, p.Img.NodeGradeLevel(sc).Views()...)
	}
	return uniqueOrdered(grades)
}

// PackageIdentity names one graph package and the profile it binds.
type PackageIdentity struct {
	FrameworkID     string `json:"frameworkId"`
	GraphPackageID  string `json:"graphPackageId"`
	GraphType       string `json:"graphType"`
	PackageRevision int64  `json:"packageRevision"`
	ProfileID       string `json:"profileId"`
	ProfileSha256   string `json:"profileSha256"`
	ProfileVersion  string `json:"profileVersion"`
	SnapshotID      string `json:"snapshotId"`
}

// Identity is p's PackageIdentity.
func Identity(p *catalog.Package) PackageIdentity {
	m := p.Manifest
	return PackageIdentity{
		FrameworkID: m.FrameworkID, GraphPackageID: m.GraphPackageID, GraphType: m.GraphType,
		PackageRevision: m.PackageRevision, ProfileID: m.Profile.ProfileID, ProfileSha256: m.Profile.Sha256,
		ProfileVersion: m.Profile.ProfileVersion, SnapshotID: m.SnapshotID,
	}
}

// SourceMetadata describes the source document of a snapshot.
type SourceMetadata struct {
	AdoptionStatus        *string  `json:"adoptionStatus"`
	IsCurrent             bool     `json:"isCurrent"`
	IssuingAuthority      *string  `json:"issuingAuthority"`
	Jurisdiction          string   `json:"jurisdiction"`
	JurisdictionType      *string  `json:"jurisdictionType"`
	Languages             []string `json:"languages"`
	LocalGradesOrStages   []string `json:"localGradesOrStages"`
	LocalSubject          string   `json:"localSubject"`
	Name                  string   `json:"name"`
	Provider              *string  `json:"provider"`
	SourceDocumentSha256  *string  `json:"sourceDocumentSha256"`
	SourcePublicationDate *string  `json:"sourcePublicationDate"`
	SourceVersion         string   `json:"sourceVersion"`
}

// Source is the SourceMetadata of p's framework snapshot.
func Source(p *catalog.Package) SourceMetadata {
	f := p.Manifest.Framework
	return SourceMetadata{
		AdoptionStatus: f.AdoptionStatus, IsCurrent: f.IsCurrent, IssuingAuthority: f.IssuingAuthority,
		Jurisdiction: f.Jurisdiction, JurisdictionType: f.JurisdictionType, Languages: f.Languages,
		LocalGradesOrStages: nonNil(f.LocalGradesOrStages), LocalSubject: f.LocalSubject, Name: f.Name,
		Provider: f.Provider, SourceDocumentSha256: f.SourceDocumentSha256,
		SourcePublicationDate: f.SourcePublicationDate, SourceVersion: f.SourceVersion,
	}
}

// PackageRef names a package and its rights.
type PackageRef struct {
	PackageIdentity PackageIdentity `json:"packageIdentity"`
	Rights          rights.Policy   `json:"rights"`
}

// Ref is p's PackageRef: its identity and rights.
func Ref(p *catalog.Package) PackageRef {
	return PackageRef{PackageIdentity: Identity(p), Rights: p.Manifest.Rights}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// uniqueOrdered returns list without repeats, in first order.
func uniqueOrdered(list []string) []string {
	out := []string{}
	for _, x := range list {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
