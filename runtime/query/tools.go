package query

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/runtime/kgerr"
)

// Tool is one tool of the surface: its request schema (the `request` object,
// or nil for a tool without arguments), its result's top-level keys, and what
// answers it.
type Tool struct {
	Name, Title, Description string
	Request                  *Schema
	RequestRequired          bool
	// Flat tools also accept the request's fields as the arguments themselves,
	// without the request wrapper (compare_framework_evidence, §2.B12).
	Flat       bool
	OutputKeys []string
	handler
	input *Schema
}

// ResultType is the Go type of the tool's result (OutputSchema describes it).
func (t *Tool) ResultType() reflect.Type { return t.result }

// InputSchema is the published schema of the tool's arguments: an object
// holding the request (surface.md §2.A1). A Flat tool also takes the
// request's fields as the arguments themselves, but publishes only the
// wrapped form: a top-level anyOf without properties is refused by some
// clients (the AI SDK) and shown as taking no arguments by others.
func (t *Tool) InputSchema() *Schema { return t.wrapped() }

// wrapped is the schema Call validates with: the object holding the request.
func (t *Tool) wrapped() *Schema {
	if t.input != nil {
		return t.input
	}
	if t.Request == nil {
		return object(map[string]*Schema{})
	}
	t.Request.compile()
	var req []string
	if t.RequestRequired {
		req = []string{"request"}
	}
	return object(map[string]*Schema{"request": t.Request}, req...)
}

// Tools returns every tool, in registration order.
func (s *Service) Tools() []Tool { return s.tools }

// ErrUnknownTool is returned by Call for a name no tool has.
var ErrUnknownTool = errors.New("query: unknown tool")

// Call validates a tool's arguments (the JSON object holding `request`)
// strictly against its input schema and answers it. The result is a value to
// encode canonically, or a *Paged; errors are *InputError (bad arguments),
// *kgerr.Error (the contract's domain errors) or internal failures.
func (s *Service) Call(ctx context.Context, name string, args json.RawMessage) (any, error) {
	var t *Tool
	for i := range s.tools {
		if s.tools[i].Name == name {
			t = &s.tools[i]
		}
	}
	if t == nil {
		return nil, ErrUnknownTool
	}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	v, errs := jsonv.Parse(args)
	if v == nil || len(errs) > 0 {
		return nil, &InputError{msg: "arguments are not a valid JSON object"}
	}
	if t.Flat && v.Kind == jsonv.Object && v.Get("request") == nil && len(v.Obj) > 0 {
		// The flat form: the arguments are the request.
		v = &jsonv.Value{Kind: jsonv.Object, Obj: []jsonv.Member{{Key: "request", Val: v}}}
	}
	if err := t.input.validate(v, ""); err != nil {
		return nil, err
	}
	// An absent request is the empty one, defaults and all (a tool whose
	// request is required was refused above).
	raw := json.RawMessage("{}")
	if t.Request != nil {
		rv := v.Get("request")
		if rv == nil || rv.Kind != jsonv.Object {
			rv = &jsonv.Value{Kind: jsonv.Object}
		}
		raw = canonjson.Encode(t.Request.withDefaults(rv))
	}
	out, err := t.run(ctx, raw)
	if err != nil {
		return nil, t.explain(err)
	}
	if p, ok := out.(*Paged); ok {
		p.Defaults = t.Request.defaultsFor(p.Request)
	}
	return out, err
}

// explain gives a domain error the recovery hint of this tool: an
// ambiguous_framework names the field the tool pins a snapshot with.
func (t *Tool) explain(err error) error {
	var e *kgerr.Error
	if !errors.As(err, &e) || e.Code != kgerr.AmbiguousFramework || t.Request == nil {
		return err
	}
	field := "request.snapshotId"
	if t.Request.hasProperty("snapshotIds") {
		field = "request.snapshotIds"
	}
	c := *e
	c.Hint = "name one of these snapshots in " + field + " (list_frameworks lists every snapshot)"
	return &c
}

