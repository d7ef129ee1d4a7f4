package query

import (
	"context"
	"encoding/json"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/kgimg"
	"github.com/kgc-project/kgc/schema/kgfb"
)

// nodeLabel is how a hierarchy path names a node: the framework's name, an
// item's statement code, or else its description.
func nodeLabel(img *kgimg.Image, n uint32) string {
	if img.NodeKind(n) == kgfb.NodeKindFramework {
		return img.NodeString(n, kgimg.NodeName)
	}
	if c := img.NodeString(n, kgimg.NodeStatementCode); c != "" {
		return c
	}
	return img.NodeString(n, kgimg.NodeDescription)
}

// hierarchyPath returns the labels from the root down to n, following each
// node's first parent (in relationship-key order), at most depth levels up.
func hierarchyPath(img *kgimg.Image, n uint32, depth int) []string {
	up := img.Adjacency(kgfb.RelLabelHasChild, kgfb.DirectionIn)
	path := []string{nodeLabel(img, n)}
	seen := map[uint32]bool{n: true}
	for d := 0; d < depth; d++ {
		parents, _ := up.Row(n)
		if parents.Len() == 0 {
			break
		}
		n = parents.At(0)
		if seen[n] {
			break
		}
		seen[n] = true
		path = append(path, nodeLabel(img, n))
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

func confidence(img *kgimg.Image, r uint32) any {
	if img.RelHas(r, kgimg.RPSupportConfidence) {
		return img.RelConfidence(r)
	}
	return nil
}

// supportedSummary is a supported-standard entry (nodeId, statementCode,
// description, gradeLevels, supportConfidence).
func supportedSummary(img *kgimg.Image, std, rel uint32) obj {
	return obj{
		"nodeId":            img.NodeString(std, kgimg.NodeID),
		"statementCode":     nodeProp(img, std, kgimg.NodeStatementCode, kgimg.PStatementCode),
		"description":       nodeProp(img, std, kgimg.NodeDescription, kgimg.PDescription),
		"gradeLevels":       stringList(img.NodeGradeLevel(std)),
		"supportConfidence": confidence(img, rel),
	}
}

// componentResult is get_learning_component's result; with context it adds the
// full supported-standard records.
func componentResult(p *catalog.Package, n uint32, depth int, withContext bool) obj {
	img := p.Img
	stds, rels := img.Adjacency(kgfb.RelLabelSupports, kgfb.DirectionOut).Row(n)
	placements := make([]obj, 0, stds.Len())
	supported := make([]obj, 0, stds.Len())
	for i := 0; i < stds.Len(); i++ {
		std, rel := stds.At(i), rels.At(i)
		pl := supportedSummary(img, std, rel)
		pl["hierarchyPath"] = hierarchyPath(img, std, depth)
		placements = append(placements, pl)
		if withContext {
			supported = append(supported, obj{"relationship": graphRelationship(img, rel), "standard": standardNode(img, std)})
		}
	}
	out := obj{"node": componentNode(img, n), "package": packageRef(p), "sourceMetadata": sourceMetadata(p), "placements": placements}
	if withContext {
		out["supportedStandards"] = supported
	}
	return out
}

// componentsForStandard is get_learning_components_for_standard's result.
func componentsForStandard(p *catalog.Package, std uint32) obj {
	img := p.Img
	lcs, rels := img.Adjacency(kgfb.RelLabelSupports, kgfb.DirectionIn).Row(std)
	comps := make([]obj, 0, lcs.Len())
	for i := 0; i < lcs.Len(); i++ {
		lc := lcs.At(i)
		all, allRels := img.Adjacency(kgfb.RelLabelSupports, kgfb.DirectionOut).Row(lc)
		sup := make([]obj, 0, all.Len())
		for j := 0; j < all.Len(); j++ {
			sup = append(sup, supportedSummary(img, all.At(j), allRels.At(j)))
		}
		comps = append(comps, obj{"node": componentNode(img, lc), "relationship": graphRelationship(img, rels.At(i)), "supportedStandards": sup})
	}
	return obj{"standard": standardNode(img, std), "components": comps, "package": packageRef(p), "sourceMetadata": sourceMetadata(p)}
}

// placementDepth is how far up a placement's hierarchy path goes by default
// (the learning-component tools' ancestorDepth, and the resources').
const placementDepth = 16

type componentRequest struct {
	FrameworkID   *string `json:"frameworkId"`
	SnapshotID    *string `json:"snapshotId"`
	GraphType     string  `json:"graphType"`
	NodeID        string  `json:"nodeId"`
	AncestorDepth int     `json:"ancestorDepth"`
}

func componentRequestSchema() *Schema {
	props := routeProps()
	props["nodeId"] = opaque(1024, "the learning component's node ID")
	props["ancestorDepth"] = integer(0, 64, placementDepth, "how many levels of each supported standard's hierarchy path to walk")
	return object(props, "nodeId")
}

func (s *Service) getComponent(withContext bool) func(context.Context, json.RawMessage) (any, error) {
	return func(_ context.Context, raw json.RawMessage) (any, error) {
		r, err := decode[componentRequest](raw)
		if err != nil {
			return nil, err
		}
		p, err := s.route(r.FrameworkID, r.SnapshotID, r.GraphType)
		if err != nil {
			return nil, err
		}
		n, ok := p.Img.NodeByID(r.NodeID)
		if !ok || p.Img.NodeKind(n) != kgfb.NodeKindComponent {
			return nil, kgerr.New(kgerr.LearningComponentNotFound, "no learning component with node ID %s in %s", r.NodeID, p.SnapshotID()).
				WithHint("search_learning_components finds components; standards are read with get_standard")
		}
		if withContext {
			return fitLists(componentResult(p, n, r.AncestorDepth, true), "learning component "+r.NodeID, "placements", "supportedStandards")
		}
		return fitLists(componentResult(p, n, r.AncestorDepth, false), "learning component "+r.NodeID, "placements")
	}
}
