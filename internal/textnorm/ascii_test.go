package textnorm

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// The ASCII fast paths give what the transformers give.
func slowFold(s string) string { return folder.String(norm.NFKC.String(s)) }

func slowTokens(s string) []string {
	return strings.FieldsFunc(slowFold(s), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r))
	})
}

func checkASCII(t *testing.T, s string) {
	t.Helper()
	if got, want := fold(s), slowFold(s); got != want {
		t.Fatalf("fold(%q) = %q, want %q", s, got, want)
	}
	if got, want := Tokens(s), slowTokens(s); !slices.Equal(got, want) || (got == nil) != (want == nil) {
		t.Fatalf("Tokens(%q) = %q, want %q", s, got, want)
	}
	if got, want := Facet(s), strings.Join(strings.FieldsFunc(slowFold(s), unicode.IsSpace), " "); got != want {
		t.Fatalf("Facet(%q) = %q, want %q", s, got, want)
	}
}

func TestASCIIFastPaths(t *testing.T) {
	var all strings.Builder
	for c := 0; c < 128; c++ {
		checkASCII(t, string(rune(c)))
		all.WriteByte(byte(c))
	}
	checkASCII(t, all.String())
	checkASCII(t, "")
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.IntN(128))
		}
		checkASCII(t, string(b))
	}
	checkASCII(t, "Demonstrate understanding of RATIO appropriate to LEVEL B. (3rd-grade; x2)")
}

func FuzzASCIIFastPaths(f *testing.F) {
	f.Add("Count to 100 by Ones and TENS.")
	f.Fuzz(func(t *testing.T, s string) {
		if isASCII(s) {
			checkASCII(t, s)
		}
	})
}
