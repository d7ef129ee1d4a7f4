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

func inRanked(list []ranked, id string) bool {
	for _, r := range list {
		if r.ID == id {
			return true
		}
	}
	return false
}
