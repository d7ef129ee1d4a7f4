package kgimgwrite

import (
	"github.com/kgc-project/kgc/compiler/childorder"
	"github.com/kgc-project/kgc/schema/kgfb"
)

// Every Basis is the image's ChildOrder of the same value (a compile-time
// check: a constant index out of range does not compile).
var (
	_ = [1]struct{}{}[int(childorder.None)-int(kgfb.ChildOrderNone)]
	_ = [1]struct{}{}[int(childorder.Publisher)-int(kgfb.ChildOrderPublisher)]
	_ = [1]struct{}{}[int(childorder.Code)-int(kgfb.ChildOrderCode)]
	_ = [1]struct{}{}[int(childorder.StatementNumbers)-int(kgfb.ChildOrderStatementNumbers)]
	_ = [1]struct{}{}[int(childorder.Identifier)-int(kgfb.ChildOrderIdentifier)]
)

// orderChildren builds every node's hasChild out-row in curriculum order
// (w.childRows) and records its basis (w.childBasis): package childorder.
func (w *writer) orderChildren() {
	index := func(id string) (int, bool) {
		i, ok := w.ord[id]
		return int(i), ok
	}
	rows, basis := childorder.Rows(w.res.Nodes, w.res.Relationships, index)
	n := len(w.res.Nodes)
	w.childRows = make([][2][]uint32, n)
	w.childBasis = make([]byte, n)
	for i, row := range rows {
		for _, e := range row {
			w.childRows[i][0] = append(w.childRows[i][0], w.ord[w.res.Relationships[e].Target])
			w.childRows[i][1] = append(w.childRows[i][1], uint32(e))
		}
		w.childBasis[i] = byte(basis[i])
	}
}
