package lpsummary

import (
	"testing"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/manifest"
)

// TestObjectCountFields: every object count key names its own field, and the
// struct's JSON names are exactly the keys.
func TestObjectCountFields(t *testing.T) {
	var c ObjectCounts
	seen := map[**int64]string{}
	for i, k := range manifest.LPObjectCountKeys {
		f := c.Field(k)
		if f == nil {
			t.Fatalf("no field for %s", k)
		}
		if other, dup := seen[f]; dup {
			t.Fatalf("%s and %s share a field", k, other)
		}
		seen[f] = k
		n := int64(i)
		*f = &n
	}
	if c.Field("made_up") != nil {
		t.Fatal("an unknown key has a field")
	}
	js, err := canonjson.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	counts, _ := jsonv.Parse(js)
	if len(counts.Obj) != len(manifest.LPObjectCountKeys) {
		t.Fatalf("objectCounts has %d members, want %d", len(counts.Obj), len(manifest.LPObjectCountKeys))
	}
	for i, k := range manifest.LPObjectCountKeys {
		if n, ok := jsonv.IntOf(counts.Get(k)); !ok || n != int64(i) {
			t.Errorf("objectCounts.%s = %v, want %d", k, counts.Get(k), i)
		}
	}
}

// TestRowsDropMalformed: rows that are not [label, count] / [label, reason,
// count] are dropped, and a non-array is unknown (nil).
func TestRowsDropMalformed(t *testing.T) {
	v, _ := jsonv.Parse([]byte(`[["buildsTowards",3],["other",1],["relatesTo",1.5],["relatesTo"],5,["relatesTo",2]]`))
	if got := EligibleRows(v); len(got) != 2 || got[0] != (RelationshipCount{"buildsTowards", 3}) || got[1] != (RelationshipCount{"relatesTo", 2}) {
		t.Errorf("eligible rows: %+v", got)
	}
	x, _ := jsonv.Parse([]byte(`[["buildsTowards","no_grade",3],["buildsTowards",3],["a",1,2],["relatesTo","r",0]]`))
	if got := ExclusionRows(x); len(got) != 2 || got[0] != (ExclusionCount{"buildsTowards", "no_grade", 3}) || got[1] != (ExclusionCount{"relatesTo", "r", 0}) {
		t.Errorf("exclusion rows: %+v", got)
	}
	obj, _ := jsonv.Parse([]byte(`{}`))
	if EligibleRows(obj) != nil || ExclusionRows(nil) != nil {
		t.Error("a non-array gave rows")
	}
}
