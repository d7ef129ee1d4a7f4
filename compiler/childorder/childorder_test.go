package childorder_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/compiler/childorder"
	"github.com/kgc-project/kgc/compiler/delivery"
)

// child is one child of a test parent: its ID, code, statement, list
// enumeration and the sequenceNumber of its edge ("" for none).
type child struct {
	id, code, text, enum, seq string
	grades                    []string
	// kids are the child's own children (for codes beneath it).
	kids []child
}

// order sorts the children of one parent given in file order and returns
// their IDs in curriculum order and the basis.
func order(t *testing.T, kids []child) (string, childorder.Basis) {
	t.Helper()
	nodes := []*delivery.Node{{ID: "parent"}}
	var rels []*delivery.Relationship
	var add func(parent string, kids []child)
	add = func(parent string, kids []child) {
		for _, k := range kids {
			n := &delivery.Node{ID: k.id, GradeLevel: k.grades}
			for p, v := range map[delivery.NodeProp]string{delivery.NStatementCode: k.code, delivery.NDescription: k.text, delivery.NListEnumeration: k.enum} {
				if v != "" {
					n.SetProp(p, v)
				}
			}
			nodes = append(nodes, n)
			r := &delivery.Relationship{ID: fmt.Sprintf("r%03d", len(rels)), Label: delivery.HasChild, Source: parent, Target: k.id, Order: len(rels)}
			if k.seq != "" {
				r.SetProp(delivery.RSequenceNumber, k.seq)
			}
			rels = append(rels, r)
			add(k.id, k.kids)
		}
	}
	add("parent", kids)
	index := map[string]int{}
	for i, n := range nodes {
		index[n.ID] = i
	}
	rows, basis := childorder.Rows(nodes, rels, func(id string) (int, bool) { i, ok := index[id]; return i, ok })
	var ids []string
	for _, e := range rows[0] {
		ids = append(ids, rels[e].Target)
	}
	if len(kids[0].kids) == 0 && basis[1] != childorder.None {
		t.Errorf("a childless node's basis is %v, want none", basis[1])
	}
	return strings.Join(ids, " "), basis[0]
}

func TestCurriculumOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kids  []child
		want  string
		basis childorder.Basis
	}{
		{"publisher sequence numbers win over codes", []child{
			{id: "a", code: "X.2", seq: "2"}, {id: "b", code: "X.1", seq: "10"}, {id: "c", code: "X.3", seq: "1"},
		}, "c a b", childorder.Publisher},
		{"list enumerations, natural order", []child{
			{id: "a", enum: "10"}, {id: "b", enum: "2"}, {id: "c", enum: "1"},
		}, "c b a", childorder.Publisher},
		{"one child without a sequence number: codes", []child{
			{id: "a", code: "B5.1.3.1.10", seq: "1"}, {id: "b", code: "B5.1.3.1.2"}, {id: "c", code: "B5.1.3.1.1", seq: "3"},
		}, "c b a", childorder.Code},
		{"numbers after a shared stem", []child{
			{id: "a", text: "Pupils should be able to: 3. use metres"}, {id: "b", text: "Pupils should be able to: 10. estimate"},
			{id: "c", text: "Pupils should be able to: 1. compare"},
		}, "c a b", childorder.StatementNumbers},
		{"roman numerals", []child{
			{id: "a", text: "iv. four"}, {id: "b", text: "ii. two"}, {id: "c", text: "(i) one"},
		}, "c b a", childorder.StatementNumbers},
		{"letters", []child{
			{id: "a", text: "(c) third"}, {id: "b", text: "a. first"}, {id: "c", text: "b) second"},
		}, "b c a", childorder.StatementNumbers},
		{"mixed kinds of number: identifiers", []child{
			{id: "z", text: "1. one"}, {id: "y", text: "b. two"}, {id: "x", text: "no number"},
		}, "x y z", childorder.Identifier},
		{"grades in school order", []child{
			{id: "a", text: "GRADE TEN", grades: []string{"10"}}, {id: "b", text: "GRADE NINE", grades: []string{"09", "10"}},
			{id: "c", text: "KINDERGARTEN", grades: []string{"K"}},
		}, "c b a", childorder.Grade},
		{"uncoded strands by the codes beneath them", []child{
			{id: "s1", text: "Measurement", grades: []string{"1"}, kids: []child{{id: "x", code: "M1.2.10"}, {id: "y", code: "M1.2.2"}}},
			{id: "s2", text: "Number", grades: []string{"1"}, kids: []child{{id: "z", text: "uncoded", kids: []child{{id: "w", code: "M1.1.1"}}}}},
			{id: "s3", code: "M1.0"},
		}, "s3 s2 s1", childorder.CodesBelow},
		{"a child with nothing coded beneath it: identifiers", []child{
			{id: "s2", text: "Number", grades: []string{"1"}, kids: []child{{id: "w", code: "M1.1.1"}}},
			{id: "s1", text: "Measurement", grades: []string{"1"}, kids: []child{{id: "x", text: "uncoded"}}},
		}, "s1 s2", childorder.Identifier},
		{"ties keep the file order", []child{
			{id: "a", code: "X.1"}, {id: "b", code: "x.1"}, {id: "c", code: "X.0"},
		}, "c a b", childorder.Code},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, basis := order(t, tc.kids)
			if got != tc.want || basis != tc.basis {
				t.Errorf("order %q (%v), want %q (%v)", got, basis, tc.want, tc.basis)
			}
		})
	}
}
