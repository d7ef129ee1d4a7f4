// Package delivery decodes delivery JSONL (schema 1.0–1.2, surface.md §6.3): one
// strict JSON object per physical line, node and relationship envelopes with
// string-only properties, typed decoding of booleans, JSON-array strings and
// support confidence. Every problem is a finding with its line; decoding never
// stops at the first.
package delivery

// NodeKind says which of the three node labels a node carries.
type NodeKind uint8

// Node kinds.
const (
	KindUnknown NodeKind = iota
	KindFramework
	KindItem
	KindComponent
)

// Node labels.
const (
	LabelFramework = "StandardsFramework"
	LabelItem      = "StandardsFrameworkItem"
	LabelComponent = "LearningComponent"
)

// String returns the node label of the kind.
func (k NodeKind) String() string {
	switch k {
	case KindFramework:
		return LabelFramework
	case KindItem:
		return LabelItem
	case KindComponent:
		return LabelComponent
	}
	return "unknown"
}

// NodeProp enumerates the node properties the schema defines. Properties outside
// this list are dropped from decoded records (their raw bytes stay in the nodes
// artifact).
type NodeProp uint8

// Node properties, in the schema's alphabetical order.
const (
	NAcademicSubject NodeProp = iota
	NAdoptionStatus
	NAttributionStatement
	NAuthor
	NCaseIdentifierURI
	NCaseIdentifierUUID
	NDescription
	NGradeLevel
	NIdentifier
	NIdentityKey
	NInLanguage
	NIsCurrent
	NJurisdiction
	NLicense
	NName
	NNormalizedStatementType
	NProvider
	NStatementCode
	NStatementType
	NTags
	NumNodeProps
)

// NodePropNames maps each NodeProp to its wire name.
var NodePropNames = [NumNodeProps]string{
	"academicSubject", "adoptionStatus", "attributionStatement", "author",
	"caseIdentifierURI", "caseIdentifierUUID", "description", "gradeLevel", "identifier",
	"identityKey", "inLanguage", "isCurrent", "jurisdiction", "license", "name",
	"normalizedStatementType", "provider", "statementCode", "statementType", "tags",
}

// Node is one decoded node record.
type Node struct {
	ID     string
	Kind   NodeKind
	Labels []string
	// Order is the record's sourceExportOrder: its 1-based position among the
	// node records of the export.
	Order int
	Line  int
	props [NumNodeProps]string
	has   uint32
	// IsCurrent is the decoded isCurrent boolean (valid when Has(NIsCurrent)).
	IsCurrent bool
	// GradeLevel and Tags are the decoded JSON-array properties (nil when absent).
	GradeLevel []string
	Tags       []string
}

// Prop returns a property's raw string value and whether it is present.
func (n *Node) Prop(p NodeProp) (string, bool) { return n.props[p], n.has&(1<<p) != 0 }

// Has reports whether a property is present.
func (n *Node) Has(p NodeProp) bool { return n.has&(1<<p) != 0 }

// Str returns a property's value, or "" when absent.
func (n *Node) Str(p NodeProp) string { return n.props[p] }

// SetProp sets a property (used by decoders and tests).
func (n *Node) SetProp(p NodeProp, v string) { n.props[p] = v; n.has |= 1 << p }

// RelProp enumerates the relationship properties the schema defines.
type RelProp uint8

// Relationship properties, in the schema's alphabetical order.
const (
	RAttributionStatement RelProp = iota
	RAuthor
	RDescription
	RIdentifier
	RLicense
	RProvider
	RRelationshipType
	RResolutionStatus
	RSourceEntity
	RSourceEntityKey
	RSourceEntityValue
	RSupportConfidence
	RTargetEntity
	RTargetEntityKey
	RTargetEntityValue
	NumRelProps
)

// RelPropNames maps each RelProp to its wire name.
var RelPropNames = [NumRelProps]string{
	"attributionStatement", "author", "description", "identifier", "license", "provider",
	"relationshipType", "resolutionStatus", "sourceEntity", "sourceEntityKey",
	"sourceEntityValue", "supportConfidence", "targetEntity", "targetEntityKey",
	"targetEntityValue",
}

// Relationship types.
const (
	HasChild      = "hasChild"
	Supports      = "supports"
	BuildsTowards = "buildsTowards"
	RelatesTo     = "relatesTo"
)

// UnresolvedRootFallback is the only resolution status.
const UnresolvedRootFallback = "unresolvedRootFallback"

// IsProgression reports whether a relationship type is a learning progression.
func IsProgression(label string) bool { return label == BuildsTowards || label == RelatesTo }

// Relationship is one decoded relationship record.
type Relationship struct {
	ID           string
	Label        string
	Source       string
	Target       string
	SourceLabels []string
	TargetLabels []string
	Order        int
	Line         int
	props        [NumRelProps]string
	has          uint32
	// Confidence is the decoded supportConfidence (valid when Has(RSupportConfidence)).
	Confidence float64
	// LineHash is the SHA-256 of the record's exact line bytes (kept for
	// progression records, which the split files must repeat byte for byte).
	LineHash [32]byte
	// EndOffset is the byte offset just past the record's line (newline included).
	EndOffset int64
}

// Prop returns a property's raw value and whether it is present.
func (r *Relationship) Prop(p RelProp) (string, bool) { return r.props[p], r.has&(1<<p) != 0 }

// Has reports whether a property is present.
func (r *Relationship) Has(p RelProp) bool { return r.has&(1<<p) != 0 }

// Str returns a property's value, or "".
func (r *Relationship) Str(p RelProp) string { return r.props[p] }

// SetProp sets a property.
func (r *Relationship) SetProp(p RelProp, v string) { r.props[p] = v; r.has |= 1 << p }
