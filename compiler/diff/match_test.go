package diff

import (
	"slices"
	"testing"
)

// snap builds a snapshot of items from (id, uuid, code, statement) rows, each
// under the framework root.
func snap(rows ...[4]string) *Snapshot {
	s := newSnapshot("test", "test")
	s.FrameworkID, s.RootID = "fw", "root"
	for _, r := range rows {
		s.Nodes = append(s.Nodes, node{ID: r[0], CaseUUID: r[1], Code: r[2], Hash: statementHash(r[3], true), Parent: rootParent, Kind: kindItem})
	}
	return s
}

func TestDiffMatchKeys(t *testing.T) {
	a := snap(
		[4]string{"n1", "u1", "C1", "one"},   // same ID
		[4]string{"n2", "u2", "C2", "two"},   // new ID, same CASE UUID
		[4]string{"n3", "u3", "C3", "three"}, // new ID and UUID, same code
		[4]string{"n4", "u4", "D", "four"},   // code shared by two new nodes: ambiguous
		[4]string{"n5", "", "", "five"},      // nothing to match by: removed
	)
	b := snap(
		[4]string{"n1", "u1", "C1", "one"},
		[4]string{"m2", "u2", "C2", "two"},
		[4]string{"m3", "v3", "C3", "three"},
		[4]string{"m4", "v4", "D", "four"},
		[4]string{"m5", "v5", "D", "four"},
	)
	r := compare(t, a, b)
	if r.MatchedBy != (matchCounts{NodeID: 1, CaseUUID: 1, StatementCode: 1}) {
		t.Errorf("matched %+v, want one pair by each key", r.MatchedBy)
	}
	by := map[string]string{}
	for _, c := range r.StandardsChanged {
		by[c.New.ID] = c.MatchedBy
		if !slices.Equal(c.Changes, []string{changeReidentified}) {
			t.Errorf("%s: changes %v, want [reidentified]", c.New.ID, c.Changes)
		}
	}
	if by["m2"] != "caseUuid" || by["m3"] != "statementCode" || len(by) != 2 {
		t.Errorf("pairs %v, want m2 by caseUuid and m3 by statementCode", by)
	}
	var added, removed []string
	for _, s := range r.StandardsAdded {
		added = append(added, s.ID)
	}
	for _, s := range r.StandardsRemoved {
		removed = append(removed, s.ID)
	}
	if !slices.Equal(added, []string{"m4", "m5"}) || !slices.Equal(removed, []string{"n4", "n5"}) {
		t.Errorf("added %v removed %v, want [m4 m5] and [n4 n5] (an ambiguous code pairs nothing)", added, removed)
	}
}

// TestDiffMovedThroughMatching checks that a parent that was reidentified is
// followed through the matching (its child did not move), and that edges are
// compared the same way.
func TestDiffMovedThroughMatching(t *testing.T) {
	a := snap([4]string{"p", "up", "P", "parent"}, [4]string{"c", "uc", "C", "child"}, [4]string{"d", "ud", "D", "other"})
	b := snap([4]string{"p2", "up", "P", "parent"}, [4]string{"c", "uc", "C", "child"}, [4]string{"d", "ud", "D", "other"})
	a.Nodes[1].Parent, b.Nodes[1].Parent = 0, 0
	a.Nodes[2].Parent, b.Nodes[2].Parent = 0, 1 // d moves under c
	a.Edges = []edge{{From: 0, To: 1, Type: edgeBuildsTowards}, {From: 1, To: 2, Type: edgeRelatesTo}}
	b.Edges = []edge{{From: 0, To: 1, Type: edgeBuildsTowards}, {From: 0, To: 2, Type: edgeBuildsTowards}}
	a.normalizeEdges()
	b.normalizeEdges()
	r := compare(t, a, b)
	kinds := map[string][]string{}
	for _, c := range r.StandardsChanged {
		kinds[c.New.ID] = c.Changes
	}
	if !slices.Equal(kinds["d"], []string{changeMoved}) || kinds["c"] != nil || !slices.Equal(kinds["p2"], []string{changeReidentified}) {
		t.Errorf("changes %v: want d moved, p2 reidentified, c unchanged", kinds)
	}
	if len(r.EdgesAdded) != 1 || r.EdgesAdded[0].Source.ID != "p2" || r.EdgesAdded[0].Target.ID != "d" ||
		len(r.EdgesRemoved) != 1 || r.EdgesRemoved[0].Type != "relatesTo" {
		t.Errorf("edges added %+v removed %+v", r.EdgesAdded, r.EdgesRemoved)
	}
}

