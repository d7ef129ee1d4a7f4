package query

import (
	"context"
	"strings"
	"testing"
)

// TestEmptyProgressionAnswersSayWhereEdgesAre: a grouping with no stored
// edge of its own names the standards below it that have some, with their
// counts, in get_standard_progressions and traverse_learning_progressions; a
// standard with edges gets no notice.
func TestEmptyProgressionAnswersSayWhereEdgesAre(t *testing.T) {
	s := New(sampleCatalog(t), Options{})
	ctx := context.Background()
	const maths = "kgc-sample-mathematics-grades-1-3"
	code := func(c string) Selector { return Selector{IdentifierType: "statement_code", StatementCode: c} }
	r := NewStandardProgressionsRequest(maths, code("M2.1.2"))
	res, err := s.StandardProgressions(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	n := res.NearbyNotice
	if len(res.Connections) != 0 || !strings.HasPrefix(n, "No stored progression edge touches M2.1.2. Its descendants have stored edges: M2.1.2.1 (") ||
		!strings.Contains(n, "M2.1.2.3 (") {
		t.Errorf("notice %q for %d connections", n, len(res.Connections))
	}
	tr := NewTraverseRequest(maths, code("M2.1.2"))
	walk, err := s.Traverse(ctx, tr)
	if err != nil {
		t.Fatal(err)
	}
	if walk.NearbyNotice != n {
		t.Errorf("traversal notice %q, want %q", walk.NearbyNotice, n)
	}
	res, err = s.StandardProgressions(ctx, NewStandardProgressionsRequest(maths, code("M2.1.2.2")))
	if err != nil || len(res.Connections) == 0 || res.NearbyNotice != "" {
		t.Errorf("a standard with edges: %v, %d connections, notice %q", err, len(res.Connections), res.NearbyNotice)
	}
}
