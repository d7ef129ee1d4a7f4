package main

// What the code says only in its control flow, written down once here. The
// tests hold each table to the code: every domain code has a meaning and no
// meaning names a code runtime/kgerr lacks; every tool has an error list, each
// code in it exists, and every error a golden transcript shows for a tool is
// in its list; every resource template has a row, and the golden transcripts'
// resource metadata agree with it.

// inputValidation is how an input validation failure starts.
const inputValidation = "Input validation error"

// commonToolErrors can answer any tool call: the catalog was refused or the
// package withdrawn, an unexpected failure, or a result with nothing left to
// cut under the 1 MiB envelope (runtime/mcpserver checks every result).
var commonToolErrors = []string{"catalog_error", "internal_error", "result_too_large"}

// toolErrors are the domain codes each tool's handler can answer, beyond
// commonToolErrors and input validation (read from runtime/query).
var toolErrors = map[string][]string{
	"get_capabilities":                     {},
	"list_frameworks":                      {"invalid_cursor"},
	"get_framework":                        {"framework_not_found", "ambiguous_framework"},
	"get_framework_statistics":             {"framework_not_found", "ambiguous_framework"},
	"search_standards":                     {"unsupported_search_mode", "framework_not_found", "ambiguous_framework", "capability_unavailable", "invalid_cursor"},
	"get_standard":                         {"framework_not_found", "ambiguous_framework", "standard_not_found", "ambiguous_graph_node"},
	"get_standard_context":                 {"framework_not_found", "ambiguous_framework", "graph_node_not_found", "capability_unavailable"},
	"get_publisher_relations":              {"framework_not_found", "ambiguous_framework", "standard_not_found", "ambiguous_graph_node"},
	"search_learning_components":           {"unsupported_search_mode", "framework_not_found", "ambiguous_framework", "capability_unavailable", "invalid_cursor"},
	"get_learning_component":               {"framework_not_found", "ambiguous_framework", "learning_component_not_found"},
	"get_learning_component_context":       {"framework_not_found", "ambiguous_framework", "learning_component_not_found"},
	"get_learning_components_for_standard": {"framework_not_found", "ambiguous_framework", "standard_not_found", "ambiguous_graph_node"},
	"get_learning_progression":             {"framework_not_found", "ambiguous_framework", "capability_unavailable", "resource_access_denied", "learning_progression_not_found", "progression_result_too_large"},
	"get_standard_progressions":            {"framework_not_found", "ambiguous_framework", "capability_unavailable", "resource_access_denied", "standard_not_found", "ambiguous_graph_node", "invalid_cursor", "progression_result_too_large"},
	"search_learning_progressions":         {"framework_not_found", "ambiguous_framework", "capability_unavailable", "resource_access_denied", "standard_not_found", "ambiguous_graph_node", "invalid_progression_request", "invalid_cursor", "progression_result_too_large"},
	"traverse_learning_progressions":       {"framework_not_found", "ambiguous_framework", "capability_unavailable", "resource_access_denied", "standard_not_found", "ambiguous_graph_node", "progression_result_too_large"},
	"get_learning_progression_paths":       {"framework_not_found", "ambiguous_framework", "capability_unavailable", "resource_access_denied", "standard_not_found", "ambiguous_graph_node", "invalid_progression_request", "progression_result_too_large"},
	"compare_framework_evidence":           {"unsupported_search_mode", "framework_not_found", "ambiguous_framework", "invalid_comparison_selection"},
	"get_workflow_instructions":            {"framework_not_found", "ambiguous_framework", "prompt_access_denied", "capability_unavailable", "prompt_rendering_error", "prompt_configuration_error", "workflow_instructions_too_large"},
	"read_evidence":                        {"invalid_evidence_uri", "framework_not_found", "resource_not_found", "resource_access_denied", "standard_not_found", "invalid_cursor", "unsupported_evidence_format", "evidence_result_too_large"},
}

