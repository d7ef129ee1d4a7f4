package query

import (
	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/standard"

	"context"

	"github.com/kgc-project/kgc/kgimg"
)

// Publisher relations are the relations a framework's publisher asserts in
// its CASE data (exactMatchOf another framework's item, precedes, isRelatedTo,
// …): a different kind of fact from the generated (llm_inferred) learning
// progressions and from search candidates, labelled so everywhere.

// --- get_publisher_relations -------------------------------------------------

// PublisherRelationsRequest asks for a standard's publisher relations
// (docs/reference/tools.md#get_publisher_relations).
type PublisherRelationsRequest struct {
	FrameworkID      *string  `json:"frameworkId"`
	SnapshotID       *string  `json:"snapshotId"`
	GraphType        string   `json:"graphType,omitempty"`
	Identifier       Selector `json:"identifier"`
	AssociationTypes []string `json:"associationTypes"`
	Direction        string   `json:"direction"`
	SequenceDepth    int      `json:"sequenceDepth"`
	Limit            int      `json:"limit"`
}

func publisherRelationsSchema() *Schema {
	props := routeProps()
	props["identifier"] = selectorSchema(false)
	props["associationTypes"] = jsonschema.Array(jsonschema.Enum("", kgimg.PublisherKindNames[:]...), len(kgimg.PublisherKindNames), "only these (default all)")
	dir := jsonschema.Enum("outgoing: the standard is the CASE origin", "both", "outgoing", "incoming")
	dir.Default = "both"
	props["direction"] = dir
	props["sequenceDepth"] = jsonschema.Integer(0, 16, 0, "precedes steps walked each way")
	props["limit"] = jsonschema.Integer(1, 200, 50, "")
	return jsonschema.Object(props, "identifier")
}

// NewPublisherRelationsRequest asks for the publisher relations of the
// standard id selects in the framework's unique current snapshot, every bound
// at its default.
func NewPublisherRelationsRequest(frameworkID string, id Selector) PublisherRelationsRequest {
	return newRequest[PublisherRelationsRequest](publisherRelationsSchema(), map[string]any{"frameworkId": frameworkID, "identifier": id})
}

// PublisherRelations answers get_publisher_relations.
func (s *Service) PublisherRelations(ctx context.Context, r PublisherRelationsRequest) (*PublisherRelationsResult, error) {
	if err := checkRequest(publisherRelationsSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.publisherRelations(ctx, r)
	return own(s, result, err)
}

func (s *Service) publisherRelations(_ context.Context, r PublisherRelationsRequest) (*PublisherRelationsResult, error) {
	p, n, err := s.resolveRequestedStandard(StandardRequest{FrameworkID: r.FrameworkID, SnapshotID: r.SnapshotID, GraphType: r.GraphType, Identifier: r.Identifier})
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, t := range r.AssociationTypes {
		want[t] = true
	}
	all := standard.RelationsOf(standard.PeersOf(s.cat), p, n, func(k kgimg.PublisherKind) bool { return len(want) == 0 || want[k.String()] })
	var rels []PublisherRelation
	for _, x := range all {
		if r.Direction == "both" || x.Direction == r.Direction {
			rels = append(rels, x)
		}
	}
	res := &PublisherRelationsResult{Notice: PublisherNotice, Package: record.Ref(p), Standard: standard.End(p, n),
		Relations: rels[:min(len(rels), r.Limit)], TotalCount: len(rels), Complete: len(rels) <= r.Limit}
	if res.Relations == nil {
		res.Relations = []PublisherRelation{}
	}
	if r.SequenceDepth > 0 {
		res.Sequence = standard.Sequence(p, n, r.SequenceDepth)
	}
	return res, nil
}
