package query

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/graph"
	"github.com/kgc-project/kgc/runtime/search"
)

// A search that finds little says why, with the calls that do find more
// (beyond the contract): word forms of the query's words, grouping nodes
// (topics) the default leaves out, the any operator, and each filter that
// emptied the result. Each suggestion is counted by running it, so it never
// promises what it does not find.

// fewMatches is the most matches a first page may have for suggestions to
// be worked out.
const fewMatches = 2

// maxGroupingExamples bounds the topics a suggestion names.
const maxGroupingExamples = 3

// countStandards counts r's matches over pkgs (errors count as none).
func countStandards(pkgs []*catalog.Package, r StandardSearchRequest) (int, *searchRun) {
	tokens, queryTerms := queryTokens(r.Query, r.Mode == "text")
	run := &searchRun{normalized: map[string]string{}}
	run.keepTop(nil, false, maxGroupingExamples-1)
	if matchStandards(run, pkgs, &r, tokens, queryTerms) != nil {
		return 0, run
	}
	return run.Matched, run
}

// callLine is a suggested call: the tool and its request, defaults left out
// where they are zero, cursor never.
func callLine(tool string, request any) string {
	b, err := canonjson.Marshal(map[string]any{"request": request})
	if err != nil {
		return tool
	}
	return tool + " " + string(b)
}

// standardSuggestions works out what finds more than r did (found matches),
// and says why nothing was found where it can: words no searched package
// uses (with the close words it does use), an unknown grade label (with the
// known ones), the prefix search an exact code search misses.
func standardSuggestions(pkgs []*catalog.Package, r StandardSearchRequest, found int) []SearchSuggestion {
	out := []SearchSuggestion{}
	r.Cursor = nil
	try := func(reason, message string, alt StandardSearchRequest) {
		if n, _ := countStandards(pkgs, alt); n > found {
			out = append(out, SearchSuggestion{Reason: reason, Message: message, MatchCount: n, Call: callLine("search_standards", alt)})
		}
	}
	grades := gradeLabelSuggestions(pkgs, r, found)
	out = append(out, grades...)
	switch {
	case r.Mode == "text" && r.Match != nil:
		out = append(out, search.SpellingSuggestions(search.ItemWords, pkgs, r.Query, found, func(q string) (int, string) {
			alt := r
			alt.Query = q
			n, _ := countStandards(pkgs, alt)
			return n, callLine("search_standards", alt)
		})...)
		out = append(out, textSuggestions(pkgs, r, found)...)
	case r.Mode == SearchCodeExact:
		alt := r
		alt.Mode = SearchCodePrefix
		try("code_prefix", fmt.Sprintf("standards whose codes start with %q (code_prefix)", r.Query), alt)
	}
	for _, f := range activeFilters(r) {
		if f.name == "localGradeLabels" && len(grades) > 0 {
			continue // the grade-label suggestion names the labels and the call
		}
		alt := f.without(r)
		try("without_filter", "without the "+f.name+" filter", alt)
	}
	return out
}

// textSuggestions are the text-mode calls that find more: other word forms,
// any word instead of all, the grouping nodes (topics) the default leaves
// out.
func textSuggestions(pkgs []*catalog.Package, r StandardSearchRequest, found int) []SearchSuggestion {
	var out []SearchSuggestion
	try := func(reason, message string, alt StandardSearchRequest) {
		if n, _ := countStandards(pkgs, alt); n > found {
			out = append(out, SearchSuggestion{Reason: reason, Message: message, MatchCount: n, Call: callLine("search_standards", alt)})
		}
	}
	if r.Match.MatchMode == "tokens" {
		alt := r
		alt.Match = &MatchPolicy{MatchMode: "stems", Operator: r.Match.Operator}
		try("word_forms", "match other forms of the words"+formsNote(pkgs, r.Query), alt)
	}
	if r.Match.MatchMode != "exact_phrase" && r.Match.operator() == "all" && len(search.Distinct(textnorm.Tokens(r.Query))) > 1 {
		alt := r
		alt.Match = &MatchPolicy{MatchMode: r.Match.MatchMode, Operator: ptr(OperatorAny)}
		try("any_token", "match any of the words, not all", alt)
	}
	if !r.IncludeGroupings {
		alt := r
		alt.IncludeGroupings = true
		alt.NormalizedStatementTypes = []string{"Standard Grouping"}
		if alt.Match.MatchMode == "tokens" {
			alt.Match = &MatchPolicy{MatchMode: "stems", Operator: r.Match.Operator}
		}
		if n, run := countStandards(pkgs, alt); n > 0 {
			out = append(out, SearchSuggestion{Reason: "groupings", MatchCount: n, Call: callLine("search_standards", alt),
				Message: "grouping nodes (topics, strands) match; their standards are their children, which may not repeat the words: " +
					groupingExamples(run)})
		}
	}
	return out
}

