package diff

// Kinds of change of a matched standard, in the order a Change lists them.
const (
	ChangeReworded     = "reworded"     // the statement (description) changed
	ChangeRecoded      = "recoded"      // the statement code changed
	ChangeRegraded     = "regraded"     // the grade list changed
	ChangeMoved        = "moved"        // the hasChild parents changed (compared through the matching)
	ChangeReidentified = "reidentified" // the node ID or CASE UUID changed (paired by another key)
	ChangeRetyped      = "retyped"      // the statement type changed
)

// Report is the difference between two snapshots of one framework. Every
// list is in a fixed order (added and changed standards in the new
// snapshot's export order, removed ones in the old one's; edges by type, then
// endpoints in export order), and the JSON field order is the struct order, so
// the same inputs give the same bytes.
type Report struct {
	FrameworkID string `json:"frameworkId"`
	Old         Side   `json:"old"`
	New         Side   `json:"new"`
	// Equal is true when nothing below is listed.
	Equal     bool        `json:"equal"`
	Summary   Summary     `json:"summary"`
	MatchedBy MatchCounts `json:"matchedBy"`

	// MetadataChanged lists the rights, profile and metadata fields that
	// differ: what a person deciding to publish reads first.
	MetadataChanged []FieldChange `json:"metadataChanged"`

	StandardsAdded   []Standard `json:"standardsAdded"`
	StandardsRemoved []Standard `json:"standardsRemoved"`
	StandardsChanged []Change   `json:"standardsChanged"`
	// ChildrenReordered lists the parents (in the new snapshot's export
	// order, the framework root first) whose children present on both sides
	// come in another order.
	ChildrenReordered []Reorder `json:"childrenReordered"`

	ComponentsAdded    []Component       `json:"learningComponentsAdded"`
	ComponentsRemoved  []Component       `json:"learningComponentsRemoved"`
	ComponentsReworded []ComponentChange `json:"learningComponentsReworded"`

	// SupportsAdded and SupportsRemoved are supports edges (learning
	// component → standard).
	SupportsAdded   []GraphEdge `json:"supportsEdgesAdded"`
	SupportsRemoved []GraphEdge `json:"supportsEdgesRemoved"`
	// SupportsRescored lists the supports edges on both sides whose
	// supportConfidence changed.
	SupportsRescored []GraphEdge `json:"supportsEdgesRescored"`

	// EdgesAdded and EdgesRemoved are the generated learning-progression
	// edges (buildsTowards, relatesTo).
	EdgesAdded   []GraphEdge `json:"progressionEdgesAdded"`
	EdgesRemoved []GraphEdge `json:"progressionEdgesRemoved"`

	// PublisherAdded and PublisherRemoved are the publisher-asserted
	// relations (CASE associations), never mixed with the progression edges.
	PublisherAdded   []PublisherEdge `json:"publisherRelationsAdded"`
	PublisherRemoved []PublisherEdge `json:"publisherRelationsRemoved"`
}

