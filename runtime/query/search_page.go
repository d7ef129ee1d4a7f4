package query

import (
	"encoding/base64"
	"encoding/json"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/search"
)

// searchCursor binds a page position to the query, the index set and the mode.
type searchCursor struct {
	mode, querySum, indexSum string
}

func (c searchCursor) fields() obj {
	return obj{"cursorVersion": 1, "effectiveQuerySha256": c.querySum, "indexSetSha256": c.indexSum, "mode": c.mode}
}

// peekPosition reads a cursor's position without checking what it is bound
// to (searchCursor.position does that).
func peekPosition(cursor string, byCode bool) ([]any, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || len(cursor) > maxCursorLength {
		return nil, false
	}
	var fields map[string]any
	if json.Unmarshal(raw, &fields) != nil {
		return nil, false
	}
	pos, _ := fields["lastOrderingPosition"].([]any)
	return pos, search.ValidPosition(pos, byCode)
}

// position decodes a search cursor and returns its last ordering position.
func (c searchCursor) position(cursor string, byCode bool) ([]any, error) {
	fields, err := decodeCursor(cursor, c.fields())
	if err != nil {
		return nil, err
	}
	pos, _ := fields["lastOrderingPosition"].([]any)
	if !search.ValidPosition(pos, byCode) {
		return nil, invalidCursor("malformed position")
	}
	return pos, nil
}

func (c searchCursor) encode(last []any) string {
	f := c.fields()
	f["lastOrderingPosition"] = last
	return encodeCursor(f)
}

// SearchResult is a page of either search tool (Hit is StandardHit or
// ComponentHit). EffectiveScope is an ExactScope or a FederatedScope.
type SearchResult[Hit any] struct {
	EffectiveScope    EffectiveScope      `json:"effectiveScope"`
	Page              SearchPage[Hit]     `json:"page"`
	SelectedSnapshots []FrameworkSnapshot `json:"selectedSnapshots"`
}

// SearchPage is the ranked hits of one page and how to go on.
type SearchPage[Hit any] struct {
	HasMore       bool    `json:"hasMore"`
	Hits          []Hit   `json:"hits"`
	Mode          string  `json:"mode"`
	NextCursor    *string `json:"nextCursor"`
	ReturnedCount int     `json:"returnedCount"`
	// TotalMatchingCount is the exact number of matches over every page
	// (beyond the contract; every search reads its whole candidate stream).
	TotalMatchingCount int             `json:"totalMatchingCount"`
	Warnings           []SearchWarning `json:"warnings"`
	// TruncationReason is byte_limit when the result ceiling cut the page
	// short of the limit (beyond the contract).
	TruncationReason string `json:"truncationReason,omitempty"`
	// WarningsOmitted counts the warnings past MaxPageWarnings (beyond the
	// contract).
	WarningsOmitted int `json:"warningsOmitted,omitempty"`
	// Suggestions are calls that find more, on a first page with few or no
	// matches (beyond the contract; search_suggest.go).
	Suggestions []SearchSuggestion `json:"suggestions"`
}

// pagingInput is what searchPage needs of a search request.
type pagingInput struct {
	tool, mode string
	cursor     *string
	limit      int
	request    obj // validated request, defaults filled, cursor excluded
	byCode     bool
	pkgs       []*catalog.Package
	scope      EffectiveScope
}

// searchPage ranks a run's hits, applies the cursor and builds the result of
// either search tool.
func searchPage[Hit any](s *Service, run *search.Run, in pagingInput, build func(*search.Hit) Hit) (*Paged, error) {
	cur := searchCursor{mode: in.mode, querySum: s.effectiveQuerySha256(in.request, run.Normalized, in.pkgs), indexSum: s.indexSetSha256(in.pkgs)}
	var pos []any
	if in.cursor != nil {
		var err error
		if pos, err = cur.position(*in.cursor, in.byCode); err != nil {
			return nil, err
		}
	}
	page, last := run.Page(in.byCode, pos, in.limit)
	hits := make([]Hit, 0, len(page))
	for _, h := range page {
		hits = append(hits, build(h))
	}
	warnings, omitted := boundWarnings(run.Warnings)
	echo := scopeEcho(s, in, cur.indexSum, page)
	result := func(k int, next *string) *SearchResult[Hit] {
		pg := SearchPage[Hit]{Hits: hits[:k], Mode: in.mode, ReturnedCount: k, HasMore: next != nil, NextCursor: next,
			Warnings: warnings, WarningsOmitted: omitted, TotalMatchingCount: run.Matched, Suggestions: []SearchSuggestion{}}
		if k < len(hits) {
			pg.TruncationReason = "byte_limit"
		}
		scope, selected := echo(k)
		return &SearchResult[Hit]{EffectiveScope: scope, SelectedSnapshots: selected, Page: pg}
	}
	var next *string
	if last != nil {
		c := cur.encode(last)
		next = &c
	}
	out := result(len(hits), next)
	encoded, load, err := anyCeiling.encode(out)
	if err != nil {
		return nil, err
	} else if load > 1 {
		encoded = nil
		// Cut the page before the hit that would break the ceiling; the next
		// page starts with that hit.
		cutNext := func(k int) *string { c := cur.encode(page[k-1].Key(in.byCode)); return &c }
		k, err := anyCeiling.largestBelow(len(hits), func(k int) any {
			if k == 0 {
				return result(0, nil)
			}
			return result(k, cutNext(k))
		})
		if err != nil {
			return nil, err
		}
		if k < 1 {
			return nil, ResultTooLarge("a page of " + in.tool + " results (with its selectedSnapshots)")
		}
		next = cutNext(k)
		out = result(k, next)
	}
	return &Paged{Result: out, Tool: in.tool, Request: in.request, Next: nextOf(next), Encoded: encoded}, nil
}
