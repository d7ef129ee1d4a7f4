package profile

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// CodeNormalizerVersion names the statement-code normalisation below.
const CodeNormalizerVersion = "profile_code_nfkc_v1"

var codeFolder = cases.Fold()

func foldCode(cp CodeSearchPolicy, s string) string {
	s = norm.NFKC.String(s)
	if !cp.CaseSensitive {
		s = codeFolder.String(s)
	}
	if cp.WhitespaceNormalization {
		s = strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return -1
			}
			return r
		}, s)
	}
	return s
}

// NormalizedDelimiters returns the policy's prefix delimiters normalised like
// codes, longest first (ties in lexical order), without empty ones.
func NormalizedDelimiters(cp CodeSearchPolicy) []string {
	out := make([]string, 0, len(cp.PrefixDelimiters))
	for _, d := range cp.PrefixDelimiters {
		if n := foldCode(cp, d); n != "" {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j])
		}
		return out[i] < out[j]
	})
	return out
}

// NormalizeCode applies profile_code_nfkc_v1 to an authored code or a code query:
// NFKC; case folding unless the policy is case sensitive; whitespace removed when
// whitespaceNormalization is on; then, scanning left to right, configured prefix
// delimiters are kept verbatim and other punctuation (Unicode category P) is
// dropped when punctuationNormalization is on. An empty result means the code has
// no searchable content.
func NormalizeCode(cp CodeSearchPolicy, s string) string {
	s = foldCode(cp, s)
	delims := NormalizedDelimiters(cp)
	var b strings.Builder
	for i := 0; i < len(s); {
		matched := false
		for _, d := range delims {
			if strings.HasPrefix(s[i:], d) {
				b.WriteString(d)
				i += len(d)
				matched = true
				break
			}
		}
		if matched {
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if cp.PunctuationNormalization && unicode.IsPunct(r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
