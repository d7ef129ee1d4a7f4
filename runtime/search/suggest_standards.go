package search

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/graph"
)

// A standards search that finds little says why, with the calls that do
// find more (beyond the contract): word forms of the query's words, grouping
// nodes (topics) the default leaves out, the any operator, each filter that
// emptied the result, a grade label read another way. Each suggestion is
// counted by running it, so it never promises what it does not find.

// FewMatches is the most matches a first page may have for suggestions to
// be worked out.
const FewMatches = 2

// maxGroupingExamples bounds the topics a suggestion names.
const maxGroupingExamples = 3

// CountStandards counts q's matches over pkgs (errors count as none); the
// run keeps the best few hits.
func CountStandards(pkgs []*catalog.Package, q StandardQuery) (int, *Run) {
	tokens, queryTerms := QueryTokens(q.Query, q.Mode == "text")
	run := NewRun(false, nil)
	run.KeepTop(nil, false, maxGroupingExamples-1)
	if MatchStandards(run, pkgs, &q, tokens, queryTerms) != nil {
		return 0, run
	}
	return run.Matched, run
}

// StandardSuggestions works out what finds more than q did (found matches),
// and says why nothing was found where it can: words no searched package
// uses (with the close words it does use), an unknown grade label (with the
// known ones), the prefix search an exact code search misses. call renders
// the search_standards call of an alternative query.
func StandardSuggestions(pkgs []*catalog.Package, q StandardQuery, found int, call func(StandardQuery) string) []SearchSuggestion {
	out := []SearchSuggestion{}
	try := func(reason, message string, alt StandardQuery) {
		if n, _ := CountStandards(pkgs, alt); n > found {
			out = append(out, SearchSuggestion{Reason: reason, Message: message, MatchCount: n, Call: call(alt)})
		}
	}
	grades := gradeLabelSuggestions(pkgs, q, found, call)
	out = append(out, grades...)
	switch {
	case q.Mode == "text" && q.MatchMode != "":
		out = append(out, SpellingSuggestions(ItemWords, pkgs, q.Query, found, func(s string) (int, string) {
			alt := q
			alt.Query = s
			n, _ := CountStandards(pkgs, alt)
			return n, call(alt)
		})...)
		out = append(out, textSuggestions(pkgs, q, found, call)...)
	case q.Mode == "code_exact":
		alt := q
		alt.Mode = "code_prefix"
		try("code_prefix", fmt.Sprintf("standards whose codes start with %q (code_prefix)", q.Query), alt)
	}
	for _, f := range activeFilters(q) {
		if f.name == "localGradeLabels" && len(grades) > 0 {
			continue // the grade-label suggestion names the labels and the call
		}
		try("without_filter", "without the "+f.name+" filter", f.without(q))
	}
	return out
}

// textSuggestions are the text-mode calls that find more: other word forms,
// any word instead of all, the grouping nodes (topics) the default leaves
// out.
func textSuggestions(pkgs []*catalog.Package, q StandardQuery, found int, call func(StandardQuery) string) []SearchSuggestion {
	var out []SearchSuggestion
	try := func(reason, message string, alt StandardQuery) {
		if n, _ := CountStandards(pkgs, alt); n > found {
			out = append(out, SearchSuggestion{Reason: reason, Message: message, MatchCount: n, Call: call(alt)})
		}
	}
	if q.MatchMode == "tokens" {
		alt := q
		alt.MatchMode = "stems"
		try("word_forms", "match other forms of the words"+formsNote(pkgs, q.Query), alt)
	}
	if q.MatchMode != "exact_phrase" && q.Operator == "all" && len(distinct(textnorm.Tokens(q.Query))) > 1 {
		alt := q
		alt.Operator = "any"
		try("any_token", "match any of the words, not all", alt)
	}
	if !q.IncludeGroupings {
		alt := q
		alt.IncludeGroupings = true
		alt.NormalizedTypes = []string{groupingType}
		if alt.MatchMode == "tokens" {
			alt.MatchMode = "stems"
		}
		if n, run := CountStandards(pkgs, alt); n > 0 {
			out = append(out, SearchSuggestion{Reason: "groupings", MatchCount: n, Call: call(alt),
				Message: "grouping nodes (topics, strands) match; their standards are their children, which may not repeat the words: " +
					groupingExamples(run)})
		}
	}
	return out
}

// groupingExamples names the best grouping matches with the call that lists
// each one's standards.
func groupingExamples(run *Run) string {
	page, _ := run.Page(false, nil, maxGroupingExamples)
	var parts []string
	for _, h := range page {
		img, n := h.Pkg.Img, h.Node
		id := img.NodeString(n, kgimg.NodeID)
		line, _ := canonjson.Marshal(map[string]any{"request": map[string]any{"snapshotId": h.Pkg.SnapshotID(), "frameworkId": h.Pkg.FrameworkID(),
			"nodeId": id, "includeDescendants": true, "childDepth": 3}})
		parts = append(parts, fmt.Sprintf("%q (%s): get_standard_context %s", graph.PlaceLabel(img, n), id, line))
	}
	return strings.Join(parts, "; ")
}

