package mcpserver_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func TestSearchFederationAndCapabilities(t *testing.T) {
	cs, _ := client(t, images(t))
	out, _ := call(t, cs, "search_standards", req(map[string]any{"mode": "code_exact", "query": "M1.1.1"}))
	scope := out["effectiveScope"].(map[string]any)
	page := out["page"].(map[string]any)
	if scope["selectionMode"] != "federated" || len(scope["snapshotIds"].([]any)) != 2 || len(page["hits"].([]any)) != 1 {
		t.Fatalf("federated code search: scope %v, %d hits", scope, len(page["hits"].([]any)))
	}
	var codes []string
	for _, w := range page["warnings"].([]any) {
		codes = append(codes, w.(map[string]any)["code"].(string))
	}
	if strings.Join(codes, ",") != "code_search_unavailable,partial_code_coverage" {
		t.Errorf("warnings %v", page["warnings"])
	}
	if txt := errorText(t, cs, "search_standards", req(map[string]any{"frameworkIds": []any{english}, "mode": "code_prefix", "query": "E1"})); !strings.HasPrefix(txt, "capability_unavailable: ") {
		t.Errorf("exact scope without codes: %q", txt)
	}
	out, _ = call(t, cs, "search_standards", req(map[string]any{"jurisdictions": []any{"sampleland"}, "subjects": []any{"english language arts"},
		"mode": "text", "query": "reading", "match": map[string]any{"matchMode": "tokens", "operator": "any"}}))
	for _, h := range out["page"].(map[string]any)["hits"].([]any) {
		if id := h.(map[string]any)["packageIdentity"].(map[string]any)["frameworkId"]; id != english {
			t.Errorf("subject filter let %v through", id)
		}
	}
	// Two frameworks named, one left by the filters: still a federated search.
	out, _ = call(t, cs, "search_standards", req(map[string]any{"frameworkIds": []any{maths, english}, "subjects": []any{"MATHEMATICS"},
		"mode": "code_exact", "query": "M1.1.1"}))
	if scope := out["effectiveScope"].(map[string]any); scope["selectionMode"] != "federated" || len(scope["snapshotIds"].([]any)) != 1 {
		t.Errorf("filtered two-framework scope: %v", scope)
	}
	if txt := errorText(t, cs, "search_standards", req(map[string]any{"frameworkIds": []any{"no-such-framework"}, "mode": "code_exact", "query": "x"})); !strings.HasPrefix(txt, "framework_not_found: ") {
		t.Errorf("unknown framework: %q", txt)
	}
	if txt := errorText(t, cs, "search_standards", req(map[string]any{"mode": "semantic", "query": "x"})); !strings.HasPrefix(txt, "unsupported_search_mode: ") {
		t.Errorf("unknown mode: %q", txt)
	}
}

func TestSearchComponents(t *testing.T) {
	cs, srv := client(t, images(t))
	nodes := placed(t, srv, maths, sourceNodes(t, samplePackageDir(t, maths)))
	base := map[string]any{"frameworkIds": []any{maths}}
	with := func(extra map[string]any) map[string]any { return merged(base, extra) }
	want := textOracle(t, nodes, "counting whole numbers", "tokens", "any", true)
	hits := pageAll(t, cs, "search_learning_components", with(map[string]any{"mode": "learning_component_text", "query": "counting whole numbers",
		"match": map[string]any{"matchMode": "tokens", "operator": "any"}}), 3)
	sameRanking(t, "component text", hits, want)

	tagged := 0
	for _, n := range nodes {
		for _, tag := range n.Tags {
			if tag == "part 1" {
				tagged++
			}
		}
	}
	hits = pageAll(t, cs, "search_learning_components", with(map[string]any{"mode": "learning_component_tag", "query": "  PART   1 "}), 10)
	if len(hits) != tagged || tagged == 0 {
		t.Errorf("tag search: %d hits, want %d", len(hits), tagged)
	}
	if hits := pageAll(t, cs, "search_learning_components", with(map[string]any{"mode": "learning_component_tag", "query": "part"}), 10); len(hits) != 0 {
		t.Errorf("a partial tag matched %d components", len(hits))
	}

	// Supported code: every component supporting a standard under the prefix,
	// once, carrying each matched standard.
	stds := codeOracle(t, nodes, "M1.1", true)
	hits = pageAll(t, cs, "search_learning_components", with(map[string]any{"mode": "learning_component_supported_code_prefix", "query": "M1.1"}), 5)
	if len(hits) == 0 {
		t.Fatal("no component supports a standard under M1.1")
	}
	seen := map[string]bool{}
	for _, h := range hits {
		id := h["node"].(map[string]any)["nodeId"].(string)
		if seen[id] {
			t.Errorf("component %s returned twice", id)
		}
		seen[id] = true
		codes := h["matchedCodes"].([]any)
		if len(codes) == 0 || len(h["supportedStandards"].([]any)) < len(codes) {
			t.Errorf("hit %s: matchedCodes %v", id, codes)
		}
		for _, c := range codes {
			if !strings.HasPrefix(c.(map[string]any)["statementCode"].(string), "M1.1.") || !inRanked(stds, c.(map[string]any)["nodeId"].(string)) {
				t.Errorf("matched code %v is not under M1.1", c)
			}
		}
	}
	if txt := errorText(t, cs, "search_learning_components", req(map[string]any{"frameworkIds": []any{english},
		"mode": "learning_component_supported_code_exact", "query": "E1"})); !strings.HasPrefix(txt, "capability_unavailable: ") {
		t.Errorf("component code search without codes: %q", txt)
	}
}

