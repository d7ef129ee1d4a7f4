package search

import (
	"sort"
	"strings"

	"github.com/kgc-project/kgc/kgimg"
)

// Light word forms: the opt-in "stems" match mode and the suggestions of a
// search that found little. Two lexical tokens are forms of one word when
// LightStem reduces them to the same stem; the forms of a query token are
// the index's tokens that do. This is deliberately light (English plural,
// -ing/-ed, a few derivational endings): it widens a query, it never
// replaces the contract's exact-token ranking, which stays the default.

// minStem is the shortest stem a rule may leave.
const minStem = 3

// suffixRules reduce a token, first match wins: plurals, then derivational
// and inflectional endings, each to what replaces it.
var suffixRules = []struct{ suffix, with string }{
	{"ications", "y"}, {"ication", "y"}, // multiplication → multiply
	{"itions", ""}, {"ition", ""}, // addition → add
	{"ations", "e"}, {"ation", "e"}, // estimation → estimate
	{"tions", "t"}, {"tion", "t"}, // subtraction → subtract
	{"sions", "de"}, {"sion", "de"}, // division → divide
	{"ments", ""}, {"ment", ""}, // measurement → measure
	{"ings", ""}, {"ing", ""}, // counting → count
	{"ies", "y"}, // quantities → quantity
	{"ches", "ch"}, {"shes", "sh"}, {"xes", "x"}, {"sses", "ss"},
	{"ed", ""}, // added → add
	{"s", ""},  // numbers → number
}

// lightStem reduces a lexical token to its light stem: one suffix rule,
// then a final e dropped and a final y spelled i, so that compare,
// compared and comparing, or multiply and multiplication, meet.
func lightStem(t string) string {
	for _, r := range suffixRules {
		if strings.HasSuffix(t, r.suffix) && len(t)-len(r.suffix)+len(r.with) >= minStem {
			if r.suffix == "s" && (strings.HasSuffix(t, "ss") || strings.HasSuffix(t, "us") || strings.HasSuffix(t, "is")) {
				continue
			}
			t = t[:len(t)-len(r.suffix)] + r.with
			break
		}
	}
	if len(t) > minStem && strings.HasSuffix(t, "e") {
		t = t[:len(t)-1]
	}
	if len(t) > minStem && strings.HasSuffix(t, "y") {
		t = t[:len(t)-1] + "i"
	}
	return t
}

// Bounds of a word-form lookup: the index tokens scanned per query token and
// the forms kept.
const (
	maxFormScan = 2000
	maxForms    = 16
)

// wordForms returns the index's tokens that are forms of token (token
// itself first when the index has it), read through prefixes: the tokens
// sharing the stem's first four characters (or the whole stem, if shorter).
func wordForms(prefixed func(prefix string, max int) []string, token string) []string {
	stem := lightStem(token)
	if len([]rune(stem)) < minStem {
		return []string{token}
	}
	prefix := stem
	if r := []rune(stem); len(r) > 4 {
		prefix = string(r[:4])
	}
	var forms []string
	for _, t := range prefixed(prefix, maxFormScan) {
		if t != token && lightStem(t) == stem {
			forms = append(forms, t)
		}
	}
	sort.Strings(forms)
	return append([]string{token}, forms[:min(len(forms), maxForms-1)]...)
}

// formLookup is a posting-list lookup that matches every form of a token:
// the union of the forms' lists, in node order.
func formLookup(lookup func(string) (kgimg.U32s, bool), prefixed func(string, int) []string) func(string) (kgimg.U32s, bool) {
	return func(token string) (kgimg.U32s, bool) {
		forms := wordForms(prefixed, token)
		if len(forms) == 1 {
			return lookup(token)
		}
		var all []uint32
		for _, f := range forms {
			if l, ok := lookup(f); ok {
				all = l.AppendTo(all)
			}
		}
		if len(all) == 0 {
			return kgimg.U32s{}, false
		}
		sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
		out := all[:1]
		for _, x := range all[1:] {
			if x != out[len(out)-1] {
				out = append(out, x)
			}
		}
		return kgimg.U32sOf(out), true
	}
}

// itemLookup is the standards' posting-list lookup of a match mode.
func itemLookup(img *kgimg.Image, matchMode string) func(string) (kgimg.U32s, bool) {
	if matchMode == "stems" {
		return formLookup(img.ItemToken, img.ItemTokensWithPrefix)
	}
	return img.ItemToken
}
