package manifest

import (
	"fmt"
	"sort"
)

// Built-in artifact logical names (docs/reference/package-format.md).
const (
	Nodes                        = "nodes"
	Relationships                = "relationships"
	AcademicStandardsBundle      = "academicStandardsBundle"
	EntityProvenance             = "entityProvenance"
	LearningComponentDedupGroups = "learningComponentDedupGroups"
	LearningComponentProvenance  = "learningComponentProvenance"
	LearningComponentSummary     = "learningComponentSummary"
	LearningComponentsBundle     = "learningComponentsBundle"
	RelationshipsHasChild        = "relationshipsHasChild"
	StandardsFramework           = "standardsFramework"
	StandardsFrameworkItems      = "standardsFrameworkItems"
	UnresolvedItems              = "unresolvedItems"
	// PublisherRelations are the publisher-asserted relations (CASE
	// associations other than isChildOf): delivery/publisher_relations.jsonl.
	PublisherRelations            = "publisherRelations"
	ValidationReport              = "validationReport"
	LPBuildsTowards               = "learningProgressionBuildsTowards"
	LPFinalClaims                 = "learningProgressionFinalClaims"
	LPNormalization               = "learningProgressionNormalization"
	LPProvenance                  = "learningProgressionProvenance"
	LPProvenanceIndex             = "learningProgressionProvenanceIndex"
	LPRelatesTo                   = "learningProgressionRelatesTo"
	LPSummary                     = "learningProgressionSummary"
	LPUnresolved                  = "learningProgressionUnresolved"
	LPValidation                  = "learningProgressionValidation"
	additionalArtifactsMemberName = "additionalArtifacts"
)

// ShardCount is the number of learning-progression provenance partitions.
const ShardCount = 64

// BuiltinNames lists every built-in artifact name, sorted.
var BuiltinNames = sortedCopy([]string{
	Nodes, Relationships, AcademicStandardsBundle, EntityProvenance,
	LearningComponentDedupGroups, LearningComponentProvenance, LearningComponentSummary,
	LearningComponentsBundle, RelationshipsHasChild, StandardsFramework,
	StandardsFrameworkItems, UnresolvedItems, ValidationReport, PublisherRelations,
	LPBuildsTowards, LPFinalClaims, LPNormalization, LPProvenance, LPProvenanceIndex,
	LPRelatesTo, LPSummary, LPUnresolved, LPValidation,
})

// lpNames lists the nine learning-progression artifact names, sorted.
var lpNames = sortedCopy([]string{
	LPBuildsTowards, LPFinalClaims, LPNormalization, LPProvenance, LPProvenanceIndex,
	LPRelatesTo, LPSummary, LPUnresolved, LPValidation,
})

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// IsBuiltin reports whether name is a built-in (reserved) artifact name.
func IsBuiltin(name string) bool {
	i := sort.SearchStrings(BuiltinNames, name)
	return i < len(BuiltinNames) && BuiltinNames[i] == name
}

// IsLP reports whether name is one of the nine learning-progression names.
func IsLP(name string) bool {
	i := sort.SearchStrings(lpNames, name)
	return i < len(lpNames) && lpNames[i] == name
}

// ShardName returns the logical name of provenance shard k (0..63).
func ShardName(k int) string { return fmt.Sprintf("learningProgressionProvenanceShard%02d", k) }

// ShardPath returns the required path of provenance shard k.
func ShardPath(k int) string {
	return fmt.Sprintf("additional/lp_relationship_provenance_shard_%02d.json", k)
}

// ShardIndex returns k when name is a shard logical name.
func ShardIndex(name string) (int, bool) {
	const prefix = "learningProgressionProvenanceShard"
	if len(name) != len(prefix)+2 || name[:len(prefix)] != prefix {
		return 0, false
	}
	a, b := name[len(prefix)], name[len(prefix)+1]
	if a < '0' || a > '9' || b < '0' || b > '9' {
		return 0, false
	}
	k := int(a-'0')*10 + int(b-'0')
	if k >= ShardCount {
		return 0, false
	}
	return k, true
}

// Artifact is one declared artifact.
type Artifact struct {
	Name       string `json:"logicalName"`
	Path       string `json:"path"`
	Additional bool   `json:"additional"`
}

// LPObjectCountKeys are the object counts a learning-progression summary may
// carry (docs/reference/package-format.md#learning-progressions).
var LPObjectCountKeys = []string{
	"accepted_claims", "builds_towards_claims", "builds_towards_relationships", "candidate_pairs",
	"final_claims", "generation_failure_attempts", "identifier_collisions", "needs_review_claims",
	"no_relation_claims", "nonpublishing_claims", "relates_to_claims", "relates_to_relationships",
	"relationship_provenance", "relationships", "requests", "resolved_failure_attempts",
	"unresolved_failed_pairs", "unresolved_warning_pairs",
}
