// Package delivery decodes delivery JSONL (schema 1.0–1.2,
// docs/reference/package-format.md#delivery-jsonl-nodes-and-relationships): one
// strict JSON object per physical line, node and relationship envelopes with
// string-only properties, typed decoding of booleans, JSON-array strings and
// support confidence. Every problem is a finding with its line; decoding never
// stops at the first.
package delivery

import (
	"math/bits"
	"strings"
)

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
	// NListEnumeration (added after the alphabetical list, so the image's
	// present bits keep their meaning) is the item's enumeration label as
	// the publisher numbers it among its siblings (CASE listEnumeration).
	NListEnumeration
	NumNodeProps
)

// NodePropNames maps each NodeProp to its wire name.
var NodePropNames = [NumNodeProps]string{
	"academicSubject", "adoptionStatus", "attributionStatement", "author",
	"caseIdentifierURI", "caseIdentifierUUID", "description", "gradeLevel", "identifier",
	"identityKey", "inLanguage", "isCurrent", "jurisdiction", "license", "name",
	"normalizedStatementType", "provider", "statementCode", "statementType", "tags",
	"listEnumeration",
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
	// IsCurrent is the decoded isCurrent boolean (valid when Has(NIsCurrent)).
	IsCurrent bool
	// GradeLevel and Tags are the decoded JSON-array properties (nil when absent).
	// Records share equal lists: they are read-only.
	GradeLevel []string
	Tags       []string
	props      [NumNodeProps]uint32
	store
}

// Prop returns a property's raw string value and whether it is present.
func (n *Node) Prop(p NodeProp) (string, bool) { return n.get(n.props[:], uint(p)), n.has&(1<<p) != 0 }

// Has reports whether a property is present.
func (n *Node) Has(p NodeProp) bool { return n.has&(1<<p) != 0 }

// Str returns a property's value, or "" when absent.
func (n *Node) Str(p NodeProp) string { return n.get(n.props[:], uint(p)) }

// SetProp sets a property (used by decoders and tests).
func (n *Node) SetProp(p NodeProp, v string) { n.set(n.props[:], uint(p), v) }

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
	// RSequenceNumber (added after the alphabetical list) is a hasChild
	// edge's position among its parent's children as the publisher orders
	// them (CASE sequenceNumber): an integer.
	RSequenceNumber
	NumRelProps
)

// RelPropNames maps each RelProp to its wire name.
var RelPropNames = [NumRelProps]string{
	"attributionStatement", "author", "description", "identifier", "license", "provider",
	"relationshipType", "resolutionStatus", "sourceEntity", "sourceEntityKey",
	"sourceEntityValue", "supportConfidence", "targetEntity", "targetEntityKey",
	"targetEntityValue", "sequenceNumber",
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
	SourceLabels []string // shared between records: read-only
	TargetLabels []string // shared between records: read-only
	Order        int
	Line         int
	// Confidence is the decoded supportConfidence (valid when Has(RSupportConfidence)).
	Confidence float64
	// EndOffset is the byte offset just past the record's line (newline included).
	EndOffset int64
	props     [NumRelProps]uint32
	store
}

// Prop returns a property's raw value and whether it is present.
func (r *Relationship) Prop(p RelProp) (string, bool) {
	return r.get(r.props[:], uint(p)), r.has&(1<<p) != 0
}

// Has reports whether a property is present.
func (r *Relationship) Has(p RelProp) bool { return r.has&(1<<p) != 0 }

// Str returns a property's value, or "".
func (r *Relationship) Str(p RelProp) string { return r.get(r.props[:], uint(p)) }

// SetProp sets a property.
func (r *Relationship) SetProp(p RelProp, v string) { r.set(r.props[:], uint(p), v) }

// store holds a record's property values compactly. A present property is
// either shared, its ref an index into the Table's strings, or inline: the
// record's own values are concatenated in property order in vals, and the
// ref of an inline property is the offset just past its value (its value
// starts where the previous inline property's ends). Values that repeat
// across records (licences, attribution, entity kinds, node IDs in
// relationships) are stored once in the Table; a record costs one string
// allocation for the rest. The refs live in the record (a fixed array per
// record type), passed in as ref.
type store struct {
	vals   string
	tab    *Table
	has    uint32
	shared uint32
}

