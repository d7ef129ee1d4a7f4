package query

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/search"
)

// A query word that no searched package holds, in any form, is most often a
// typo ("multiplcation") or a word of another subject ("photosynthesis" in
// mathematics). Either way the answer says so: the package's own words
// within a small edit distance, ranked by how many standards use them, each
// with the ready call; or that no standard uses the word.

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
// "Basic 5") or its digits as words is one of them, the call with that
// label, counted. It returns the suggestions and whether it made any (then
// the plain "without the filter" suggestion is left out).
func gradeLabelSuggestions(pkgs []*catalog.Package, r StandardSearchRequest, found int) []SearchSuggestion {
	var out []SearchSuggestion
	var labels []string // the packages' labels, in profile order
	for _, p := range pkgs[:min(len(pkgs), search.MaxSpellPackages)] {
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
	for i, v := range r.LocalGradeLabels {
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
		alt := r
		alt.LocalGradeLabels = append([]string(nil), r.LocalGradeLabels...)
		alt.LocalGradeLabels[i] = guess
		n, _ := countStandards(pkgs, alt)
		out = append(out, SearchSuggestion{Reason: "grade_label", MatchCount: n, Call: callLine("search_standards", alt),
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
