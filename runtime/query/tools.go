package query

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonschema"
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
	// without the request wrapper (compare_framework_evidence).
	Flat       bool
	OutputKeys []string
	handler
	input *Schema
}

// ResultType is the Go type of the tool's result (OutputSchema describes it).
func (t *Tool) ResultType() reflect.Type { return t.result }

// InputSchema is the published schema of the tool's arguments: an object
// holding the request (docs/reference/tools.md#calling-a-tool). A Flat tool also takes the
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
		return jsonschema.Object(map[string]*Schema{})
	}
	var req []string
	if t.RequestRequired {
		req = []string{"request"}
	}
	return jsonschema.Object(map[string]*Schema{"request": t.Request}, req...)
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
		return nil, jsonschema.Fail("", "arguments are not a valid JSON object")
	}
	if t.Flat && v.Kind == jsonv.Object && v.Get("request") == nil && len(v.Obj) > 0 {
		// The flat form: the arguments are the request.
		v = &jsonv.Value{Kind: jsonv.Object, Obj: []jsonv.Member{{Key: "request", Val: v}}}
	}
	if err := t.unwrapped(v); err != nil {
		return nil, err
	}
	if err := t.input.Validate(v, ""); err != nil {
		return nil, err
	}
	// An absent request is the empty one, defaults and all (a tool whose
	// request is required was refused above).
	req := &jsonv.Value{Kind: jsonv.Object}
	if t.Request != nil {
		if rv := v.Get("request"); rv != nil && rv.Kind == jsonv.Object {
			req = rv
		}
		req = t.Request.WithDefaults(req)
	}
	out, err := t.run(ctx, req)
	if err != nil {
		return nil, t.explain(err)
	}
	if p, ok := out.(*Paged); ok {
		p.Defaults = t.Request.DefaultsFor(p.Request)
	}
	return own(s, out, nil)
}

// unwrapped refuses arguments that are the request's fields themselves
// (a tool that takes only the wrapped form), naming the fix: the call with
// the same fields inside "request".
func (t *Tool) unwrapped(v *jsonv.Value) error {
	if t.Request == nil || t.Flat || v.Kind != jsonv.Object || len(v.Obj) == 0 || v.Get("request") != nil ||
		!t.Request.HasProperty(v.Obj[0].Key) {
		return nil
	}
	wrapped := string(canonjson.Encode(&jsonv.Value{Kind: jsonv.Object, Obj: []jsonv.Member{{Key: "request", Val: v}}}))
	if len(wrapped) > jsonschema.MaxEchoChars {
		wrapped = `{"request":{…}}`
	}
	return jsonschema.Fail("arguments", "%s is a field of request: %s takes its fields wrapped in \"request\", e.g. %s", v.Obj[0].Key, t.Name, wrapped)
}

