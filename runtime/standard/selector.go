package standard

import (
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
)

// Selector names one standard exactly (docs/reference/tools.md#get_standard), discriminated by
// IdentifierType: node_id, case_identifier_uuid, case_identifier_uri and,
// for the progression tools, statement_code. Only the field the type names
// is set.
type Selector struct {
	IdentifierType     string `json:"identifierType"`
	NodeID             string `json:"nodeId,omitempty"`
	CaseIdentifierUUID string `json:"caseIdentifierUuid,omitempty"`
	CaseIdentifierURI  string `json:"caseIdentifierUri,omitempty"`
	StatementCode      string `json:"statementCode,omitempty"`
}

// Resolve finds the one standard (item) a selector names: standard_not_found
// or ambiguous_graph_node otherwise; statement_code selectors are refused
// here (capability_unavailable).
func Resolve(p *catalog.Package, sel Selector) (uint32, error) {
	img := p.Img
	var hits []uint32
	switch sel.IdentifierType {
	case "node_id":
		if n, ok := img.NodeByID(sel.NodeID); ok {
			hits = append(hits, n)
		}
	case "case_identifier_uuid":
		v := img.NodesByCaseUUID(sel.CaseIdentifierUUID)
		hits = v.AppendTo(hits)
	case "case_identifier_uri":
		v := img.NodesByCaseURI(sel.CaseIdentifierURI)
		hits = v.AppendTo(hits)
	case "statement_code":
		return 0, kgerr.New(kgerr.CapabilityUnavailable, "statement_code selectors are not accepted by this tool")
	}
	var items []uint32
	for _, n := range hits {
		if img.NodeKind(n) == kgimg.ItemNode {
			items = append(items, n)
		}
	}
	switch len(items) {
	case 0:
		return 0, kgerr.New(kgerr.StandardNotFound, "no standard in %s matches %s", p.SnapshotID(), Describe(sel)).
			WithHint("search_standards finds standards by text or code")
	case 1:
		return items[0], nil
	}
	return 0, kgerr.New(kgerr.AmbiguousGraphNode, "%s matches %d standards in %s", Describe(sel), len(items), p.SnapshotID()).
		WithHint("select the standard by node_id")
}

// Describe names a selector in a message ("CASE UUID …").
func Describe(sel Selector) string {
	switch sel.IdentifierType {
	case "case_identifier_uuid":
		return "CASE UUID " + sel.CaseIdentifierUUID
	case "case_identifier_uri":
		return "CASE URI " + sel.CaseIdentifierURI
	case "statement_code":
		return "statement code " + sel.StatementCode
	}
	return "node ID " + sel.NodeID
}
