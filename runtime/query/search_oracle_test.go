package query

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/oracle"
)

const mathsSample = "kgc-sample-mathematics-grades-1-3"

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

// pageThrough follows r's pages to the end, checking each page's counts, and
// returns every hit ranked as the oracle ranks.
func pageThrough(t *testing.T, svc *Service, r StandardSearchRequest) []oracle.Ranked {
	t.Helper()
	var out []oracle.Ranked
	for range 1000 {
		res, err := svc.SearchStandards(context.Background(), r)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		page := res.Page
		if page.ReturnedCount != len(page.Hits) || len(page.Hits) > r.Limit || page.HasMore != (page.NextCursor != nil) {
			t.Fatalf("page: returnedCount %d for %d hits (limit %d), hasMore %v", page.ReturnedCount, len(page.Hits), r.Limit, page.HasMore)
		}
		for _, h := range page.Hits {
			rk := oracle.Ranked{ID: h.Node.NodeID, Score: h.Score.Value}
			if h.CodeMatch != nil {
				rk.Lead = h.CodeMatch.NormalizedCode
			}
			out = append(out, rk)
		}
		next, ok := r.Next(res)
		if !ok {
			return out
		}
		r = next
	}
	t.Fatal("paging did not end")
	return nil
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
