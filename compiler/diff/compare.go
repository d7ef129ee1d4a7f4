package diff

import (
	"fmt"
	"slices"
)

// frameworkMismatchError is returned when the two snapshots are of different
// frameworks.
type frameworkMismatchError struct{ Old, New string }

func (e *frameworkMismatchError) Error() string {
	return fmt.Sprintf("the snapshots are of different frameworks (%s and %s): kgc diff compares two snapshots of one framework", e.Old, e.New)
}

// Compare reports what changed from snapshot a (old) to b (new). Nodes are
// paired by node ID, then CASE UUID, then statement code (see match); the
// statements of the nodes the report lists are read from the snapshots'
// sources at the end, and only those.
func Compare(a, b *Snapshot) (*Report, error) {
	if a.FrameworkID != b.FrameworkID {
		return nil, &frameworkMismatchError{Old: a.FrameworkID, New: b.FrameworkID}
	}
	m := match(a, b)
	r := &Report{
		FrameworkID: a.FrameworkID, Old: sideOf(a), New: sideOf(b),
		StandardsAdded: []standard{}, StandardsRemoved: []standard{}, StandardsChanged: []change{},
		ComponentsAdded: []component{}, ComponentsRemoved: []component{}, ComponentsReworded: []componentChange{},
		MetadataChanged: compareMetadata(a.meta, b.meta),
	}
	var w wanted
	for j := range b.Nodes {
		n, i, nj := &b.Nodes[j], m.newToOld[j], int32(j)
		switch {
		case i < 0 && n.Kind == kindItem:
			r.StandardsAdded = append(r.StandardsAdded, standardOf(b, nj))
			w.stdAdded = append(w.stdAdded, nj)
		case i < 0:
			r.ComponentsAdded = append(r.ComponentsAdded, component{ID: n.ID})
			w.compAdded = append(w.compAdded, nj)
		case n.Kind == kindComponent:
			if a.Nodes[i].Hash != n.Hash {
				w.compReworded = append(w.compReworded, [3]int32{i, nj, int32(len(r.ComponentsReworded))})
				r.ComponentsReworded = append(r.ComponentsReworded, componentChange{ID: n.ID})
			}
		default:
			if c, ok := changed(a, b, m, i, nj); ok {
				if c.Changes[0] == changeReworded {
					w.stdReworded = append(w.stdReworded, [3]int32{i, nj, int32(len(r.StandardsChanged))})
				}
				r.StandardsChanged = append(r.StandardsChanged, c)
			}
			switch m.by[i] {
			case matchID:
				r.MatchedBy.NodeID++
			case matchCaseUUID:
				r.MatchedBy.CaseUUID++
			case matchCode:
				r.MatchedBy.StatementCode++
			}
		}
	}
	for i := range a.Nodes {
		if m.oldToNew[i] >= 0 {
			continue
		}
		if a.Nodes[i].Kind == kindItem {
			r.StandardsRemoved = append(r.StandardsRemoved, standardOf(a, int32(i)))
			w.stdRemoved = append(w.stdRemoved, int32(i))
		} else {
			r.ComponentsRemoved = append(r.ComponentsRemoved, component{ID: a.Nodes[i].ID})
			w.compRemoved = append(w.compRemoved, int32(i))
		}
	}
	added, removed, rescored := compareEdges(a, b, m)
	r.SupportsAdded, r.EdgesAdded = splitSupports(added)
	r.SupportsRemoved, r.EdgesRemoved = splitSupports(removed)
	r.SupportsRescored = rescored
	r.ChildrenReordered = compareChildren(a, b, m)
	r.PublisherAdded, r.PublisherRemoved = comparePublisher(a, b, m)
	if err := fillStatements(r, a, b, &w); err != nil {
		return nil, err
	}
	r.summarize()
	return r, nil
}

