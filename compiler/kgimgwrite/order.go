package kgimgwrite

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/internal/natural"
	"github.com/kgc-project/kgc/schema/kgfb"
)

// Curriculum order: a parent's children (its hasChild out-row) are ordered
// as the publisher orders them when it says (every child edge with a
// sequenceNumber, or every child with a listEnumeration); otherwise kgc build
// derives an order and records its basis: the children's statement codes in
// natural order (B5.1.3.1.2 before B5.1.3.1.10), else the numbers their
// statements carry ("1.", "(a)", "ii.", also after a stem every sibling
// shares: "Pupils should be able to: 3. use metres…"), else their identifiers.
// Ties keep the (sourceExportOrder, relationship ID) order.

// orderChildren builds every node's hasChild out-row in curriculum order
// (w.childRows) and records its basis (w.childBasis).
func (w *writer) orderChildren() {
	rels := w.res.Relationships
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
	n := len(w.res.Nodes)
	w.childRows = make([][2][]uint32, n)
	for _, e := range edges {
		from := w.ord[rels[e].Source]
		w.childRows[from][0] = append(w.childRows[from][0], w.ord[rels[e].Target])
		w.childRows[from][1] = append(w.childRows[from][1], uint32(e))
	}
	w.childBasis = make([]byte, n)
	for i, row := range w.childRows {
		w.childBasis[i] = byte(w.orderRow(row[0], row[1]))
	}
}

// orderRow sorts one out-row (neighbors and their edges, in step) into
// curriculum order and returns the basis it rests on.
func (w *writer) orderRow(neighbors, edges []uint32) kgfb.ChildOrder {
	n := len(neighbors)
	if n == 0 {
		return kgfb.ChildOrderNone
	}
	nodes, rels := w.res.Nodes, w.res.Relationships
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	child := func(i int) *delivery.Node { return nodes[neighbors[i]] }
	all := func(has func(i int) bool) bool {
		for i := range n {
			if !has(i) {
				return false
			}
		}
		return true
	}
	var basis kgfb.ChildOrder
	var less func(a, b int) int
	seqs := make([]int64, n)
	okSeq := all(func(i int) bool {
		v, err := strconv.ParseInt(rels[edges[i]].Str(delivery.RSequenceNumber), 10, 64)
		seqs[i] = v
		return rels[edges[i]].Has(delivery.RSequenceNumber) && err == nil
	})
	switch {
	case okSeq:
		basis, less = kgfb.ChildOrderPublisher, func(a, b int) int { return cmp64(seqs[a], seqs[b]) }
	case all(func(i int) bool { return child(i).Str(delivery.NListEnumeration) != "" }):
		basis, less = kgfb.ChildOrderPublisher, func(a, b int) int {
			return natural.Compare(child(a).Str(delivery.NListEnumeration), child(b).Str(delivery.NListEnumeration))
		}
	case all(func(i int) bool { return child(i).Str(delivery.NStatementCode) != "" }):
		basis, less = kgfb.ChildOrderCode, func(a, b int) int {
			return natural.Compare(child(a).Str(delivery.NStatementCode), child(b).Str(delivery.NStatementCode))
		}
	default:
		texts := make([]string, n)
		for i := range texts {
			texts[i] = child(i).Str(delivery.NDescription)
		}
		if keys, ok := statementNumbers(texts); ok {
			basis, less = kgfb.ChildOrderStatementNumbers, func(a, b int) int { return cmp64(keys[a], keys[b]) }
		} else {
			basis, less = kgfb.ChildOrderIdentifier, func(a, b int) int { return strings.Compare(child(a).ID, child(b).ID) }
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return less(idx[a], idx[b]) < 0 })
	nb, ed := append([]uint32(nil), neighbors...), append([]uint32(nil), edges...)
	for k, i := range idx {
		neighbors[k], edges[k] = nb[i], ed[i]
	}
	return basis
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
