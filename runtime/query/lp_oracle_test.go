package query

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/oracle"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/runtime/kgerr"
)

// mathsGraph serves the shipped samples and reads the mathematics sample's
// nodes and relationships from its delivery files.
func mathsGraph(t *testing.T) (*Service, []oracle.Node, []oracle.Rel) {
	t.Helper()
	svc := New(imgtest.Catalog(t, imgtest.Images(t, nil, nil)), Options{})
	dirs, _ := filepath.Glob(filepath.Join(imgtest.RepoRoot(t), "packages", mathsSample, "*"))
	if len(dirs) != 1 {
		t.Fatalf("shipped package %s: %v", mathsSample, dirs)
	}
	return svc, oracle.Nodes(t, dirs[0]), oracle.Rels(t, dirs[0])
}

// collectEdges pages a progression collection to the end (fetch reads the
// page at a cursor, nil for the first) and returns its relationship IDs in
// order, checking each page's counts and continuation.
func collectEdges(t *testing.T, fetch func(cursor *string) (*ProgressionCollection, error)) []string {
	t.Helper()
	var ids []string
	var cursor *string
	for range 10000 {
		out, err := fetch(cursor)
		if err != nil {
			t.Fatal(err)
		}
		if out.Page.ReturnedCount != len(out.Connections) || len(out.Relationships) != len(out.Connections) {
			t.Fatalf("returnedCount %d, %d connections, %d relationship rows", out.Page.ReturnedCount, len(out.Connections), len(out.Relationships))
		}
		for _, c := range out.Connections {
			ids = append(ids, c.RelationshipID)
		}
		if !out.Page.HasMore {
			if out.Page.NextRequest != nil || !out.Page.IsComplete {
				t.Fatalf("last page %+v", out.Page)
			}
			return ids
		}
		if out.Page.NextRequest["cursor"] != *out.Page.NextCursor {
			t.Fatal("nextRequest does not carry nextCursor")
		}
		cursor = out.Page.NextCursor
	}
	t.Fatal("paging did not end")
	return nil
}

// searchEdges collects search_learning_progressions for r.
func searchEdges(t *testing.T, svc *Service, r ProgressionSearchRequest) []string {
	t.Helper()
	return collectEdges(t, func(cursor *string) (*ProgressionCollection, error) {
		r.Cursor = cursor
		return svc.SearchProgressions(context.Background(), r)
	})
}

// TestProgressionCollectionsReturnEveryEdgeOnce pages every stored edge of
// each type at page sizes 1 to 100, in ID order, buildsTowards first when
// both are asked; a 100-edge page stops at the size ceiling and carries the
// rest; each standard's connections of each kind are exactly the source's.
func TestProgressionCollectionsReturnEveryEdgeOnce(t *testing.T) {
	t.Parallel()
	svc, _, rels := mathsGraph(t)
	for _, label := range []string{"buildsTowards", "relatesTo"} {
		want := oracle.IDs(rels, func(r oracle.Rel) bool { return r.Label == label })
		if len(want) == 0 {
			t.Fatalf("no %s edges in the sample", label)
		}
		for _, limit := range []int{1, 7, 25, 100} {
			r := NewProgressionSearchRequest(mathsSample)
			r.RelationshipTypes, r.Limit = []string{label}, limit
			if got := searchEdges(t, svc, r); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s, limit %d: %d edges, want %d in ID order", label, limit, len(got), len(want))
			}
		}
	}
	both := append(oracle.IDs(rels, func(r oracle.Rel) bool { return r.Label == "buildsTowards" }),
		oracle.IDs(rels, func(r oracle.Rel) bool { return r.Label == "relatesTo" })...)
	r := NewProgressionSearchRequest(mathsSample)
	r.Limit = 100
	out, err := svc.SearchProgressions(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if p := out.Page; p.StoppingReason == nil || *p.StoppingReason != "byte_limit" || !p.HasMore || p.TotalMatchingCount != nil {
		t.Errorf("a 100-edge page of the sample should stop at the ceiling: %+v", p)
	}
	if got := searchEdges(t, svc, r); fmt.Sprint(got) != fmt.Sprint(both) {
		t.Errorf("both types: %d edges, want %d", len(got), len(both))
	}
	spec := pkggen.Shipped()[1]
	for _, std := range []string{pkggen.NodeID(spec, 0, 0, 0, 0), pkggen.NodeID(spec, 1, 0, 0, 1), pkggen.NodeID(spec, 2, 1, 1, 2)} {
		all := 0
		for kind, keep := range map[string]func(oracle.Rel) bool{
			"incoming_builds": func(r oracle.Rel) bool { return r.Label == "buildsTowards" && r.Target == std },
			"outgoing_builds": func(r oracle.Rel) bool { return r.Label == "buildsTowards" && r.Source == std },
			"related":         func(r oracle.Rel) bool { return r.Label == "relatesTo" && (r.Source == std || r.Target == std) },
		} {
			want := oracle.IDs(rels, keep)
			r := NewStandardProgressionsRequest(mathsSample, ByNodeID(std))
			r.ConnectionKind, r.Limit = kind, 1
			if got := standardEdges(t, svc, r); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s of %s: %v, want %v", kind, std, got, want)
			}
			all += len(want)
		}
		r := NewStandardProgressionsRequest(mathsSample, ByNodeID(std))
		r.Limit = 2
		if got := standardEdges(t, svc, r); len(got) != all || all == 0 {
			t.Errorf("all connections of %s: %d, want %d", std, len(got), all)
		}
	}
}

