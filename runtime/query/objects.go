package query

import (
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// obj is a JSON object under construction (keys are sorted when encoded).
type obj = map[string]any

func stringList(l kgimg.StringList) []string {
	out := make([]string, l.Len())
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

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

// nodeString returns a node string field, or nil when the property is absent.
func nodeString(img *kgimg.Image, n uint32, f kgimg.NodeField, p uint) *string {
	if img.NodePresent(n)&(1<<p) == 0 {
		return nil
	}
	s := img.NodeString(n, f)
	return &s
}

func nodeCommon(img *kgimg.Image, n uint32) NodeCommon {
	var isCurrent *bool
	if img.NodePresent(n)&(1<<kgimg.PIsCurrent) != 0 {
		c := img.NodeIsCurrent(n)
		isCurrent = &c
	}
	return NodeCommon{
		AcademicSubject:      nodeString(img, n, kgimg.NodeAcademicSubject, kgimg.PAcademicSubject),
		AdoptionStatus:       nodeString(img, n, kgimg.NodeAdoptionStatus, kgimg.PAdoptionStatus),
		AttributionStatement: nodeString(img, n, kgimg.NodeAttributionStatement, kgimg.PAttributionStatement),
		Author:               nodeString(img, n, kgimg.NodeAuthor, kgimg.PAuthor),
		InLanguage:           nodeString(img, n, kgimg.NodeInLanguage, kgimg.PInLanguage),
		IsCurrent:            isCurrent,
		Jurisdiction:         nodeString(img, n, kgimg.NodeJurisdiction, kgimg.PJurisdiction),
		Labels:               stringList(img.NodeLabels(n)),
		License:              nodeString(img, n, kgimg.NodeLicense, kgimg.PLicense),
		NodeID:               img.NodeString(n, kgimg.NodeID),
		// The gate proves the identifier property equals the node ID.
		PropertyIdentifier: nodeString(img, n, kgimg.NodeID, kgimg.PIdentifier),
		Provider:           nodeString(img, n, kgimg.NodeProvider, kgimg.PProvider),
		SourceExportOrder:  img.NodeOrder(n),
	}
}

// standardNode is the StandardNode of n (an item or the framework root).
func standardNode(img *kgimg.Image, n uint32) StandardNode {
	var grades []string
	if img.NodePresent(n)&(1<<kgimg.PGradeLevel) != 0 {
		grades = stringList(img.NodeGradeLevel(n))
	}
	out := StandardNode{
		NodeCommon:              nodeCommon(img, n),
		CaseIdentifierURI:       nodeString(img, n, kgimg.NodeCaseIdentifierURI, kgimg.PCaseIdentifierURI),
		CaseIdentifierUUID:      nodeString(img, n, kgimg.NodeCaseIdentifierUUID, kgimg.PCaseIdentifierUUID),
		Description:             nodeString(img, n, kgimg.NodeDescription, kgimg.PDescription),
		GradeLevel:              grades,
		NormalizedStatementType: nodeString(img, n, kgimg.NodeNormalizedStatementType, kgimg.PNormalizedStatementType),
		StatementCode:           nodeString(img, n, kgimg.NodeStatementCode, kgimg.PStatementCode),
		StatementType:           nodeString(img, n, kgimg.NodeStatementType, kgimg.PStatementType),
	}
	if img.NodeKind(n) == kgimg.FrameworkNode {
		out.FrameworkName = &FrameworkName{Name: nodeString(img, n, kgimg.NodeName, kgimg.PName)}
	}
	return out
}

// componentNode is the LearningComponentNode of n.
func componentNode(img *kgimg.Image, n uint32) LearningComponentNode {
	var tags []string
	if img.NodePresent(n)&(1<<kgimg.PTags) != 0 {
		tags = stringList(img.NodeTags(n))
	}
	return LearningComponentNode{
		NodeCommon:  nodeCommon(img, n),
		Description: img.NodeString(n, kgimg.NodeDescription),
		IdentityKey: nodeString(img, n, kgimg.NodeIdentityKey, kgimg.PIdentityKey),
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

// graphRelationship is the GraphRelationship of r.
func graphRelationship(img *kgimg.Image, r uint32) GraphRelationship {
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
		SourceLabels:         stringList(img.NodeLabels(s)),
		SourceNodeID:         img.NodeString(s, kgimg.NodeID),
		SupportConfidence:    conf,
		TargetEntity:         derived(img, r, kgimg.RPTargetEntity, kgimg.NodeKindLabel(img.NodeKind(t))),
		TargetEntityKey:      derived(img, r, kgimg.RPTargetEntityKey, tk),
		TargetEntityValue:    derived(img, r, kgimg.RPTargetEntityValue, tv),
		TargetLabels:         stringList(img.NodeLabels(t)),
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

// facetEvidence is the FacetEvidence of an item.
func facetEvidence(p *catalog.Package, n uint32) FacetEvidence {
	return facetsWithScopes(p, n, codeScopes(p, n))
}

// facetsWithScopes is facetEvidence for a node whose code scopes are known.
func facetsWithScopes(p *catalog.Package, n uint32, scopes []uint32) FacetEvidence {
	img, prof := p.Img, p.Profile()
	grades := hitGrades(p, n, scopes)
	var resolved []string
	for _, gm := range prof.GradeMappings {
		for _, g := range gm.NormalizedGrades {
			if contains(grades, g) {
				resolved = append(resolved, gm.LocalLabel)
				break
			}
		}
	}
	normSubjects := []string{}
	if subjectResolves(p, img.NodeString(n, kgimg.NodeAcademicSubject)) {
		normSubjects = append(normSubjects, prof.NormalizedSubjects...)
	}
	return FacetEvidence{
		LocalSubject:             nodeString(img, n, kgimg.NodeAcademicSubject, kgimg.PAcademicSubject),
		NodeGradeLevels:          stringList(img.NodeGradeLevel(n)),
		NormalizedGrades:         grades,
		NormalizedStatementType:  nodeString(img, n, kgimg.NodeNormalizedStatementType, kgimg.PNormalizedStatementType),
		NormalizedSubjects:       normSubjects,
		ResolvedLocalGradeLabels: nonNil(resolved),
		StatementType:            nodeString(img, n, kgimg.NodeStatementType, kgimg.PStatementType),
	}
}

func subjectResolves(p *catalog.Package, subject string) bool {
	return p.ProfileTargets(kgimg.KeySubjectName, textnorm.Facet(subject)) != nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func uniqueOrdered(list []string) []string {
	out := []string{}
	for _, x := range list {
		if !contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
