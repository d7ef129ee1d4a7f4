package query

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/oracle"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/search"
)

// The shipped samples.
const (
	mathsSample   = "kgc-sample-mathematics-grades-1-3"
	englishSample = "kgc-sample-english-grades-1-2"
)

// mathsOracle serves the shipped samples and reads the mathematics sample's
// nodes from its delivery file, placed as the image orders them.
func mathsOracle(t *testing.T) (*Service, []oracle.Node) {
	t.Helper()
	cat := imgtest.Catalog(t, imgtest.Images(t, nil, nil))
	dirs, _ := filepath.Glob(filepath.Join(imgtest.RepoRoot(t), "packages", mathsSample, "*"))
	if len(dirs) != 1 {
		t.Fatalf("shipped package %s: %v", mathsSample, dirs)
	}
	return New(cat, Options{}), oracle.Place(t, cat.Packages, mathsSample, oracle.Nodes(t, dirs[0]))
}

// pages follows r's pages to the end, checking each page's counts and
// continuation, and returns every hit.
func pages[R interface {
	Next(*SearchResult[H]) (R, bool)
}, H any](t *testing.T, limit int, r R, fetch func(R) (*SearchResult[H], error)) []H {
	t.Helper()
	var out []H
	for range 1000 {
		res, err := fetch(r)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		page := res.Page
		if page.ReturnedCount != len(page.Hits) || len(page.Hits) > limit || page.HasMore != (page.NextCursor != nil) {
			t.Fatalf("page: returnedCount %d for %d hits (limit %d), hasMore %v", page.ReturnedCount, len(page.Hits), limit, page.HasMore)
		}
		out = append(out, page.Hits...)
		next, ok := r.Next(res)
		if !ok {
			return out
		}
		r = next
	}
	t.Fatal("paging did not end")
	return nil
}

// pageHits pages through a standards search.
func pageHits(t *testing.T, svc *Service, r StandardSearchRequest) []StandardHit {
	t.Helper()
	return pages(t, r.Limit, r, func(r StandardSearchRequest) (*SearchResult[StandardHit], error) {
		return svc.SearchStandards(context.Background(), r)
	})
}

// pageComponents pages through a learning-component search.
func pageComponents(t *testing.T, svc *Service, r ComponentSearchRequest) []ComponentHit {
	t.Helper()
	return pages(t, r.Limit, r, func(r ComponentSearchRequest) (*SearchResult[ComponentHit], error) {
		return svc.SearchComponents(context.Background(), r)
	})
}

// pageThrough is pageHits ranked as the oracle ranks.
func pageThrough(t *testing.T, svc *Service, r StandardSearchRequest) []oracle.Ranked {
	t.Helper()
	var out []oracle.Ranked
	for _, h := range pageHits(t, svc, r) {
		rk := oracle.Ranked{ID: h.Node.NodeID, Score: h.Score.Value}
		if h.CodeMatch != nil {
			rk.Lead = h.CodeMatch.NormalizedCode
		}
		out = append(out, rk)
	}
	return out
}

// TestSearchStandardsTextAgreesWithBruteForce ranks text queries (tokens all
// and any, exact phrase) over the mathematics sample as the oracle does from
// the delivery file, at page sizes 1, 7 and 100.
func TestSearchStandardsTextAgreesWithBruteForce(t *testing.T) {
	t.Parallel()
	svc, nodes := mathsOracle(t)
	for _, q := range []struct {
		query string
		match *MatchPolicy
	}{
		{"telling the time", Words(MatchTokens, OperatorAll)},
		{"Telling TIME length", Words(MatchTokens, OperatorAny)},
		{"measurement of length step", Words(MatchTokens, OperatorAny)},
		{"telling the time", Phrase()},
		{"step 1 of 3", Phrase()},
		{"grade one", Words(MatchTokens, OperatorAll)},
	} {
		operator := ""
		if q.match.Operator != nil {
			operator = string(*q.match.Operator)
		}
		want := oracle.Text(t, nodes, q.query, string(q.match.MatchMode), operator, false)
		if len(want) == 0 {
			t.Fatalf("%q matches nothing in the sample; pick another query", q.query)
		}
		for _, limit := range []int{1, 7, 100} {
			r := NewStandardSearchRequest(q.query, mathsSample)
			r.Match, r.Limit = q.match, limit
			if got := pageThrough(t, svc, r); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%q %s %s limit %d:\n got %v\nwant %v", q.query, q.match.MatchMode, operator, limit, got, want)
			}
		}
	}
}