// toolTable lists every tool, in one place.
func (s *Service) toolTable() []Tool {
	return []Tool{
		{Name: "get_capabilities", Title: "Server and package capabilities",
			Description: "Server-wide and per-package implemented capabilities: tools, resources, search modes, rights, counts.",
			OutputKeys:  []string{"serverName", "toolNames", "packages"}, handler: handler{run: func(ctx context.Context, _ json.RawMessage) (any, error) { return s.Capabilities(ctx) },
				result: reflect.TypeFor[*CapabilitiesResult]()}},
		{Name: "list_frameworks", Title: "List accepted frameworks",
			Description: "Filtered, cursor-paged list of accepted framework snapshots ordered by (frameworkId, snapshotId).",
			Request:     listFrameworksSchema(), OutputKeys: []string{"catalogSha256", "items", "returnedCount", "totalMatchingCount", "hasMore", "nextCursor"},
			handler: pagedRun[ListFrameworksRequest, *FrameworkList](s.listFrameworks)},
		{Name: "get_framework", Title: "Get one framework snapshot",
			Description: "One exact snapshot (frameworkId + snapshotId) or the framework's unique current snapshot.",
			Request:     frameworkRequestSchema(false), RequestRequired: true, OutputKeys: []string{"framework"}, handler: typedRun(s.getFramework)},
		{Name: "get_framework_statistics", Title: "Structural statistics of a package",
			Description: "Counts of one package: hierarchy shape, grades, statement types, codes, multi-parent, unresolved edges; learning components and progressions reported separately.",
			Request:     frameworkRequestSchema(true), RequestRequired: true, OutputKeys: []string{"package", "sourceMetadata", "statistics"},
			handler: typedRun(s.frameworkStatistics)},
		{Name: "search_standards", Title: "Search standards",
			Description: "Lexical (text), exact-code (code_exact) or delimiter-bounded prefix-code (code_prefix) search over standards, filtered by grade, subject and statement type, ranked deterministically and cursor-paged. Hits are retrieval candidates, not alignments.",
			Request:     searchStandardsSchema(), RequestRequired: true, OutputKeys: []string{"effectiveScope", "selectedSnapshots", "page"},
			handler: pagedRun[StandardSearchRequest, *SearchResult[StandardHit]](s.searchStandards)},
		{Name: "get_standard", Title: "Get one standard",
			Description: "One standards item by node ID, CASE UUID or CASE URI, with its facets and package identity.",
			Request:     standardRequestSchema(), RequestRequired: true, OutputKeys: []string{"node", "facets", "package", "sourceMetadata"},
			handler: typedRun(s.standard)},
		{Name: "get_standard_context", Title: "Hierarchy context of a standard",
			Description: "Parents, children, ancestors, descendants and every root path of one standard, bounded; records appear once in the nodes and relationships tables.",
			Request:     contextRequestSchema(), RequestRequired: true,
			OutputKeys: []string{"standard", "directParents", "directChildren", "ancestors", "descendants", "rootPaths", "relationshipStatuses", "nodes", "relationships"},
			handler:    typedRun(s.standardContext)},
		{Name: "search_learning_components", Title: "Search learning components",
			Description: "Text, whole-tag, or supported-code (exact or prefix) search over learning components, ranked deterministically and cursor-paged; supported-code hits carry every matched standard.",
			Request:     searchComponentsSchema(), RequestRequired: true, OutputKeys: []string{"effectiveScope", "selectedSnapshots", "page"},
			handler: pagedRun[ComponentSearchRequest, *SearchResult[ComponentHit]](s.searchComponents)},
		{Name: "get_learning_component", Title: "Get one learning component",
			Description: "One learning component with labelled hierarchy placements of the standards it supports.",
			Request:     componentRequestSchema(), RequestRequired: true, OutputKeys: []string{"node", "package", "sourceMetadata", "placements"},
			handler: typedRun(s.component)},
		{Name: "get_learning_component_context", Title: "Get a learning component with its standards",
			Description: "One learning component with the complete records of the standards it supports and the supports edges.",
			Request:     componentRequestSchema(), RequestRequired: true,
			OutputKeys: []string{"node", "package", "sourceMetadata", "placements", "supportedStandards"}, handler: typedRun(s.componentContext)},
		{Name: "get_learning_components_for_standard", Title: "Learning components of a standard",
			Description: "Every learning component supporting one standard, with each component's supported standards.",
			Request:     standardRequestSchema(), RequestRequired: true, OutputKeys: []string{"standard", "components", "package", "sourceMetadata"},
			handler: typedRun(s.standardComponents)},
		{Name: "get_learning_progression", Title: "Get one learning-progression edge",
			Description: "One stored buildsTowards or relatesTo edge by relationship ID, with both endpoint standards, the model's judgment excerpts and links to its provenance.",
			Request:     getProgressionSchema(), RequestRequired: true, OutputKeys: lpKeys(), handler: typedRun(s.progression)},
		{Name: "get_standard_progressions", Title: "Progression edges of a standard",
			Description: "The stored progression edges touching one standard (incoming builds, outgoing builds, related), ordered by (type, relationship ID), paged; continue with page.nextRequest.",
			Request:     standardProgressionsSchema(), RequestRequired: true,
			OutputKeys: lpKeys("connections", "endpointScope", "filters", "page", "resolvedStandardNodeIds"), handler: typedRun(s.standardProgressions)},
		{Name: "search_learning_progressions", Title: "Find progression edges",
			Description: "Progression edges whose endpoint(s) match grade, statement-type and selected-standard filters (one conjunction per endpoint, endpointScope either|both|source|target), paged; continue with page.nextRequest.",
			Request:     searchProgressionsSchema(), RequestRequired: true,
			OutputKeys: lpKeys("connections", "endpointScope", "filters", "page", "resolvedStandardNodeIds"), handler: typedRun(s.searchProgressions)},
		{Name: "traverse_learning_progressions", Title: "Walk buildsTowards edges",
			Description: "Bounded breadth-first walk over stored buildsTowards edges from one standard, downstream or upstream, with distances, frontier and truncation reasons; no cursor.",
			Request:     traverseSchema(), RequestRequired: true,
			OutputKeys: lpKeys("originNodeId", "distances", "frontier", "counters", "scopeComplete", "graphExhausted", "truncationReasons"),
			handler:    typedRun(s.traverse)},
		{Name: "get_learning_progression_paths", Title: "Paths between two standards",
			Description: "Directed simple buildsTowards paths from one standard to another, shortest first then by relationship IDs, bounded; no cursor.",
			Request:     pathsSchema(), RequestRequired: true,
			OutputKeys: lpKeys("sourceNodeId", "targetNodeId", "paths", "counters", "frontier", "truncationReasons", "graphExhausted", "scopeComplete"),
			handler:    typedRun(s.paths)},
		{Name: "compare_framework_evidence", Title: "Compare frameworks side by side",
			Description: "The same text or code search run independently in 2–8 frameworks (each its own snapshot, ranking, warnings, bound and cursor), with hierarchy paths, profile facts and fixed disclosures. Matches are retrieval candidates, never equivalence. Takes the request wrapped or flat.",
			Request:     compareSchema(), RequestRequired: true, Flat: true, OutputKeys: []string{"request", "sections", "warnings", "disclosures", "epistemicStatus"},
			handler: typedRun(s.compare)},
		{Name: "get_workflow_instructions", Title: "Workflow instructions (prompts as a tool)",
			Description: "The instructions a workflow prompt renders, for hosts that cannot use MCP prompts: workflowName plus the prompt's arguments in camelCase; rendered.message is byte-identical to the native prompt's message. Never clipped: over 1 MiB or 100,000 characters it is workflow_instructions_too_large.",
			Request:     workflowSchema(), RequestRequired: true, OutputKeys: []string{"rendered", "effectiveRequest", "package", "profileSha256", "manifestSha256", "instructionsNotice"},
			handler: handler{run: func(ctx context.Context, raw json.RawMessage) (any, error) { return s.workflow(ctx, raw) },
				result: reflect.TypeFor[*WorkflowResult]()}},
		{Name: "read_evidence", Title: "Read a resource in windows",
			Description: "One window of any kgfegmcp:// resource (UTF-8 text), under the same rights and size checks as a native read; continue with page.nextRequest; joined windows reproduce metadata.contentSha256.",
			Request:     readEvidenceSchema(), RequestRequired: true,
			OutputKeys: []string{"metadata", "content", "contentStatus", "page", "evidenceNotice", "request"}, handler: typedRun(s.readEvidence)},
	}
}

// lpKeys lists the output keys of a progression tool: the evidence base, then
// the tool's own.
func lpKeys(extra ...string) []string {
	return append([]string{"request", "metadata", "nodes", "relationships", "continuationNotice"}, extra...)
}

// Paged is a page of a cursor-paged tool: its Result, and what the next page's
// request is (the reference adds it to the result as a second text block).
type Paged struct {
	Result   any
	Tool     string
	Request  map[string]any // effective request, defaults included, cursor excluded
	Defaults map[string]any // fields left out of the next request when they hold these values (the schema's defaults)
	Next     any            // the next page's cursor, or nil on the last page
}
