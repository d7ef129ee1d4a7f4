package query

import "github.com/kgc-project/kgc/runtime/record"

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
	FrameworkSnapshot     = record.FrameworkSnapshot
	PackageSummary        = record.PackageSummary
)
