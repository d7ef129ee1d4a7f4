package standard

import (
	"slices"
	"sort"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/graph"
	"github.com/kgc-project/kgc/runtime/record"
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

// PlacementDepth is how far up a placement's hierarchy path goes by default
// (the learning-component tools' ancestorDepth, and the resources').
const PlacementDepth = 16

// StandardResult is get_standard's result (and the standard resource).
type StandardResult struct {
	Facets record.FacetEvidence `json:"facets"`
	Location
	Node    record.StandardNode `json:"node"`
	Package record.PackageRef   `json:"package"`
	// PublisherRelations are the first of the standard's publisher-asserted
	// relations (get_standard and get_standard_context; nil when it has
	// none, and in the standard resource).
	PublisherRelations *StandardRelations    `json:"publisherRelations"`
	SourceMetadata     record.SourceMetadata `json:"sourceMetadata"`
	StandardURI        string                `json:"standardUri"`
}

func Result(p *catalog.Package, n uint32) StandardResult {
	return StandardResult{Node: record.Standard(p.Img, n), Facets: record.Facets(p, n), Package: record.Ref(p), SourceMetadata: record.Source(p),
		StandardURI: URI(p, p.Img.NodeString(n, kgimg.NodeID)), Location: Place(p.Img, n)}
}

// Location is where a standard sits: the labels (code and the start of the
// description, graph.PlaceLabel) of its first root path from the framework root
// down to the standard itself, how many parents it has, the path through
// each of its first maxPlaceParents parents (in curriculum order) with the
// parent's node ID to open, and whether it hangs from the root only because
// its real parent could not be resolved.
type Location struct {
	HierarchyPath []string `json:"hierarchyPath"`
	ParentCount   int      `json:"parentCount"`
	// Parents are the first maxPlaceParents parents, each with its own path
	// from the root (the framework root leaves it out).
	Parents []ParentPlace `json:"parents"`
	// RootFallback is true for a standard attached to the framework root
	// because the source did not resolve its parent (resolutionStatus
	// unresolvedRootFallback).
	RootFallback bool `json:"rootFallback"`
}

// ParentPlace is one parent of a standard: its node ID, statement type and
// the labels of its first path from the framework root down to it.
type ParentPlace struct {
	NodeID        string   `json:"nodeId"`
	StatementType *string  `json:"statementType"`
	Path          []string `json:"path"`
}

// maxPlaceParents bounds the parents a Location lists.
const maxPlaceParents = 4

func Place(img *kgimg.Image, n uint32) Location {
	parents, edges := img.Adjacency(kgimg.HasChild, kgimg.In).Row(n)
	root := img.RootNode()
	loc := Location{ParentCount: parents.Len(), Parents: []ParentPlace{}}
	order := make([]int, parents.Len())
	for i := range order {
		order[i] = i
		if parents.At(i) == root && img.RelString(edges.At(i), kgimg.RelResolutionStatus) != "" {
			loc.RootFallback = true
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return graph.Less(img, parents.At(order[a]), parents.At(order[b])) })
	for _, i := range order[:min(len(order), maxPlaceParents)] {
		p := parents.At(i)
		if p == root {
			continue
		}
		pp := ParentPlace{NodeID: img.NodeString(p, kgimg.NodeID), Path: labelledPath(img, p, PlacementDepth, graph.PlaceLabel)}
		if t := img.NodeString(p, kgimg.NodeStatementType); t != "" {
			pp.StatementType = ptr(t)
		}
		loc.Parents = append(loc.Parents, pp)
	}
	if len(loc.Parents) > 0 {
		loc.HierarchyPath = append(slices.Clone(loc.Parents[0].Path), graph.PlaceLabel(img, n))
	} else {
		loc.HierarchyPath = labelledPath(img, n, PlacementDepth, graph.PlaceLabel)
	}
	return loc
}

// URI is the standard resource of node ID id.
func URI(p *catalog.Package, id string) string {
	return uri.Ref{Kind: "standard", FrameworkID: p.FrameworkID(), SnapshotID: p.SnapshotID(), ID: id}.String()
}

func ptr[T any](v T) *T { return &v }
