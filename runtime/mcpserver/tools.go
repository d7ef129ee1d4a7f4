package mcpserver

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/canonjson"
)

// registerTools registers every tool, in one place.
func (s *Server) registerTools() {
	for _, t := range []tool{
		{name: "get_capabilities", title: "Server and package capabilities",
			description: "Server-wide and per-package implemented capabilities: tools, resources, search modes, rights, counts.",
			outputKeys:  []string{"serverName", "toolNames", "packages"}, run: s.getCapabilities},
		{name: "list_frameworks", title: "List accepted frameworks",
			description: "Filtered, cursor-paged list of accepted framework snapshots ordered by (frameworkId, snapshotId).",
			request:     listFrameworksSchema(), outputKeys: []string{"catalogSha256", "items", "returnedCount", "totalMatchingCount", "hasMore", "nextCursor"},
			run: s.listFrameworks},
		{name: "get_framework", title: "Get one framework snapshot",
			description: "One exact snapshot (frameworkId + snapshotId) or the framework's unique current snapshot.",
			request:     frameworkRequestSchema(false), requestRequired: true, outputKeys: []string{"framework"}, run: s.getFramework},
		{name: "get_framework_statistics", title: "Structural statistics of a package",
			description: "Counts of one package: hierarchy shape, grades, statement types, codes, multi-parent, unresolved edges; learning components and progressions reported separately.",
			request:     frameworkRequestSchema(true), requestRequired: true, outputKeys: []string{"package", "sourceMetadata", "statistics"},
			run: s.getFrameworkStatistics},
		{name: "search_standards", title: "Search standards",
			description: "Lexical (text), exact-code (code_exact) or delimiter-bounded prefix-code (code_prefix) search over standards, filtered by grade, subject and statement type, ranked deterministically and cursor-paged. Hits are retrieval candidates, not alignments.",
			request:     searchStandardsSchema(), requestRequired: true, outputKeys: []string{"effectiveScope", "selectedSnapshots", "page"},
			run: s.searchStandards},
		{name: "get_standard", title: "Get one standard",
			description: "One standards item by node ID, CASE UUID or CASE URI, with its facets and package identity.",
			request:     standardRequestSchema(), requestRequired: true, outputKeys: []string{"node", "facets", "package", "sourceMetadata"},
			run: s.standardTool(standardResult)},
		{name: "get_standard_context", title: "Hierarchy context of a standard",
			description: "Parents, children, ancestors, descendants and every root path of one standard, bounded; records appear once in the nodes and relationships tables.",
			request:     contextRequestSchema(), requestRequired: true,
			outputKeys: []string{"standard", "directParents", "directChildren", "ancestors", "descendants", "rootPaths", "relationshipStatuses", "nodes", "relationships"},
			run:        s.getStandardContext},
		{name: "search_learning_components", title: "Search learning components",
			description: "Text, whole-tag, or supported-code (exact or prefix) search over learning components, ranked deterministically and cursor-paged; supported-code hits carry every matched standard.",
			request:     searchComponentsSchema(), requestRequired: true, outputKeys: []string{"effectiveScope", "selectedSnapshots", "page"},
			run: s.searchComponents},
		{name: "get_learning_component", title: "Get one learning component",
			description: "One learning component with labelled hierarchy placements of the standards it supports.",
			request:     componentRequestSchema(), requestRequired: true, outputKeys: []string{"node", "package", "sourceMetadata", "placements"},
			run: s.getComponent(false)},
		{name: "get_learning_component_context", title: "Get a learning component with its standards",
			description: "One learning component with the complete records of the standards it supports and the supports edges.",
			request:     componentRequestSchema(), requestRequired: true,
			outputKeys: []string{"node", "package", "sourceMetadata", "placements", "supportedStandards"}, run: s.getComponent(true)},
		{name: "get_learning_components_for_standard", title: "Learning components of a standard",
			description: "Every learning component supporting one standard, with each component's supported standards.",
			request:     standardRequestSchema(), requestRequired: true, outputKeys: []string{"standard", "components", "package", "sourceMetadata"},
			run: s.standardTool(componentsForStandard, "components")},
		{name: "get_learning_progression", title: "Get one learning-progression edge",
			description: "One stored buildsTowards or relatesTo edge by relationship ID, with both endpoint standards, the model's judgment excerpts and links to its provenance.",
			request:     getProgressionSchema(), requestRequired: true, outputKeys: lpKeys(), run: s.getLearningProgression},
		{name: "get_standard_progressions", title: "Progression edges of a standard",
			description: "The stored progression edges touching one standard (incoming builds, outgoing builds, related), ordered by (type, relationship ID), paged; continue with page.nextRequest.",
			request:     standardProgressionsSchema(), requestRequired: true,
			outputKeys: lpKeys("connections", "endpointScope", "filters", "page", "resolvedStandardNodeIds"), run: s.getStandardProgressions},
		{name: "search_learning_progressions", title: "Find progression edges",
			description: "Progression edges whose endpoint(s) match grade, statement-type and selected-standard filters (one conjunction per endpoint, endpointScope either|both|source|target), paged; continue with page.nextRequest.",
			request:     searchProgressionsSchema(), requestRequired: true,
			outputKeys: lpKeys("connections", "endpointScope", "filters", "page", "resolvedStandardNodeIds"), run: s.searchLearningProgressions},
		{name: "traverse_learning_progressions", title: "Walk buildsTowards edges",
			description: "Bounded breadth-first walk over stored buildsTowards edges from one standard, downstream or upstream, with distances, frontier and truncation reasons; no cursor.",
			request:     traverseSchema(), requestRequired: true,
			outputKeys: lpKeys("originNodeId", "distances", "frontier", "counters", "scopeComplete", "graphExhausted", "truncationReasons"),
			run:        s.traverseLearningProgressions},
		{name: "get_learning_progression_paths", title: "Paths between two standards",
			description: "Directed simple buildsTowards paths from one standard to another, shortest first then by relationship IDs, bounded; no cursor.",
			request:     pathsSchema(), requestRequired: true,
			outputKeys: lpKeys("sourceNodeId", "targetNodeId", "paths", "counters", "frontier", "truncationReasons", "graphExhausted", "scopeComplete"),
			run:        s.getLearningProgressionPaths},
		{name: "read_evidence", title: "Read a resource in windows",
			description: "One window of any kgfegmcp:// resource (UTF-8 text), under the same rights and size checks as a native read; continue with page.nextRequest; joined windows reproduce metadata.contentSha256.",
			request:     readEvidenceSchema(), requestRequired: true,
			outputKeys: []string{"metadata", "content", "contentStatus", "page", "evidenceNotice", "request"}, run: s.readEvidence},
	} {
		s.addTool(t)
	}
}

