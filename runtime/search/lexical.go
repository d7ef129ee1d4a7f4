package search

import (
	"slices"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/schema/profile"
)

// lexMatch is one candidate of a lexical search.
type lexMatch struct {
	Node    uint32
	Matched []string // distinct query tokens found, in query order
	Phrase  bool
}

// distinct returns tokens without repeats, in their first order.
func distinct(tokens []string) []string {
	var out []string
	for _, t := range tokens {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// lexical runs a tokens (all/any) or exact-phrase search over a posting
// list lookup. The distinct terms' posting lists (sorted node ordinals) are
// merged in one pass, each node's matched terms kept as a bit mask; matches
// with the same terms share one terms slice. Matches are emitted in node order.
func lexical(img *kgimg.Image, lookup func(string) (kgimg.U32s, bool), tokens []string, mode, operator string, emit func(lexMatch)) {
	terms := distinct(tokens)
	lists := make([]kgimg.U32s, len(terms))
	pos := make([]int, len(terms))
	for i, term := range terms {
		lists[i], _ = lookup(term)
	}
	full := uint64(1)<<len(terms) - 1
	shared := map[uint64][]string{}
	termsOf := func(mask uint64) []string {
		if t, ok := shared[mask]; ok {
			return t
		}
		var t []string
		for i, term := range terms {
			if mask&(1<<i) != 0 {
				t = append(t, term)
			}
		}
		shared[mask] = t
		return t
	}
	for {
		// The smallest node ordinal at the head of any list.
		n, mask := uint32(0), uint64(0)
		for i, l := range lists {
			if pos[i] >= l.Len() {
				continue
			}
			switch v := l.At(pos[i]); {
			case mask == 0 || v < n:
				n, mask = v, 1<<i
			case v == n:
				mask |= 1 << i
			}
		}
		if mask == 0 {
			return
		}
		for i := range lists {
			if mask&(1<<i) != 0 {
				pos[i]++
			}
		}
		switch {
		case mode == "exact_phrase":
			if mask == full && containsSequence(textnorm.Tokens(img.NodeString(n, kgimg.NodeDescription)), tokens) {
				emit(lexMatch{Node: n, Matched: terms, Phrase: true})
			}
		case operator == "all":
			if mask == full {
				emit(lexMatch{Node: n, Matched: terms})
			}
		default:
			emit(lexMatch{Node: n, Matched: termsOf(mask)})
		}
	}
}

func containsSequence(hay, seq []string) bool {
	for i := 0; i+len(seq) <= len(hay); i++ {
		ok := true
		for j := range seq {
			if hay[i+j] != seq[j] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func coverage(matched, total int) int {
	if total == 0 {
		return 0
	}
	return 1000000 * matched / total
}

// CodeMatches returns the coded items whose normalized code equals q (exact) or,
// for prefix, equals q or continues it after a configured delimiter.
func CodeMatches(p *catalog.Package, q string, prefix bool) []uint32 {
	img := p.Img
	order := img.CodeOrder()
	codeOf := func(i int) string { return img.NodeString(order.At(i), kgimg.NodeNormalizedCode) }
	lo := sort.Search(order.Len(), func(i int) bool { return codeOf(i) >= q })
	var out []uint32
	delims := profile.NormalizedDelimiters(p.Profile().CodeSearchPolicy)
	for i := lo; i < order.Len(); i++ {
		c := codeOf(i)
		if !strings.HasPrefix(c, q) {
			break
		}
		if c == q {
			out = append(out, order.At(i))
			continue
		}
		if !prefix {
			break
		}
		for _, d := range delims {
			if strings.HasPrefix(c[len(q):], d) {
				out = append(out, order.At(i))
				break
			}
		}
	}
	return out
}

// trimDelimiters strips trailing delimiters from a normalized prefix query,
// repeatedly (a query of delimiters only becomes empty).
func trimDelimiters(cp profile.CodeSearchPolicy, n string) string {
	for changed := true; changed; {
		changed = false
		for _, d := range profile.NormalizedDelimiters(cp) {
			if strings.HasSuffix(n, d) {
				n = strings.TrimSuffix(n, d)
				changed = true
			}
		}
	}
	return n
}