func inRanked(list []ranked, id string) bool {
	for _, r := range list {
		if r.ID == id {
			return true
		}
	}
	return false
}

func TestSearchCursorsAndBadInput(t *testing.T) {
	cs, _ := client(t, images(t))
	first := map[string]any{"frameworkIds": []any{maths}, "mode": "code_prefix", "query": "M1", "limit": 2}
	out, res := call(t, cs, "search_standards", req(first))
	next := continuation(t, res, "search_standards")
	cursor := out["page"].(map[string]any)["nextCursor"].(string)
	again, res2 := call(t, cs, "search_standards", req(first))
	if res.Content[0].(*mcp.TextContent).Text != res2.Content[0].(*mcp.TextContent).Text || again == nil {
		t.Error("the same request gave different bytes")
	}
	raw, _ := base64.RawURLEncoding.DecodeString(cursor)
	tampered := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(raw), `"cursorVersion":1`, `"cursorVersion":2`, 1)))
	lc, resLC := call(t, cs, "search_learning_components", req(map[string]any{"frameworkIds": []any{maths}, "mode": "learning_component_supported_code_prefix", "query": "M1", "limit": 1}))
	if lc == nil || continuation(t, resLC, "search_learning_components") == nil {
		t.Fatal("component search did not page")
	}
	lcCursor := lc["page"].(map[string]any)["nextCursor"]
	for name, edit := range map[string]func(r map[string]any){
		"limit changed":   func(r map[string]any) { r["limit"] = 3 },
		"query changed":   func(r map[string]any) { r["query"] = "M2" },
		"mode changed":    func(r map[string]any) { r["mode"] = "code_exact" },
		"filter added":    func(r map[string]any) { r["normalizedGrades"] = []any{"1"} },
		"checksum broken": func(r map[string]any) { r["cursor"] = tampered },
		"not base64":      func(r map[string]any) { r["cursor"] = cursor[:len(cursor)-1] + "!" },
		"truncated":       func(r map[string]any) { r["cursor"] = cursor[:len(cursor)/2] },
		"other tool's":    func(r map[string]any) { r["cursor"] = lcCursor },
	} {
		r := map[string]any{}
		for k, v := range next {
			r[k] = v
		}
		edit(r)
		txt := errorText(t, cs, "search_standards", req(r))
		if !strings.HasPrefix(txt, "invalid_cursor: ") && !strings.HasPrefix(txt, "Input validation error: ") {
			t.Errorf("%s: %q", name, txt)
		}
		if name != "not base64" && !strings.HasPrefix(txt, "invalid_cursor: ") {
			t.Errorf("%s: %q, want invalid_cursor", name, txt)
		}
	}
	long := strings.Repeat("word ", 33)
	for name, r := range map[string]map[string]any{
		"33 tokens":            {"mode": "text", "query": long, "match": map[string]any{"matchMode": "exact_phrase"}},
		"no tokens":            {"mode": "text", "query": "!!! ???", "match": map[string]any{"matchMode": "exact_phrase"}},
		"match missing":        {"mode": "text", "query": "time"},
		"operator missing":     {"mode": "text", "query": "time", "match": map[string]any{"matchMode": "tokens"}},
		"match on code mode":   {"mode": "code_exact", "query": "M1", "match": map[string]any{"matchMode": "exact_phrase"}},
		"punctuation code":     {"mode": "code_exact", "query": "..."},
		"control character":    {"mode": "code_exact", "query": "M1\x07"},
		"query too long":       {"mode": "code_exact", "query": strings.Repeat("M", 257)},
		"groupings excluded":   {"mode": "code_exact", "query": "M1", "normalizedStatementTypes": []any{"Standard Grouping"}},
		"facet repeat":         {"mode": "code_exact", "query": "M1", "normalizedGrades": []any{"Grade 1", "grade  1"}},
		"blank facet":          {"mode": "code_exact", "query": "M1", "statementTypes": []any{"   "}},
		"prefix is delimiter":  {"frameworkIds": []any{maths}, "mode": "code_prefix", "query": ". ."},
		"unknown field":        {"mode": "code_exact", "query": "M1", "bogus": 1},
		"limit too large":      {"mode": "code_exact", "query": "M1", "limit": 101},
		"duplicate frameworks": {"mode": "code_exact", "query": "M1", "frameworkIds": []any{maths, maths}},
	} {
		if txt := errorText(t, cs, "search_standards", req(r)); !strings.HasPrefix(txt, "Input validation error: ") {
			t.Errorf("%s: %q", name, txt)
		}
	}
	if txt := errorText(t, cs, "search_learning_components", req(map[string]any{"mode": "learning_component_tag", "query": " \t "})); !strings.HasPrefix(txt, "Input validation error: ") {
		t.Errorf("blank tag: %q", txt)
	}
	if out, _ := call(t, cs, "search_standards", req(next)); out == nil {
		t.Fatal("the untouched nextRequest no longer works")
	}
}