// lpKeys lists the output keys of a progression tool: the evidence base, then
// the tool's own.
func lpKeys(extra ...string) []string {
	return append([]string{"request", "metadata", "nodes", "relationships", "continuationNotice"}, extra...)
}

// paged is a result with a continuation: the reference adds a second text block
// holding the complete next request when another page exists.
type paged struct {
	result   obj
	tool     string
	request  obj // effective request, defaults included, cursor excluded
	defaults obj // fields omitted from nextRequest when they hold these values
	next     any // next cursor or nil
}

const continuationPreamble = "MCP continuation data. Cursor values are opaque; pass them back unchanged:"

func (p *paged) continuation() string {
	req := obj{}
	for k, v := range p.request {
		if isDefault(v, p.defaults[k]) {
			continue
		}
		req[k] = v
	}
	req["cursor"] = p.next
	b, _ := canonjson.Marshal(obj{"continuationTool": p.tool, "nextRequest": req})
	return continuationPreamble + "\n" + asciiEscape(string(b))
}

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

// asciiEscape escapes non-ASCII characters as \uXXXX (surrogate pairs above the
// BMP), as Python's json.dumps does by default.
func asciiEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			writeU(&b, 0xd800+(r>>10))
			writeU(&b, 0xdc00+(r&0x3ff))
		default:
			writeU(&b, r)
		}
	}
	return b.String()
}

func writeU(b *strings.Builder, r rune) {
	const hexd = "0123456789abcdef"
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexd[(r>>shift)&0xf])
	}
}

func (s *Server) pagedEnvelope(name string, p *paged) *mcp.CallToolResult {
	res := s.envelope(name, p.result)
	if !res.IsError && p.next != nil {
		res.Content = append(res.Content, &mcp.TextContent{Text: p.continuation()})
	}
	return res
}
