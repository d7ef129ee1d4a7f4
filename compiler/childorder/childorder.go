// Package childorder puts a parent's children in curriculum order, the one
// order kgc build writes into an image's hasChild rows and kgc diff compares.
//
// A parent's children are ordered as the publisher orders them when it says
// (every child edge with a sequenceNumber, or every child with a
// listEnumeration); otherwise the order is derived and its basis recorded:
// the children's statement codes in natural order (B5.1.3.1.2 before
// B5.1.3.1.10), else the numbers their statements carry ("1.", "(a)", "ii.",
// also after a stem every sibling shares: "Pupils should be able to: 3. use
// metres…"), else their grades (school order, when each child's lowest
// grade differs from its siblings'), else the codes beneath them (each
// child's own code, or the smallest code in its subtree: uncoded strands
// under coded standards), else their identifiers. Ties keep the
// (sourceExportOrder, relationship ID) order.
package childorder

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/internal/natural"
)

// Basis is what a parent's order of children rests on. The values are the
// image format's ChildOrder values.
type Basis uint8

// Order bases.
const (
	None             Basis = iota // no children
	Publisher                     // the publisher's sequence numbers or list enumerations
	Code                          // the children's statement codes, natural order
	StatementNumbers              // the numbers the children's statements carry
	Identifier                    // the children's identifiers
	Grade                         // the children's lowest grades, school order
	CodesBelow                    // each child's code, else the smallest code beneath it
)

var basisNames = [...]string{"none", "publisher", "code", "statement_numbers", "identifier", "grade", "codes_below"}

// String names the basis as answers and reports spell it: none, publisher,
// code, statement_numbers, identifier, grade, codes_below.
func (b Basis) String() string {
	if int(b) < len(basisNames) {
		return basisNames[b]
	}
	return "unknown"
}

// Rows returns every node's hasChild children in curriculum order: rows[i]
// holds the indexes into rels of node i's child edges (nodes[i] the parent),
// basis[i] what their order rests on. index maps a node ID to its position in
// nodes; edges whose ends it does not know are left out.
func Rows(nodes []*delivery.Node, rels []*delivery.Relationship, index func(id string) (int, bool)) (rows [][]int, basis []Basis) {
	return rows2(nodes, rels, func(e int) (from, to int, ok bool) {
		from, okFrom := index(rels[e].Source)
		to, okTo := index(rels[e].Target)
		return from, to, okFrom && okTo
	})
}

// RowsOf is Rows with each relationship's endpoints already found:
// sources[e] and targets[e] are the positions in nodes of relationship e's
// ends (negative: not a node).
func RowsOf(nodes []*delivery.Node, rels []*delivery.Relationship, sources, targets []int32) (rows [][]int, basis []Basis) {
	return rows2(nodes, rels, func(e int) (from, to int, ok bool) {
		return int(sources[e]), int(targets[e]), sources[e] >= 0 && targets[e] >= 0
	})
}

// rows2 is Rows with ends giving an edge's endpoints, looked up once per
// edge.
func rows2(nodes []*delivery.Node, rels []*delivery.Relationship, ends func(e int) (from, to int, ok bool)) (rows [][]int, basis []Basis) {
	var edges []int
	for i, r := range rels {
		if r.Label == delivery.HasChild {
			edges = append(edges, i)
		}
	}
	// The rows start in (sourceExportOrder, relationship ID) order: the order
	// ties keep.
	sort.SliceStable(edges, func(a, c int) bool {
		ra, rc := rels[edges[a]], rels[edges[c]]
		if ra.Order != rc.Order {
			return ra.Order < rc.Order
		}
		return ra.ID < rc.ID
	})
	rows = make([][]int, len(nodes))
	// child holds each kept edge's target, by relationship.
	child := make([]int, len(rels))
	for _, e := range edges {
		from, to, ok := ends(e)
		if !ok {
			continue
		}
		rows[from] = append(rows[from], e)
		child[e] = to
	}
	below := codesBelow(nodes, rows, func(e int) int { return child[e] })
	basis = make([]Basis, len(nodes))
	for i, row := range rows {
		basis[i] = sortChildren(row, func(e int) *delivery.Relationship { return rels[e] }, func(e int) *delivery.Node {
			return nodes[child[e]]
		}, func(e int) string {
			return below(child[e])
		})
	}
	return rows, basis
}

