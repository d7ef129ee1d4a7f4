package textview

import (
	"strings"
	"testing"

	"github.com/kgc-project/kgc/runtime/query"
)

func TestClipFlattensAndMarksTheCut(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"a\n  b\tc", 10, "a b c"},
		{"abcdefghij", 5, "abcd…"},
		{"ünïcödé text", 4, "ünï…"},
		{"word   ", 3, "wo…"},
	} {
		if got := clip(c.in, c.n); got != c.want {
			t.Errorf("clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestPluralAndMarkers(t *testing.T) {
	for in, want := range map[string]string{plural(1, "match"): "1 match", plural(2, "match"): "2 matches",
		plural(0, "hit"): "0 hits", plural(3, "class"): "3 classes", marker(0): "A", marker(25): "Z", marker(26): "AA", marker(27): "AB"} {
		if in != want {
			t.Errorf("got %q, want %q", in, want)
		}
	}
}

func TestPathLeavesOutRootAndRecord(t *testing.T) {
	long := strings.Repeat("x", 200)
	got := path([]string{"Root", "GRADE ONE", long, "the record"})
	if !strings.HasPrefix(got, "GRADE ONE > ") || strings.Contains(got, "Root") || strings.Contains(got, "the record") || !strings.HasSuffix(got, "…") {
		t.Errorf("path = %q", got)
	}
	if path([]string{"Root", "record"}) != "" {
		t.Error("a top-level record has no path")
	}
}

func TestRenderIsDeterministicAndKnowsItsResults(t *testing.T) {
	if _, ok := Render(&query.WorkflowResult{}, nil); ok {
		t.Error("a JSON-text result was rendered")
	}
	desc := "Count to 10"
	r := &query.StandardResult{Node: query.StandardNode{Description: &desc}, StandardURI: "kgfegmcp://x/standard/n1"}
	r.Node.NodeID = "n1"
	a, ok := Render(r, nil)
	b, _ := Render(r, nil)
	if !ok || a != b || !strings.Contains(a, "n1") || !strings.Contains(a, "Count to 10") || !strings.Contains(a, "kgfegmcp://x/standard/n1") {
		t.Errorf("render: %q", a)
	}
}

func TestAppendLinksAddsOnlyWhatTheTextLacks(t *testing.T) {
	text := "Cite: kgfegmcp://a\n"
	got := AppendLinks(text, []query.Link{{URI: "kgfegmcp://a", Title: "A"}, {URI: "kgfegmcp://b", Title: "B"}})
	if strings.Count(got, "kgfegmcp://a") != 1 || !strings.Contains(got, "Also readable: B kgfegmcp://b\n") {
		t.Errorf("AppendLinks: %q", got)
	}
}
