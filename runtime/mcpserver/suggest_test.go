package mcpserver_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFewMatchesSuggestWhatFindsMore: a search with few or no matches lists
// calls that find more, in its structure and its text; each call, made
// exactly as written, finds exactly the matches it promised.
func TestFewMatchesSuggestWhatFindsMore(t *testing.T) {
	cs, _ := client(t, images(t))
	for _, c := range []struct {
		query, matchMode, operator string
		grades                     []string
		reasons                    []string
	}{
		{"counts", "tokens", "all", nil, []string{"word_forms"}},
		{"count money dragons", "tokens", "all", nil, []string{"any_token", "absent_words"}},
		{"money step 3", "exact_phrase", "", []string{"GRADE ONE"}, []string{"without_filter"}},
		{"substraction", "tokens", "all", nil, []string{"spelling"}},
		{"counting", "stems", "all", []string{"Grade 2"}, []string{"grade_label"}},
		{"M1.1", "code_exact", "", nil, []string{"code_prefix"}},
	} {
		match := map[string]any{"matchMode": c.matchMode}
		if c.operator != "" {
			match["operator"] = c.operator
		}
		r := map[string]any{"mode": "text", "query": c.query, "match": match}
		if c.matchMode == "code_exact" {
			r = map[string]any{"mode": "code_exact", "query": c.query}
		}
		if c.grades != nil {
			r["localGradeLabels"] = c.grades
		}
		out, res := call(t, cs, "search_standards", req(r))
		page := out["page"].(map[string]any)
		found := int(page["totalMatchingCount"].(float64))
		sugs := page["suggestions"].([]any)
		if text := res.Content[0].(*mcp.TextContent).Text; len(sugs) > 0 && !strings.Contains(text, "To find more:") {
			t.Errorf("%q: the text does not offer the suggestions:\n%s", c.query, text)
		}
		var reasons []string
		for _, x := range sugs {
			s := x.(map[string]any)
			reasons = append(reasons, s["reason"].(string))
			if s["call"] == "" { // a finding: why nothing was found
				if text := res.Content[0].(*mcp.TextContent).Text; s["reason"] != "absent_words" || !strings.Contains(text, "Note: "+s["message"].(string)) {
					t.Errorf("%q: a suggestion without a call: %v\n%s", c.query, s, text)
				}
				continue
			}
			tool, args, ok := strings.Cut(s["call"].(string), " ")
			var a map[string]any
			if !ok || json.Unmarshal([]byte(args), &a) != nil {
				t.Fatalf("%q: suggestion %v is not a call", c.query, s)
			}
			got, _ := call(t, cs, tool, a)
			if got == nil {
				t.Errorf("%q: suggested call %s fails", c.query, s["call"])
				continue
			}
			n := int(got["page"].(map[string]any)["totalMatchingCount"].(float64))
			if want := int(s["matchCount"].(float64)); n != want || n <= found {
				t.Errorf("%q: %s promised %d matches (the search found %d), the call finds %d", c.query, s["reason"], want, found, n)
			}
		}
		for _, want := range c.reasons {
			if !contains(reasons, want) {
				t.Errorf("%q (%d found): suggestions %v, want %s among them", c.query, found, reasons, want)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
