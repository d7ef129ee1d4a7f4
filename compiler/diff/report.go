package diff

// Kinds of change of a matched standard, in the order a Change lists them.
const (
	ChangeReworded     = "reworded"     // the statement (description) changed
	ChangeRecoded      = "recoded"      // the statement code changed
	ChangeRegraded     = "regraded"     // the grade list changed
	ChangeMoved        = "moved"        // the hasChild parents changed (compared through the matching)
	ChangeReidentified = "reidentified" // the node ID or CASE UUID changed (paired by another key)
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

	StandardsAdded   []Standard `json:"standardsAdded"`
	StandardsRemoved []Standard `json:"standardsRemoved"`
	StandardsChanged []Change   `json:"standardsChanged"`

	ComponentsAdded    []Component       `json:"learningComponentsAdded"`
	ComponentsRemoved  []Component       `json:"learningComponentsRemoved"`
	ComponentsReworded []ComponentChange `json:"learningComponentsReworded"`

	// SupportsAdded and SupportsRemoved are supports edges (learning
	// component → standard).
	SupportsAdded   []GraphEdge `json:"supportsEdgesAdded"`
	SupportsRemoved []GraphEdge `json:"supportsEdgesRemoved"`

	EdgesAdded   []GraphEdge `json:"progressionEdgesAdded"`
	EdgesRemoved []GraphEdge `json:"progressionEdgesRemoved"`
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
	ComponentsAdded    int `json:"learningComponentsAdded"`
	ComponentsRemoved  int `json:"learningComponentsRemoved"`
	ComponentsReworded int `json:"learningComponentsReworded"`
	SupportsAdded      int `json:"supportsEdgesAdded"`
	SupportsRemoved    int `json:"supportsEdgesRemoved"`
	EdgesAdded         int `json:"progressionEdgesAdded"`
	EdgesRemoved       int `json:"progressionEdgesRemoved"`
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
	Grades    []string  `json:"grades"`
	Parents   []NodeRef `json:"parents"`
	Statement *string   `json:"statement,omitempty"`
}

// NodeRef names a node: its ID and statement code, or the framework root.
type NodeRef struct {
	ID   string `json:"id"`
	Code string `json:"statementCode,omitempty"`
	Root bool   `json:"root,omitempty"`
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
