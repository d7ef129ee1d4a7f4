package manifest

import "github.com/kgc-project/kgc/schema/rights"

// Exposure classes of the closed artifact exposure policy
// (docs/reference/resources.md#artifact-exposure-classes).
type Exposure uint8

// Exposure classes. None means the artifact has no exposure contract and is never
// served (a similar name grants nothing).
const (
	ExposeNone Exposure = iota
	ExposePublicMetadata
	ExposeFullText
	ExposeBulkContent
)

// String names the class as the contract does.
func (e Exposure) String() string {
	switch e {
	case ExposePublicMetadata:
		return "public_metadata"
	case ExposeFullText:
		return "full_text"
	case ExposeBulkContent:
		return "bulk_content"
	}
	return "none"
}

type exposure struct {
	class Exposure
	mime  string
}

var exposurePolicy = map[string]exposure{
	ValidationReport:             {ExposePublicMetadata, "application/json"},
	LearningComponentSummary:     {ExposePublicMetadata, "application/json"},
	UnresolvedItems:              {ExposeFullText, "application/json"},
	LearningComponentDedupGroups: {ExposeFullText, "application/json"},
	AcademicStandardsBundle:      {ExposeBulkContent, "application/json"},
	EntityProvenance:             {ExposeBulkContent, "application/json"},
	Nodes:                        {ExposeBulkContent, "application/x-ndjson"},
	Relationships:                {ExposeBulkContent, "application/x-ndjson"},
	RelationshipsHasChild:        {ExposeBulkContent, "application/x-ndjson"},
	PublisherRelations:           {ExposeBulkContent, "application/x-ndjson"},
	StandardsFramework:           {ExposeBulkContent, "application/json"},
	StandardsFrameworkItems:      {ExposeBulkContent, "application/x-ndjson"},
	LearningComponentsBundle:     {ExposeBulkContent, "application/json"},
	LearningComponentProvenance:  {ExposeBulkContent, "application/json"},
	LPValidation:                 {ExposePublicMetadata, "application/json"},
	LPProvenanceIndex:            {ExposePublicMetadata, "application/json"},
	LPNormalization:              {ExposePublicMetadata, "application/json"},
	LPUnresolved:                 {ExposeFullText, "application/json"},
	LPBuildsTowards:              {ExposeBulkContent, "application/x-ndjson"},
	LPRelatesTo:                  {ExposeBulkContent, "application/x-ndjson"},
	LPProvenance:                 {ExposeBulkContent, "application/json"},
	LPSummary:                    {ExposeBulkContent, "application/json"},
	LPFinalClaims:                {ExposeBulkContent, "application/json"},
}

// ExposureOf returns an artifact's exposure class and MIME type. Provenance
// shards are bulk content; every other uncontracted name is ExposeNone.
func ExposureOf(name, path string) (Exposure, string) {
	if e, ok := exposurePolicy[name]; ok {
		mime := e.mime
		if len(path) > 6 && path[len(path)-6:] == ".jsonl" {
			mime = "application/x-ndjson"
		}
		return e.class, mime
	}
	if _, ok := ShardIndex(name); ok {
		return ExposeBulkContent, "application/json"
	}
	return ExposeNone, "application/octet-stream"
}

// Allows reports whether rights allow serving an artifact of class e.
func Allows(p rights.Policy, e Exposure) bool {
	switch e {
	case ExposePublicMetadata:
		return true
	case ExposeFullText:
		return p.Reviewed() && p.AllowFullText
	case ExposeBulkContent:
		return p.Reviewed() && p.AllowFullText && p.AllowStandardResources && p.AllowBulkResource
	}
	return false
}