// exampleFile names the transcript shown for a tool whose name has no
// transcript of its own (<tool-with-dashes>.txtar).
var exampleFile = map[string]string{
	"compare_framework_evidence": "compare-text.txtar",
	"get_framework_statistics":   "get-framework-statistics-maths.txtar",
	"get_workflow_instructions":  "workflow-teacher-guide.txtar",
	"search_learning_components": "search-learning-components-text.txtar",
	"search_standards":           "search-standards-text.txtar",
}

// codeMeanings says what each domain code of runtime/kgerr means, in the
// terms of the code that raises it.
var codeMeanings = map[string]string{
	"ambiguous_framework": "A call named a framework by `frameworkId` alone and the catalog does not hold exactly one current snapshot of it, " +
		"so nothing is chosen for the caller. The message lists the current snapshots; the hint names the field that pins one " +
		"(`snapshotId`, `snapshotIds`, or the prompt's `snapshot_id` argument). Federated searches leave such a framework out with an " +
		"`ambiguous_current_snapshot` page warning instead.",
	"ambiguous_graph_node": "A standard selector (a CASE UUID, a CASE URI, or a statement code on the progression tools) matches more than one " +
		"standards item of the package. Select the standard by `node_id`.",
	"capability_unavailable": "The package cannot serve what was asked: a search mode its profile or data lacks (an exact selection; a federated " +
		"search warns instead), learning progressions it does not declare, statement-code selectors where the profile has no code search, " +
		"`includeUnresolved: false` or another hierarchy relationship type in `get_standard_context`, `multigrade_lesson_plan` without " +
		"learning components, statement-code focus without codes.",
	"catalog_error": "The served images cannot answer: the catalog failed verification at start or on reload (every request that reads a " +
		"package waits for it, then gets this), an image file was modified in place while served (its package is withdrawn until a " +
		"reload or restart), or an image stores text or provenance that is not valid.",
	"evidence_result_too_large": "`read_evidence` cannot fit even one character of the resource in a window of `maxContentBytes` beside the " +
		"metadata. Raise `maxContentBytes`.",
	"framework_not_found": "The route names no served package: an unknown `frameworkId` or `snapshotId`, a snapshot of another framework than " +
		"the one named, neither given, a graph type other than `academic_standards`, a selection that no package matches after the " +
		"jurisdiction, language and subject filters, or an unknown framework in a resource URI.",
	"graph_node_not_found": "`get_standard_context`: the origin `nodeId` is not a standards item of the package. (The other standard tools " +
		"answer `standard_not_found` for the same case.)",
	"internal_error": "An unexpected failure (a bug, or a fault on a mapped image). The public text is fixed per boundary and carries no " +
		"detail; the log line has an incident ID. The constant exists in runtime/kgerr, but the server writes this code from " +
		"runtime/mcpserver's fixed texts.",
	"invalid_comparison_selection": "A comparison selection that is inconsistent: a `snapshotIds` entry of a framework `frameworkIds` does not " +
		"select, two snapshots of one framework, or (the administrator alignment review prompt) the same framework as source and target.",
	"invalid_cursor": "A cursor that is malformed, was issued for another request, mode or selection, or points at a position the current " +
		"catalog no longer has (a catalog replaced by a reload invalidates every cursor). Repeat `nextRequest` exactly, or start again " +
		"without a cursor.",
	"invalid_evidence_uri": "A `read_evidence` URI that is not an exact `kgfegmcp://` address: another scheme, a query or fragment, an empty, dot " +
		"or unreplaced `{placeholder}` segment, bad percent-encoding, or a path no template has.",
	"invalid_progression_request": "A progression filter or selection the package cannot take: a facet value that is blank, repeated or not a " +
		"value of the package's profile, a standard selected twice, or a path whose source and target are the same standard.",
	"learning_component_not_found": "The node ID names no learning component of the package (it is missing, or it is another kind of node).",
	"learning_progression_not_found": "The relationship ID names no stored learning-progression edge of the package (it is missing, or it is a " +
		"hierarchy or supports relationship).",
	"progression_result_too_large": "A progression result whose smallest useful unit (one edge, the first path, the traversal's origin, a " +
		"page's metadata) does not fit the 1 MiB / 100,000-character ceiling. Read the edge's relationship and provenance resources instead.",
	"prompt_access_denied": "The package's rights do not allow generated derivatives (`allowGeneratedDerivatives` is not `allowed`), so no " +
		"prompt or workflow renders over it.",
	"prompt_configuration_error": "The prompt config embedded in the image does not decode or validate. Rebuild the image with `kgc build`, " +
		"which validates it.",
	"prompt_rendering_error": "A prompt cannot be rendered safely: the message would be over 64 KiB.",
	"resource_access_denied": "The package's rights or the size policy refuse the resource: rights not reviewed or not allowing full text, " +
		"standard resources or bulk content (by the artifact's exposure class), or a resource over the byte limits. The progression tools " +
		"answer it too, since they serve standard evidence.",
	"resource_not_found": "The address parses but names nothing that can be served: an undeclared artifact, an artifact without an exposure " +
		"class or not embedded in the image, a record without provenance, an unknown learning component or relationship.",
	"result_too_large": "kgmcp's own code (not in the contract's list): a result over the 1 MiB envelope ceiling with no list left to cut. Ask " +
		"for less, or read the records' resources.",
	"standard_not_found": "The selector or node ID names no standards item of the package (missing, or another kind of node).",
	"unsupported_evidence_format": "`read_evidence` was asked for a resource whose bytes are not UTF-8 text (read it with `resources/read`, " +
		"which sends a blob).",
	"unsupported_search_mode": "The `mode` of a search or comparison is none of the tool's modes. This is a domain error rather than an input " +
		"error, as the contract has it.",
	"workflow_instructions_too_large": "kgmcp's own code: a `get_workflow_instructions` result whose envelope would exceed 1 MiB or 100,000 " +
		"characters. It is never cut.",
}

