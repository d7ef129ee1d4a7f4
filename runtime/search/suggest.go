package search

import (
	"fmt"
	"slices"

	"github.com/kgc-project/kgc/runtime/catalog"
)

// SpellingSuggestions suggests, for each word of query no package of pkgs
// holds, the package words close to it, each counted by running the
// corrected search (rerun returns its match count and the call that makes
// it); a word with none is reported as unused when nothing was found.
func SpellingSuggestions(v Vocabulary, pkgs []*catalog.Package, query string, found int, rerun func(query string) (int, string)) []SearchSuggestion {
	var out []SearchSuggestion
	for _, w := range unknownWords(v, pkgs, query) {
		var offered bool
		var stems []string // a word form of a word offered finds what it finds
		for _, c := range closeWords(v, pkgs, w) {
			st := lightStem(c.Word)
			if slices.Contains(stems, st) {
				continue
			}
			stems = append(stems, st)
			if n, call := rerun(replaceWord(query, w, c.Word)); n > found {
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

// SearchSuggestion is a call that finds more than the search did.
type SearchSuggestion struct {
	// Reason is spelling (a close word the packages use), absent_words (no
	// standard uses the word: no call), grade_label (an unknown label: the
	// known ones, and the call with the one it reads as), code_prefix,
	// word_forms, groupings, any_token or without_filter.
	Reason     string `json:"reason" enum:"spelling,absent_words,grade_label,code_prefix,word_forms,groupings,any_token,without_filter"`
	Message    string `json:"message"`
	MatchCount int    `json:"matchCount"`
	// Call is the exact call to make: a tool name and its arguments as
	// one line of JSON ("" when there is none to make).
	Call string `json:"call"`
}