// TestSearchStandardsCodesAgreeWithBruteForce ranks exact and prefix code
// queries as the oracle does, and reads an indicator's code match: its code
// type and the content standard its code derives.
func TestSearchStandardsCodesAgreeWithBruteForce(t *testing.T) {
	t.Parallel()
	svc, nodes := mathsOracle(t)
	for _, q := range []struct {
		mode  SearchMode
		query string
	}{
		{SearchCodeExact, "m1.1.1"}, {SearchCodeExact, " M2.1.1.2 "}, {SearchCodePrefix, "M1.1"},
		{SearchCodePrefix, "m2."}, {SearchCodePrefix, "M3"}, {SearchCodePrefix, "M"}, {SearchCodeExact, "M9.9.9"},
	} {
		want := oracle.Code(t, nodes, q.query, q.mode == SearchCodePrefix)
		for _, limit := range []int{2, 100} {
			r := NewCodeSearchRequest(q.mode, q.query, mathsSample)
			r.Limit = limit
			if got := pageThrough(t, svc, r); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s %q limit %d:\n got %v\nwant %v", q.mode, q.query, limit, got, want)
			}
		}
	}
	res, err := svc.SearchStandards(context.Background(), NewCodeSearchRequest(SearchCodeExact, "M1.1.1.1", mathsSample))
	if err != nil || len(res.Page.Hits) != 1 {
		t.Fatalf("M1.1.1.1: %v", err)
	}
	hit := res.Page.Hits[0]
	cm := hit.CodeMatch
	if cm == nil || cm.CodeType == nil || *cm.CodeType != "indicator" || cm.AuthoredCode != "M1.1.1.1" || len(cm.ParentDerivations) != 1 {
		t.Fatalf("codeMatch %+v", cm)
	}
	d, parent := cm.ParentDerivations[0], oracle.Code(t, nodes, "M1.1.1", false)
	if d.Status != "matched_unique" || d.DerivedCode != "M1.1.1" || len(d.MatchedParentNodeIDs) != 1 || d.MatchedParentNodeIDs[0] != parent[0].ID || len(hit.Warnings) != 0 {
		t.Errorf("derivation %+v, warnings %v", d, hit.Warnings)
	}
	if hit.Score.Algorithm != "code_exact_v1" || hit.MatchedFields[0].Field != "statement_code" {
		t.Errorf("code hit score %+v, matched fields %+v", hit.Score, hit.MatchedFields)
	}
}

// TestSearchStandardsHitShape reads one text hit: exact scope, the score's
// algorithm and terms, the matched field, the facets read through the
// profile.
func TestSearchStandardsHitShape(t *testing.T) {
	t.Parallel()
	svc, _ := mathsOracle(t)
	r := NewStandardSearchRequest("telling time", mathsSample)
	r.Match, r.Limit = Words(MatchTokens, OperatorAny), 1
	res, err := svc.SearchStandards(context.Background(), r)
	if err != nil || len(res.Page.Hits) != 1 {
		t.Fatalf("%v", err)
	}
	scope, ok := res.EffectiveScope.(ExactScope)
	if !ok || scope.FrameworkID != mathsSample || scope.GraphType != "academic_standards" || len(res.SelectedSnapshots) != 1 {
		t.Errorf("effectiveScope %+v, %d selected snapshots", res.EffectiveScope, len(res.SelectedSnapshots))
	}
	hit := res.Page.Hits[0]
	if hit.RetrievalMethod != "text" || hit.EpistemicStatus != "retrieval_candidate" || hit.CodeMatch != nil ||
		hit.Score.Algorithm != "lexical_token_coverage_v1" || hit.Score.QueryTermCount != 2 || hit.Score.Value != 1000000 {
		t.Errorf("hit %+v", hit)
	}
	if f := hit.MatchedFields[0]; f.Field != "description" || f.SourceValue != hit.Node.Statement() || strings.Join(hit.MatchedTerms, " ") != "telling time" {
		t.Errorf("matched field %+v, terms %v", f, hit.MatchedTerms)
	}
	if f := hit.Facets; f.LocalSubject == nil || *f.LocalSubject != "Mathematics" || len(f.NormalizedSubjects) != 1 || len(f.ResolvedLocalGradeLabels) != 1 {
		t.Errorf("facets %+v", f)
	}
}

