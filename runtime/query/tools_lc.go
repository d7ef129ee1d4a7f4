package query

import (
	"github.com/kgc-project/kgc/runtime/record"

	"context"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/graph"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/uri"
)

// nodeLabel is how a hierarchy path names a node: the framework's name, an
// item's statement code, or else its description.
func nodeLabel(img *kgimg.Image, n uint32) string {
	if img.NodeKind(n) == kgimg.FrameworkNode {
		return img.NodeString(n, kgimg.NodeName)
	}
	if c := img.NodeString(n, kgimg.NodeStatementCode); c != "" {
		return c
	}
	return img.NodeString(n, kgimg.NodeDescription)
}

// hierarchyPath returns the labels from the root down to n, following each
// node's first parent (in curriculum order), at most depth levels up.
func hierarchyPath(img *kgimg.Image, n uint32, depth int) []string {
	return labelledPath(img, n, depth, nodeLabel)
}

// labelledPath is hierarchyPath with another label for each node.
func labelledPath(img *kgimg.Image, n uint32, depth int, nodeLabel func(*kgimg.Image, uint32) string) []string {
	nodes := graph.FirstPath(img, n, depth)
	path := make([]string, len(nodes))
	for i, m := range nodes {
		path[i] = nodeLabel(img, m)
	}
	return path
}

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

// supportedSummary is the SupportedStandard of std, supported through rel.
func supportedSummary(p *catalog.Package, std, rel uint32) SupportedStandard {
	img := p.Img
	id := img.NodeString(std, kgimg.NodeID)
	return SupportedStandard{
		NodeID:            id,
		StatementCode:     record.NodeString(img, std, kgimg.NodeStatementCode, kgimg.PStatementCode),
		Description:       record.NodeString(img, std, kgimg.NodeDescription, kgimg.PDescription),
		GradeLevels:       stringList(img.NodeGradeLevel(std)),
		LocalGradeLabels:  record.Facets(p, std).ResolvedLocalGradeLabels,
		SupportConfidence: confidence(img, rel),
		StandardURI:       standardURI(p, id),
	}
}

// Placement is a supported standard with its labelled hierarchy path.
type Placement struct {
	SupportedStandard
	HierarchyPath []string `json:"hierarchyPath"`
}

// SupportedRecord is a supported standard's full record and the supports edge.
type SupportedRecord struct {
	Relationship GraphRelationship `json:"relationship"`
	Standard     StandardNode      `json:"standard"`
}

// Truncation says the result ceiling cut a result's list (beyond the
// contract): the reason (byte_limit) and how many entries were left out.
type Truncation struct {
	TruncationReason string `json:"truncationReason,omitempty"`
	OmittedCount     int    `json:"omittedCount,omitempty"`
}

func truncation(kept, total int) Truncation {
	if kept == total {
		return Truncation{}
	}
	return Truncation{TruncationReason: "byte_limit", OmittedCount: total - kept}
}

// ComponentResult is get_learning_component's result.
type ComponentResult struct {
	Node           LearningComponentNode `json:"node"`
	Package        PackageRef            `json:"package"`
	Placements     []Placement           `json:"placements"`
	SourceMetadata SourceMetadata        `json:"sourceMetadata"`
	Truncation
}

// ComponentContextResult is get_learning_component_context's result: the
// component with the full records of the standards it supports.
type ComponentContextResult struct {
	ComponentResult
	SupportedStandards []SupportedRecord `json:"supportedStandards"`
}

// componentContext builds both component results at once.
func componentContext(p *catalog.Package, n uint32, depth int) *ComponentContextResult {
	img := p.Img
	stds, rels := img.Adjacency(kgimg.Supports, kgimg.Out).Row(n)
	out := &ComponentContextResult{
		ComponentResult: ComponentResult{Node: record.Component(img, n), Package: record.Ref(p), SourceMetadata: record.Source(p),
			Placements: make([]Placement, 0, stds.Len())},
		SupportedStandards: make([]SupportedRecord, 0, stds.Len()),
	}
	for i := 0; i < stds.Len(); i++ {
		std, rel := stds.At(i), rels.At(i)
		out.Placements = append(out.Placements, Placement{SupportedStandard: supportedSummary(p, std, rel), HierarchyPath: hierarchyPath(img, std, depth)})
		out.SupportedStandards = append(out.SupportedStandards, SupportedRecord{Relationship: record.Relationship(img, rel), Standard: record.Standard(img, std)})
	}
	return out
}

// cut returns the result with its lists cut to k entries.
func (c ComponentContextResult) cut(k int) *ComponentContextResult {
	c.Truncation = truncation(k, len(c.Placements))
	c.Placements, c.SupportedStandards = c.Placements[:k], c.SupportedStandards[:k]
	return &c
}

