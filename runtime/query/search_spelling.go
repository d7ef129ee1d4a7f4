package query

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// A query word that no searched package holds, in any form, is most often a
// typo ("multiplcation") or a word of another subject ("photosynthesis" in
// mathematics). Either way the answer says so: the package's own words
// within a small edit distance, ranked by how many standards use them, each
// with the ready call; or that no standard uses the word.

// Spelling bounds.
const (
	// maxSpellPackages bounds the packages whose vocabulary one suggestion
	// scans (a federated search over more suggests no spelling).
	maxSpellPackages = 16
	// maxSpellWords bounds the replacements suggested per unknown word.
	maxSpellWords = 3
)

// vocabulary is the words of one kind of record a package's search index
// holds: the standards' (items) or the learning components'.
type vocabulary struct {
	record   string // what holds the words, as a sentence names it
	count    func(img *kgimg.Image) int
	at       func(img *kgimg.Image, i int) ([]byte, int)
	lookup   func(img *kgimg.Image, token string) (kgimg.U32s, bool)
	prefixed func(img *kgimg.Image) func(prefix string, max int) []string
}

// The two vocabularies.
var (
	itemWords = vocabulary{
		record:   "standard",
		count:    (*kgimg.Image).ItemTokenCount,
		at:       (*kgimg.Image).ItemTokenAt,
		lookup:   (*kgimg.Image).ItemToken,
		prefixed: func(img *kgimg.Image) func(string, int) []string { return img.ItemTokensWithPrefix },
	}
	componentWords = vocabulary{
		record:   "learning component",
		count:    (*kgimg.Image).ComponentTokenCount,
		at:       (*kgimg.Image).ComponentTokenAt,
		lookup:   (*kgimg.Image).ComponentToken,
		prefixed: func(img *kgimg.Image) func(string, int) []string { return img.ComponentTokensWithPrefix },
	}
)

// unknownWords returns the query's distinct tokens that no package of pkgs
// holds in vocabulary v, neither as written nor in another form.
func unknownWords(v vocabulary, pkgs []*catalog.Package, query string) []string {
	var out []string
	for _, t := range distinct(textnorm.Tokens(query)) {
		known := false
		for _, p := range pkgs {
			if _, ok := v.lookup(p.Img, t); ok || len(wordForms(v.prefixed(p.Img), t)) > 1 {
				known = true
				break
			}
		}
		if !known {
			out = append(out, t)
		}
	}
	return out
}

// closeWord is a word of the packages near an unknown one and how many
// standards (items) use it.
type closeWord struct {
	word  string
	uses  int
	edits int
}

// closeWords returns the words of pkgs' item descriptions within the edit
// distance allowed for w (1 up to 5 letters, 2 beyond; 0 below 3 letters),
// the most used first (then the nearer, then in word order), at most
// maxSpellWords.
func closeWords(v vocabulary, pkgs []*catalog.Package, w string) []closeWord {
	target := []rune(w)
	limit := 1
	switch {
	case len(target) < 3:
		return nil
	case len(target) > 5:
		limit = 2
	}
	found := map[string]*closeWord{}
	var buf []rune
	for _, p := range pkgs[:min(len(pkgs), maxSpellPackages)] {
		img := p.Img
		for i := range v.count(img) {
			tok, uses := v.at(img, i)
			n := utf8.RuneCount(tok)
			if n < len(target)-limit || n > len(target)+limit {
				continue
			}
			buf = append(buf[:0], []rune(string(tok))...)
			d := editDistance(target, buf, limit)
			if d > limit {
				continue
			}
			if c := found[string(tok)]; c != nil {
				c.uses += uses
			} else {
				found[string(tok)] = &closeWord{word: string(tok), uses: uses, edits: d}
			}
		}
	}
	out := make([]closeWord, 0, len(found))
	for _, c := range found {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.uses != b.uses {
			return a.uses > b.uses
		}
		if a.edits != b.edits {
			return a.edits < b.edits
		}
		return a.word < b.word
	})
	return out[:min(len(out), maxSpellWords)]
}

// editDistance is the optimal-string-alignment distance of a and b (a
// transposition of neighbours counts one edit), or limit+1 as soon as it
// must exceed limit.
func editDistance(a, b []rune, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			best = min(best, v)
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// replaceWord rewrites a query with one of its tokens replaced (the tokens
// joined by spaces: the same query to every search mode).
func replaceWord(query, from, to string) string {
	toks := textnorm.Tokens(query)
	for i, t := range toks {
		if t == from {
			toks[i] = to
		}
	}
	return strings.Join(toks, " ")
}

// spellingSuggestions suggests, for each word of query no package of pkgs
// holds, the package words close to it, each counted by running the
// corrected search (rerun returns its match count and the call that makes
// it); a word with none is reported as unused when nothing was found.
func spellingSuggestions(v vocabulary, pkgs []*catalog.Package, query string, found int, rerun func(query string) (int, string)) []SearchSuggestion {
	var out []SearchSuggestion
	for _, w := range unknownWords(v, pkgs, query) {
		var offered bool
		var stems []string // a word form of a word offered finds what it finds
		for _, c := range closeWords(v, pkgs, w) {
			st := lightStem(c.word)
			if slices.Contains(stems, st) {
				continue
			}
			stems = append(stems, st)
			if n, call := rerun(replaceWord(query, w, c.word)); n > found {
				offered = true
				out = append(out, SearchSuggestion{Reason: "spelling", MatchCount: n, Call: call,
					Message: fmt.Sprintf("did you mean %q for %q? (used in %s of the searched frameworks)", c.word, w, plural(c.uses, "statement"))})
			}
		}
		if !offered && found == 0 {
			out = append(out, SearchSuggestion{Reason: "absent_words",
				Message: fmt.Sprintf("no %s of the searched frameworks uses %q, nor a word close to it", v.record, w)})
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
	for _, p := range pkgs[:min(len(pkgs), maxSpellPackages)] {
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
