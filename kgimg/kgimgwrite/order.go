package kgimgwrite

import (
	"sort"

	"github.com/kgc-project/kgc/compiler/childorder"
	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/kgimg/kgfb"
)

// Every Basis is the image's ChildOrder of the same value (a compile-time
// check: a constant index out of range does not compile).
var (
	_ = [1]struct{}{}[int(childorder.None)-int(kgfb.ChildOrderNone)]
	_ = [1]struct{}{}[int(childorder.Publisher)-int(kgfb.ChildOrderPublisher)]
	_ = [1]struct{}{}[int(childorder.Code)-int(kgfb.ChildOrderCode)]
	_ = [1]struct{}{}[int(childorder.StatementNumbers)-int(kgfb.ChildOrderStatementNumbers)]
	_ = [1]struct{}{}[int(childorder.Identifier)-int(kgfb.ChildOrderIdentifier)]
	_ = [1]struct{}{}[int(childorder.Grade)-int(kgfb.ChildOrderGrade)]
	_ = [1]struct{}{}[int(childorder.CodesBelow)-int(kgfb.ChildOrderCodesBelow)]
)

// orderChildren builds every node's hasChild out-row in curriculum order
// (w.childRows) and records its basis (w.childBasis): package childorder.
func (w *writer) orderChildren() {
	rows, basis := childorder.RowsOf(w.res.Nodes, w.res.Relationships, w.src, w.tgt)
	n := len(w.res.Nodes)
	w.childRows = make([][2][]uint32, n)
	w.childBasis = make([]byte, n)
	for i, row := range rows {
		for _, e := range row {
			w.childRows[i][0] = append(w.childRows[i][0], uint32(w.tgt[e]))
			w.childRows[i][1] = append(w.childRows[i][1], uint32(e))
		}
		w.childBasis[i] = byte(basis[i])
	}
}

// curriculumPositions numbers the nodes in curriculum order (w.curPos): the
// framework root, then the items met by a depth-first walk of the ordered
// hasChild rows (an item under several parents where first reached), then
// every other node by (sourceExportOrder, node ID).
func (w *writer) curriculumPositions() {
	nodes := w.res.Nodes
	n := len(nodes)
	w.curPos = make([]uint32, n)
	seen := make([]bool, n)
	next := uint32(0)
	var stack []uint32
	for i, nd := range nodes {
		if nd.Kind == delivery.KindFramework {
			stack = append(stack, uint32(i))
		}
	}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		w.curPos[x] = next
		next++
		kids := w.childRows[x][0]
		for k := len(kids) - 1; k >= 0; k-- { // the first child on top
			if !seen[kids[k]] {
				stack = append(stack, kids[k])
			}
		}
	}
	var rest []int
	for i := range nodes {
		if !seen[i] {
			rest = append(rest, i)
		}
	}
	sort.Slice(rest, func(a, b int) bool {
		na, nb := nodes[rest[a]], nodes[rest[b]]
		if na.Order != nb.Order {
			return na.Order < nb.Order
		}
		return na.ID < nb.ID
	})
	for _, i := range rest {
		w.curPos[i] = next
		next++
	}
}