func sideOf(s *Snapshot) side {
	return side{SnapshotID: s.SnapshotID, Source: s.Source, Format: s.Format,
		Standards: s.count(kindItem), LearningComponents: s.count(kindComponent),
		SupportsEdges: s.edgeCount(edgeSupports), ProgressionEdges: len(s.Edges) - s.edgeCount(edgeSupports),
		PublisherRelations: len(s.pub)}
}

// standardOf returns node i of s as a report shows it (without its statement).
func standardOf(s *Snapshot, i int32) standard {
	n := &s.Nodes[i]
	st := standard{ID: n.ID, CaseUUID: n.CaseUUID, Code: n.Code, Type: n.Type, Grades: s.gradeList(i), Parents: []nodeRef{}}
	for _, p := range s.parents(i) {
		st.Parents = append(st.Parents, ref(s, p))
	}
	return st
}

// ref names node i of s (rootParent: the framework root).
func ref(s *Snapshot, i int32) nodeRef {
	if i == rootParent {
		return nodeRef{ID: s.RootID, Root: true}
	}
	return nodeRef{ID: s.Nodes[i].ID, Code: s.Nodes[i].Code}
}

// changed compares the paired standards a[i] and b[j].
func changed(a, b *Snapshot, m *matching, i, j int32) (change, bool) {
	na, nb := &a.Nodes[i], &b.Nodes[j]
	var kinds []string
	if na.Hash != nb.Hash {
		kinds = append(kinds, changeReworded)
	}
	if na.Code != nb.Code {
		kinds = append(kinds, changeRecoded)
	}
	if a.grades[na.Grades] != b.grades[nb.Grades] {
		kinds = append(kinds, changeRegraded)
	}
	if moved(a, b, m, i, j) {
		kinds = append(kinds, changeMoved)
	}
	if na.ID != nb.ID || na.CaseUUID != nb.CaseUUID {
		kinds = append(kinds, changeReidentified)
	}
	if na.Type != nb.Type {
		kinds = append(kinds, changeRetyped)
	}
	if len(kinds) == 0 {
		return change{}, false
	}
	return change{MatchedBy: m.by[i].String(), Changes: kinds, Old: standardOf(a, i), New: standardOf(b, j)}, true
}

// moved reports whether the parents of a[i], taken to the new snapshot
// through the matching, differ from those of b[j]. An old parent without a
// counterpart differs from every new one.
func moved(a, b *Snapshot, m *matching, i, j int32) bool {
	pa, pb := a.parents(i), b.parents(j)
	if len(pa) != len(pb) {
		return true
	}
	for k, p := range pa {
		switch {
		case p == rootParent:
		case m.oldToNew[p] >= 0:
			pa[k] = m.oldToNew[p]
		default:
			return true
		}
	}
	slices.Sort(pa)
	slices.Sort(pb)
	return !slices.Equal(pa, pb)
}

// compareEdges lists the progression and supports edges only in b (added)
// and only in a (removed), an old edge taken to the new snapshot through the
// matching, and the supports edges on both sides whose confidence changed.
func compareEdges(a, b *Snapshot, m *matching) (added, removed, rescored []graphEdge) {
	type mapped struct {
		e   edge
		old int
	}
	var gone []int
	var ms []mapped
	for k, e := range a.Edges {
		f, t := m.oldToNew[e.From], m.oldToNew[e.To]
		if f < 0 || t < 0 {
			gone = append(gone, k)
			continue
		}
		if e.Type == edgeRelatesTo && f > t {
			f, t = t, f
		}
		e.From, e.To = f, t
		ms = append(ms, mapped{e, k})
	}
	slices.SortFunc(ms, func(x, y mapped) int { return cmpEdge(x.e, y.e) })
	var addedIdx []int
	rescored = []graphEdge{}
	i, j := 0, 0
	for i < len(ms) || j < len(b.Edges) {
		switch {
		case j == len(b.Edges) || (i < len(ms) && cmpEdge(ms[i].e, b.Edges[j]) < 0):
			gone = append(gone, ms[i].old)
			i++
		case i == len(ms) || cmpEdge(ms[i].e, b.Edges[j]) > 0:
			addedIdx = append(addedIdx, j)
			j++
		default:
			if o, n := ms[i].e, b.Edges[j]; o.HasConf != n.HasConf || o.Conf != n.Conf {
				ge := graphEdgeOf(b, n)
				ge.OldConfidence = confidence(o)
				rescored = append(rescored, ge)
			}
			i++
			j++
		}
	}
	slices.Sort(gone)
	added, removed = []graphEdge{}, []graphEdge{}
	for _, k := range addedIdx {
		added = append(added, graphEdgeOf(b, b.Edges[k]))
	}
	for _, k := range gone {
		removed = append(removed, graphEdgeOf(a, a.Edges[k]))
	}
	return added, removed, rescored
}