// codesBelow returns, per node, its own statement code, else the smallest
// (natural order) code in its subtree, else "": computed on first use, once
// per node, children before parents (the hierarchy is acyclic).
func codesBelow(nodes []*delivery.Node, rows [][]int, child func(e int) int) func(int) string {
	memo := make([]string, len(nodes))
	done := make([]bool, len(nodes))
	return func(start int) string {
		type frame struct{ n, k int }
		stack := []frame{{start, 0}}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if done[f.n] {
				stack = stack[:len(stack)-1]
				continue
			}
			if c := nodes[f.n].Str(delivery.NStatementCode); c != "" {
				memo[f.n], done[f.n] = c, true
				stack = stack[:len(stack)-1]
				continue
			}
			if f.k < len(rows[f.n]) {
				j := child(rows[f.n][f.k])
				f.k++
				if !done[j] {
					stack = append(stack, frame{j, 0})
				}
				continue
			}
			best := ""
			for _, e := range rows[f.n] {
				j := child(e)
				if c := memo[j]; c != "" && (best == "" || natural.Compare(c, best) < 0) {
					best = c
				}
			}
			memo[f.n], done[f.n] = best, true
			stack = stack[:len(stack)-1]
		}
		return memo[start]
	}
}

// sortChildren puts one parent's child edges (given in their tie order) into
// curriculum order, in place, and returns the basis it rests on. rel and
// child return an edge's relationship and its child node, below the child's
// code or else the smallest code beneath it ("" for none).
func sortChildren[E any](edges []E, rel func(E) *delivery.Relationship, child func(E) *delivery.Node, below func(E) string) Basis {
	n := len(edges)
	if n == 0 {
		return None
	}
	all := func(has func(i int) bool) bool {
		for i := range n {
			if !has(i) {
				return false
			}
		}
		return true
	}
	var basis Basis
	var less func(a, b int) int
	seqs := make([]int64, n)
	okSeq := all(func(i int) bool {
		r := rel(edges[i])
		v, err := strconv.ParseInt(r.Str(delivery.RSequenceNumber), 10, 64)
		seqs[i] = v
		return r.Has(delivery.RSequenceNumber) && err == nil
	})
	switch {
	case okSeq:
		basis, less = Publisher, func(a, b int) int { return cmp64(seqs[a], seqs[b]) }
	case all(func(i int) bool { return child(edges[i]).Str(delivery.NListEnumeration) != "" }):
		basis, less = Publisher, func(a, b int) int {
			return natural.Compare(child(edges[a]).Str(delivery.NListEnumeration), child(edges[b]).Str(delivery.NListEnumeration))
		}
	case all(func(i int) bool { return child(edges[i]).Str(delivery.NStatementCode) != "" }):
		basis, less = Code, func(a, b int) int {
			return natural.Compare(child(edges[a]).Str(delivery.NStatementCode), child(edges[b]).Str(delivery.NStatementCode))
		}
	default:
		texts := make([]string, n)
		for i := range texts {
			texts[i] = child(edges[i]).Str(delivery.NDescription)
		}
		if keys, ok := statementNumbers(texts); ok {
			basis, less = StatementNumbers, func(a, b int) int { return cmp64(keys[a], keys[b]) }
		} else if grades, ok := lowestGrades(n, func(i int) []string { return child(edges[i]).GradeLevel }); ok {
			basis, less = Grade, func(a, b int) int { return natural.CompareGrades(grades[a], grades[b]) }
		} else if all(func(i int) bool { return below(edges[i]) != "" }) {
			basis, less = CodesBelow, func(a, b int) int { return natural.Compare(below(edges[a]), below(edges[b])) }
		} else {
			basis, less = Identifier, func(a, b int) int { return strings.Compare(child(edges[a]).ID, child(edges[b]).ID) }
		}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return less(idx[a], idx[b]) < 0 })
	orig := append([]E(nil), edges...)
	for k, i := range idx {
		edges[k] = orig[i]
	}
	return basis
}