func (st *store) get(ref []uint32, p uint) string {
	bit := uint32(1) << p
	switch {
	case st.has&bit == 0:
		return ""
	case st.shared&bit != 0:
		return st.tab.s[ref[p]]
	}
	start := uint32(0)
	if below := st.has &^ st.shared & (bit - 1); below != 0 {
		start = ref[bits.Len32(below)-1]
	}
	return st.vals[start:ref[p]]
}

// set sets one property and stores every value inline again.
func (st *store) set(ref []uint32, p uint, v string) {
	all := make([]string, len(ref))
	for q := range ref {
		all[q] = st.get(ref, uint(q))
	}
	all[p] = v
	st.has |= 1 << p
	st.shared = 0
	st.vals = st.pack(ref, all, "")
}

// pack stores the present values not marked shared inline, in property order,
// followed by extra, and returns the new vals (the refs of inline properties
// are set; extra starts at the end of the last inline value).
func (st *store) pack(ref []uint32, vals []string, extra string) string {
	n := len(extra)
	inline := st.has &^ st.shared
	for q := range ref {
		if inline&(1<<q) != 0 {
			n += len(vals[q])
		}
	}
	var b strings.Builder
	b.Grow(n)
	for q := range ref {
		if inline&(1<<q) != 0 {
			b.WriteString(vals[q])
			ref[q] = uint32(b.Len())
		}
	}
	b.WriteString(extra)
	return b.String()
}

// Table holds the strings that the records of one package share: values that
// repeat from record to record (at most maxShared of them, each at most
// maxSharedLen bytes, so a hostile file cannot grow it past a few megabytes
// beyond its node count), equal label, grade and tag lists, and the ID of
// every node decoded with it, which relationship records repeat as endpoints
// and entity values. Decoding a package's nodes and then its relationships
// with one Table stores each of those once. A Table is not safe for
// concurrent decoding; decoded records only read it.
type Table struct {
	s   []string
	idx map[string]uint32
	// node holds, for each string, the position among its file's decoded
	// nodes of the first node with that ID (-1: no node has it).
	node []int32
	// nodeIDs counts the strings that are some node's ID.
	nodeIDs int
	// shared counts the repeated values (not node IDs) added.
	shared int
	lists  map[string][]string
	key    []byte
}

// Bounds of a Table's repeated values and lists.
const (
	maxShared    = 1 << 16
	maxSharedLen = 1 << 10
)

// NewTable returns an empty table.
func NewTable() *Table {
	return &Table{idx: map[string]uint32{}, lists: map[string][]string{}}
}

// Lookup returns the index of s in the table (see String).
func (t *Table) Lookup(s string) (uint32, bool) {
	i, ok := t.idx[s]
	return i, ok
}

// String returns the string at index i.
func (t *Table) String(i uint32) string { return t.s[i] }

// Len returns the number of strings in the table.
func (t *Table) Len() int { return len(t.s) }

// add stores s (which the caller owns) and returns its index.
func (t *Table) add(s string) uint32 {
	i := uint32(len(t.s))
	t.s = append(t.s, s)
	t.node = append(t.node, -1)
	t.idx[s] = i
	return i
}

// reserve makes the table's map of strings ready for n more.
func (t *Table) reserve(n int) {
	m := make(map[string]uint32, len(t.idx)+n)
	for k, v := range t.idx {
		m[k] = v
	}
	t.idx = m
}

// NodeIndex returns the position among the decoded nodes of the first node
// whose ID is id (the nodes of the file decoded with t that registered it).
func (t *Table) NodeIndex(id string) (int, bool) {
	if i, ok := t.idx[id]; ok && t.node[i] >= 0 {
		return int(t.node[i]), true
	}
	return 0, false
}

// intern returns the index of a repeated value v, adding a copy while the
// table has room (v may be a transient view).
func (t *Table) intern(v string) (uint32, bool) {
	if i, ok := t.idx[v]; ok {
		return i, true
	}
	if t.shared >= maxShared || len(v) > maxSharedLen {
		return 0, false
	}
	t.shared++
	return t.add(strings.Clone(v)), true
}

// list returns the shared list stored under key (a kind byte and the list's
// source), or makes one with mk and keeps it while the table has room.
func (t *Table) list(key []byte, mk func() []string) []string {
	if l, ok := t.lists[string(key)]; ok {
		return l
	}
	l := mk()
	if t.shared < maxShared && len(key) <= maxSharedLen {
		t.shared++
		t.lists[string(key)] = l
	}
	return l
}
