package standard

import (
	"strings"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// MaxTopLevel bounds the entries of a TopLevel.
const MaxTopLevel = 100

// TopLevel is what a framework holds at its top (get_framework, beyond the
// contract): the framework root's direct children in curriculum order, the
// way into the hierarchy that needs no search (get_standard_context on one
// of them lists what is under it).
type TopLevel struct {
	// Order says what the order rests on (as a context result's
	// directChildren.order says).
	Order string `json:"order,omitempty" enum:"publisher,code,statement_numbers,grade,codes_below,identifier,file"`
	// TotalCount is how many children the root has; IsComplete says
	// Standards lists them all (at most 100 are listed).
	TotalCount int           `json:"totalCount"`
	IsComplete bool          `json:"isComplete"`
	Standards  []TopStandard `json:"standards"`
}

// TopStandard is one entry of a TopLevel.
type TopStandard struct {
	NodeID        string  `json:"nodeId"`
	StatementCode *string `json:"statementCode"`
	StatementType *string `json:"statementType"`
	Description   *string `json:"description"`
	// ChildCount is how many children it has.
	ChildCount int `json:"childCount"`
}

// TopLevelOf returns the top level of p's hierarchy.
func TopLevelOf(p *catalog.Package) *TopLevel {
	img := p.Img
	if img.NodeCount() == 0 {
		return &TopLevel{Standards: []TopStandard{}}
	}
	root := img.RootNode()
	children := img.Adjacency(kgimg.HasChild, kgimg.Out)
	kids, _ := children.Row(root)
	out := &TopLevel{Order: img.ChildOrder(root).Basis(), TotalCount: kids.Len(), Standards: []TopStandard{}}
	for i := 0; i < kids.Len() && i < MaxTopLevel; i++ {
		n := kids.At(i)
		grand, _ := children.Row(n)
		out.Standards = append(out.Standards, TopStandard{NodeID: strings.Clone(img.NodeString(n, kgimg.NodeID)),
			StatementCode: optional(img.NodeString(n, kgimg.NodeStatementCode)), StatementType: optional(img.NodeString(n, kgimg.NodeStatementType)),
			Description: optional(img.NodeString(n, kgimg.NodeDescription)), ChildCount: grand.Len()})
	}
	out.IsComplete = len(out.Standards) == out.TotalCount
	return out
}

// optional is a copy of s, nil for "" (a field the record does not have).
func optional(s string) *string {
	if s == "" {
		return nil
	}
	c := strings.Clone(s)
	return &c
}
