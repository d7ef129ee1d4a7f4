// Package textnorm holds the versioned text normalisations of the contract
// (docs/reference/tools.md#search_standards): facet keys (facet_nfkc_casefold_whitespace_v1) and lexical
// tokens (lexical_nfkc_casefold_tokens_v1). Compiler and server use these same
// functions, so a key built at compile time matches a query at run time.
package textnorm

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Normaliser versions, part of every index hash.
const (
	FacetVersion   = "facet_nfkc_casefold_whitespace_v1"
	LexicalVersion = "lexical_nfkc_casefold_tokens_v1"
)

var folder = cases.Fold()

// fold applies NFKC then full Unicode case folding.
func fold(s string) string {
	return folder.String(norm.NFKC.String(s))
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
	return strings.FieldsFunc(fold(s), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r))
	})
}