// confidence returns a supports edge's supportConfidence, nil when it has
// none.
func confidence(e edge) *float64 {
	if !e.HasConf {
		return nil
	}
	c := e.Conf
	return &c
}

// compareChildren lists the parents whose children common to both snapshots
// come in another order (with the basis of each order): the framework root
// first, then parents in the new snapshot's export order.
func compareChildren(a, b *Snapshot, m *matching) []reorder {
	out := []reorder{}
	parents := make([]int32, 0, len(b.children))
	for p := range b.children {
		parents = append(parents, p)
	}
	slices.Sort(parents)
	for _, p := range parents {
		op := rootParent
		if p != rootParent {
			if op = m.newToOld[p]; op < 0 {
				continue
			}
		}
		oldKids, ok := a.children[op]
		if !ok {
			continue
		}
		newKids := b.children[p]
		inNew := make(map[int32]bool, len(newKids))
		for _, c := range newKids {
			inNew[c] = true
		}
		var common []int32 // old children present under the new parent, as new indexes
		inOld := make(map[int32]bool, len(oldKids))
		for _, c := range oldKids {
			if n := m.oldToNew[c]; n >= 0 && inNew[n] {
				common = append(common, n)
				inOld[n] = true
			}
		}
		var now []int32
		for _, c := range newKids {
			if inOld[c] {
				now = append(now, c)
			}
		}
		if slices.Equal(common, now) { // a basis that changed but orders alike is no news
			continue
		}
		ro := reorder{Parent: ref(b, p), OldBasis: a.basis[op], NewBasis: b.basis[p], Old: []nodeRef{}, New: []nodeRef{}}
		for _, c := range common {
			ro.Old = append(ro.Old, ref(a, m.newToOld[c]))
		}
		for _, c := range now {
			ro.New = append(ro.New, ref(b, c))
		}
		out = append(out, ro)
	}
	return out
}

// comparePublisher lists the publisher relations only in b (added) and only
// in a (removed), an old relation's ends taken to the new snapshot through
// the matching (an end whose node has no counterpart makes it removed).
func comparePublisher(a, b *Snapshot, m *matching) (added, removed []publisherEdge) {
	through := func(i int32) int32 {
		if i < 0 {
			return i
		}
		return m.oldToNew[i]
	}
	type mapped struct {
		r   pubRel
		old int
	}
	var gone []int
	var ms []mapped
	for k, r := range a.pub {
		f, t := through(r.From), through(r.To)
		if (r.From >= 0 && f < 0) || (r.To >= 0 && t < 0) {
			gone = append(gone, k)
			continue
		}
		r.From, r.To = f, t
		ms = append(ms, mapped{r, k})
	}
	slices.SortFunc(ms, func(x, y mapped) int { return cmpPub(x.r, y.r) })
	var addedIdx []int
	i, j := 0, 0
	for i < len(ms) || j < len(b.pub) {
		switch {
		case j == len(b.pub) || (i < len(ms) && cmpPub(ms[i].r, b.pub[j]) < 0):
			gone = append(gone, ms[i].old)
			i++
		case i == len(ms) || cmpPub(ms[i].r, b.pub[j]) > 0:
			addedIdx = append(addedIdx, j)
			j++
		default:
			i++
			j++
		}
	}
	slices.Sort(gone)
	added, removed = []publisherEdge{}, []publisherEdge{}
	for _, k := range addedIdx {
		added = append(added, publisherEdgeOf(b, b.pub[k]))
	}
	for _, k := range gone {
		removed = append(removed, publisherEdgeOf(a, a.pub[k]))
	}
	return added, removed
}

