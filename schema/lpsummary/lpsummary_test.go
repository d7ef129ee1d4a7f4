package lpsummary

import (
	"strings"
	"testing"

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
	js, err := (&Summary{ObjectCounts: c}).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	v, _ := jsonv.Parse(js)
	counts := v.Get("objectCounts")
	if len(counts.Obj) != len(manifest.LPObjectCountKeys) {
		t.Fatalf("objectCounts has %d members, want %d", len(counts.Obj), len(manifest.LPObjectCountKeys))
	}
	for i, k := range manifest.LPObjectCountKeys {
		if n, ok := jsonv.IntOf(counts.Get(k)); !ok || n != int64(i) {
			t.Errorf("objectCounts.%s = %v, want %d", k, counts.Get(k), i)
		}
	}
}

// TestDecodeJSONRefusesWrongTypes: a stored summary whose members have the
// wrong type or are missing is refused with the member named.
func TestDecodeJSONRefusesWrongTypes(t *testing.T) {
	good, err := (&Summary{SemanticScopeNotice: "n", ValidationWarningExcerpts: []string{}}).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeJSON(good); err != nil {
		t.Fatalf("a written summary is refused: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"totalSfisConsidered":null`, `"totalSfisConsidered":"3"`, "totalSfisConsidered"},
		{`"totalSfisConsidered":null`, `"totalSfisConsidered":1.5`, "totalSfisConsidered"},
		{`"validationPassed":null`, `"validationPassed":1`, "validationPassed"},
		{`"semanticScopeNotice":"n"`, `"semanticScopeNotice":null`, "semanticScopeNotice"},
		{`"relationshipWarningCount":0,`, ``, "relationshipWarningCount"},
		{`"validationWarningExcerpts":[]`, `"validationWarningExcerpts":[1]`, "validationWarningExcerpts"},
		{`"accepted_claims":null`, `"accepted_claims":true`, "accepted_claims"},
		{`"accepted_claims":null`, `"made_up":1`, "made_up"},
	} {
		bad := strings.Replace(string(good), c.from, c.to, 1)
		if bad == string(good) {
			t.Fatalf("%s not found in %s", c.from, good)
		}
		if _, err := DecodeJSON([]byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error naming %s", c.to, err, c.want)
		}
	}
	for _, bad := range []string{`[]`, `{`, `null`} {
		if _, err := DecodeJSON([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
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
