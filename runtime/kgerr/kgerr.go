// Package kgerr is the server's domain error: a stable snake_case code from the
// contract (docs/reference/errors.md), a message, and an optional recovery hint. Its text
// form is "<code>: <message>" or "<code>: <message> Next action: <hint>".
package kgerr

import (
	"errors"
	"fmt"
)

// The codes the server uses (docs/reference/errors.md explains each).
const (
	AmbiguousFramework          = "ambiguous_framework"
	AmbiguousGraphNode          = "ambiguous_graph_node"
	CapabilityUnavailable       = "capability_unavailable"
	CatalogError                = "catalog_error"
	EvidenceResultTooLarge      = "evidence_result_too_large"
	FrameworkNotFound           = "framework_not_found"
	GraphNodeNotFound           = "graph_node_not_found"
	InternalError               = "internal_error"
	InvalidComparisonSelection  = "invalid_comparison_selection"
	InvalidCursor               = "invalid_cursor"
	InvalidEvidenceURI          = "invalid_evidence_uri"
	InvalidProgressionRequest   = "invalid_progression_request"
	LearningComponentNotFound   = "learning_component_not_found"
	LearningProgressionNotFound = "learning_progression_not_found"
	ProgressionResultTooLarge   = "progression_result_too_large"
	PromptAccessDenied          = "prompt_access_denied"
	PromptConfigurationError    = "prompt_configuration_error"
	PromptRenderingError        = "prompt_rendering_error"
	ResourceAccessDenied        = "resource_access_denied"
	ResourceNotFound            = "resource_not_found"
	// ResultTooLarge is kgmcp's own (beyond the contract's codes): a result over the 1 MiB
	// envelope ceiling that has no list to cut.
	ResultTooLarge            = "result_too_large"
	StandardNotFound          = "standard_not_found"
	UnsupportedEvidenceFormat = "unsupported_evidence_format"
	UnsupportedSearchMode     = "unsupported_search_mode"
	// WorkflowInstructionsTooLarge is a workflow render whose envelope breaks
	// 1 MiB or 100,000 characters.
	WorkflowInstructionsTooLarge = "workflow_instructions_too_large"
)

// Error is a domain error.
type Error struct {
	Code    string
	Message string
	Hint    string
}

func (e *Error) Error() string {
	if e.Hint != "" {
		return e.Code + ": " + sentence(e.Message) + " Next action: " + sentence(e.Hint)
	}
	return e.Code + ": " + e.Message
}

// sentence ends s with a full stop unless it already ends a sentence, so that
// "Next action" starts a sentence of its own.
func sentence(s string) string {
	if s == "" {
		return s
	}
	switch s[len(s)-1] {
	case '.', '!', '?':
		return s
	}
	return s + "."
}

// New makes a domain error.
func New(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithHint adds a recovery hint.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// CodeOf returns the code of a domain error, or "" for any other error.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
