package kgimg

import (
	"bytes"
	"sort"

	flatbuffers "github.com/google/flatbuffers/go"
)

// NodeField names a string column of the nodes.
type NodeField int

// Node string fields, in schema order.
const (
	NodeID NodeField = iota
	NodeAcademicSubject
	NodeAdoptionStatus
	NodeAttributionStatement
	NodeAuthor
	NodeCaseIdentifierURI
	NodeCaseIdentifierUUID
	NodeDescription
	NodeIdentityKey
	NodeInLanguage
	NodeJurisdiction
	NodeLicense
	NodeName
	NodeNormalizedStatementType
	NodeProvider
	NodeStatementCode
	NodeStatementType
	NodeNormalizedCode
	NodeProvenanceJSON
	numNodeFields
)

// nodeFieldSlots maps each NodeField to its slot in the Nodes table.
var nodeFieldSlots = [numNodeFields]int{
	slot(nodesDesc, "id"), slot(nodesDesc, "academic_subject"), slot(nodesDesc, "adoption_status"),
	slot(nodesDesc, "attribution_statement"), slot(nodesDesc, "author"), slot(nodesDesc, "case_identifier_uri"),
	slot(nodesDesc, "case_identifier_uuid"), slot(nodesDesc, "description"),
	slot(nodesDesc, "identity_key"), slot(nodesDesc, "in_language"), slot(nodesDesc, "jurisdiction"),
	slot(nodesDesc, "license"), slot(nodesDesc, "name"), slot(nodesDesc, "normalized_statement_type"),
	slot(nodesDesc, "provider"), slot(nodesDesc, "statement_code"), slot(nodesDesc, "statement_type"),
	slot(nodesDesc, "normalized_code"), slot(nodesDesc, "provenance_json"),
}

// RelField names a string column of the relationships.
type RelField int

// Relationship string fields, in schema order.
const (
	RelID RelField = iota
	RelAttributionStatement
	RelAuthor
	RelDescription
	RelLicense
	RelProvider
	RelResolutionStatus
	numRelFields
)

var relFieldSlots = [numRelFields]int{
	slot(relationshipsDesc, "id"), slot(relationshipsDesc, "attribution_statement"), slot(relationshipsDesc, "author"),
	slot(relationshipsDesc, "description"), slot(relationshipsDesc, "license"), slot(relationshipsDesc, "provider"),
	slot(relationshipsDesc, "resolution_status"),
}

// nodeCols and relCols are the column views resolved once at open.
type nodeCols struct {
	count                    int
	kind, isCurrent          []byte
	childOrder               []byte // absent in older images
	curPos                   U32s   // absent in older images
	repeated                 []byte // absent in older images
	order, present           U32s
	str                      [numNodeFields]column
	gradeLevel, tags, labels listColumn
}

type relCols struct {
	count                          int
	label                          []byte
	source, target, order, present U32s
	confidence                     []byte
	str                            [numRelFields]column
}

func (img *Image) resolve() {
	root := img.root.Table()
	nt, _ := subTable(root, slot(imageDesc, "nodes"))
	n := &img.v.n
	n.count = int(nt.GetUint32Slot(flatbuffers.VOffsetT(4+2*slot(nodesDesc, "count")), 0))
	n.kind = vecBytes(nt, slot(nodesDesc, "kind"), 1)
	n.isCurrent = vecBytes(nt, slot(nodesDesc, "is_current"), 1)
	n.order = U32s{vecBytes(nt, slot(nodesDesc, "source_export_order"), 4)}
	n.present = U32s{vecBytes(nt, slot(nodesDesc, "present"), 4)}
	for f, s := range nodeFieldSlots {
		n.str[f] = readColumn(nt, s)
	}
	n.gradeLevel = readLists(nt, slot(nodesDesc, "grade_level"))
	n.tags = readLists(nt, slot(nodesDesc, "tags"))
	n.labels = readLists(nt, slot(nodesDesc, "labels"))
	n.childOrder = vecBytes(nt, slot(nodesDesc, "child_order"), 1)
	n.curPos = U32s{vecBytes(nt, slot(nodesDesc, "curriculum_position"), 4)}
	n.repeated = vecBytes(nt, slot(nodesDesc, "repeated_description"), 1)

	rt, _ := subTable(root, slot(imageDesc, "relationships"))
	r := &img.v.r
	r.count = int(rt.GetUint32Slot(flatbuffers.VOffsetT(4+2*slot(relationshipsDesc, "count")), 0))
	r.label = vecBytes(rt, slot(relationshipsDesc, "label"), 1)
	r.source = U32s{vecBytes(rt, slot(relationshipsDesc, "source"), 4)}
	r.target = U32s{vecBytes(rt, slot(relationshipsDesc, "target"), 4)}
	r.order = U32s{vecBytes(rt, slot(relationshipsDesc, "source_export_order"), 4)}
	r.present = U32s{vecBytes(rt, slot(relationshipsDesc, "present"), 4)}
	r.confidence = vecBytes(rt, slot(relationshipsDesc, "support_confidence"), 8)
	for f, s := range relFieldSlots {
		r.str[f] = readColumn(rt, s)
	}

	img.v.nodeIDOrder = U32s{vecBytes(root, slot(imageDesc, "node_id_order"), 4)}
	img.v.caseUUIDOrder = U32s{vecBytes(root, slot(imageDesc, "case_uuid_order"), 4)}
	img.v.caseURIOrder = U32s{vecBytes(root, slot(imageDesc, "case_uri_order"), 4)}
	img.v.relIDOrder = U32s{vecBytes(root, slot(imageDesc, "relationship_id_order"), 4)}
	img.resolveIndexes()
	img.resolvePublisher()
}

