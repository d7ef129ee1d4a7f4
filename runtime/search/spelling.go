package search

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// A query word that no searched package holds, in any form, is most often a
// typo ("multiplcation") or a word of another subject ("photosynthesis" in
// mathematics). closeWords finds the package's own words within a small edit
// distance, ranked by how many records use them.

// Spelling bounds.
const (
	// maxSpellPackages bounds the packages whose vocabulary one suggestion
	// scans (a federated search over more suggests no spelling).
	maxSpellPackages = 16
	// maxSpellWords bounds the replacements suggested per unknown word.
	maxSpellWords = 3
)

// Vocabulary is the words of one kind of record a package's search index
// holds: the standards' (items) or the learning components'.
type Vocabulary struct {
	Record   string // what holds the words, as a sentence names it
	Count    func(img *kgimg.Image) int
	At       func(img *kgimg.Image, i int) ([]byte, int)
	Lookup   func(img *kgimg.Image, token string) (kgimg.U32s, bool)
	Prefixed func(img *kgimg.Image) func(prefix string, max int) []string
}

// The two vocabularies.
var (
	ItemWords = Vocabulary{
		Record:   "standard",
		Count:    (*kgimg.Image).ItemTokenCount,
		At:       (*kgimg.Image).ItemTokenAt,
		Lookup:   (*kgimg.Image).ItemToken,
		Prefixed: func(img *kgimg.Image) func(string, int) []string { return img.ItemTokensWithPrefix },
	}
	ComponentWords = Vocabulary{
		Record:   "learning component",
		Count:    (*kgimg.Image).ComponentTokenCount,
		At:       (*kgimg.Image).ComponentTokenAt,
		Lookup:   (*kgimg.Image).ComponentToken,
		Prefixed: func(img *kgimg.Image) func(string, int) []string { return img.ComponentTokensWithPrefix },
	}
)

// unknownWords returns the query's distinct tokens that no package of pkgs
// holds in vocabulary v, neither as written nor in another form.
func unknownWords(v Vocabulary, pkgs []*catalog.Package, query string) []string {
	var out []string
	for _, t := range distinct(textnorm.Tokens(query)) {
		known := false
		for _, p := range pkgs {
			if _, ok := v.Lookup(p.Img, t); ok || len(wordForms(v.Prefixed(p.Img), t)) > 1 {
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
	Word  string
	Uses  int
	Edits int
}

// closeWords returns the words of pkgs' item descriptions within the edit
// distance allowed for w (1 up to 5 letters, 2 beyond; 0 below 3 letters),
// the most used first (then the nearer, then in word order), at most
// maxSpellWords.
func closeWords(v Vocabulary, pkgs []*catalog.Package, w string) []closeWord {
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
		for i := range v.Count(img) {
			tok, uses := v.At(img, i)
			n := utf8.RuneCount(tok)
			if n < len(target)-limit || n > len(target)+limit {
				continue
			}
			buf = append(buf[:0], []rune(string(tok))...)
			d := EditDistance(target, buf, limit)
			if d > limit {
				continue
			}
			if c := found[string(tok)]; c != nil {
				c.Uses += uses
			} else {
				found[string(tok)] = &closeWord{Word: string(tok), Uses: uses, Edits: d}
			}
		}
	}
	out := make([]closeWord, 0, len(found))
	for _, c := range found {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Uses != b.Uses {
			return a.Uses > b.Uses
		}
		if a.Edits != b.Edits {
			return a.Edits < b.Edits
		}
		return a.Word < b.Word
	})
	return out[:min(len(out), maxSpellWords)]
}

// EditDistance is the optimal-string-alignment distance of a and b (a
// transposition of neighbours counts one edit), or limit+1 as soon as it
// must exceed limit.
func EditDistance(a, b []rune, limit int) int {
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