func publisherEdgeOf(s *Snapshot, r pubRel) publisherEdge {
	pe := publisherEdge{Type: r.Type}
	end := func(i int32, ext externalRef) (*nodeRef, *externalRef) {
		if i == external {
			return nil, &ext
		}
		n := ref(s, i)
		return &n, nil
	}
	pe.Source, pe.SourceExternal = end(r.From, r.FromExt)
	pe.Target, pe.TargetExternal = end(r.To, r.ToExt)
	if r.HasSeq {
		seq := r.Seq
		pe.Sequence = &seq
	}
	return pe
}

// splitSupports separates the supports edges from the progression edges.
func splitSupports(list []graphEdge) (supports, progressions []graphEdge) {
	supports, progressions = []graphEdge{}, []graphEdge{}
	for _, e := range list {
		if e.Type == "supports" {
			supports = append(supports, e)
		} else {
			progressions = append(progressions, e)
		}
	}
	return supports, progressions
}

func graphEdgeOf(s *Snapshot, e edge) graphEdge {
	return graphEdge{Type: edgeTypeName(e.Type), Source: ref(s, e.From), Target: ref(s, e.To), Confidence: confidence(e)}
}

// wanted records, for each report entry that shows statements, the node
// indexes they come from (entry k of a list is element k here).
type wanted struct {
	stdAdded, stdRemoved, compAdded, compRemoved []int32
	// stdReworded and compReworded hold old and new index and the entry.
	stdReworded, compReworded [][3]int32
}

// ends returns the ends of an edge that are nodes (not the framework root).
func ends(refs ...*nodeRef) []*nodeRef {
	var out []*nodeRef
	for _, r := range refs {
		if r != nil && !r.Root {
			out = append(out, r)
		}
	}
	return out
}

// indexesOf returns the node index of each referenced node ID.
func indexesOf(s *Snapshot, refs []*nodeRef) map[string]int32 {
	out := make(map[string]int32, len(refs))
	if len(refs) == 0 {
		return out
	}
	for _, r := range refs {
		out[r.ID] = -1
	}
	for i := range s.Nodes {
		if _, ok := out[s.Nodes[i].ID]; ok {
			out[s.Nodes[i].ID] = int32(i)
		}
	}
	return out
}

func text(t map[int32]string, i int32) *string { s := t[i]; return &s }