// ChildOrder returns what the order of node n's children rests on
// (OrderUnknown in an image written before it was recorded: its children are
// in the package file's order).
func (img *Image) ChildOrder(n uint32) ChildOrder {
	if len(img.pv().n.childOrder) == 0 {
		return OrderUnknown
	}
	return ChildOrder(img.pv().n.childOrder[n])
}

// CurriculumPosition returns node n's position in curriculum order (the
// root first, then the items depth first with each parent's children in
// their curriculum order, then the other nodes), or its sourceExportOrder in
// an image written before positions were recorded.
func (img *Image) CurriculumPosition(n uint32) uint32 {
	if img.pv().n.curPos.Len() == 0 {
		return img.NodeOrder(n)
	}
	return img.pv().n.curPos.At(int(n))
}

// DescriptionRepeated reports whether node n is a standards item whose
// description another item repeats word for word (false in an image written
// before this was recorded).
func (img *Image) DescriptionRepeated(n uint32) bool {
	r := img.pv().n.repeated
	return len(r) != 0 && r[n] != 0
}

// NodeCount returns the number of nodes.
func (img *Image) NodeCount() int { return img.pv().n.count }

// RelationshipCount returns the number of relationships.
func (img *Image) RelationshipCount() int { return img.pv().r.count }

// RootNode returns the framework root's ordinal.
func (img *Image) RootNode() uint32 {
	r := img.payloadRoot()
	if r == nil {
		return 0
	}
	return r.Root()
}

// NodeKind returns a node's kind.
func (img *Image) NodeKind(n uint32) NodeKind { return NodeKind(img.pv().n.kind[n]) }

// NodeOrder returns a node's sourceExportOrder.
func (img *Image) NodeOrder(n uint32) uint32 { return img.pv().n.order.At(int(n)) }

// NodePresent returns a node's property-presence bits.
func (img *Image) NodePresent(n uint32) uint32 { return img.pv().n.present.At(int(n)) }

// NodeIsCurrent returns a node's decoded isCurrent.
func (img *Image) NodeIsCurrent(n uint32) bool { return img.pv().n.isCurrent[n] != 0 }

// NodeString returns one string field of a node, aliasing the image.
func (img *Image) NodeString(n uint32, f NodeField) string { return img.pv().n.str[f].str(int(n)) }

// NodeGradeLevel returns a node's gradeLevel list.
func (img *Image) NodeGradeLevel(n uint32) StringList { return img.pv().n.gradeLevel.list(int(n)) }

// NodeTags returns a node's tags list.
func (img *Image) NodeTags(n uint32) StringList { return img.pv().n.tags.list(int(n)) }

// RelLabel returns a relationship's label.
func (img *Image) RelLabel(r uint32) RelLabel { return RelLabel(img.pv().r.label[r]) }

// RelSource and RelTarget return a relationship's endpoint ordinals.
func (img *Image) RelSource(r uint32) uint32 { return img.pv().r.source.At(int(r)) }