// explain gives a domain error the recovery hint of this tool: an
// ambiguous_framework names the field the tool pins a snapshot with.
func (t *Tool) explain(err error) error {
	var e *kgerr.Error
	if !errors.As(err, &e) || e.Code != kgerr.AmbiguousFramework || t.Request == nil {
		return err
	}
	field := "request.snapshotId"
	if t.Request.HasProperty("snapshotIds") {
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
			Description: "What this server and each package can do: tools, search modes, counts, rights. Use when unsure whether a package has codes, learning components or progressions. Example: {}",
			OutputKeys:  []string{"serverName", "toolNames", "packages"}, handler: handler{run: func(ctx context.Context, _ *jsonv.Value) (any, error) { return s.Capabilities(ctx) },
				result: reflect.TypeFor[*CapabilitiesResult]()}},
		{Name: "list_frameworks", Title: "List accepted frameworks",
			Description: "Start here: the curriculum frameworks served, one entry per snapshot (name, jurisdiction, grades, what it contains, rights), filterable. Returns the snapshotId to pin in later calls. Example: {\"request\":{\"query\":\"nigeria mathematics\"}}",
			Request:     listFrameworksSchema(), OutputKeys: []string{"catalogSha256", "items", "returnedCount", "totalMatchingCount", "hasMore", "nextCursor"},
			handler: pagedRun[ListFrameworksRequest, *FrameworkList](s.listFrameworks)},
		{Name: "get_framework", Title: "Get one framework snapshot",
			Description: "One framework snapshot by frameworkId (its unique current snapshot) or snapshotId: source, grades, contents, rights. Example: {\"request\":{\"frameworkId\":\"<fw>\"}}",
			Request:     frameworkRequestSchema(false), RequestRequired: true, OutputKeys: []string{"framework"}, handler: typedRun(s.getFramework)},
		{Name: "get_framework_statistics", Title: "Structural statistics of a package",
			Description: "Counts of one package: items per grade and statement type, depth, codes, multi-parent, unresolved edges; components and progressions apart. Example: {\"request\":{\"frameworkId\":\"<fw>\"}}",
			Request:     frameworkRequestSchema(true), RequestRequired: true, OutputKeys: []string{"package", "sourceMetadata", "statistics"},
			handler: typedRun(s.frameworkStatistics)},
		{Name: "search_standards", Title: "Search standards",
			Description: "Find standards by words (mode text) or code (code_exact, code_prefix), filtered by grade and type. Hits give ID, code, statement, grade, place, URI to cite; a page with few matches lists calls that find more. Example: {\"request\":{\"mode\":\"text\",\"query\":\"fractions\",\"match\":{\"matchMode\":\"stems\",\"operator\":\"all\"},\"localGradeLabels\":[\"GRADE THREE\"]}}",
			Request:     searchStandardsSchema(), RequestRequired: true, OutputKeys: []string{"effectiveScope", "selectedSnapshots", "page"},
			handler: pagedRun[StandardSearchRequest, *SearchResult[StandardHit]](s.searchStandards)},
		{Name: "get_standard", Title: "Get one standard",
			Description: "One standard by node ID or CASE identifier: statement, code, grade, type, where it sits, URI to cite. Example: {\"request\":{\"frameworkId\":\"<fw>\",\"identifier\":{\"identifierType\":\"node_id\",\"nodeId\":\"<id>\"}}}",
			Request:     standardRequestSchema(), RequestRequired: true, OutputKeys: []string{"node", "facets", "package", "sourceMetadata"},
			handler: typedRun(s.standard)},
		{Name: "get_standard_context", Title: "Hierarchy context of a standard",
			Description: "Where a standard or topic sits and what is around it: root paths, parents, children, optionally descendants in curriculum order (a topic's standards). Example: {\"request\":{\"frameworkId\":\"<fw>\",\"nodeId\":\"<id>\",\"includeDescendants\":true,\"childDepth\":2}}",
			Request:     contextRequestSchema(), RequestRequired: true,
			OutputKeys: []string{"standard", "directParents", "directChildren", "ancestors", "descendants", "rootPaths", "relationshipStatuses", "nodes", "relationships"},
			handler:    typedRun(s.standardContext)},
		{Name: "get_publisher_relations", Title: "Publisher relations of a standard",
			Description: "What the publisher's CASE data says of a standard: equivalents in other frameworks (exactMatchOf), what comes before/after it (precedes), related items; both directions, across served frameworks. Not generated. Example: {\"request\":{\"frameworkId\":\"<fw>\",\"identifier\":{\"identifierType\":\"node_id\",\"nodeId\":\"<id>\"},\"sequenceDepth\":2}}",
			Request:     publisherRelationsSchema(), RequestRequired: true, OutputKeys: []string{"standard", "relations", "totalCount", "sequence", "package"},
			handler: typedRun(s.publisherRelations)},
		{Name: "search_learning_components", Title: "Search learning components",
			Description: "Find learning components (generated skills that make up standards) by words, tag, or a supported standard's code; hits list the standards they support. Example: {\"request\":{\"mode\":\"learning_component_text\",\"query\":\"counting\",\"match\":{\"matchMode\":\"tokens\",\"operator\":\"all\"}}}",
			Request:     searchComponentsSchema(), RequestRequired: true, OutputKeys: []string{"effectiveScope", "selectedSnapshots", "page"},
			handler: pagedRun[ComponentSearchRequest, *SearchResult[ComponentHit]](s.searchComponents)},
		{Name: "get_learning_component", Title: "Get one learning component",
			Description: "One learning component and where each standard it supports sits. Example: {\"request\":{\"frameworkId\":\"<fw>\",\"nodeId\":\"<componentId>\"}}",
			Request:     componentRequestSchema(), RequestRequired: true, OutputKeys: []string{"node", "package", "sourceMetadata", "placements"},
			handler: typedRun(s.component)},
		{Name: "get_learning_component_context", Title: "Get a learning component with its standards",
			Description: "One learning component with the full records of the standards it supports and the supports edges. Example: {\"request\":{\"frameworkId\":\"<fw>\",\"nodeId\":\"<componentId>\"}}",
			Request:     componentRequestSchema(), RequestRequired: true,
			OutputKeys: []string{"node", "package", "sourceMetadata", "placements", "supportedStandards"}, handler: typedRun(s.componentContext)},
		{Name: "get_learning_components_for_standard", Title: "Learning components of a standard",
			Description: "The learning components (generated skills) of one standard, with confidence, the other standards each supports, URIs to cite. Example: {\"request\":{\"frameworkId\":\"<fw>\",\"identifier\":{\"identifierType\":\"node_id\",\"nodeId\":\"<id>\"}}}",
			Request:     standardRequestSchema(), RequestRequired: true, OutputKeys: []string{"standard", "components", "package", "sourceMetadata"},
			handler: typedRun(s.standardComponents)},
		{Name: "get_learning_progression", Title: "Get one learning-progression edge",
			Description: "One stored progression edge by relationship ID, with both standards and the generating model's judgment. JSON. Example: {\"request\":{\"frameworkId\":\"<fw>\",\"relationshipId\":\"<relationshipId>\"}}",
			Request:     getProgressionSchema(), RequestRequired: true, OutputKeys: lpKeys(), handler: typedRun(s.progression)},
		{Name: "get_standard_progressions", Title: "Progression edges of a standard",
			Description: "Stored progression edges of one standard: incoming_builds (what builds towards it), outgoing_builds, related; ask one kind per call. JSON, paged. Example: {\"request\":{\"frameworkId\":\"<fw>\",\"identifier\":{\"identifierType\":\"node_id\",\"nodeId\":\"<id>\"},\"connectionKind\":\"incoming_builds\"}}",
			Request:     standardProgressionsSchema(), RequestRequired: true,
			OutputKeys: lpKeys("connections", "endpointScope", "filters", "page", "resolvedStandardNodeIds"), handler: typedRun(s.standardProgressions)},
		{Name: "search_learning_progressions", Title: "Find progression edges",
			Description: "Progression edges whose endpoints match grades, types or chosen standards; one relationshipTypes value per call. JSON, paged. Example: {\"request\":{\"frameworkId\":\"<fw>\",\"relationshipTypes\":[\"buildsTowards\"],\"localGradeLabels\":[\"GRADE TWO\"]}}",
			Request:     searchProgressionsSchema(), RequestRequired: true,
			OutputKeys: lpKeys("connections", "endpointScope", "filters", "page", "resolvedStandardNodeIds"), handler: typedRun(s.searchProgressions)},
		{Name: "traverse_learning_progressions", Title: "Walk buildsTowards edges",
			Description: "Walk stored buildsTowards edges from one standard, downstream (what it leads to) or upstream (what leads to it); JSON. Example: {\"request\":{\"frameworkId\":\"<fw>\",\"identifier\":{\"identifierType\":\"node_id\",\"nodeId\":\"<id>\"},\"direction\":\"upstream\"}}",
			Request:     traverseSchema(), RequestRequired: true,
			OutputKeys: lpKeys("originNodeId", "distances", "frontier", "counters", "scopeComplete", "graphExhausted", "truncationReasons"),
			handler:    typedRun(s.traverse)},
		{Name: "get_learning_progression_paths", Title: "Paths between two standards",
			Description: "Stored buildsTowards paths from one standard to another, shortest first; JSON. Example: {\"request\":{\"frameworkId\":\"<fw>\",\"sourceIdentifier\":{\"identifierType\":\"node_id\",\"nodeId\":\"<from>\"},\"targetIdentifier\":{\"identifierType\":\"node_id\",\"nodeId\":\"<to>\"}}}",
			Request:     pathsSchema(), RequestRequired: true,
			OutputKeys: lpKeys("sourceNodeId", "targetNodeId", "paths", "counters", "frontier", "truncationReasons", "graphExhausted", "scopeComplete"),
			handler:    typedRun(s.paths)},
		{Name: "compare_framework_evidence", Title: "Compare frameworks side by side",
			Description: "The same search in 2–8 frameworks side by side, each on its own, with each match's hierarchy path; candidates, never equivalences. Alignments the publishers assert between matched standards (CASE exactMatchOf, …) come first, apart. Example: {\"request\":{\"frameworkIds\":[\"<a>\",\"<b>\"],\"mode\":\"text\",\"query\":\"measurement\",\"match\":{\"matchMode\":\"stems\",\"operator\":\"all\"}}}",
			Request:     compareSchema(), RequestRequired: true, Flat: true, OutputKeys: []string{"request", "publisherAlignments", "sections", "warnings", "disclosures", "epistemicStatus"},
			handler: typedRun(s.compare)},
		{Name: "get_workflow_instructions", Title: "Workflow instructions (prompts as a tool)",
			Description: "For hosts without MCP prompts: the steps of a teacher, student or reviewer workflow (the prompt of that name), with the exact tool calls to make. Example: {\"request\":{\"workflowName\":\"teacher_guide_draft\",\"frameworkId\":\"<fw>\",\"gradeOrStage\":\"GRADE ONE\",\"topicOrStandard\":\"addition\"}}",
			Request:     workflowSchema(), RequestRequired: true, OutputKeys: []string{"rendered", "effectiveRequest", "package", "profileSha256", "manifestSha256", "instructionsNotice"},
			handler: handler{run: func(ctx context.Context, req *jsonv.Value) (any, error) { return s.workflow(ctx, req) },
				result: reflect.TypeFor[*WorkflowResult]()}},
		{Name: "read_evidence", Title: "Read a resource in windows",
			Description: "Read a kgfegmcp:// resource (a URI from a result) in windows, for hosts that cannot read resources; continue with page.nextRequest. JSON. Example: {\"request\":{\"uri\":\"kgfegmcp://catalog\"}}",
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
	// Encoded is Result's canonical JSON when the handler's ceiling check
	// already encoded it (nil otherwise): the adapter sends these bytes
	// instead of encoding the result a second time. Whoever changes Result
	// after the check sets it to nil.
	Encoded []byte
}

// NextRequest is the arguments of the call for the next page (nil on the
// last page): the effective request with the fields that hold their
// defaults left out, and the next cursor.
func (p *Paged) NextRequest() map[string]any {
	if p.Next == nil {
		return nil
	}
	req := map[string]any{}
	for k, v := range p.Request {
		if isDefault(v, p.Defaults[k]) {
			continue
		}
		req[k] = v
	}
	req["cursor"] = p.Next
	return req
}

// isDefault reports whether v is absent, empty or the default def.
func isDefault(v, def any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case []string:
		return len(x) == 0
	}
	if def == nil {
		return false
	}
	a, _ := json.Marshal(v)
	b, _ := json.Marshal(def)
	return string(a) == string(b)
}
