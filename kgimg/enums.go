package kgimg

import (
	"strconv"

	"github.com/kgc-project/kgc/kgimg/format"
	"github.com/kgc-project/kgc/kgimg/kgfb"
)

// The enumerations below are the image's own: callers name node kinds,
// relationship labels, index directions, facet kinds and profile key kinds
// through them and never through the file format's generated types. Each
// value is the one the format stores (the function below fails to compile
// otherwise), so reading one is a conversion, not a lookup.

// NodeKind is a node's kind.
type NodeKind uint8

// Node kinds.
const (
	FrameworkNode NodeKind = iota // the framework root
	ItemNode                      // a standards framework item
	ComponentNode                 // a learning component
)

// String names the kind ("Framework", "Item", "Component").
func (k NodeKind) String() string { return enumName("NodeKind", int(k), nodeKindNames[:]) }

var nodeKindNames = [...]string{"Framework", "Item", "Component"}

// Label spells the kind as its delivery label.
func (k NodeKind) Label() string { return NodeKindLabel(k) }

// RelLabel is a relationship's label.
type RelLabel uint8

// Relationship labels.
const (
	HasChild RelLabel = iota
	Supports
	BuildsTowards
	RelatesTo
)

// String names the label ("HasChild", "Supports", "BuildsTowards", "RelatesTo").
func (l RelLabel) String() string { return enumName("RelLabel", int(l), relLabelNames[:]) }

var relLabelNames = [...]string{"HasChild", "Supports", "BuildsTowards", "RelatesTo"}

// Name spells the label as the contract does ("hasChild", "supports", …).
func (l RelLabel) Name() string { return RelLabelName(l) }

// Direction is the direction of an adjacency index: Out follows a
// relationship from its source to its target, In from its target to its
// source.
type Direction uint8

// Index directions.
const (
	Out Direction = iota
	In
)

// String names the direction ("Out", "In").
func (d Direction) String() string { return enumName("Direction", int(d), directionNames[:]) }

var directionNames = [...]string{"Out", "In"}

// FacetKind is the kind of a facet value.
type FacetKind uint8

// Facet kinds, in the order the facets are sorted.
const (
	FacetNodeKind FacetKind = iota
	FacetNormalizedGrade
	FacetLocalGrade
	FacetStatementType
	FacetNormalizedStatementType
	FacetProgressionEndpoint
)

// String names the facet kind ("NodeKind", "NormalizedGrade", …).
func (k FacetKind) String() string { return enumName("FacetKind", int(k), facetKindNames[:]) }

var facetKindNames = [...]string{"NodeKind", "NormalizedGrade", "LocalGrade", "StatementType", "NormalizedStatementType", "ProgressionEndpoint"}

// ProfileKeyKind is the kind of name a compiled profile key is (see
// CompiledProfile.Targets).
type ProfileKeyKind uint8

// Profile key kinds.
const (
	KeyGradeName         ProfileKeyKind = iota // a grade mapping's local label or alias
	KeyNormalizedGrade                         // a grade mapping's normalized grade
	KeyStatementTypeName                       // a statement type's source name or alias
	KeySubjectName                             // the local subject or a subject alias
	KeyNormalizedSubject                       // a normalized subject
)

// String names the key kind ("GradeName", "NormalizedGrade", …).
func (k ProfileKeyKind) String() string {
	return enumName("ProfileKeyKind", int(k), profileKeyKindNames[:])
}

var profileKeyKindNames = [...]string{"GradeName", "NormalizedGrade", "StatementTypeName", "SubjectName", "NormalizedSubject"}

// ChildOrder is what the order of a node's children rests on.
type ChildOrder uint8

// Child order bases. OrderUnknown is an image written before the basis was
// recorded: its children are in the package file's order.
const (
	OrderNone             ChildOrder = iota // no children
	OrderPublisher                          // the publisher's sequence numbers
	OrderCode                               // the children's statement codes, natural order
	OrderStatementNumbers                   // the numbers the children's statements carry
	OrderIdentifier                         // the children's identifiers
	OrderGrade                              // the children's lowest grades, school order
	OrderCodesBelow                         // each child's code, else the smallest code beneath it
	OrderUnknown          ChildOrder = 255
)

// String names the basis ("None", "Publisher", …).
func (o ChildOrder) String() string {
	if o == OrderUnknown {
		return "Unknown"
	}
	return enumName("ChildOrder", int(o), childOrderNames[:])
}

var childOrderNames = [...]string{"None", "Publisher", "Code", "StatementNumbers", "Identifier", "Grade", "CodesBelow"}

// Basis names the basis as answers and reports spell it: publisher, code,
// statement_numbers, identifier, grade, codes_below; file for an image
// written before the basis was recorded (its children are in the package
// file's order); "" for a node without children.
func (o ChildOrder) Basis() string {
	if o == OrderUnknown {
		return "file"
	}
	if o == OrderNone || int(o) >= len(basisNames) {
		return ""
	}
	return basisNames[o]
}

var basisNames = [...]string{"", "publisher", "code", "statement_numbers", "identifier", "grade", "codes_below"}

var _ = [1]struct{}{}[len(basisNames)-len(childOrderNames)] // one name per basis

