package progression

import (
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/schema/lpsummary"
)

// The result types of the learning-progression tools
// (docs/reference/tools.md#get_learning_progression and the four after it).
// Every result is an evidence base (ProgressionEvidence) and the tool's own
// fields.

// ProgressionEvidence is what every progression result carries: the echoed
// request (its effective form, snapshot pinned), the package's progression
// metadata, and the endpoint summaries and edge rows the result refers to,
// each once, ordered by ID.
type ProgressionEvidence struct {
	ContinuationNotice string                    `json:"continuationNotice"`
	Metadata           *ProgressionMetadata      `json:"metadata"`
	Nodes              []ProgressionStandard     `json:"nodes"`
	Relationships      []ProgressionRelationship `json:"relationships"`
	Request            map[string]any            `json:"request"`
}

// ProgressionMetadata describes a package's progressions: where they come
// from, what they cover, and the limits and notices that frame them.
type ProgressionMetadata struct {
	ArtifactInventoryNotice  string             `json:"artifactInventoryNotice"`
	Artifacts                []ArtifactEntry    `json:"artifacts"`
	Coverage                 CoverageProjection `json:"coverage"`
	GeneratedOriginNotice    string             `json:"generatedOriginNotice"`
	Limits                   ProgressionLimits  `json:"limits"`
	ManifestSha256           string             `json:"manifestSha256"`
	ManifestURI              string             `json:"manifestUri"`
	Package                  record.PackageRef  `json:"package"`
	SemanticNotice           string             `json:"semanticNotice"`
	StoredBuildsTowardsCount int                `json:"storedBuildsTowardsCount"`
	StoredRelatesToCount     int                `json:"storedRelatesToCount"`
	SummaryURI               string             `json:"summaryUri"`
	UnresolvedURI            *string            `json:"unresolvedUri"`
	ValidationURI            *string            `json:"validationUri"`
}

// ProgressionLimits are the fixed ceilings of progression results.
type ProgressionLimits struct {
	MaxResultBytes                int `json:"maxResultBytes"`
	MaxStatementExcerptCharacters int `json:"maxStatementExcerptCharacters"`
}

// ArtifactEntry names a declared artifact, its checksum and its resource.
type ArtifactEntry struct {
	LogicalName string `json:"logicalName"`
	Sha256      string `json:"sha256"`
	URI         string `json:"uri"`
}

// CoverageProjection is what the package's progression summary records about
// coverage (nil where the summary states nothing, or the package has no
// progressions).
type CoverageProjection struct {
	EligibleSfisPerRelationship []lpsummary.RelationshipCount `json:"eligibleSfisPerRelationship"`
	ExclusionReasonCounts       []lpsummary.ExclusionCount    `json:"exclusionReasonCounts"`
	NeedsReviewClaims           *int64                        `json:"needsReviewClaims"`
	NoRelationClaims            *int64                        `json:"noRelationClaims"`
	SemanticScopeNotice         string                        `json:"semanticScopeNotice"`
	TotalSfisConsidered         *int64                        `json:"totalSfisConsidered"`
	TotalSfisEligible           *int64                        `json:"totalSfisEligible"`
	TotalSfisExcluded           *int64                        `json:"totalSfisExcluded"`
	UnresolvedParticipation     *int64                        `json:"unresolvedParticipation"`
	UnresolvedSfisCounts        *int64                        `json:"unresolvedSfisCounts"`
	UnresolvedWarningPairs      *int64                        `json:"unresolvedWarningPairs"`
	ValidationWarningCount      *int64                        `json:"validationWarningCount"`
	ValidationWarningExcerpts   []string                      `json:"validationWarningExcerpts"`
	ValidationWarningsExcerpted *bool                         `json:"validationWarningsExcerpted"`
	ValidationWarningsOmitted   *int64                        `json:"validationWarningsOmitted"`
}

// ProgressionStandard is a ProgressionStandardSummary: an endpoint standard
// with its facets and a bounded statement excerpt.
type ProgressionStandard struct {
	CaseIdentifierURI  *string              `json:"caseIdentifierUri"`
	CaseIdentifierUUID *string              `json:"caseIdentifierUuid"`
	Facets             record.FacetEvidence `json:"facets"`
	NodeID             string               `json:"nodeId"`
	StandardURI        string               `json:"standardUri"`
	StatementCode      *string              `json:"statementCode"`
	StatementExcerpt   *string              `json:"statementExcerpt"`
	StatementExcerpted bool                 `json:"statementExcerpted"`
	StatementType      *string              `json:"statementType"`
}