// resourceRow says what one resource answers: its resourceKind and
// representation in ResourceMetadata, the rights gate it passes, the
// artifacts it is read or derived from, and what it holds.
type resourceRow struct {
	kind, representation, gate, sources, holds string
}

// resourceRows is keyed by template name ("catalog" for the fixed resource).
var resourceRows = map[string]resourceRow{
	"catalog": {"catalog", "deterministic_derived", "none", "—",
		"every accepted framework, its snapshots and their packages (identity, counts, capabilities, rights)"},
	"framework": {"framework", "deterministic_derived", "none", "—",
		"one framework family: its snapshots, their packages, capabilities and rights"},
	"package_manifest": {"manifest", "raw_source", "none", "the manifest",
		"the exact bytes of `package_manifest.json`"},
	"validation_report": {"validation", "raw_source", "exposure class of `validationReport` (public metadata: always)", "`validationReport`",
		"the exact bytes of the package's detailed validation report"},
	"unresolved_items": {"unresolved", "raw_source", "full text (reviewed rights with `allowFullText`)", "`unresolvedItems`",
		"the exact bytes of the unresolved-items report"},
	"interpretation_profile": {"interpretation_profile", "raw_source", "none", "the bound profile",
		"the exact bytes of the profile the manifest binds by SHA-256"},
	"manifest_artifact": {"artifact", "raw_source", "the artifact's exposure class (below)", "the artifact",
		"one declared artifact's exact bytes, by logical name"},
	"standard": {"standard", "deterministic_derived", "standard resources (reviewed rights, `allowFullText` and `allowStandardResources`)", "`nodes`",
		"the item's node record, facets, package identity and hierarchy path"},
	"standard_provenance": {"standard_provenance", "deterministic_derived", "standard resources", "`entityProvenance`",
		"`{nodeId, caseIdentifierUuid, provenance}`: the item's entry of the detailed provenance map"},
	"standard_learning_components": {"standard_learning_components", "deterministic_derived", "standard resources", "`nodes`, `relationships`",
		"the learning components that support the item, with their supports edges"},
	"standard_diagram": {"standard_diagram", "deterministic_derived", "standard resources", "`nodes`, `relationships`",
		"a Mermaid flowchart of the item's neighbourhood (hierarchy path, siblings, children, learning components, buildsTowards and relatesTo links), bounded as [../render.md](../render.md#bounds) says"},
	"learning_component": {"learning_component", "deterministic_derived", "standard resources", "`nodes`, `relationships`",
		"the component and where each standard it supports sits"},
	"learning_component_provenance": {"learning_component_provenance", "deterministic_derived", "standard resources", "`learningComponentProvenance`",
		"`{nodeId, provenance}`: the component's entry of the component provenance map"},
	"relationship": {"relationship", "deterministic_derived", "standard resources", "`relationships`",
		"one relationship record with its package identity"},
	"relationship_provenance": {"relationship_provenance", "deterministic_derived", "standard resources",
		"`learningProgressionProvenance`, the edge's shard, `learningProgressionProvenanceIndex`, `relationships`",
		"the edge's per-edge provenance record from its shard, the partition and shard name, `epistemicStatus: llm_inferred`"},
	"learning_progressions": {"learning_progressions", "deterministic_derived", "none",
		"`learningProgressionSummary`, `learningProgressionValidation`, `learningProgressionUnresolved`, `learningProgressionProvenance`",
		"the public progression summary compiled into the image: counts, coverage, validation verdict, bounded warning excerpts"},
}

