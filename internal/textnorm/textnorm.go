// Package textnorm holds the versioned text normalisations of the contract
// (docs/reference/tools.md#search_standards): facet keys (facet_nfkc_casefold_whitespace_v1) and lexical
// tokens (lexical_nfkc_casefold_tokens_v1). Compiler and server use these same
// functions, so a key built at compile time matches a query at run time.
package textnorm

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Normaliser versions, part of every index hash.
const (
	FacetVersion   = "facet_nfkc_casefold_whitespace_v1"
	LexicalVersion = "lexical_nfkc_casefold_tokens_v1"
)

var folder = cases.Fold()

// fold applies NFKC then full Unicode case folding. On ASCII text both are
// the lower-casing of A to Z (NFKC changes no ASCII character, and case
// folding maps no ASCII character but the capitals, to ASCII), done without
// the two transformers (a million-standard compile folds every description).
func fold(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	return folder.String(norm.NFKC.String(s))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Facet returns the facet comparison key: NFKC, case fold, whitespace runs
// collapsed to one space, trimmed. Punctuation is kept.
func Facet(s string) string {
	return strings.Join(strings.FieldsFunc(fold(s), unicode.IsSpace), " ")
}

// Tokens returns the lexical tokens of s: after NFKC and case folding, the maximal
// runs of characters whose general category is L, M or N. No stemming, no stop
// words; repeats are kept.
func Tokens(s string) []string {
	if isASCII(s) {
		return asciiTokens(strings.ToLower(s))
	}
	return strings.FieldsFunc(fold(s), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r))
	})
}

// asciiTokens is Tokens' split of folded ASCII text: the runs of letters
// and digits (the only ASCII characters of categories L, M and N), as
// strings.FieldsFunc returns them.
func asciiTokens(s string) []string {
	word := func(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }
	n := 0
	for i := 0; i < len(s); i++ {
		if word(s[i]) && (i == 0 || !word(s[i-1])) {
			n++
		}
	}
	out := make([]string, 0, n)
	for i := 0; i < len(s); {
		if !word(s[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && word(s[j]) {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}