// lowestGrades returns each child's lowest grade (school order) when every
// child names one and no two share it; false otherwise.
func lowestGrades(n int, grades func(i int) []string) ([]string, bool) {
	out := make([]string, n)
	seen := make(map[string]bool, n)
	for i := range n {
		g := grades(i)
		if len(g) == 0 {
			return nil, false
		}
		low := g[0]
		for _, x := range g[1:] {
			if natural.CompareGrades(x, low) < 0 {
				low = x
			}
		}
		if seen[low] {
			return nil, false
		}
		seen[low], out[i] = true, low
	}
	return out, true
}

func cmp64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// enumRe matches the number a statement starts with: 3. 3) (3) a. (a) ii. (ii)
var enumRe = regexp.MustCompile(`^\(?([0-9]{1,4}|[ivxlcdm]{1,8}|[a-z])[.)]\s`)

// statementNumbers returns the number each statement carries, when every one
// carries one of the same kind (arabic, roman or a letter), at its start or
// after a stem all of them share; false otherwise.
func statementNumbers(texts []string) ([]int64, bool) {
	if keys, ok := numbersAt(texts, 0); ok {
		return keys, true
	}
	stem := texts[0]
	for _, t := range texts[1:] {
		k := 0
		for k < len(stem) && k < len(t) && stem[k] == t[k] {
			k++
		}
		stem = stem[:k]
	}
	// Back to the stem's last space: a number it began ("1" of 1 and 10)
	// belongs to the numbers.
	cut := strings.LastIndexFunc(stem, unicode.IsSpace)
	if cut < 0 {
		return nil, false
	}
	return numbersAt(texts, cut+1)
}

// numbersAt parses the number every text carries at byte off.
func numbersAt(texts []string, off int) ([]int64, bool) {
	keys := make([]int64, len(texts))
	kind := -1
	for i, t := range texts {
		if len(t) < off {
			return nil, false
		}
		m := enumRe.FindStringSubmatch(strings.ToLower(t[off:]))
		if m == nil {
			return nil, false
		}
		k, v := numberOf(m[1])
		if k < 0 || (kind >= 0 && k != kind) {
			return nil, false
		}
		kind, keys[i] = k, v
	}
	return keys, true
}

// numberOf reads an enumeration label: kind 0 arabic, 1 roman, 2 letter.
// A single letter that is also a roman numeral (i, v, x…) reads as a letter
// unless the siblings make it roman; numbersAt requires one kind for all, so
// "i." "ii." "iii." are roman (ii has two letters) while "a." "b." "c." are
// letters.
func numberOf(s string) (kind int, v int64) {
	if s[0] >= '0' && s[0] <= '9' {
		n, _ := strconv.ParseInt(s, 10, 64)
		return 0, n
	}
	if len(s) == 1 && !strings.ContainsAny(s, "ivx") {
		return 2, int64(s[0] - 'a')
	}
	if r, ok := roman(s); ok {
		return 1, r
	}
	if len(s) == 1 {
		return 2, int64(s[0] - 'a')
	}
	return -1, 0
}

// roman reads a lower-case roman numeral.
func roman(s string) (int64, bool) {
	val := map[byte]int64{'i': 1, 'v': 5, 'x': 10, 'l': 50, 'c': 100, 'd': 500, 'm': 1000}
	var n int64
	for i := 0; i < len(s); i++ {
		v := val[s[i]]
		if i+1 < len(s) && val[s[i+1]] > v {
			n -= v
		} else {
			n += v
		}
	}
	return n, n > 0
}
