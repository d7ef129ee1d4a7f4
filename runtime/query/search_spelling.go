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

// spellingSuggestions suggests, for each word of query no package of pkgs
// holds, the package words close to it, each counted by running the
// corrected search (rerun returns its match count and the call that makes
// it); a word with none is reported as unused when nothing was found.
func spellingSuggestions(v search.Vocabulary, pkgs []*catalog.Package, query string, found int, rerun func(query string) (int, string)) []SearchSuggestion {
	var out []SearchSuggestion
	for _, w := range search.UnknownWords(v, pkgs, query) {
		var offered bool
		var stems []string // a word form of a word offered finds what it finds
		for _, c := range search.CloseWords(v, pkgs, w) {
			st := search.LightStem(c.Word)
			if slices.Contains(stems, st) {
				continue
			}
			stems = append(stems, st)
			if n, call := rerun(search.ReplaceWord(query, w, c.Word)); n > found {
				offered = true
				out = append(out, SearchSuggestion{Reason: "spelling", MatchCount: n, Call: call,
					Message: fmt.Sprintf("did you mean %q for %q? (used in %s of the searched frameworks)", c.Word, w, plural(c.Uses, "statement"))})
			}
		}
		if !offered && found == 0 {
			out = append(out, SearchSuggestion{Reason: "absent_words",
				Message: fmt.Sprintf("no %s of the searched frameworks uses %q, nor a word close to it", v.Record, w)})
		}
	}
	return out
}

// plural is n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
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
// "Basic 5") or its digits as words is one of them, the call with that
// label, counted. It returns the suggestions and whether it made any (then
// the plain "without the filter" suggestion is left out).
func gradeLabelSuggestions(pkgs []*catalog.Package, r StandardSearchRequest, found int) []SearchSuggestion {
	var out []SearchSuggestion
	var labels []string // the packages' labels, in profile order
	for _, p := range pkgs[:min(len(pkgs), search.MaxSpellPackages)] {
		for _, g := range p.Profile().GradeMappings {
			if !contains(labels, g.LocalLabel) {
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