// TestSearchStandardsFilters narrows a code prefix search with each filter,
// counted against the delivery file: statement type and grade label as
// users type them, and filters that match nothing.
func TestSearchStandardsFilters(t *testing.T) {
	t.Parallel()
	svc, nodes := mathsOracle(t)
	search := func(set func(*StandardSearchRequest)) []StandardHit {
		r := NewCodeSearchRequest(SearchCodePrefix, "M1", mathsSample)
		r.Limit = 100
		set(&r)
		return pageHits(t, svc, r)
	}
	count := func(pred func(oracle.Node) bool) int {
		n := 0
		for _, s := range nodes {
			if s.Item && strings.HasPrefix(s.Code, "M1.") && pred(s) {
				n++
			}
		}
		return n
	}
	all := count(func(oracle.Node) bool { return true })
	indicators := count(func(s oracle.Node) bool { return s.StatementType == "Indicator" })
	if got := search(func(r *StandardSearchRequest) { r.StatementTypes = []string{"  indicator "} }); len(got) != indicators || indicators == 0 {
		t.Errorf("statementTypes: %d hits, want %d", len(got), indicators)
	}
	if got := search(func(r *StandardSearchRequest) { r.LocalGradeLabels = []string{"g1", "no such grade"} }); len(got) != all {
		t.Errorf("localGradeLabels G1: %d hits, want %d", len(got), all)
	}
	if got := search(func(r *StandardSearchRequest) {
		r.NormalizedSubjects, r.NormalizedGrades = []string{"MATHEMATICS"}, []string{"1"}
	}); len(got) != all {
		t.Errorf("normalized subject and grade: %d hits, want %d", len(got), all)
	}
	for name, set := range map[string]func(*StandardSearchRequest){
		"other grade":         func(r *StandardSearchRequest) { r.LocalGradeLabels = []string{"Year 2"} },
		"unknown grade label": func(r *StandardSearchRequest) { r.LocalGradeLabels = []string{"Year 9"} },
		"normalized grade":    func(r *StandardSearchRequest) { r.NormalizedGrades = []string{"2"} },
		"other subject":       func(r *StandardSearchRequest) { r.NormalizedSubjects = []string{"English Language Arts"} },
		"groupings only": func(r *StandardSearchRequest) {
			r.IncludeGroupings, r.NormalizedStatementTypes = true, []string{"Standard Grouping"}
		},
	} {
		if got := search(set); len(got) != 0 {
			t.Errorf("%s: %d hits, want none", name, len(got))
		}
	}
	r := NewStandardSearchRequest("strand", mathsSample)
	r.IncludeGroupings, r.Limit = true, 100
	groupings := pageHits(t, svc, r)
	if len(groupings) == 0 {
		t.Error("includeGroupings returned no Standard Grouping")
	}
	for _, h := range groupings {
		if h.Facets.NormalizedStatementType == nil || *h.Facets.NormalizedStatementType != "Standard Grouping" {
			t.Errorf("strand hit %s is not a grouping", h.Node.NodeID)
		}
	}
}

// TestSearchFederationAndCapabilities: a search without a scope runs over
// every framework's current snapshot and says which could not serve the
// mode; an exact scope that cannot serve it is refused; scope filters leave
// out the packages they do not name; unknown frameworks and modes are
// refused with their codes.
func TestSearchFederationAndCapabilities(t *testing.T) {
	t.Parallel()
	svc, _ := mathsOracle(t)
	ctx := context.Background()
	res, err := svc.SearchStandards(ctx, NewCodeSearchRequest(SearchCodeExact, "M1.1.1"))
	if err != nil {
		t.Fatal(err)
	}
	scope, ok := res.EffectiveScope.(FederatedScope)
	if !ok || len(scope.SnapshotIDs) != 2 || len(res.Page.Hits) != 1 {
		t.Fatalf("federated code search: scope %+v, %d hits", res.EffectiveScope, len(res.Page.Hits))
	}
	var codes []string
	for _, w := range res.Page.Warnings {
		codes = append(codes, w.Code)
	}
	if strings.Join(codes, ",") != "code_search_unavailable,partial_code_coverage" {
		t.Errorf("warnings %v", codes)
	}
	_, err = svc.SearchStandards(ctx, NewCodeSearchRequest(SearchCodePrefix, "E1", englishSample))
	if kgerr.CodeOf(err) != kgerr.CapabilityUnavailable {
		t.Errorf("exact scope without codes: %v", err)
	}
	r := NewStandardSearchRequest("reading")
	r.Jurisdictions, r.Subjects, r.Match = []string{"sampleland"}, []string{"english language arts"}, Words(MatchTokens, OperatorAny)
	if res, err = svc.SearchStandards(ctx, r); err != nil || len(res.Page.Hits) == 0 {
		t.Fatalf("subject-filtered search: %v", err)
	}
	for _, h := range res.Page.Hits {
		if h.PackageIdentity.FrameworkID != englishSample {
			t.Errorf("the subject filter let %s through", h.PackageIdentity.FrameworkID)
		}
	}
	// Two frameworks named, one left by the filters: still a federated search.
	r = NewCodeSearchRequest(SearchCodeExact, "M1.1.1", mathsSample, englishSample)
	r.Subjects = []string{"MATHEMATICS"}
	if res, err = svc.SearchStandards(ctx, r); err != nil {
		t.Fatal(err)
	}
	if scope, ok := res.EffectiveScope.(FederatedScope); !ok || len(scope.SnapshotIDs) != 1 {
		t.Errorf("filtered two-framework scope: %+v", res.EffectiveScope)
	}
	if _, err := svc.SearchStandards(ctx, NewCodeSearchRequest(SearchCodeExact, "x", "no-such-framework")); kgerr.CodeOf(err) != kgerr.FrameworkNotFound {
		t.Errorf("unknown framework: %v", err)
	}
	if _, err := svc.Call(ctx, "search_standards", []byte(`{"request":{"mode":"semantic","query":"x"}}`)); kgerr.CodeOf(err) != kgerr.UnsupportedSearchMode {
		t.Errorf("unknown mode: %v", err)
	}
}