// jsonrpcCodes are the JSON-RPC error codes kgmcp answers with, where each
// comes from (a file of the repository holding token), and when.
var jsonrpcCodes = []struct {
	code        int64
	name, dir   string // dir: the package whose non-test sources hold token
	token, when string
}{
	{-32700, "Parse error", "cmd/kgmcp/internal/serve", "CodeParseError",
		"a stdio line or HTTP body that is not JSON; the id is null and a stdio session goes on"},
	{-32600, "Invalid Request", "cmd/kgmcp/internal/serve", "CodeInvalidRequest",
		"a message that is not JSON-RPC 2.0 (wrong `jsonrpc`, a non-string method, an id that is not a string or an integer of magnitude at most 2^53), an empty batch or one of more than 16 messages, a stdio line over 1 MiB, a call before `initialize`"},
	{-32601, "Method not found", "cmd/kgmcp/internal/serve", "CodeMethodNotFound",
		"a method MCP does not define"},
	{-32602, "Invalid params", "runtime/mcpserver", "CodeInvalidParams",
		"`prompts/get` and `completion/complete` input errors and domain errors; `resources/read` domain errors other than a resource not there (with `data.uri`), and, for protocols after 2025-11-25 (SEP-2164), a resource not there too; an unknown tool name (the SDK's `unknown tool`)"},
	{-32603, "Internal error", "runtime/mcpserver", "CodeInternalError",
		"`internal_error` of a resource read, prompt render or other method, and `catalog_error` outside `tools/call`"},
	{-32002, "Resource not found", "runtime/mcpserver", "-32002",
		"`resources/read` of a resource that is not there, for protocols up to 2025-11-25: any `*_not_found` code (`resource_not_found`, `framework_not_found`, `standard_not_found`, …) or an address that matches no resource template (the SDK's `Resource not found`); `data.uri` is the URI sent"},
	{-32000, "Server limit", "runtime/mcpserver", "codeLimitExceeded",
		"`response_budget_exceeded`: the answers to one HTTP request would pass its 8 MiB budget; `server_shutting_down`: the server is draining and takes no new request"},
}

// fixedTexts are the fixed public texts of internal_error, by boundary, with
// the file that writes them.
var fixedTexts = []struct{ boundary, text, dir string }{
	{"tool (`isError` result)", "internal_error: The server could not complete the request.", "runtime/mcpserver"},
	{"resource (JSON-RPC -32603)", "internal_error: The server could not read the resource.", "runtime/mcpserver"},
	{"prompt (JSON-RPC -32603)", "internal_error: The server could not render the prompt.", "runtime/mcpserver"},
}
