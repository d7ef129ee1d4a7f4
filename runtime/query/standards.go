package query

import (
	"github.com/kgc-project/kgc/runtime/search"
	"github.com/kgc-project/kgc/runtime/standard"
	"github.com/kgc-project/kgc/runtime/stats"
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

// Statistics is get_framework_statistics' count of one package (runtime/stats).
type Statistics = stats.Statistics
