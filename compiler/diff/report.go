package diff

// Kinds of change of a matched standard, in the order a change lists them.
const (
	changeReworded     = "reworded"     // the statement (description) changed
	changeRecoded      = "recoded"      // the statement code changed
	changeRegraded     = "regraded"     // the grade list changed
	changeMoved        = "moved"        // the hasChild parents changed (compared through the matching)
	changeReidentified = "reidentified" // the node ID or CASE UUID changed (paired by another key)
	changeRetyped      = "retyped"      // the statement type changed
)

// Report is the difference between two snapshots of one framework. Every
// list is in a fixed order (added and changed standards in the new
// snapshot's export order, removed ones in the old one's; edges by type, then
// endpoints in export order), and the JSON field order is the struct order, so
// the same inputs give the same bytes.
type Report struct {
	FrameworkID string `json:"frameworkId"`
	Old         side   `json:"old"`
	New         side   `json:"new"`
	// Equal is true when nothing below is listed.
	Equal     bool        `json:"equal"`
	Summary   summary     `json:"summary"`
	MatchedBy matchCounts `json:"matchedBy"`

	// MetadataChanged lists the rights, profile and metadata fields that
	// differ: what a person deciding to publish reads first.
	MetadataChanged []fieldChange `json:"metadataChanged"`

	StandardsAdded   []standard `json:"standardsAdded"`
	StandardsRemoved []standard `json:"standardsRemoved"`
	StandardsChanged []change   `json:"standardsChanged"`
	// ChildrenReordered lists the parents (in the new snapshot's export
	// order, the framework root first) whose children present on both sides
	// come in another order.
	ChildrenReordered []reorder `json:"childrenReordered"`

	ComponentsAdded    []component       `json:"learningComponentsAdded"`
	ComponentsRemoved  []component       `json:"learningComponentsRemoved"`
	ComponentsReworded []componentChange `json:"learningComponentsReworded"`

	// SupportsAdded and SupportsRemoved are supports edges (learning
	// component → standard).
	SupportsAdded   []graphEdge `json:"supportsEdgesAdded"`
	SupportsRemoved []graphEdge `json:"supportsEdgesRemoved"`
	// SupportsRescored lists the supports edges on both sides whose
	// supportConfidence changed.
	SupportsRescored []graphEdge `json:"supportsEdgesRescored"`

	// EdgesAdded and EdgesRemoved are the generated learning-progression
	// edges (buildsTowards, relatesTo).
	EdgesAdded   []graphEdge `json:"progressionEdgesAdded"`
	EdgesRemoved []graphEdge `json:"progressionEdgesRemoved"`

	// PublisherAdded and PublisherRemoved are the publisher-asserted
	// relations (CASE associations), never mixed with the progression edges.
	PublisherAdded   []publisherEdge `json:"publisherRelationsAdded"`
	PublisherRemoved []publisherEdge `json:"publisherRelationsRemoved"`
}

// fieldChange is one rights, profile or metadata field that differs ("" is
// an absent value).
type fieldChange struct {
	Field string `json:"field"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

// reorder is a parent whose children changed order. Old and New list the
// children present on both sides, each in its snapshot's curriculum order;
// OldBasis and NewBasis say what each order rests on (publisher, code,
// statement_numbers, identifier, or file for an image that did not record
// it).
type reorder struct {
	Parent   nodeRef   `json:"parent"`
	OldBasis string    `json:"oldBasis"`
	NewBasis string    `json:"newBasis"`
	Old      []nodeRef `json:"old"`
	New      []nodeRef `json:"new"`
}

// publisherEdge is one publisher-asserted relation: its CASE association
// type, each end inside the snapshot (Source, Target) or outside it as the
// publisher names it (SourceExternal, TargetExternal), and its sequence
// number.
type publisherEdge struct {
	Type           string       `json:"type"`
	Source         *nodeRef     `json:"source,omitempty"`
	SourceExternal *externalRef `json:"sourceExternal,omitempty"`
	Target         *nodeRef     `json:"target,omitempty"`
	TargetExternal *externalRef `json:"targetExternal,omitempty"`
	Sequence       *int64       `json:"sequenceNumber,omitempty"`
}

// side identifies one compared snapshot.
type side struct {
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

// summary counts the changes by kind. A changed standard counts once in
// StandardsChanged and once per kind of change it has.
type summary struct {
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

// matchCounts counts the standards paired by each key (learning components
// are paired by node ID only).
type matchCounts struct {
	NodeID        int `json:"nodeId"`
	CaseUUID      int `json:"caseUuid"`
	StatementCode int `json:"statementCode"`
}

// standard is one standards item as a report shows it. Statement is present
// for added and removed standards and for both sides of a reworded one, when
// the snapshot can supply statements (Load's can).
type standard struct {
	ID        string    `json:"id"`
	CaseUUID  string    `json:"caseUuid,omitempty"`
	Code      string    `json:"statementCode,omitempty"`
	Type      string    `json:"statementType,omitempty"`
	Grades    []string  `json:"grades"`
	Parents   []nodeRef `json:"parents"`
	Statement *string   `json:"statement,omitempty"`
}

// nodeRef names a node: its ID and statement code, or the framework root.
// Statement is given for the ends of the edges a report lists.
type nodeRef struct {
	ID        string  `json:"id"`
	Code      string  `json:"statementCode,omitempty"`
	Root      bool    `json:"root,omitempty"`
	Statement *string `json:"statement,omitempty"`
}

// change is a standard present in both snapshots that changed.
type change struct {
	// MatchedBy is the key that paired the two: nodeId, caseUuid or
	// statementCode.
	MatchedBy string   `json:"matchedBy"`
	Changes   []string `json:"changes"`
	Old       standard `json:"old"`
	New       standard `json:"new"`
	// StatementDiff is the word-level diff of a reworded statement.
	StatementDiff []wordOp `json:"statementDiff,omitempty"`
}

// component is one learning component as a report shows it.
type component struct {
	ID        string  `json:"id"`
	Statement *string `json:"statement,omitempty"`
}

// componentChange is a learning component whose statement changed.
type componentChange struct {
	ID            string   `json:"id"`
	Old           *string  `json:"oldStatement,omitempty"`
	New           *string  `json:"newStatement,omitempty"`
	StatementDiff []wordOp `json:"statementDiff,omitempty"`
}

// graphEdge is a supports edge (learning component → standard) or a
// progression edge between two standards: buildsTowards, or relatesTo (its
// endpoints in export order: the edge is undirected).
type graphEdge struct {
	Type   string  `json:"type"`
	Source nodeRef `json:"source"`
	Target nodeRef `json:"target"`
	// Confidence is a supports edge's supportConfidence (the new one, for a
	// rescored edge); OldConfidence the old one of a rescored edge.
	Confidence    *float64 `json:"supportConfidence,omitempty"`
	OldConfidence *float64 `json:"oldSupportConfidence,omitempty"`
}

// edgeTypeName spells a progression edge type.
func edgeTypeName(t uint8) string {
	switch t {
	case edgeRelatesTo:
		return "relatesTo"
	case edgeSupports:
		return "supports"
	}
	return "buildsTowards"
}