// fillStatements reads the statements the report shows (when both snapshots
// can supply them) and computes the word diffs of reworded ones.
func fillStatements(r *Report, a, b *Snapshot, w *wanted) error {
	if a.texts == nil || b.texts == nil {
		return nil
	}
	oldIdx := slices.Concat(w.stdRemoved, w.compRemoved)
	newIdx := slices.Concat(w.stdAdded, w.compAdded)
	for _, p := range slices.Concat(w.stdReworded, w.compReworded) {
		oldIdx, newIdx = append(oldIdx, p[0]), append(newIdx, p[1])
	}
	// The ends of the edges listed, old ones from a and the others from b.
	var oldEnds, newEnds []*nodeRef
	for _, l := range [][]graphEdge{r.SupportsRemoved, r.EdgesRemoved} {
		for k := range l {
			oldEnds = append(oldEnds, ends(&l[k].Source, &l[k].Target)...)
		}
	}
	for _, l := range [][]graphEdge{r.SupportsAdded, r.SupportsRescored, r.EdgesAdded} {
		for k := range l {
			newEnds = append(newEnds, ends(&l[k].Source, &l[k].Target)...)
		}
	}
	for k := range r.PublisherRemoved {
		oldEnds = append(oldEnds, ends(r.PublisherRemoved[k].Source, r.PublisherRemoved[k].Target)...)
	}
	for k := range r.PublisherAdded {
		newEnds = append(newEnds, ends(r.PublisherAdded[k].Source, r.PublisherAdded[k].Target)...)
	}
	oldAt, newAt := indexesOf(a, oldEnds), indexesOf(b, newEnds)
	for _, i := range oldAt {
		if i >= 0 {
			oldIdx = append(oldIdx, i)
		}
	}
	for _, i := range newAt {
		if i >= 0 {
			newIdx = append(newIdx, i)
		}
	}
	ta, err := a.texts.statements(a, oldIdx)
	if err != nil {
		return err
	}
	tb, err := b.texts.statements(b, newIdx)
	if err != nil {
		return err
	}
	for _, e := range oldEnds {
		e.Statement = text(ta, oldAt[e.ID])
	}
	for _, e := range newEnds {
		e.Statement = text(tb, newAt[e.ID])
	}
	for k, j := range w.stdAdded {
		r.StandardsAdded[k].Statement = text(tb, j)
	}
	for k, i := range w.stdRemoved {
		r.StandardsRemoved[k].Statement = text(ta, i)
	}
	for k, j := range w.compAdded {
		r.ComponentsAdded[k].Statement = text(tb, j)
	}
	for k, i := range w.compRemoved {
		r.ComponentsRemoved[k].Statement = text(ta, i)
	}
	for _, p := range w.stdReworded {
		c := &r.StandardsChanged[p[2]]
		c.Old.Statement, c.New.Statement = text(ta, p[0]), text(tb, p[1])
		c.StatementDiff = wordDiff(*c.Old.Statement, *c.New.Statement)
	}
	for _, p := range w.compReworded {
		c := &r.ComponentsReworded[p[2]]
		c.Old, c.New = text(ta, p[0]), text(tb, p[1])
		c.StatementDiff = wordDiff(*c.Old, *c.New)
	}
	return nil
}

func (r *Report) summarize() {
	s := &r.Summary
	s.StandardsAdded, s.StandardsRemoved, s.StandardsChanged = len(r.StandardsAdded), len(r.StandardsRemoved), len(r.StandardsChanged)
	for _, c := range r.StandardsChanged {
		for _, k := range c.Changes {
			switch k {
			case changeReworded:
				s.Reworded++
			case changeRecoded:
				s.Recoded++
			case changeRegraded:
				s.Regraded++
			case changeMoved:
				s.Moved++
			case changeReidentified:
				s.Reidentified++
			case changeRetyped:
				s.Retyped++
			}
		}
	}
	s.ComponentsAdded, s.ComponentsRemoved, s.ComponentsReworded = len(r.ComponentsAdded), len(r.ComponentsRemoved), len(r.ComponentsReworded)
	s.SupportsAdded, s.SupportsRemoved = len(r.SupportsAdded), len(r.SupportsRemoved)
	s.EdgesAdded, s.EdgesRemoved = len(r.EdgesAdded), len(r.EdgesRemoved)
	s.MetadataChanged, s.ChildrenReordered, s.SupportsRescored = len(r.MetadataChanged), len(r.ChildrenReordered), len(r.SupportsRescored)
	s.PublisherAdded, s.PublisherRemoved = len(r.PublisherAdded), len(r.PublisherRemoved)
	r.Equal = s.StandardsAdded+s.StandardsRemoved+s.StandardsChanged+s.ComponentsAdded+s.ComponentsRemoved+s.ComponentsReworded+
		s.SupportsAdded+s.SupportsRemoved+s.SupportsRescored+s.EdgesAdded+s.EdgesRemoved+
		s.MetadataChanged+s.ChildrenReordered+s.PublisherAdded+s.PublisherRemoved == 0
}