// TestSearchComponents ranks a component text search as the oracle does,
// finds exactly the components with a whole tag, and lists each component
// supporting a standard under a code prefix once, with the standards matched.
func TestSearchComponents(t *testing.T) {
	t.Parallel()
	svc, nodes := mathsOracle(t)
	r := NewComponentSearchRequest("counting whole numbers", mathsSample)
	r.Match, r.Limit = Words(MatchTokens, OperatorAny), 3
	var got []oracle.Ranked
	for _, h := range pageComponents(t, svc, r) {
		got = append(got, oracle.Ranked{ID: h.Node.NodeID, Score: h.Score.Value})
	}
	if want := oracle.Text(t, nodes, "counting whole numbers", "tokens", "any", true); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("component text:\n got %v\nwant %v", got, want)
	}

	tagged := 0
	for _, n := range nodes {
		for _, tag := range n.Tags {
			if tag == "part 1" {
				tagged++
			}
		}
	}
	tag := func(q string) int {
		r := NewComponentSearchRequest(q, mathsSample)
		r.Mode, r.Match, r.Limit = search.ComponentTag, nil, 10
		return len(pageComponents(t, svc, r))
	}
	if n := tag("  PART   1 "); n != tagged || tagged == 0 {
		t.Errorf("tag search: %d hits, want %d", n, tagged)
	}
	if n := tag("part"); n != 0 {
		t.Errorf("a partial tag matched %d components", n)
	}

	stds := map[string]bool{}
	for _, s := range oracle.Code(t, nodes, "M1.1", true) {
		stds[s.ID] = true
	}
	r = NewComponentSearchRequest("M1.1", mathsSample)
	r.Mode, r.Match, r.Limit = search.ComponentCodePrefix, nil, 5
	hits := pageComponents(t, svc, r)
	if len(hits) == 0 {
		t.Fatal("no component supports a standard under M1.1")
	}
	seen := map[string]bool{}
	for _, h := range hits {
		if seen[h.Node.NodeID] {
			t.Errorf("component %s returned twice", h.Node.NodeID)
		}
		seen[h.Node.NodeID] = true
		if len(h.MatchedCodes) == 0 || len(h.SupportedStandards) < len(h.MatchedCodes) {
			t.Errorf("hit %s: matchedCodes %+v", h.Node.NodeID, h.MatchedCodes)
		}
		for _, c := range h.MatchedCodes {
			if c.StatementCode == nil || !strings.HasPrefix(*c.StatementCode, "M1.1.") || !stds[c.NodeID] {
				t.Errorf("matched code %+v is not under M1.1", c)
			}
		}
	}
	r = NewComponentSearchRequest("E1", englishSample)
	r.Mode, r.Match = search.ComponentCodeExact, nil
	if _, err := svc.SearchComponents(context.Background(), r); kgerr.CodeOf(err) != kgerr.CapabilityUnavailable {
		t.Errorf("component code search without codes: %v", err)
	}
}