// FieldChange is one rights, profile or metadata field that differs ("" is
// an absent value).
type FieldChange struct {
	Field string `json:"field"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

// Reorder is a parent whose children changed order. Old and New list the
// children present on both sides, each in its snapshot's curriculum order;
// OldBasis and NewBasis say what each order rests on (publisher, code,
// statement_numbers, identifier, or file for an image that did not record
// it).
type Reorder struct {
	Parent   NodeRef   `json:"parent"`
	OldBasis string    `json:"oldBasis"`
	NewBasis string    `json:"newBasis"`
	Old      []NodeRef `json:"old"`
	New      []NodeRef `json:"new"`
}

// PublisherEdge is one publisher-asserted relation: its CASE association
// type, each end inside the snapshot (Source, Target) or outside it as the
// publisher names it (SourceExternal, TargetExternal), and its sequence
// number.
type PublisherEdge struct {
	Type           string       `json:"type"`
	Source         *NodeRef     `json:"source,omitempty"`
	SourceExternal *ExternalRef `json:"sourceExternal,omitempty"`
	Target         *NodeRef     `json:"target,omitempty"`
	TargetExternal *ExternalRef `json:"targetExternal,omitempty"`
	Sequence       *int64       `json:"sequenceNumber,omitempty"`
}

// Side identifies one compared snapshot.
type Side struct {
	SnapshotID string `json:"snapshotId"`
	// Source is the path as given; Format is "package" or "image".
	Source             string `json:"source"`
	Format             string `json:"format"`
	Standards          int    `json:"standards"`
	LearningComponents int    `json:"learningComponents"`
	SupportsEdges      int    `json:"supportsEdges"`
	ProgressionEdges   int    `json:"progressionEdges"`
	PublisherRelations int    `json:"publisherRelations"`
}

// Summary counts the changes by kind. A changed standard counts once in
// StandardsChanged and once per kind of change it has.
type Summary struct {
	StandardsAdded     int `json:"standardsAdded"`
	StandardsRemoved   int `json:"standardsRemoved"`
	StandardsChanged   int `json:"standardsChanged"`
	Reworded           int `json:"reworded"`
	Recoded            int `json:"recoded"`
	Regraded           int `json:"regraded"`
	Moved              int `json:"moved"`
	Reidentified       int `json:"reidentified"`
	Retyped            int `json:"retyped"`
	MetadataChanged    int `json:"metadataChanged"`
	ChildrenReordered  int `json:"childrenReordered"`
	ComponentsAdded    int `json:"learningComponentsAdded"`
	ComponentsRemoved  int `json:"learningComponentsRemoved"`
	ComponentsReworded int `json:"learningComponentsReworded"`
	SupportsAdded      int `json:"supportsEdgesAdded"`
	SupportsRemoved    int `json:"supportsEdgesRemoved"`
	SupportsRescored   int `json:"supportsEdgesRescored"`
	EdgesAdded         int `json:"progressionEdgesAdded"`
	EdgesRemoved       int `json:"progressionEdgesRemoved"`
	PublisherAdded     int `json:"publisherRelationsAdded"`
	PublisherRemoved   int `json:"publisherRelationsRemoved"`
}

// MatchCounts counts the standards paired by each key (learning components
// are paired by node ID only).
type MatchCounts struct {
	NodeID        int `json:"nodeId"`
	CaseUUID      int `json:"caseUuid"`
	StatementCode int `json:"statementCode"`
}

// Standard is one standards item as a report shows it. Statement is present
// for added and removed standards and for both sides of a reworded one, when
// the snapshot can supply statements (Load's can).
type Standard struct {
	ID        string    `json:"id"`
	CaseUUID  string    `json:"caseUuid,omitempty"`
	Code      string    `json:"statementCode,omitempty"`
	Type      string    `json:"statementType,omitempty"`
	Grades    []string  `json:"grades"`
	Parents   []NodeRef `json:"parents"`
	Statement *string   `json:"statement,omitempty"`
}

// NodeRef names a node: its ID and statement code, or the framework root.
// Statement is given for the ends of the edges a report lists.
type NodeRef struct {
	ID        string  `json:"id"`
	Code      string  `json:"statementCode,omitempty"`
	Root      bool    `json:"root,omitempty"`
	Statement *string `json:"statement,omitempty"`
}

// Change is a standard present in both snapshots that changed.
type Change struct {
	// MatchedBy is the key that paired the two: nodeId, caseUuid or
	// statementCode.
	MatchedBy string   `json:"matchedBy"`
	Changes   []string `json:"changes"`
	Old       Standard `json:"old"`
	New       Standard `json:"new"`
	// StatementDiff is the word-level diff of a reworded statement.
	StatementDiff []WordOp `json:"statementDiff,omitempty"`
}

// Component is one learning component as a report shows it.
type Component struct {
	ID        string  `json:"id"`
	Statement *string `json:"statement,omitempty"`
}

// ComponentChange is a learning component whose statement changed.
type ComponentChange struct {
	ID            string   `json:"id"`
	Old           *string  `json:"oldStatement,omitempty"`
	New           *string  `json:"newStatement,omitempty"`
	StatementDiff []WordOp `json:"statementDiff,omitempty"`
}

// GraphEdge is a supports edge (learning component → standard) or a
// progression edge between two standards: buildsTowards, or relatesTo (its
// endpoints in export order: the edge is undirected).
type GraphEdge struct {
	Type   string  `json:"type"`
	Source NodeRef `json:"source"`
	Target NodeRef `json:"target"`
	// Confidence is a supports edge's supportConfidence (the new one, for a
	// rescored edge); OldConfidence the old one of a rescored edge.
	Confidence    *float64 `json:"supportConfidence,omitempty"`
	OldConfidence *float64 `json:"oldSupportConfidence,omitempty"`
}

// edgeTypeName spells a progression edge type.
func edgeTypeName(t uint8) string {
	switch t {
	case EdgeRelatesTo:
		return "relatesTo"
	case EdgeSupports:
		return "supports"
	}
	return "buildsTowards"
}