func TestDiffWords(t *testing.T) {
	for _, c := range []struct {
		old, new string
		want     []wordOp
	}{
		{"a b c", "a b c", []wordOp{{opEqual, "a b c"}}},
		{"count to ten", "count up to twenty", []wordOp{{opEqual, "count"}, {opInsert, "up"}, {opEqual, "to"}, {opDelete, "ten"}, {opInsert, "twenty"}}},
		{"x y", "", []wordOp{{opDelete, "x y"}}},
		{"", "", nil},
		{"a b c d", "a x c y", []wordOp{{opEqual, "a"}, {opDelete, "b"}, {opInsert, "x"}, {opEqual, "c"}, {opDelete, "d"}, {opInsert, "y"}}},
	} {
		if got := wordDiff(c.old, c.new); !slices.Equal(got, c.want) {
			t.Errorf("wordDiff(%q, %q) = %v, want %v", c.old, c.new, got, c.want)
		}
	}
}

// TestDiffOrderTypesConfidencePublisher checks the comparisons a person
// deciding to publish needs beyond statements: statement types, the order
// of a parent's children (only the children on both sides count), supports
// confidence, and publisher relations followed through the matching.
func TestDiffOrderTypesConfidencePublisher(t *testing.T) {
	rows := [][4]string{{"p", "up", "P", "parent"}, {"a", "ua", "P.1", "first"}, {"b", "ub", "P.2", "second"}, {"c", "uc", "P.3", "third"}, {"lc", "", "", "component"}}
	a, b := snap(rows...), snap(rows...)
	for _, s := range []*Snapshot{a, b} {
		s.Nodes[4].Kind = kindComponent
		s.Nodes[0].Type = "Strand"
	}
	b.Nodes[0].Type = "Domain"
	a.children[0], a.basis[0] = []int32{1, 2, 3}, "code"
	b.children[0], b.basis[0] = []int32{2, 1}, "publisher" // c gone from under p: a and b swapped
	a.children[rootParent], a.basis[rootParent] = []int32{0}, "code"
	b.children[rootParent], b.basis[rootParent] = []int32{0}, "identifier" // same order, other basis: no news
	a.Edges = []edge{{From: 4, To: 1, Type: edgeSupports, Conf: 0.5, HasConf: true}, {From: 4, To: 2, Type: edgeSupports, Conf: 0.7, HasConf: true}}
	b.Edges = []edge{{From: 4, To: 1, Type: edgeSupports, Conf: 0.9, HasConf: true}, {From: 4, To: 2, Type: edgeSupports, Conf: 0.7, HasConf: true}}
	ext := externalRef{URI: "https://example.org/uri/X.1", Identifier: "X.1"}
	a.pub = []pubRel{{Type: "precedes", From: 1, To: 2, Seq: 1, HasSeq: true}, {Type: "exactMatchOf", From: 1, To: external, ToExt: ext}}
	b.pub = []pubRel{{Type: "precedes", From: 1, To: 2, Seq: 1, HasSeq: true}, {Type: "exactMatchOf", From: 2, To: external, ToExt: ext}}
	a.normalizeEdges()
	b.normalizeEdges()
	r := compare(t, a, b)
	if len(r.StandardsChanged) != 1 || !slices.Equal(r.StandardsChanged[0].Changes, []string{changeRetyped}) ||
		r.StandardsChanged[0].Old.Type != "Strand" || r.StandardsChanged[0].New.Type != "Domain" {
		t.Errorf("changed %+v, want p retyped Strand → Domain", r.StandardsChanged)
	}
	if len(r.ChildrenReordered) != 1 {
		t.Fatalf("reordered %+v, want p only (the root kept its order)", r.ChildrenReordered)
	}
	ro := r.ChildrenReordered[0]
	ids := func(refs []nodeRef) (out []string) {
		for _, x := range refs {
			out = append(out, x.ID)
		}
		return out
	}
	if ro.Parent.ID != "p" || !slices.Equal(ids(ro.Old), []string{"a", "b"}) || !slices.Equal(ids(ro.New), []string{"b", "a"}) ||
		ro.OldBasis != "code" || ro.NewBasis != "publisher" {
		t.Errorf("reorder %+v", ro)
	}
	if len(r.SupportsRescored) != 1 || r.SupportsRescored[0].Target.ID != "a" || *r.SupportsRescored[0].OldConfidence != 0.5 || *r.SupportsRescored[0].Confidence != 0.9 {
		t.Errorf("rescored %+v, want lc → a 0.5 → 0.9", r.SupportsRescored)
	}
	if len(r.SupportsAdded)+len(r.SupportsRemoved) != 0 {
		t.Errorf("a rescored edge is neither added nor removed: %+v %+v", r.SupportsAdded, r.SupportsRemoved)
	}
	if len(r.PublisherAdded) != 1 || r.PublisherAdded[0].Source.ID != "b" || r.PublisherAdded[0].TargetExternal.Identifier != "X.1" ||
		len(r.PublisherRemoved) != 1 || r.PublisherRemoved[0].Source.ID != "a" {
		t.Errorf("publisher added %+v removed %+v, want the alignment moved from a to b", r.PublisherAdded, r.PublisherRemoved)
	}
	if r.Equal {
		t.Error("reported equal")
	}
}