// groupingExamples names the best grouping matches with the call that lists
// each one's standards.
func groupingExamples(run *searchRun) string {
	page, _ := run.Page(false, nil, maxGroupingExamples)
	var parts []string
	for _, h := range page {
		img, n := h.Pkg.Img, h.Node
		id := img.NodeString(n, kgimg.NodeID)
		parts = append(parts, fmt.Sprintf("%q (%s): get_standard_context %s", graph.PlaceLabel(img, n), id,
			mustLine(map[string]any{"request": map[string]any{"snapshotId": h.Pkg.SnapshotID(), "frameworkId": h.Pkg.FrameworkID(),
				"nodeId": id, "includeDescendants": true, "childDepth": 3}})))
	}
	return strings.Join(parts, "; ")
}

func mustLine(v any) string {
	b, _ := canonjson.Marshal(v)
	return string(b)
}

// formsNote names the other forms of the query's words the packages hold.
func formsNote(pkgs []*catalog.Package, q string) string {
	var forms []string
	for _, t := range search.Distinct(textnorm.Tokens(q)) {
		for _, p := range pkgs {
			for _, f := range search.WordForms(p.Img.ItemTokensWithPrefix, t)[1:] {
				if !slices.Contains(forms, f) {
					forms = append(forms, f)
				}
			}
		}
	}
	if len(forms) == 0 {
		return ""
	}
	return " (" + strings.Join(forms[:min(len(forms), 8)], ", ") + ")"
}

func ptr[T any](v T) *T { return &v }

// filterField is one active filter of a search request.
type filterField struct {
	name    string
	without func(StandardSearchRequest) StandardSearchRequest
}

// activeFilters lists r's non-empty record filters (the package selectors
// are not among them: the suggestions search the same packages).
func activeFilters(r StandardSearchRequest) []filterField {
	var out []filterField
	add := func(name string, set bool, clear func(*StandardSearchRequest)) {
		if set {
			out = append(out, filterField{name: name, without: func(x StandardSearchRequest) StandardSearchRequest { clear(&x); return x }})
		}
	}
	add("localGradeLabels", len(r.LocalGradeLabels) > 0, func(x *StandardSearchRequest) { x.LocalGradeLabels = nil })
	add("normalizedGrades", len(r.NormalizedGrades) > 0, func(x *StandardSearchRequest) { x.NormalizedGrades = nil })
	add("statementTypes", len(r.StatementTypes) > 0, func(x *StandardSearchRequest) { x.StatementTypes = nil })
	add("normalizedStatementTypes", len(r.NormalizedStatementTypes) > 0, func(x *StandardSearchRequest) { x.NormalizedStatementTypes = nil })
	add("normalizedSubjects", len(r.NormalizedSubjects) > 0, func(x *StandardSearchRequest) { x.NormalizedSubjects = nil })
	return out
}

// A grouping hit of search_standards (a topic, a strand, a chapter) names
// its direct children (beyond the contract): a topic's objectives often do
// not repeat the words that found the topic, and "which objectives cover
// this" should need no get_standard_context. The lists are bounded, per hit
// and per page, so that a page of groupings stays small; a count says how
// many children each grouping has in all.
