package standard

import (
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/uri"
)

func confidence(img *kgimg.Image, r uint32) *float64 {
	if img.RelHas(r, kgimg.RPSupportConfidence) {
		c := img.RelConfidence(r)
		return &c
	}
	return nil
}

// SupportedStandard summarizes a standard a learning component supports:
// enough to name, place by grade and cite it without get_standard.
type SupportedStandard struct {
	Description *string  `json:"description"`
	GradeLevels []string `json:"gradeLevels"`
	// LocalGradeLabels are the profile's grade labels of the standard (as a
	// search hit's facets resolve them; beyond the contract).
	LocalGradeLabels  []string `json:"localGradeLabels"`
	NodeID            string   `json:"nodeId"`
	StatementCode     *string  `json:"statementCode"`
	SupportConfidence *float64 `json:"supportConfidence"`
	// StandardURI is the standard's resource, to cite it by (beyond the
	// contract).
	StandardURI string `json:"standardUri"`
}

// Supported is the SupportedStandard of std, supported through rel.
func Supported(p *catalog.Package, std, rel uint32) SupportedStandard {
	img := p.Img
	id := img.NodeString(std, kgimg.NodeID)
	return SupportedStandard{
		NodeID:            id,
		StatementCode:     record.NodeString(img, std, kgimg.NodeStatementCode, kgimg.PStatementCode),
		Description:       record.NodeString(img, std, kgimg.NodeDescription, kgimg.PDescription),
		GradeLevels:       img.NodeGradeLevel(std).Views(),
		LocalGradeLabels:  record.Facets(p, std).ResolvedLocalGradeLabels,
		SupportConfidence: confidence(img, rel),
		StandardURI:       URI(p, id),
	}
}

// Placement is a supported standard with its labelled hierarchy path.
type Placement struct {
	SupportedStandard
	HierarchyPath []string `json:"hierarchyPath"`
}

// SupportedRecord is a supported standard's full record and the supports edge.
type SupportedRecord struct {
	Relationship record.GraphRelationship `json:"relationship"`
	Standard     record.StandardNode      `json:"standard"`
}

// Truncation says the result ceiling cut a result's list (beyond the
// contract): the reason (byte_limit) and how many entries were left out.
type Truncation struct {
	TruncationReason string `json:"truncationReason,omitempty"`
	OmittedCount     int    `json:"omittedCount,omitempty"`
}

func Truncate(kept, total int) Truncation {
	if kept == total {
		return Truncation{}
	}
	return Truncation{TruncationReason: "byte_limit", OmittedCount: total - kept}
}

// ComponentResult is get_learning_component's result.
type ComponentResult struct {
	Node           record.LearningComponentNode `json:"node"`
	Package        record.PackageRef            `json:"package"`
	Placements     []Placement                  `json:"placements"`
	SourceMetadata record.SourceMetadata        `json:"sourceMetadata"`
	Truncation
}

// ComponentContextResult is get_learning_component_context's result: the
// component with the full records of the standards it supports.
type ComponentContextResult struct {
	ComponentResult
	SupportedStandards []SupportedRecord `json:"supportedStandards"`
}

// ComponentContext builds both component results at once.
func ComponentContext(p *catalog.Package, n uint32, depth int) *ComponentContextResult {
	img := p.Img
	stds, rels := img.Adjacency(kgimg.Supports, kgimg.Out).Row(n)
	out := &ComponentContextResult{
		ComponentResult: ComponentResult{Node: record.Component(img, n), Package: record.Ref(p), SourceMetadata: record.Source(p),
			Placements: make([]Placement, 0, stds.Len())},
		SupportedStandards: make([]SupportedRecord, 0, stds.Len()),
	}
	for i := 0; i < stds.Len(); i++ {
		std, rel := stds.At(i), rels.At(i)
		out.Placements = append(out.Placements, Placement{SupportedStandard: Supported(p, std, rel), HierarchyPath: hierarchyPath(img, std, depth)})
		out.SupportedStandards = append(out.SupportedStandards, SupportedRecord{Relationship: record.Relationship(img, rel), Standard: record.Standard(img, std)})
	}
	return out
}

// Cut returns the result with its lists Cut to k entries.
func (c ComponentContextResult) Cut(k int) *ComponentContextResult {
	c.Truncation = Truncate(k, len(c.Placements))
	c.Placements, c.SupportedStandards = c.Placements[:k], c.SupportedStandards[:k]
	return &c
}

// StandardComponent is one learning component supporting a standard.
type StandardComponent struct {
	// ComponentURI and RelationshipURI are the resources to cite the
	// component and its supports relationship by.
	ComponentURI       string                       `json:"componentUri"`
	Node               record.LearningComponentNode `json:"node"`
	Relationship       record.GraphRelationship     `json:"relationship"`
	RelationshipURI    string                       `json:"relationshipUri"`
	SupportedStandards []SupportedStandard          `json:"supportedStandards"`
}

// StandardComponentsResult is get_learning_components_for_standard's result.
type StandardComponentsResult struct {
	Components []StandardComponent `json:"components"`
	// LearningComponentsURI is this result as a resource; StandardURI the
	// standard's.
	LearningComponentsURI string                `json:"learningComponentsUri"`
	Package               record.PackageRef     `json:"package"`
	SourceMetadata        record.SourceMetadata `json:"sourceMetadata"`
	Standard              record.StandardNode   `json:"standard"`
	StandardURI           string                `json:"standardUri"`
	Truncation
}

func Components(p *catalog.Package, std uint32) *StandardComponentsResult {
	img := p.Img
	ref := func(kind, id string) string {
		return uri.Ref{Kind: kind, FrameworkID: p.FrameworkID(), SnapshotID: p.SnapshotID(), ID: id}.String()
	}
	lcs, rels := img.Adjacency(kgimg.Supports, kgimg.In).Row(std)
	comps := make([]StandardComponent, 0, lcs.Len())
	for i := 0; i < lcs.Len(); i++ {
		lc := lcs.At(i)
		all, allRels := img.Adjacency(kgimg.Supports, kgimg.Out).Row(lc)
		sup := make([]SupportedStandard, 0, all.Len())
		for j := 0; j < all.Len(); j++ {
			sup = append(sup, Supported(p, all.At(j), allRels.At(j)))
		}
		node, rel := record.Component(img, lc), record.Relationship(img, rels.At(i))
		comps = append(comps, StandardComponent{Node: node, Relationship: rel, SupportedStandards: sup,
			ComponentURI: ref("learning_component", node.NodeID), RelationshipURI: ref("relationship", rel.RelationshipID)})
	}
	node := record.Standard(img, std)
	return &StandardComponentsResult{Standard: node, Components: comps, Package: record.Ref(p), SourceMetadata: record.Source(p),
		StandardURI: ref("standard", node.NodeID), LearningComponentsURI: ref("standard_learning_components", node.NodeID)}
}