// OrderPhrase says in words what an order of children rests on, given its
// Basis name ("" for a name it does not know, such as "").
func OrderPhrase(basis string) string {
	switch basis {
	case "publisher":
		return "in the publisher's order"
	case "code":
		return "ordered by code"
	case "statement_numbers":
		return "ordered by the numbers in the statements"
	case "grade":
		return "ordered by grade"
	case "codes_below":
		return "ordered by the codes beneath them"
	case "identifier":
		return "no order published; by identifier"
	case "file":
		return "in the package file's order (no order recorded)"
	}
	return ""
}

// PublisherKind is the type of a publisher-asserted relation.
type PublisherKind uint8

// Publisher relation types (CASE association types other than isChildOf).
const (
	ExactMatchOf PublisherKind = iota
	IsRelatedTo
	Precedes
	IsPeerOf
	IsPartOf
	ReplacedBy
	Exemplar
	HasSkillLevel
	IsTranslationOf
)

// PublisherKindNames spells the types as CASE does, in enum order.
var PublisherKindNames = format.PublisherRelationTypes

// String spells the type as CASE does ("exactMatchOf", …).
func (k PublisherKind) String() string {
	return enumName("PublisherKind", int(k), PublisherKindNames[:])
}

// enumName returns names[v], or type(v) for a value outside the enumeration.
func enumName(typ string, v int, names []string) string {
	if v < len(names) {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(v) + ")"
}

// This function does not compile when a value above differs from the one the
// format stores: a-b of two unsigned constants is out of range of x when a > b
// and overflows when a < b, both compile-time errors.
func _() {
	var x [1]struct{}
	_ = x[FrameworkNode-NodeKind(kgfb.NodeKindFramework)]
	_ = x[ItemNode-NodeKind(kgfb.NodeKindItem)]
	_ = x[ComponentNode-NodeKind(kgfb.NodeKindComponent)]
	_ = x[HasChild-RelLabel(kgfb.RelLabelHasChild)]
	_ = x[Supports-RelLabel(kgfb.RelLabelSupports)]
	_ = x[BuildsTowards-RelLabel(kgfb.RelLabelBuildsTowards)]
	_ = x[RelatesTo-RelLabel(kgfb.RelLabelRelatesTo)]
	_ = x[Out-Direction(kgfb.DirectionOut)]
	_ = x[In-Direction(kgfb.DirectionIn)]
	_ = x[FacetNodeKind-FacetKind(kgfb.FacetKindNodeKind)]
	_ = x[FacetNormalizedGrade-FacetKind(kgfb.FacetKindNormalizedGrade)]
	_ = x[FacetLocalGrade-FacetKind(kgfb.FacetKindLocalGrade)]
	_ = x[FacetStatementType-FacetKind(kgfb.FacetKindStatementType)]
	_ = x[FacetNormalizedStatementType-FacetKind(kgfb.FacetKindNormalizedStatementType)]
	_ = x[FacetProgressionEndpoint-FacetKind(kgfb.FacetKindProgressionEndpoint)]
	_ = x[KeyGradeName-ProfileKeyKind(kgfb.ProfileKeyKindGradeName)]
	_ = x[KeyNormalizedGrade-ProfileKeyKind(kgfb.ProfileKeyKindNormalizedGrade)]
	_ = x[KeyStatementTypeName-ProfileKeyKind(kgfb.ProfileKeyKindStatementTypeName)]
	_ = x[KeySubjectName-ProfileKeyKind(kgfb.ProfileKeyKindSubjectName)]
	_ = x[KeyNormalizedSubject-ProfileKeyKind(kgfb.ProfileKeyKindNormalizedSubject)]
	_ = x[OrderNone-ChildOrder(kgfb.ChildOrderNone)]
	_ = x[OrderPublisher-ChildOrder(kgfb.ChildOrderPublisher)]
	_ = x[OrderCode-ChildOrder(kgfb.ChildOrderCode)]
	_ = x[OrderStatementNumbers-ChildOrder(kgfb.ChildOrderStatementNumbers)]
	_ = x[OrderIdentifier-ChildOrder(kgfb.ChildOrderIdentifier)]
	_ = x[OrderGrade-ChildOrder(kgfb.ChildOrderGrade)]
	_ = x[OrderCodesBelow-ChildOrder(kgfb.ChildOrderCodesBelow)]
	_ = x[ExactMatchOf-PublisherKind(kgfb.PublisherRelationKindExactMatchOf)]
	_ = x[IsRelatedTo-PublisherKind(kgfb.PublisherRelationKindIsRelatedTo)]
	_ = x[Precedes-PublisherKind(kgfb.PublisherRelationKindPrecedes)]
	_ = x[IsPeerOf-PublisherKind(kgfb.PublisherRelationKindIsPeerOf)]
	_ = x[IsPartOf-PublisherKind(kgfb.PublisherRelationKindIsPartOf)]
	_ = x[ReplacedBy-PublisherKind(kgfb.PublisherRelationKindReplacedBy)]
	_ = x[Exemplar-PublisherKind(kgfb.PublisherRelationKindExemplar)]
	_ = x[HasSkillLevel-PublisherKind(kgfb.PublisherRelationKindHasSkillLevel)]
	_ = x[IsTranslationOf-PublisherKind(kgfb.PublisherRelationKindIsTranslationOf)]
}
