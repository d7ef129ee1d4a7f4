package main

import (
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/corpus"
)

// TestScriptIsWellFormed checks the script without a server: unique IDs,
// every placeholder extracted by an earlier step, arguments that are JSON
// objects, patterns with one capture group, well-formed facts.
func TestScriptIsWellFormed(t *testing.T) {
	if err := validate(script); err != nil {
		t.Fatal(err)
	}
	if len(script) != 16 {
		t.Errorf("the script has %d questions, want 16", len(script))
	}
}

// TestFactsAndPlaceholders checks the fact matching and the filling of
// placeholders on small inputs.
func TestFactsAndPlaceholders(t *testing.T) {
	got, missing := fill(`{"a":"{{x}}","b":"{{y}}"}`, map[string]string{"x": `q"1`})
	if got != `{"a":"q\"1","b":"{{y}}"}` || len(missing) != 1 || missing[0] != "y" {
		t.Errorf("fill = %s, %v", got, missing)
	}
	text := "Pupils should be able to: 1.  identify a Square,\n a Rectangle\nCite: " + standardTemplate(nigeriaLC) + "\n1. abc-1 | x"
	for _, c := range []struct {
		f    fact
		want bool
	}{
		{has("spaces folded", "identify a Square, a Rectangle"), true},
		{has("all strings", "Square", "Circle"), false},
		{standardURI("template and ID", nigeriaLC, "abc-1"), true},
		{standardURI("other ID", nigeriaLC, "abc-2"), false},
		{re("regexp", `(?i)CITE: kgfegmcp`), true},
	} {
		if c.f.found(text) != c.want {
			t.Errorf("fact %q found = %v, want %v", c.f.Name, !c.want, c.want)
		}
	}
	if got := standardTemplate(ghanaSnap); got != "kgfegmcp://framework/ghana-nacca-primary-mathematics-basic-4-6/snapshot/ghana-nacca-primary-mathematics-basic-4-6%402019%2B43d21a2cb010/standard/{nodeId}" {
		t.Errorf("standardTemplate = %s", got)
	}
}

// TestReplay replays the script against kgmcp serving the four corpus
// images, when the corpus is present, and fails if a call errors or a value
// the next call needs is not in a result's text. The figures (calls, bytes,
// facts found) are logged, never asserted.
func TestReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: the replay builds kgc, kgmcp and four corpus images")
	}
	rep, err := run(corpus.Dir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status == statusSkip {
		t.Skip("SKIP: " + rep.Reason)
	}
	var b strings.Builder
	printReport(&b, rep, false)
	t.Log("\n" + b.String())
	for _, q := range rep.Questions {
		for _, f := range q.Failures {
			t.Errorf("%s: %s", q.ID, f)
		}
	}
	if len(rep.Questions) != len(script) {
		t.Errorf("%d questions replayed, want %d", len(rep.Questions), len(script))
	}
}
