// Package lpsummary defines the public learning-progression summary an image
// stores: the counts, coverage, validation verdict and warning excerpts the
// compiler derives once from a package's progression reports and per-edge
// provenance (docs/reference/resources.md#learning_progressions). The
// compiler builds a Summary; kgimg/lpsummaryfb stores it in the image's
// compiled form.
package lpsummary

import "github.com/kgc-project/kgc/internal/canonjson"

// Summary is the stored learning-progression summary. A nil pointer or slice
// is a value the package's reports do not state.
type Summary struct {
	// ObjectCounts are the progression reports' object_counts.
	ObjectCounts ObjectCounts
	// EligibleSfisPerRelationship is the summary report's
	// eligible_sfis_per_relationship, well-formed rows only.
	EligibleSfisPerRelationship []RelationshipCount
	// ExclusionReasonCounts is the summary report's exclusion_reason_counts,
	// well-formed rows only.
	ExclusionReasonCounts []ExclusionCount

	TotalSfisConsidered *int64
	TotalSfisEligible   *int64
	TotalSfisExcluded   *int64

	// The validation report's verdict and claims.
	ValidationPassed                  *bool
	SemanticValidationPerformed       *bool
	PedagogicalCorrectnessEstablished *bool
	// SemanticScopeNotice is the validation report's notice, or DefaultScopeNotice.
	SemanticScopeNotice string

	// The validation report's warnings: how many, and at most MaxWarningExcerpts
	// of them cut to MaxWarningExcerptChars characters.
	ValidationWarningCount      int64
	ValidationWarningExcerpts   []string
	ValidationWarningsExcerpted bool
	ValidationWarningsOmitted   int64

	// UnresolvedClaimCount and UnresolvedSfiCount: the unresolved report's
	// claims and the distinct standards they name (nil without the report).
	UnresolvedClaimCount *int64
	UnresolvedSfiCount   *int64

	// Per-edge judgment warnings in the stored provenance: how many, and on how
	// many relationships.
	RelationshipWarningCount       int64
	RelationshipsWithWarningsCount int64
}

// Excerpt bounds of the validation warnings a summary keeps.
const (
	MaxWarningExcerpts     = 5
	MaxWarningExcerptChars = 512
)

// DefaultScopeNotice is the semantic scope notice of a package whose
// validation report states none.
const DefaultScopeNotice = "Validation covers structural and process integrity only; it does not establish pedagogical correctness."

// RelationshipCount is a [label, count] row: how many standards are eligible
// for relationships of one label. It is encoded as a two-element JSON array.
type RelationshipCount struct {
	Label string // buildsTowards or relatesTo
	Count int64
}

// MarshalJSON encodes the row as [label, count].
func (r RelationshipCount) MarshalJSON() ([]byte, error) {
	return canonjson.Marshal([]any{r.Label, r.Count})
}

// ExclusionCount is a [label, reason, count] row: how many standards were
// excluded from relationships of one label for one reason. It is encoded as a
// three-element JSON array.
type ExclusionCount struct {
	Label  string
	Reason string
	Count  int64
}

// MarshalJSON encodes the row as [label, reason, count].
func (r ExclusionCount) MarshalJSON() ([]byte, error) {
	return canonjson.Marshal([]any{r.Label, r.Reason, r.Count})
}

// ObjectCounts are the progression reports' object counts
// (manifest.LPObjectCountKeys), each nil when the reports do not state it.
type ObjectCounts struct {
	AcceptedClaims             *int64 `json:"accepted_claims"`
	BuildsTowardsClaims        *int64 `json:"builds_towards_claims"`
	BuildsTowardsRelationships *int64 `json:"builds_towards_relationships"`
	CandidatePairs             *int64 `json:"candidate_pairs"`
	FinalClaims                *int64 `json:"final_claims"`
	GenerationFailureAttempts  *int64 `json:"generation_failure_attempts"`
	IdentifierCollisions       *int64 `json:"identifier_collisions"`
	NeedsReviewClaims          *int64 `json:"needs_review_claims"`
	NoRelationClaims           *int64 `json:"no_relation_claims"`
	NonpublishingClaims        *int64 `json:"nonpublishing_claims"`
	RelatesToClaims            *int64 `json:"relates_to_claims"`
	RelatesToRelationships     *int64 `json:"relates_to_relationships"`
	RelationshipProvenance     *int64 `json:"relationship_provenance"`
	Relationships              *int64 `json:"relationships"`
	Requests                   *int64 `json:"requests"`
	ResolvedFailureAttempts    *int64 `json:"resolved_failure_attempts"`
	UnresolvedFailedPairs      *int64 `json:"unresolved_failed_pairs"`
	UnresolvedWarningPairs     *int64 `json:"unresolved_warning_pairs"`
}

// Field returns the count named key (one of manifest.LPObjectCountKeys), or
// nil for any other key.
func (c *ObjectCounts) Field(key string) **int64 {
	switch key {
	case "accepted_claims":
		return &c.AcceptedClaims
	case "builds_towards_claims":
		return &c.BuildsTowardsClaims
	case "builds_towards_relationships":
		return &c.BuildsTowardsRelationships
	case "candidate_pairs":
		return &c.CandidatePairs
	case "final_claims":
		return &c.FinalClaims
	case "generation_failure_attempts":
		return &c.GenerationFailureAttempts
	case "identifier_collisions":
		return &c.IdentifierCollisions
	case "needs_review_claims":
		return &c.NeedsReviewClaims
	case "no_relation_claims":
		return &c.NoRelationClaims
	case "nonpublishing_claims":
		return &c.NonpublishingClaims
	case "relates_to_claims":
		return &c.RelatesToClaims
	case "relates_to_relationships":
		return &c.RelatesToRelationships
	case "relationship_provenance":
		return &c.RelationshipProvenance
	case "relationships":
		return &c.Relationships
	case "requests":
		return &c.Requests
	case "resolved_failure_attempts":
		return &c.ResolvedFailureAttempts
	case "unresolved_failed_pairs":
		return &c.UnresolvedFailedPairs
	case "unresolved_warning_pairs":
		return &c.UnresolvedWarningPairs
	}
	return nil
}
