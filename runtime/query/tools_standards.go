package query

import (
	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/runtime/standard"

	"context"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// ByNodeID selects a standard by its node ID.
func ByNodeID(id string) Selector { return Selector{IdentifierType: "node_id", NodeID: id} }

const opaquePattern = `^[^\s\x00-\x1f\x7f](?:[^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`

func opaque(max int, desc string) *Schema {
	return jsonschema.Terse(jsonschema.Pattern(jsonschema.String(1, max, desc), opaquePattern))
}

func selectorAlt(kind, field string, value *Schema) *Schema {
	return jsonschema.Object(map[string]*Schema{"identifierType": {Types: []string{"string"}, Const: kind}, field: value}, "identifierType", field)
}

// selectorSchema accepts node_id, case_identifier_uuid, case_identifier_uri and,
// when withCode, statement_code.
func selectorSchema(withCode bool) *Schema { return boundedSelector(withCode, 1024, 2048) }

// boundedSelector is a standard selector whose node IDs and CASE UUIDs have
// at most idMax characters and CASE URIs uriMax.
func boundedSelector(withCode bool, idMax, uriMax int) *Schema {
	alts := []*Schema{
		selectorAlt("node_id", "nodeId", opaque(idMax, "")),
		selectorAlt("case_identifier_uuid", "caseIdentifierUuid", opaque(idMax, "")),
		selectorAlt("case_identifier_uri", "caseIdentifierUri", opaque(uriMax, "")),
	}
	if withCode {
		alts = append(alts, selectorAlt("statement_code", "statementCode", jsonschema.Terse(jsonschema.String(1, 512, ""))))
	}
	return &Schema{Types: []string{"object"}, OneOf: alts, Discriminator: "identifierType", Description: "a standard"}
}

// --- get_standard -----------------------------------------------------------

// StandardRequest asks for one standard (get_standard, and
// get_learning_components_for_standard). At least one of FrameworkID and
// SnapshotID is required: a frameworkId alone routes to its unique current
// snapshot (docs/reference/errors.md#ambiguous_framework).
type StandardRequest struct {
	FrameworkID *string  `json:"frameworkId"`
	SnapshotID  *string  `json:"snapshotId"`
	GraphType   string   `json:"graphType,omitempty"`
	Identifier  Selector `json:"identifier"`
}

// NewStandardRequest asks for the standard id selects in the framework's
// unique current snapshot.
func NewStandardRequest(frameworkID string, id Selector) StandardRequest {
	return newRequest[StandardRequest](standardRequestSchema(), map[string]any{"frameworkId": frameworkID, "identifier": id})
}

// Standard answers get_standard: one standards item with its facets and
// package identity.
func (s *Service) Standard(ctx context.Context, r StandardRequest) (*StandardResult, error) {
	if err := checkRequest(standardRequestSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.standard(ctx, r)
	return own(s, result, err)
}

func (s *Service) standard(_ context.Context, r StandardRequest) (*StandardResult, error) {
	p, n, err := s.resolveRequestedStandard(r)
	if err != nil {
		return nil, err
	}
	res := standard.Result(p, n)
	res.PublisherRelations = standard.Relations(standard.PeersOf(s.cat), p, n)
	return &res, nil
}

// resolveRequestedStandard routes a standard request and resolves its selector.
func (s *Service) resolveRequestedStandard(r StandardRequest) (*catalog.Package, uint32, error) {
	p, err := s.route(r.FrameworkID, r.SnapshotID, r.GraphType)
	if err != nil {
		return nil, 0, err
	}
	n, err := standard.Resolve(p, r.Identifier)
	return p, n, err
}

func routeProps() map[string]*Schema {
	return map[string]*Schema{"frameworkId": jsonschema.Nullable(frameworkID()), "snapshotId": jsonschema.Nullable(snapshotID()), "graphType": graphType()}
}

func standardRequestSchema() *Schema {
	props := routeProps()
	props["identifier"] = selectorSchema(false)
	return jsonschema.Object(props, "identifier")
}

func (s *Service) route(frameworkID, snapshotID *string, graphType string) (*catalog.Package, error) {
	if deref(frameworkID) == "" && deref(snapshotID) == "" {
		return nil, jsonschema.Fail("request", "frameworkId or snapshotId is required")
	}
	return s.resolvePackage(deref(frameworkID), snapshotID, graphType)
}

// StandardComponents answers get_learning_components_for_standard: every
// component supporting the standard, cut to the result ceiling.
func (s *Service) StandardComponents(ctx context.Context, r StandardRequest) (*StandardComponentsResult, error) {
	if err := checkRequest(standardRequestSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.standardComponents(ctx, r)
	return own(s, result, err)
}

func (s *Service) standardComponents(_ context.Context, r StandardRequest) (*StandardComponentsResult, error) {
	p, n, err := s.resolveRequestedStandard(r)
	if err != nil {
		return nil, err
	}
	full := standard.Components(p, n)
	k, err := fitPrefix(full, len(full.Components), func(k int) any {
		c := *full
		c.Components = full.Components[:k]
		return &c
	})
	if err != nil {
		return nil, err
	}
	if k < 0 {
		return nil, ResultTooLarge("the answer for standard " + p.Img.NodeString(n, kgimg.NodeID))
	}
	c := *full
	c.Components, c.Truncation = full.Components[:k], standard.Truncate(k, len(full.Components))
	return &c, nil
}
