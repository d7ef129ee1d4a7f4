package query

import (
	"sort"
	"strings"

	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/schema/profile"
)

// textMatch is one candidate of a lexical search.
type textMatch struct {
	node    uint32
	matched []string // distinct query tokens found, in query order
	phrase  bool
}

func distinct(tokens []string) []string {
	var out []string
	for _, t := range tokens {
		if !contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// lexicalSearch runs a tokens (all/any) or exact-phrase search over a posting
// list lookup. The distinct terms' posting lists (sorted node ordinals) are
// merged in one pass, each node's matched terms kept as a bit mask; matches
// with the same terms share one terms slice. Matches are emitted in node order.
func lexicalSearch(img *kgimg.Image, lookup func(string) (kgimg.U32s, bool), tokens []string, mode, operator string, emit func(textMatch)) {
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
				emit(textMatch{node: n, matched: terms, phrase: true})
			}
		case operator == "all":
			if mask == full {
				emit(textMatch{node: n, matched: terms})
			}
		default:
			emit(textMatch{node: n, matched: termsOf(mask)})
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

// codeMatches returns the coded items whose normalized code equals q (exact) or,
// for prefix, equals q or continues it after a configured delimiter.
func codeMatches(p *catalog.Package, q string, prefix bool) []uint32 {
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

// itemFilter is the facet filter of search_standards for one package.
type itemFilter struct {
	includeGroupings bool
	normalizedTypes  []string
	statementTypes   map[string]bool // nil: no filter
	localGrades      map[string]bool // nil: no filter
	normalizedGrades map[string]bool
	subjectFilter    bool // normalizedSubjects was given
	subjectWanted    bool // ... and names one of the profile's normalized subjects
	impossible       bool
}

func newItemFilter(p *catalog.Package, r *StandardSearchRequest) *itemFilter {
	// The profile is copied out of the image on first use: a federated
	// search without these filters does not ask for it.
	f := &itemFilter{includeGroupings: r.IncludeGroupings, normalizedTypes: r.NormalizedStatementTypes}
	if len(r.StatementTypes) > 0 {
		prof := p.Profile()
		f.statementTypes = map[string]bool{}
		for _, v := range r.StatementTypes {
			for _, i := range p.ProfileTargets(kgimg.KeyStatementTypeName, textnorm.Facet(v)) {
				f.statementTypes[prof.StatementTypes[i].SourceStatementType] = true
			}
		}
		f.impossible = f.impossible || len(f.statementTypes) == 0
	}
	if len(r.LocalGradeLabels) > 0 {
		prof := p.Profile()
		f.localGrades = map[string]bool{}
		for _, v := range r.LocalGradeLabels {
			for _, i := range p.ProfileTargets(kgimg.KeyGradeName, textnorm.Facet(v)) {
				for _, g := range prof.GradeMappings[i].NormalizedGrades {
					f.localGrades[textnorm.Facet(g)] = true
				}
			}
		}
		f.impossible = f.impossible || len(f.localGrades) == 0
	}
	if len(r.NormalizedGrades) > 0 {
		f.normalizedGrades = facetSet(r.NormalizedGrades)
	}
	if len(r.NormalizedSubjects) > 0 {
		// The profile's normalized subjects are the package's, not a node's:
		// whether one was asked for is decided once here.
		f.subjectFilter = true
		for _, v := range r.NormalizedSubjects {
			if p.ProfileTargets(kgimg.KeyNormalizedSubject, textnorm.Facet(v)) != nil {
				f.subjectWanted = true
			}
		}
	}
	return f
}

func (f *itemFilter) keep(p *catalog.Package, n uint32) bool {
	if f.impossible {
		return false
	}
	img := p.Img
	nt := img.NodeString(n, kgimg.NodeNormalizedStatementType)
	if !f.includeGroupings && nt == "Standard Grouping" {
		return false
	}
	if len(f.normalizedTypes) > 0 && !contains(f.normalizedTypes, nt) {
		return false
	}
	if f.statementTypes != nil && !f.statementTypes[img.NodeString(n, kgimg.NodeStatementType)] {
		return false
	}
	if f.localGrades != nil || f.normalizedGrades != nil {
		grades := hitGrades(p, n, codeScopes(p, n))
		if f.localGrades != nil && !anyKey(f.localGrades, grades, true) {
			return false
		}
		if f.normalizedGrades != nil && !anyKey(f.normalizedGrades, grades, true) {
			return false
		}
	}
	if f.subjectFilter {
		if !f.subjectWanted || !subjectResolves(p, img.NodeString(n, kgimg.NodeAcademicSubject)) {
			return false
		}
	}
	return true
}

func anyKey(set map[string]bool, values []string, facet bool) bool {
	for _, v := range values {
		k := v
		if facet {
			k = textnorm.Facet(v)
		}
		if set[k] {
			return true
		}
	}
	return false
}