// formsNote names the other forms of the query's words the packages hold.
func formsNote(pkgs []*catalog.Package, q string) string {
	var forms []string
	for _, t := range distinct(textnorm.Tokens(q)) {
		for _, p := range pkgs {
			for _, f := range wordForms(p.Img.ItemTokensWithPrefix, t)[1:] {
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

// filterField is one active filter of a standards query.
type filterField struct {
	name    string
	without func(StandardQuery) StandardQuery
}

// activeFilters lists q's non-empty record filters (the package selectors
// are not among them: the suggestions search the same packages).
func activeFilters(q StandardQuery) []filterField {
	var out []filterField
	add := func(name string, set bool, clear func(*StandardQuery)) {
		if set {
			out = append(out, filterField{name: name, without: func(x StandardQuery) StandardQuery { clear(&x); return x }})
		}
	}
	add("localGradeLabels", len(q.LocalGradeLabels) > 0, func(x *StandardQuery) { x.LocalGradeLabels = nil })
	add("normalizedGrades", len(q.NormalizedGrades) > 0, func(x *StandardQuery) { x.NormalizedGrades = nil })
	add("statementTypes", len(q.StatementTypes) > 0, func(x *StandardQuery) { x.StatementTypes = nil })
	add("normalizedStatementTypes", len(q.NormalizedTypes) > 0, func(x *StandardQuery) { x.NormalizedTypes = nil })
	add("normalizedSubjects", len(q.NormalizedSubjects) > 0, func(x *StandardQuery) { x.NormalizedSubjects = nil })
	return out
}

// numberWords spells the numbers grade labels write in words.
var numberWords = map[string]string{
	"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
	"nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "first": "1", "second": "2", "third": "3",
	"fourth": "4", "fifth": "5", "sixth": "6", "seventh": "7", "eighth": "8", "ninth": "9", "tenth": "10",
	"eleventh": "11", "twelfth": "12",
}

// gradeLabelSuggestions handles the requested grade labels no searched
// package knows: each is named with the labels the packages do know and,
// where the label read with its number words as digits ("Basic Five" →
// "Basic 5") is one of them, the call with that label, counted. With
// matches found, only the suggestions that find more are kept.
func gradeLabelSuggestions(pkgs []*catalog.Package, q StandardQuery, found int, call func(StandardQuery) string) []SearchSuggestion {
	var out []SearchSuggestion
	var labels []string // the packages' labels, in profile order
	for _, p := range pkgs[:min(len(pkgs), maxSpellPackages)] {
		for _, g := range p.Profile().GradeMappings {
			if !slices.Contains(labels, g.LocalLabel) {
				labels = append(labels, g.LocalLabel)
			}
		}
	}
	knows := func(label string) bool {
		for _, p := range pkgs {
			if len(p.ProfileTargets(kgimg.KeyGradeName, textnorm.Facet(label))) > 0 {
				return true
			}
		}
		return false
	}
	for i, v := range q.LocalGradeLabels {
		if knows(v) {
			continue
		}
		msg := fmt.Sprintf("no searched framework has the grade label %q; its labels: %s", v, strings.Join(labels[:min(len(labels), 24)], ", "))
		guess := ""
		for _, l := range labels {
			if textnorm.Facet(asDigits(v)) == textnorm.Facet(asDigits(l)) {
				guess = l
				break
			}
		}
		if guess == "" {
			out = append(out, SearchSuggestion{Reason: "grade_label", Message: msg})
			continue
		}
		alt := q
		alt.LocalGradeLabels = slices.Clone(q.LocalGradeLabels)
		alt.LocalGradeLabels[i] = guess
		n, _ := CountStandards(pkgs, alt)
		out = append(out, SearchSuggestion{Reason: "grade_label", MatchCount: n, Call: call(alt),
			Message: msg + fmt.Sprintf("; %q reads as %q", v, guess)})
	}
	if found > 0 {
		var kept []SearchSuggestion
		for _, s := range out {
			if s.MatchCount > found {
				kept = append(kept, s)
			}
		}
		out = kept
	}
	return out
}

// asDigits writes a label's number words as digits ("Basic Five" → "basic
// 5").
func asDigits(label string) string {
	words := strings.Fields(strings.ToLower(label))
	for i, w := range words {
		if d, ok := numberWords[w]; ok {
			words[i] = d
		}
	}
	return strings.Join(words, " ")
}
