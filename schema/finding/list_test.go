package finding

import (
	"testing"
)

// A List keeps the first Keep findings in gate order, whatever order the
// stages report them in, and counts every one.
func TestListKeepsTheFirstInGateOrder(t *testing.T) {
	l := List{Keep: 3}
	for i := 0; i < 1000; i++ {
		l.Add(New(JSONLParsingError, "delivery %d", i))
	}
	l.Add(New(ManifestMissing, "manifest"), New(CountMismatch, "reconcile"), New(PathSymlink, "discovery"))
	got := l.Items()
	want := []string{"discovery", "manifest", "delivery 0"}
	if len(got) != len(want) {
		t.Fatalf("kept %d: %+v", len(got), got)
	}
	for i, f := range got {
		if f.Message != want[i] {
			t.Errorf("item %d = %q, want %q", i, f.Message, want[i])
		}
	}
	if l.Len() != 1003 || l.Errors() != 1003 || !l.HasCode(CountMismatch) || l.CountsByCode()[JSONLParsingError] != 1000 {
		t.Errorf("counts: len %d errors %d by code %v", l.Len(), l.Errors(), l.CountsByCode())
	}
}

// Merge adds another list's kept findings and all its counts.
func TestListMerge(t *testing.T) {
	var a List
	a.Add(New(ManifestMissing, "m"))
	b := List{Keep: 2}
	for i := 0; i < 10; i++ {
		b.Add(New(JSONLParsingError, "%d", i))
	}
	b.Add(Finding{Code: "w", Severity: Warning, Stage: StageDelivery})
	a.Merge(&b)
	if a.Len() != 12 || a.Errors() != 11 || len(a.Items()) != 3 || a.CountsByCode()[JSONLParsingError] != 10 || a.CountsByCode()["w"] != 1 {
		t.Errorf("merged: len %d errors %d kept %d counts %v", a.Len(), a.Errors(), len(a.Items()), a.CountsByCode())
	}
}

// Memory does not grow with the findings: a million findings allocate about
// what the kept ones need.
func TestListMemoryIsBounded(t *testing.T) {
	f := New(JSONLParsingError, "x")
	allocs := testing.AllocsPerRun(1, func() {
		l := List{Keep: 100}
		for i := 0; i < 1_000_000; i++ {
			l.Add(f)
		}
	})
	if allocs > 50 {
		t.Errorf("%v allocations for a million findings kept to 100", allocs)
	}
}
