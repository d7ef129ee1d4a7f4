package query

import (
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgimg"
	"github.com/kgc-project/kgc/schema/kgfb"
)

// obj is a JSON object under construction (keys are sorted when encoded).
type obj = map[string]any

// nodeProp returns a node string field, or nil when the property is absent.
func nodeProp(img *kgimg.Image, n uint32, f kgimg.NodeField, p uint) any {
	if img.NodePresent(n)&(1<<p) == 0 {
		return nil
	}
	return img.NodeString(n, f)
}

func stringList(l kgimg.StringList) []string {
	out := make([]string, l.Len())
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

// nodeBase holds the fields every node kind shares (surface.md §2.A5).
func nodeBase(img *kgimg.Image, n uint32) obj {
	var isCurrent any
	if img.NodePresent(n)&(1<<kgimg.PIsCurrent) != 0 {
		isCurrent = img.NodeIsCurrent(n)
	}
	var propID any
	if img.NodePresent(n)&(1<<kgimg.PIdentifier) != 0 {
		propID = img.NodeString(n, kgimg.NodeID) // the gate proves it equals the ID
	}
	return obj{
		"academicSubject":      nodeProp(img, n, kgimg.NodeAcademicSubject, kgimg.PAcademicSubject),
		"adoptionStatus":       nodeProp(img, n, kgimg.NodeAdoptionStatus, kgimg.PAdoptionStatus),
		"attributionStatement": nodeProp(img, n, kgimg.NodeAttributionStatement, kgimg.PAttributionStatement),
		"author":               nodeProp(img, n, kgimg.NodeAuthor, kgimg.PAuthor),
		"caseIdentifierUri":    nodeProp(img, n, kgimg.NodeCaseIdentifierURI, kgimg.PCaseIdentifierURI),
		"caseIdentifierUuid":   nodeProp(img, n, kgimg.NodeCaseIdentifierUUID, kgimg.PCaseIdentifierUUID),
		"inLanguage":           nodeProp(img, n, kgimg.NodeInLanguage, kgimg.PInLanguage),
		"isCurrent":            isCurrent,
		"jurisdiction":         nodeProp(img, n, kgimg.NodeJurisdiction, kgimg.PJurisdiction),
		"labels":               stringList(img.NodeLabels(n)),
		"license":              nodeProp(img, n, kgimg.NodeLicense, kgimg.PLicense),
		"nodeId":               img.NodeString(n, kgimg.NodeID),
		"propertyIdentifier":   propID,
		"provider":             nodeProp(img, n, kgimg.NodeProvider, kgimg.PProvider),
		"sourceExportOrder":    img.NodeOrder(n),
	}
}

// standardNode is a StandardNode (items and the framework root).
func standardNode(img *kgimg.Image, n uint32) obj {
	o := nodeBase(img, n)
	var grades any
	if img.NodePresent(n)&(1<<kgimg.PGradeLevel) != 0 {
		grades = stringList(img.NodeGradeLevel(n))
	}
	o["description"] = nodeProp(img, n, kgimg.NodeDescription, kgimg.PDescription)
	o["gradeLevel"] = grades
	o["normalizedStatementType"] = nodeProp(img, n, kgimg.NodeNormalizedStatementType, kgimg.PNormalizedStatementType)
	o["statementCode"] = nodeProp(img, n, kgimg.NodeStatementCode, kgimg.PStatementCode)
	o["statementType"] = nodeProp(img, n, kgimg.NodeStatementType, kgimg.PStatementType)
	if img.NodeKind(n) == kgfb.NodeKindFramework {
		o["name"] = nodeProp(img, n, kgimg.NodeName, kgimg.PName)
	}
	return o
}

// componentNode is a LearningComponentNode: never CASE identity, grade levels,
// statement code or type.
func componentNode(img *kgimg.Image, n uint32) obj {
	o := nodeBase(img, n)
	delete(o, "caseIdentifierUri")
	delete(o, "caseIdentifierUuid")
	var tags any
	if img.NodePresent(n)&(1<<kgimg.PTags) != 0 {
		tags = stringList(img.NodeTags(n))
	}
	o["description"] = img.NodeString(n, kgimg.NodeDescription)
	o["identityKey"] = nodeProp(img, n, kgimg.NodeIdentityKey, kgimg.PIdentityKey)
	o["tags"] = tags
	return o
}

func relProp(img *kgimg.Image, r uint32, f kgimg.RelField, p uint) any {
	if img.RelPresent(r)&(1<<p) == 0 {
		return nil
	}
	return img.RelString(r, f)
}

// derived returns a derived relationship property when it was present.
func derived(img *kgimg.Image, r uint32, p uint, v string) any {
	if img.RelPresent(r)&(1<<p) == 0 {
		return nil
	}
	return v
}

// graphRelationship is a GraphRelationship.
func graphRelationship(img *kgimg.Image, r uint32) obj {
	s, t := img.RelSource(r), img.RelTarget(r)
	sk, sv := img.EntityKey(s)
	tk, tv := img.EntityKey(t)
	var conf any
	if img.RelPresent(r)&(1<<kgimg.RPSupportConfidence) != 0 {
		conf = img.RelConfidence(r)
	}
	id := img.RelString(r, kgimg.RelID)
	return obj{
		"attributionStatement": relProp(img, r, kgimg.RelAttributionStatement, kgimg.RPAttributionStatement),
		"author":               relProp(img, r, kgimg.RelAuthor, kgimg.RPAuthor),
		"description":          relProp(img, r, kgimg.RelDescription, kgimg.RPDescription),
		"label":                img.RelTypeName(r),
		"license":              relProp(img, r, kgimg.RelLicense, kgimg.RPLicense),
		"propertyIdentifier":   derived(img, r, kgimg.RPIdentifier, id),
		"provider":             relProp(img, r, kgimg.RelProvider, kgimg.RPProvider),
		"relationshipId":       id,
		"relationshipType":     derived(img, r, kgimg.RPRelationshipType, img.RelTypeName(r)),
		"resolutionStatus":     relProp(img, r, kgimg.RelResolutionStatus, kgimg.RPResolutionStatus),
		"sourceEntity":         derived(img, r, kgimg.RPSourceEntity, kgimg.NodeKindLabel(img.NodeKind(s))),
		"sourceEntityKey":      derived(img, r, kgimg.RPSourceEntityKey, sk),
		"sourceEntityValue":    derived(img, r, kgimg.RPSourceEntityValue, sv),
		"sourceExportOrder":    img.RelOrder(r),
		"sourceLabels":         stringList(img.NodeLabels(s)),
		"sourceNodeId":         img.NodeString(s, kgimg.NodeID),
		"supportConfidence":    conf,
		"targetEntity":         derived(img, r, kgimg.RPTargetEntity, kgimg.NodeKindLabel(img.NodeKind(t))),
		"targetEntityKey":      derived(img, r, kgimg.RPTargetEntityKey, tk),
		"targetEntityValue":    derived(img, r, kgimg.RPTargetEntityValue, tv),
		"targetLabels":         stringList(img.NodeLabels(t)),
		"targetNodeId":         img.NodeString(t, kgimg.NodeID),
	}
}

// facetEvidence is a SearchFacetEvidence for an item.
func facetEvidence(p *catalog.Package, n uint32) obj { return facetsWithScopes(p, n, codeScopes(p, n)) }

// facetsWithScopes is facetEvidence for a node whose code scopes are known.
func facetsWithScopes(p *catalog.Package, n uint32, scopes []uint32) obj {
	img, prof := p.Img, p.Profile
	nodeGrades := stringList(img.NodeGradeLevel(n))
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
	subject := img.NodeString(n, kgimg.NodeAcademicSubject)
	normSubjects := []string{}
	if subjectResolves(p, subject) {
		normSubjects = append(normSubjects, prof.NormalizedSubjects...)
	}
	return obj{
		"localSubject":             nodeProp(img, n, kgimg.NodeAcademicSubject, kgimg.PAcademicSubject),
		"nodeGradeLevels":          nodeGrades,
		"normalizedGrades":         grades,
		"normalizedStatementType":  nodeProp(img, n, kgimg.NodeNormalizedStatementType, kgimg.PNormalizedStatementType),
		"normalizedSubjects":       normSubjects,
		"resolvedLocalGradeLabels": nonNil(resolved),
		"statementType":            nodeProp(img, n, kgimg.NodeStatementType, kgimg.PStatementType),
	}
}

func subjectResolves(p *catalog.Package, subject string) bool {
	k := textnorm.Facet(subject)
	if k == "" {
		return false
	}
	if textnorm.Facet(p.Profile.LocalSubject) == k {
		return true
	}
	for _, a := range p.Profile.SubjectAliases {
		if textnorm.Facet(a) == k {
			return true
		}
	}
	return false
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