// StandardComponent is one learning component supporting a standard.
type StandardComponent struct {
	// ComponentURI and RelationshipURI are the resources to cite the
	// component and its supports relationship by.
	ComponentURI       string                `json:"componentUri"`
	Node               LearningComponentNode `json:"node"`
	Relationship       GraphRelationship     `json:"relationship"`
	RelationshipURI    string                `json:"relationshipUri"`
	SupportedStandards []SupportedStandard   `json:"supportedStandards"`
}

// StandardComponentsResult is get_learning_components_for_standard's result.
type StandardComponentsResult struct {
	Components []StandardComponent `json:"components"`
	// LearningComponentsURI is this result as a resource; StandardURI the
	// standard's.
	LearningComponentsURI string         `json:"learningComponentsUri"`
	Package               PackageRef     `json:"package"`
	SourceMetadata        SourceMetadata `json:"sourceMetadata"`
	Standard              StandardNode   `json:"standard"`
	StandardURI           string         `json:"standardUri"`
	Truncation
}

func componentsForStandard(p *catalog.Package, std uint32) *StandardComponentsResult {
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
			sup = append(sup, supportedSummary(p, all.At(j), allRels.At(j)))
		}
		node, rel := record.Component(img, lc), record.Relationship(img, rels.At(i))
		comps = append(comps, StandardComponent{Node: node, Relationship: rel, SupportedStandards: sup,
			ComponentURI: ref("learning_component", node.NodeID), RelationshipURI: ref("relationship", rel.RelationshipID)})
	}
	node := record.Standard(img, std)
	return &StandardComponentsResult{Standard: node, Components: comps, Package: record.Ref(p), SourceMetadata: record.Source(p),
		StandardURI: ref("standard", node.NodeID), LearningComponentsURI: ref("standard_learning_components", node.NodeID)}
}

// placementDepth is how far up a placement's hierarchy path goes by default
// (the learning-component tools' ancestorDepth, and the resources').
const placementDepth = 16

// ComponentRequest asks for one learning component
// (get_learning_component, get_learning_component_context).
// NewComponentRequest fills the defaults.
type ComponentRequest struct {
	FrameworkID   *string `json:"frameworkId"`
	SnapshotID    *string `json:"snapshotId"`
	GraphType     string  `json:"graphType,omitempty"`
	NodeID        string  `json:"nodeId"`
	AncestorDepth int     `json:"ancestorDepth"`
}

// NewComponentRequest asks for the component nodeID in the framework's
// unique current snapshot.
func NewComponentRequest(frameworkID, nodeID string) ComponentRequest {
	return newRequest[ComponentRequest](componentRequestSchema(), map[string]any{"frameworkId": frameworkID, "nodeId": nodeID})
}

func componentRequestSchema() *Schema {
	props := routeProps()
	props["nodeId"] = opaque(1024, "the learning component's node ID")
	props["ancestorDepth"] = integer(0, 64, placementDepth, "how many levels of each supported standard's hierarchy path to walk")
	return object(props, "nodeId")
}

// Component answers get_learning_component: the component with labelled
// placements of the standards it supports.
func (s *Service) Component(ctx context.Context, r ComponentRequest) (*ComponentResult, error) {
	if err := checkRequest(componentRequestSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.component(ctx, r)
	return own(s, result, err)
}

// ComponentContext answers get_learning_component_context.
func (s *Service) ComponentContext(ctx context.Context, r ComponentRequest) (*ComponentContextResult, error) {
	if err := checkRequest(componentRequestSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.componentContext(ctx, r)
	return own(s, result, err)
}

func (s *Service) component(ctx context.Context, r ComponentRequest) (*ComponentResult, error) {
	c, err := s.fitComponent(r, false)
	if err != nil {
		return nil, err
	}
	return &c.ComponentResult, nil
}

func (s *Service) componentContext(ctx context.Context, r ComponentRequest) (*ComponentContextResult, error) {
	return s.fitComponent(r, true)
}

// fitComponent resolves the component and cuts its lists to the result
// ceiling (measured with the supported records only when they are returned).
func (s *Service) fitComponent(r ComponentRequest, withContext bool) (*ComponentContextResult, error) {
	p, err := s.route(r.FrameworkID, r.SnapshotID, r.GraphType)
	if err != nil {
		return nil, err
	}
	n, ok := p.Img.NodeByID(r.NodeID)
	if !ok || p.Img.NodeKind(n) != kgimg.ComponentNode {
		return nil, kgerr.New(kgerr.LearningComponentNotFound, "no learning component with node ID %s in %s", r.NodeID, p.SnapshotID()).
			WithHint("search_learning_components finds components; standards are read with get_standard")
	}
	full := componentContext(p, n, r.AncestorDepth)
	measure := func(c *ComponentContextResult) any {
		if withContext {
			return c
		}
		return &c.ComponentResult
	}
	k, err := fitPrefix(measure(full), len(full.Placements), func(k int) any { return measure(full.cut(k)) })
	if err != nil {
		return nil, err
	}
	if k < 0 {
		return nil, ResultTooLarge("learning component " + r.NodeID)
	}
	return full.cut(k), nil
}