// standardEdges collects get_standard_progressions for r.
func standardEdges(t *testing.T, svc *Service, r StandardProgressionsRequest) []string {
	t.Helper()
	return collectEdges(t, func(cursor *string) (*ProgressionCollection, error) {
		r.Cursor = cursor
		return svc.StandardProgressions(context.Background(), r)
	})
}

// TestProgressionSearchFiltersAgreeWithBruteForce checks every endpoint scope
// under facet and standard filters against the source files, and the
// refusals of filters that name nothing the package has.
func TestProgressionSearchFiltersAgreeWithBruteForce(t *testing.T) {
	t.Parallel()
	svc, nodes, rels := mathsGraph(t)
	byID := map[string]oracle.Node{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	selected := pkggen.NodeID(pkggen.Shipped()[1], 1, 0, 1, 1)
	bySelected := []Selector{ByNodeID(selected)}
	byCode := []Selector{{IdentifierType: "statement_code", StatementCode: byID[selected].Code}}
	for name, c := range map[string]struct {
		filter func(*ProgressionSearchRequest)
		match  func(oracle.Node) bool
	}{
		"grade 2 (alias)": {func(r *ProgressionSearchRequest) { r.LocalGradeLabels = []string{"year 2"} },
			func(n oracle.Node) bool { return slices.Contains(n.Grades, "2") }},
		"grades 1 or 3, indicators": {func(r *ProgressionSearchRequest) {
			r.NormalizedGrades, r.StatementTypes = []string{"1", "3"}, []string{"INDICATOR"}
		}, func(n oracle.Node) bool {
			return (slices.Contains(n.Grades, "1") || slices.Contains(n.Grades, "3")) && n.StatementType == "Indicator"
		}},
		"a selected standard": {func(r *ProgressionSearchRequest) { r.StandardIdentifiers = bySelected },
			func(n oracle.Node) bool { return n.ID == selected }},
		"selected by code, grade 2": {func(r *ProgressionSearchRequest) {
			r.StandardIdentifiers, r.LocalGradeLabels = byCode, []string{"GRADE TWO"}
		}, func(n oracle.Node) bool { return n.ID == selected }},
		"no standard is a grouping": {func(r *ProgressionSearchRequest) { r.NormalizedStatementTypes = []string{"Standard Grouping"} },
			func(oracle.Node) bool { return false }},
	} {
		for _, scope := range []string{"either", "both", "source", "target"} {
			want := oracle.IDs(rels, func(r oracle.Rel) bool {
				if r.Label != "buildsTowards" && r.Label != "relatesTo" {
					return false
				}
				s, g := c.match(byID[r.Source]), c.match(byID[r.Target])
				return map[string]bool{"either": s || g, "both": s && g, "source": s, "target": g}[scope]
			})
			var got []string
			for _, label := range []string{"buildsTowards", "relatesTo"} {
				r := NewProgressionSearchRequest(mathsSample)
				c.filter(&r)
				r.EndpointScope, r.RelationshipTypes, r.Limit = scope, []string{label}, 10
				got = append(got, searchEdges(t, svc, r)...)
			}
			sort.Strings(got)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s, scope %s: %d edges, want %d", name, scope, len(got), len(want))
			}
		}
	}
	for name, filter := range map[string]func(*ProgressionSearchRequest){
		"unknown grade label":    func(r *ProgressionSearchRequest) { r.LocalGradeLabels = []string{"Year 9"} },
		"unknown grade":          func(r *ProgressionSearchRequest) { r.NormalizedGrades = []string{"12"} },
		"repeated after folding": func(r *ProgressionSearchRequest) { r.StatementTypes = []string{"Indicator", " indicator"} },
		"unknown statement type": func(r *ProgressionSearchRequest) { r.StatementTypes = []string{"Lesson"} },
		"normalized type":        func(r *ProgressionSearchRequest) { r.NormalizedStatementTypes = []string{"Standards"} },
		"repeated standard":      func(r *ProgressionSearchRequest) { r.StandardIdentifiers = append(bySelected, byCode...) },
	} {
		r := NewProgressionSearchRequest(mathsSample)
		filter(&r)
		if _, err := svc.SearchProgressions(context.Background(), r); kgerr.CodeOf(err) != kgerr.InvalidProgressionRequest {
			t.Errorf("%s: %v", name, err)
		}
	}
	r := NewProgressionSearchRequest(mathsSample)
	r.StandardIdentifiers = []Selector{ByNodeID("no-such-node")}
	if _, err := svc.SearchProgressions(context.Background(), r); kgerr.CodeOf(err) != kgerr.StandardNotFound {
		t.Errorf("missing standard: %v", err)
	}
}