// ProgressionRelationship is a ProgressionRelationshipEvidence row: a stored
// edge, the generating model's judgment and where its provenance is.
type ProgressionRelationship struct {
	EpistemicStatus string                   `json:"epistemicStatus" enum:"llm_inferred"`
	Judgment        *Judgment                `json:"judgment"`
	ProvenanceURI   *string                  `json:"provenanceUri"`
	Relationship    record.GraphRelationship `json:"relationship"`
	RelationshipURI string                   `json:"relationshipUri"`
}

// Judgment projects an edge's stored provenance judgment, excerpted.
type Judgment struct {
	Confidence         *float64 `json:"confidence"`
	ConfidenceNotice   string   `json:"confidenceNotice"`
	RationaleExcerpt   *string  `json:"rationaleExcerpt"`
	RationaleExcerpted bool     `json:"rationaleExcerpted"`
	RelationshipID     string   `json:"relationshipId"`
	WarningCount       int      `json:"warningCount"`
	WarningExcerpts    []string `json:"warningExcerpts"`
	WarningsExcerpted  bool     `json:"warningsExcerpted"`
	WarningsOmitted    int      `json:"warningsOmitted"`
}

// ProgressionCollection is a page of get_standard_progressions or
// search_learning_progressions.
type ProgressionCollection struct {
	ProgressionEvidence
	Connections             []Connection       `json:"connections"`
	EndpointScope           string             `json:"endpointScope"`
	Filters                 ProgressionFilters `json:"filters"`
	Page                    CollectionPage     `json:"page"`
	ResolvedStandardNodeIDs []string           `json:"resolvedStandardNodeIds"`
	// NearbyNotice (beyond the contract; absent unless the answer is empty
	// for one standard) says that no stored edge touches the standard and
	// which standards below or beside it have edges.
	NearbyNotice string `json:"nearbyNotice,omitempty"`
}

// Connection is one edge of a collection and how its endpoints matched.
type Connection struct {
	ConnectionKind *string       `json:"connectionKind" enum:"incoming_builds,outgoing_builds,related"` // nil: a buildsTowards edge when no standard is selected
	RelationshipID string        `json:"relationshipId"`
	SourceMatch    EndpointMatch `json:"sourceMatch"`
	TargetMatch    EndpointMatch `json:"targetMatch"`
}

// EndpointMatch is the requested facet values an endpoint matched.
type EndpointMatch struct {
	LocalGradeLabels         []string `json:"localGradeLabels"`
	Matches                  bool     `json:"matches"`
	NodeID                   string   `json:"nodeId"`
	NormalizedGrades         []string `json:"normalizedGrades"`
	NormalizedStatementTypes []string `json:"normalizedStatementTypes"`
	SelectedStandard         bool     `json:"selectedStandard"`
	StatementTypes           []string `json:"statementTypes"`
}

// ProgressionFilters are a collection's normalized facet filters.
type ProgressionFilters struct {
	LocalGradeLabels         []string `json:"localGradeLabels"`
	NormalizedGrades         []string `json:"normalizedGrades"`
	NormalizedStatementTypes []string `json:"normalizedStatementTypes"`
	StatementTypes           []string `json:"statementTypes"`
}

// CollectionPage says how far a collection page got and how to go on: pass
// NextRequest back unchanged.
type CollectionPage struct {
	CandidateCount           int            `json:"candidateCount"`
	ExaminedCount            int            `json:"examinedCount"`
	HasMore                  bool           `json:"hasMore"`
	IsComplete               bool           `json:"isComplete"`
	MaxExaminedRelationships int            `json:"maxExaminedRelationships"`
	NextCursor               *string        `json:"nextCursor"`
	NextRequest              map[string]any `json:"nextRequest"`
	ReturnedCount            int            `json:"returnedCount"`
	StoppingReason           *string        `json:"stoppingReason"` // page_limit, work_limit, byte_limit, or nil
	TotalMatchingCount       *int           `json:"totalMatchingCount"`
}