// RelTarget returns the target ordinal.
func (img *Image) RelTarget(r uint32) uint32 { return img.pv().r.target.At(int(r)) }

// RelOrder returns a relationship's sourceExportOrder.
func (img *Image) RelOrder(r uint32) uint32 { return img.pv().r.order.At(int(r)) }

// RelPresent returns a relationship's property-presence bits.
func (img *Image) RelPresent(r uint32) uint32 { return img.pv().r.present.At(int(r)) }

// RelConfidence returns a relationship's supportConfidence (valid when present).
func (img *Image) RelConfidence(r uint32) float64 { return f64(img.pv().r.confidence, int(r)) }

// RelString returns one string field of a relationship, aliasing the image.
func (img *Image) RelString(r uint32, f RelField) string { return img.pv().r.str[f].str(int(r)) }

// NodeLabels returns a node's labels.
func (img *Image) NodeLabels(n uint32) StringList { return img.pv().n.labels.list(int(n)) }

// RelTypeName returns a relationship's label as the contract spells it (also
// its properties.relationshipType, which the gate proves equal).
func (img *Image) RelTypeName(r uint32) string { return RelLabelName(img.RelLabel(r)) }

// RelLabelName spells a relationship label.
func RelLabelName(l RelLabel) string {
	switch l {
	case Supports:
		return "supports"
	case BuildsTowards:
		return "buildsTowards"
	case RelatesTo:
		return "relatesTo"
	}
	return "hasChild"
}

// NodeKindLabel spells a node kind as its delivery label.
func NodeKindLabel(k NodeKind) string {
	switch k {
	case ItemNode:
		return "StandardsFrameworkItem"
	case ComponentNode:
		return "LearningComponent"
	}
	return "StandardsFramework"
}

// EntityKey returns how relationships reference node n: the key
// ("caseIdentifierUUID" for standards, "identifier" for learning components)
// and its value. Relationship entity properties equal these (the gate checks).
func (img *Image) EntityKey(n uint32) (key, value string) {
	if img.NodeKind(n) == ComponentNode {
		return "identifier", img.NodeString(n, NodeID)
	}
	return "caseIdentifierUUID", img.NodeString(n, NodeCaseIdentifierUUID)
}

func cmpKey(b []byte, s string) int { return bytes.Compare(b, unsafeBytes(s)) }

// search returns the range [lo, hi) of order entries whose key equals key.
func searchRange(order U32s, col column, key string) (int, int) {
	n := order.Len()
	lo := sort.Search(n, func(i int) bool { return cmpKey(col.bytes(int(order.At(i))), key) >= 0 })
	hi := lo
	for hi < n && cmpKey(col.bytes(int(order.At(hi))), key) == 0 {
		hi++
	}
	return lo, hi
}

// NodeByID returns the ordinal of the node with this ID.
func (img *Image) NodeByID(id string) (uint32, bool) {
	v := img.pv()
	lo, hi := searchRange(v.nodeIDOrder, v.n.str[NodeID], id)
	if lo == hi {
		return 0, false
	}
	return v.nodeIDOrder.At(lo), true
}

// NodesByCaseUUID returns the ordinals of the nodes with this CASE UUID (more
// than one when the package reuses a UUID).
func (img *Image) NodesByCaseUUID(uuid string) U32s {
	v := img.pv()
	lo, hi := searchRange(v.caseUUIDOrder, v.n.str[NodeCaseIdentifierUUID], uuid)
	return v.caseUUIDOrder.Slice(lo, hi)
}

// NodesByCaseURI returns the ordinals of the nodes with this CASE URI.
func (img *Image) NodesByCaseURI(uri string) U32s {
	v := img.pv()
	lo, hi := searchRange(v.caseURIOrder, v.n.str[NodeCaseIdentifierURI], uri)
	return v.caseURIOrder.Slice(lo, hi)
}

// RelationshipIDOrder returns the relationship ordinals sorted by ID.
func (img *Image) RelationshipIDOrder() U32s { return img.pv().relIDOrder }

// RelationshipByID returns the ordinal of the relationship with this ID.
func (img *Image) RelationshipByID(id string) (uint32, bool) {
	v := img.pv()
	lo, hi := searchRange(v.relIDOrder, v.r.str[RelID], id)
	if lo == hi {
		return 0, false
	}
	return v.relIDOrder.At(lo), true
}
