package query

import "github.com/kgc-project/kgc/runtime/progression"

// The result types of the learning-progression tools live in
// runtime/progression, beside the engine that fills them; these names keep
// them part of this package's API.
type (
	ProgressionEvidence     = progression.ProgressionEvidence
	ProgressionMetadata     = progression.ProgressionMetadata
	ProgressionLimits       = progression.ProgressionLimits
	ArtifactEntry           = progression.ArtifactEntry
	CoverageProjection      = progression.CoverageProjection
	ProgressionStandard     = progression.ProgressionStandard
	ProgressionRelationship = progression.ProgressionRelationship
	Judgment                = progression.Judgment
	ProgressionCollection   = progression.ProgressionCollection
	Connection              = progression.Connection
	EndpointMatch           = progression.EndpointMatch
	ProgressionFilters      = progression.ProgressionFilters
	CollectionPage          = progression.CollectionPage
	ProgressionEdgeResult   = progression.ProgressionEdgeResult
	TraversalResult         = progression.TraversalResult
	NodeDepth               = progression.NodeDepth
	FrontierEntry           = progression.FrontierEntry
	TraversalCounters       = progression.TraversalCounters
	PathsResult             = progression.PathsResult
	ProgressionPath         = progression.ProgressionPath
	PathCounters            = progression.PathCounters
	PathFrontier            = progression.PathFrontier
	ProgressionSummary      = progression.ProgressionSummary
)
