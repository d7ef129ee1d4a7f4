package kgimgwrite

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestOrderByJoined checks the prefix-keyed sort against sorting the joined
// keys themselves, over keys built to share prefixes, hold NUL bytes and be
// prefixes of one another.
func TestOrderByJoined(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"", "\x00", "a", "b", "\x01", "urn:uuid:", "zz"}
	word := func() string {
		var b strings.Builder
		for range r.IntN(5) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	for round := range 200 {
		n := r.IntN(60)
		prefix := []string{"", "urn:uuid:", "0123456789abcdef0123"}[round%3]
		firsts, seconds := make([]string, n), make([]string, n)
		has := make([]bool, n)
		for i := range n {
			firsts[i], seconds[i], has[i] = prefix+word(), word(), r.IntN(8) != 0
		}
		for _, joined := range []bool{false, true} {
			full := func(i int) string {
				if joined {
					return firsts[i] + "\x00" + seconds[i]
				}
				return firsts[i]
			}
			var want []uint32
			for i := range n {
				if has[i] {
					want = append(want, uint32(i))
				}
			}
			slices.SortStableFunc(want, func(a, b uint32) int { return strings.Compare(full(int(a)), full(int(b))) })
			key := func(i int) (string, bool) { return firsts[i], has[i] }
			var got []uint32
			if joined {
				got = orderByJoined(n, key, func(i int) string { return seconds[i] })
			} else {
				got = orderBy(n, key)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("round %d joined=%v: got %v, want %v", round, joined, got, want)
			}
		}
	}
}

func TestCompareJoined(t *testing.T) {
	parts := []string{"", "\x00", "a", "a\x00", "a\x00b", "ab", "b", "\x00\x00"}
	for _, a1 := range parts {
		for _, a2 := range parts {
			for _, b1 := range parts {
				for _, b2 := range parts {
					want := strings.Compare(a1+"\x00"+a2, b1+"\x00"+b2)
					if got := compareJoined(a1, a2, b1, b2); got != want {
						t.Fatalf("compareJoined(%q, %q, %q, %q) = %d, want %d", a1, a2, b1, b2, got, want)
					}
				}
			}
		}
	}
}