// ProgressionEdgeResult is get_learning_progression's result: one stored edge
// with its endpoints.
type ProgressionEdgeResult = ProgressionEvidence

// TraversalResult is traverse_learning_progressions' result: a bounded
// breadth-first walk over buildsTowards edges, with no cursor.
type TraversalResult struct {
	ProgressionEvidence
	Counters          TraversalCounters `json:"counters"`
	Distances         []NodeDepth       `json:"distances"`
	EpistemicStatus   string            `json:"epistemicStatus" enum:"deterministic_derived"`
	Frontier          []FrontierEntry   `json:"frontier"`
	GraphExhausted    bool              `json:"graphExhausted"`
	OriginNodeID      string            `json:"originNodeId"`
	ScopeComplete     bool              `json:"scopeComplete"`
	TraversalNotice   string            `json:"traversalNotice"`
	TruncationReasons []string          `json:"truncationReasons"` // depth_limit, node_limit, edge_limit, work_limit, byte_limit
	// NearbyNotice (beyond the contract; absent unless the origin has no
	// stored edge) says which standards below or beside it have edges.
	NearbyNotice string `json:"nearbyNotice,omitempty"`
}

// NodeDepth is a node reached by a walk and its least number of hops.
type NodeDepth struct {
	Depth  int    `json:"depth"`
	NodeID string `json:"nodeId"`
}

// FrontierEntry is a returned node with edges the bounds left unfollowed.
type FrontierEntry struct {
	Depth                         int    `json:"depth"`
	DepthLimitedRelationshipCount int    `json:"depthLimitedRelationshipCount"`
	NodeID                        string `json:"nodeId"`
	PendingRelationshipCount      int    `json:"pendingRelationshipCount"`
}

// TraversalCounters count a walk's work.
type TraversalCounters struct {
	DepthFrontierExaminedRelationshipCount int `json:"depthFrontierExaminedRelationshipCount"`
	ExaminedRelationshipCount              int `json:"examinedRelationshipCount"`
	FullyExaminedNodeCount                 int `json:"fullyExaminedNodeCount"`
	MaxExaminedRelationships               int `json:"maxExaminedRelationships"`
	ReturnedNodeCount                      int `json:"returnedNodeCount"`
	ReturnedRelationshipCount              int `json:"returnedRelationshipCount"`
}

// PathsResult is get_learning_progression_paths' result: directed simple
// buildsTowards paths, shortest first, with no cursor.
type PathsResult struct {
	ProgressionEvidence
	Counters        PathCounters `json:"counters"`
	EpistemicStatus string       `json:"epistemicStatus" enum:"deterministic_derived"`
	Frontier        PathFrontier `json:"frontier"`
	GraphExhausted  bool         `json:"graphExhausted"`
	// NextUnreturnedPath names the first path that did not fit the size
	// ceiling; null when every selected path was returned.
	NextUnreturnedPath *ProgressionPath  `json:"nextUnreturnedPath"`
	PathNotice         string            `json:"pathNotice"`
	Paths              []ProgressionPath `json:"paths"`
	ScopeComplete      bool              `json:"scopeComplete"`
	SourceNodeID       string            `json:"sourceNodeId"`
	TargetNodeID       string            `json:"targetNodeId"`
	TruncationReasons  []string          `json:"truncationReasons"` // depth_limit, path_limit, work_limit, queue_limit, byte_limit
}

// ProgressionPath is one path: its nodes and edges in order.
type ProgressionPath struct {
	NodeIDs         []string `json:"nodeIds"`
	RelationshipIDs []string `json:"relationshipIds"`
}

// PathCounters count a path search's work.
type PathCounters struct {
	DepthFrontierExaminedRelationshipCount int `json:"depthFrontierExaminedRelationshipCount"`
	EnqueuedStateCount                     int `json:"enqueuedStateCount"`
	ExaminedRelationshipCount              int `json:"examinedRelationshipCount"`
	PeakQueueStateCount                    int `json:"peakQueueStateCount"`
	ReturnedPathCount                      int `json:"returnedPathCount"`
}

// PathFrontier is what a path search left unexplored.
type PathFrontier struct {
	DepthLimitedExtensionCount int `json:"depthLimitedExtensionCount"`
	PendingAdjacencyCount      int `json:"pendingAdjacencyCount"`
	QueuedStateCount           int `json:"queuedStateCount"`
}
