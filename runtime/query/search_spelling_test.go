package query

import (
	"context"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/runtime/search"
)

// TestEmptySearchesSayWhy: a search that finds nothing is never silent. A
// misspelt word gets the package's close words, each counted and with its
// call; a word no standard uses is said to be absent; an exact code that
// only begins codes gets the prefix search; an unknown grade label gets the
// package's labels and the one it reads as; a comparison with a misspelt
// word gets the comparison again. Every suggested call finds what it says.
func TestEmptySearchesSayWhy(t *testing.T) {
	s := New(sampleCatalog(t), Options{})
	ctx := context.Background()
	const maths = "kgc-sample-mathematics-grades-1-3"
	search := func(r StandardSearchRequest) *SearchResult[StandardHit] {
		t.Helper()
		res, err := s.SearchStandards(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	text := func(q string) StandardSearchRequest { return NewStandardSearchRequest(q, maths) }
	reasons := func(ss []SearchSuggestion) (out []string) {
		for _, x := range ss {
			out = append(out, x.Reason+": "+x.Message)
		}
		return out
	}
	find := func(res *SearchResult[StandardHit], reason, needle string) SearchSuggestion {
		t.Helper()
		for _, x := range res.Page.Suggestions {
			if x.Reason == reason && strings.Contains(x.Message, needle) {
				return x
			}
		}
		t.Fatalf("no %s suggestion with %q: %v", reason, needle, reasons(res.Page.Suggestions))
		return SearchSuggestion{}
	}

	typo := search(text("substraction"))
	if typo.Page.TotalMatchingCount != 0 {
		t.Fatalf("%q found %d", "substraction", typo.Page.TotalMatchingCount)
	}
	sp := find(typo, "spelling", `did you mean "subtraction" for "substraction"?`)
	fixed := search(text("subtraction"))
	if sp.MatchCount != fixed.Page.TotalMatchingCount || sp.MatchCount == 0 || !strings.Contains(sp.Call, `"query":"subtraction"`) {
		t.Errorf("spelling suggestion %+v: the corrected search finds %d", sp, fixed.Page.TotalMatchingCount)
	}

	absent := search(text("photosynthesis"))
	if x := find(absent, "absent_words", `"photosynthesis"`); x.Call != "" || x.MatchCount != 0 {
		t.Errorf("an absent word offers a call: %+v", x)
	}

	code := search(NewCodeSearchRequest(SearchCodeExact, "M1.1", maths))
	cp := find(code, "code_prefix", `"M1.1"`)
	prefix := search(NewCodeSearchRequest(SearchCodePrefix, "M1.1", maths))
	if code.Page.TotalMatchingCount != 0 || cp.MatchCount != prefix.Page.TotalMatchingCount || cp.MatchCount == 0 {
		t.Errorf("code_prefix suggestion %+v; the prefix search finds %d", cp, prefix.Page.TotalMatchingCount)
	}

	graded := text("counting")
	graded.LocalGradeLabels = []string{"Grade 2"}
	g := find(search(graded), "grade_label", `"Grade 2" reads as "GRADE TWO"`)
	graded.LocalGradeLabels = []string{"GRADE TWO"}
	if !strings.Contains(g.Message, "GRADE ONE, GRADE TWO, GRADE THREE") || g.MatchCount != search(graded).Page.TotalMatchingCount || g.MatchCount == 0 {
		t.Errorf("grade label suggestion %+v", g)
	}
	graded.LocalGradeLabels = []string{"Year Nine"}
	if x := find(search(graded), "grade_label", `"Year Nine"`); x.Call != "" {
		t.Errorf("a label that reads as none offers a call: %+v", x)
	}

	lc, err := s.SearchComponents(ctx, NewComponentSearchRequest("countng", maths))
	if err != nil {
		t.Fatal(err)
	}
	fixedLC, err := s.SearchComponents(ctx, NewComponentSearchRequest("counting", maths))
	if err != nil {
		t.Fatal(err)
	}
	if ss := lc.Page.Suggestions; len(ss) == 0 || ss[0].Reason != "spelling" || !strings.HasPrefix(ss[0].Call, "search_learning_components ") ||
		ss[0].MatchCount != fixedLC.Page.TotalMatchingCount || ss[0].MatchCount == 0 {
		t.Errorf("component spelling suggestions %+v; the corrected search finds %d", ss, fixedLC.Page.TotalMatchingCount)
	}

	cmp, err := s.CompareFrameworkEvidence(ctx, NewCompareRequest("substraction", maths, "kgc-sample-english-grades-1-2"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Suggestions) == 0 || cmp.Suggestions[0].Reason != "spelling" || !strings.HasPrefix(cmp.Suggestions[0].Call, "compare_framework_evidence ") ||
		!strings.Contains(cmp.Suggestions[0].Call, `"query":"subtraction"`) {
		t.Errorf("comparison suggestions %+v", cmp.Suggestions)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"multiplcation", "multiplication", 2, 1}, {"teh", "the", 1, 1}, {"measurment", "measurement", 2, 1},
		{"abc", "abc", 1, 0}, {"fraction", "friction", 1, 1}, {"photosynthesis", "hypothesis", 2, 3}, {"ab", "abcd", 1, 2},
	} {
		if got := search.EditDistance([]rune(c.a), []rune(c.b), c.limit); got != c.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
	}
}
