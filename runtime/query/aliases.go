package query

import (
	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/runtime/compare"
	"github.com/kgc-project/kgc/runtime/progression"
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/resource"
	"github.com/kgc-project/kgc/runtime/search"
	"github.com/kgc-project/kgc/runtime/standard"
	"github.com/kgc-project/kgc/runtime/stats"
)

// The answers are built one floor down, each beside the engine or records
// it reads (ARCHITECTURE.md); the names below keep them part of this
// package's API, so an embedder needs only runtime/query.

// Schema is the subset of JSON Schema the tool inputs are written in
// (internal/jsonschema): published in tools/list and enforced on every call.
type Schema = jsonschema.Schema

// Selector names one standard exactly (docs/reference/tools.md#get_standard),
// discriminated by IdentifierType: node_id, case_identifier_uuid,
// case_identifier_uri and, for the progression tools, statement_code. Only
// the field the type names is set.
type Selector = standard.Selector

// InputError is an argument the tool's input schema refuses.
type InputError = jsonschema.InputError

// The records answers are made of live in runtime/record; these names keep
// them part of this package's API.
type (
	NodeCommon            = record.NodeCommon
	StandardNode          = record.StandardNode
	FrameworkName         = record.FrameworkName
	LearningComponentNode = record.LearningComponentNode
	GraphRelationship     = record.GraphRelationship
	FacetEvidence         = record.FacetEvidence
	PackageIdentity       = record.PackageIdentity
	PackageRef            = record.PackageRef
	SourceMetadata        = record.SourceMetadata
	Capabilities          = record.Capabilities
	Catalog               = record.Catalog
	Counts                = record.Counts
	Framework             = record.Framework
	PackageCapabilities   = record.PackageCapabilities
	SearchIndex           = record.SearchIndex
	FrameworkSnapshot     = record.FrameworkSnapshot
	PackageSummary        = record.PackageSummary
)

// The answers about one node are built by runtime/standard; these names keep
// them part of this package's API.
type (
	StandardResult           = standard.StandardResult
	Location                 = standard.Location
	ContextResult            = standard.ContextResult
	ComponentResult          = standard.ComponentResult
	ComponentContextResult   = standard.ComponentContextResult
	SupportedStandard        = standard.SupportedStandard
	StandardComponentsResult = standard.StandardComponentsResult
	PublisherRelationsResult = standard.PublisherRelationsResult
	PublisherRelation        = standard.PublisherRelation
	EndStandard              = standard.EndStandard
)

// PublisherNotice opens every list of publisher-asserted relations.
const PublisherNotice = standard.PublisherNotice

// The hits of the search tools are built by runtime/search.
type (
	StandardHit   = search.StandardHit
	ComponentHit  = search.ComponentHit
	SearchWarning = search.SearchWarning
	// SearchSuggestion is a call that finds more than a search did.
	SearchSuggestion = search.SearchSuggestion
)

// The parts of a comparison that rest on the packages are built by
// runtime/compare.
type (
	ComparisonSection = compare.ComparisonSection
	ComparisonMatch   = compare.ComparisonMatch
	ComparisonWarning = compare.ComparisonWarning
)

// ResourceMetadata identifies a resource read (runtime/resource).
type ResourceMetadata = resource.ResourceMetadata

// Statistics is get_framework_statistics' count of one package (runtime/stats).
type Statistics = stats.Statistics

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
