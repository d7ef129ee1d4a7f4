package query

import (
	"encoding/base64"
	"encoding/json"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// searchHit is a ranked candidate of either search tool; the hit object is
// built only for the returned page.
type searchHit struct {
	pkg    *catalog.Package
	node   uint32
	score  int
	terms  []string // matched normalized terms
	phrase bool
	code   string   // normalized code (the lead ordering key of code modes)
	stds   []uint32 // supported-code modes: the matched standards, in edge order
	rels   []uint32 // and their supports edges
}

// key is the hit's ordering key and cursor position (docs/reference/tools.md#search_standards): the lead
// term is -score for ranked modes and the normalized code for code modes.
func (h *searchHit) key(byCode bool) []any {
	var lead any = -h.score
	if byCode {
		lead = h.code
	}
	m := h.pkg.Manifest
	return []any{lead, m.FrameworkID, m.SnapshotID, m.GraphType, m.PackageRevision, m.GraphPackageID,
		repeatKey(h), int(h.pkg.Img.CurriculumPosition(h.node)), h.pkg.Img.NodeString(h.node, kgimg.NodeID), int(h.pkg.Img.NodeOrder(h.node))}
}

// repeatKey ranks a statement before its repeats: 1 for a hit whose
// description another item of its package repeats word for word.
func repeatKey(h *searchHit) int {
	if h.pkg.Img.DescriptionRepeated(h.node) {
		return 1
	}
	return 0
}

// compareKeys orders two keys term by term: numbers numerically, strings by
// code point (UTF-8 byte order). Keys decoded from a cursor hold float64.
func compareKeys(a, b []any) int {
	for i := range min(len(a), len(b)) {
		if c := compareTerm(a[i], b[i]); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

func compareTerm(a, b any) int {
	if x, ok := number(a); ok {
		y, _ := number(b)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	as, _ := a.(string)
	bs, _ := b.(string)
	return strings.Compare(as, bs)
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// validPosition reports whether a decoded cursor position has the shape of a
// key: a lead of the mode's type, five strings, a number, a string, a number.
func validPosition(pos []any, byCode bool) bool {
	if len(pos) != 10 {
		return false
	}
	kinds := "nsssnsnnsn"
	if byCode {
		kinds = "ssssnsnnsn"
	}
	for i, k := range kinds {
		_, isNum := pos[i].(float64)
		_, isStr := pos[i].(string)
		if k == 'n' && !isNum || k == 's' && !isStr {
			return false
		}
	}
	return true
}

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
	if err != nil || len(cursor) > MaxCursorLength {
		return nil, false
	}
	var fields map[string]any
	if json.Unmarshal(raw, &fields) != nil {
		return nil, false
	}
	pos, _ := fields["lastOrderingPosition"].([]any)
	return pos, validPosition(pos, byCode)
}

// position decodes a search cursor and returns its last ordering position.
func (c searchCursor) position(cursor string, byCode bool) ([]any, error) {
	fields, err := decodeCursor(cursor, c.fields())
	if err != nil {
		return nil, err
	}
	pos, _ := fields["lastOrderingPosition"].([]any)
	if !validPosition(pos, byCode) {
		return nil, invalidCursor("malformed position")
	}
	return pos, nil
}

func (c searchCursor) encode(last []any) string {
	f := c.fields()
	f["lastOrderingPosition"] = last
	return encodeCursor(f)
}

// pageOf returns the page after pos (nil: the first page) and, when more
// follow, the position of its last hit. It selects the limit+1 best hits
// after pos with a bounded heap (O(n log limit)) instead of sorting them all.
func pageOf(hits []*searchHit, byCode bool, pos []any, limit int) (page []*searchHit, next []any) {
	less := func(a, b *searchHit) bool { return compareHits(a, b, byCode) < 0 }
	top := hitHeap{less: less}
	for _, h := range hits {
		if pos != nil && compareKeys(h.key(byCode), pos) <= 0 {
			continue
		}
		top.offer(h, limit+1)
	}
	sel := top.items
	sort.Slice(sel, func(i, j int) bool { return less(sel[i], sel[j]) })
	if len(sel) > limit {
		sel = sel[:limit]
		next = sel[limit-1].key(byCode)
	}
	return sel, next
}

// page returns the run's page after pos: from the best hits it kept, or
// selected from all of them.
func (run *searchRun) page(byCode bool, pos []any, limit int) ([]*searchHit, []any) {
	if run.top == nil {
		return pageOf(run.hits, byCode, pos, limit)
	}
	sel := run.top.items
	sort.Slice(sel, func(i, j int) bool { return run.top.less(sel[i], sel[j]) })
	if len(sel) > limit {
		sel = sel[:limit]
		return sel, sel[limit-1].key(byCode)
	}
	return sel, nil
}

// compareHitToKey orders a hit against a cursor position exactly as
// compareKeys orders the hit's key against it, without building the key.
func compareHitToKey(h *searchHit, pos []any, byCode bool) int {
	var c int
	if byCode {
		c = compareTerm(h.code, pos[0])
	} else {
		c = compareTerm(float64(-h.score), pos[0])
	}
	if c != 0 {
		return c
	}
	m := h.pkg.Manifest
	for i, v := range [...]string{m.FrameworkID, m.SnapshotID, m.GraphType} {
		if c := compareTerm(v, pos[1+i]); c != 0 {
			return c
		}
	}
	// pos[4], the package revision: keys hold it as an int64, which compareTerm
	// does not treat as a number, so it never orders two keys.
	if c := compareTerm(m.GraphPackageID, pos[5]); c != 0 {
		return c
	}
	if c := compareTerm(float64(repeatKey(h)), pos[6]); c != 0 {
		return c
	}
	if c := compareTerm(float64(h.pkg.Img.CurriculumPosition(h.node)), pos[7]); c != 0 {
		return c
	}
	if c := compareTerm(h.pkg.Img.NodeString(h.node, kgimg.NodeID), pos[8]); c != 0 {
		return c
	}
	return compareTerm(float64(h.pkg.Img.NodeOrder(h.node)), pos[9])
}

// compareHits orders two hits exactly as compareKeys orders their keys,
// without building them.
func compareHits(a, b *searchHit, byCode bool) int {
	if byCode {
		if c := strings.Compare(a.code, b.code); c != 0 {
			return c
		}
	} else if a.score != b.score {
		if a.score > b.score {
			return -1
		}
		return 1
	}
	if a.pkg != b.pkg {
		ma, mb := a.pkg.Manifest, b.pkg.Manifest
		for _, c := range [...][2]string{{ma.FrameworkID, mb.FrameworkID}, {ma.SnapshotID, mb.SnapshotID}, {ma.GraphType, mb.GraphType}} {
			if x := strings.Compare(c[0], c[1]); x != 0 {
				return x
			}
		}
		if ma.PackageRevision != mb.PackageRevision {
			if ma.PackageRevision < mb.PackageRevision {
				return -1
			}
			return 1
		}
		if x := strings.Compare(ma.GraphPackageID, mb.GraphPackageID); x != 0 {
			return x
		}
	}
	if ra, rb := repeatKey(a), repeatKey(b); ra != rb {
		return ra - rb
	}
	if pa, pb := a.pkg.Img.CurriculumPosition(a.node), b.pkg.Img.CurriculumPosition(b.node); pa != pb {
		if pa < pb {
			return -1
		}
		return 1
	}
	if x := strings.Compare(a.pkg.Img.NodeString(a.node, kgimg.NodeID), b.pkg.Img.NodeString(b.node, kgimg.NodeID)); x != 0 {
		return x
	}
	oa, ob := a.pkg.Img.NodeOrder(a.node), b.pkg.Img.NodeOrder(b.node)
	switch {
	case oa < ob:
		return -1
	case oa > ob:
		return 1
	}
	return 0
}

// hitHeap keeps the best k hits offered: a max-heap on rank, whose root is
// the worst hit kept.
type hitHeap struct {
	items []*searchHit
	less  func(a, b *searchHit) bool
}

func (h *hitHeap) offer(x *searchHit, k int) {
	if len(h.items) < k {
		h.items = append(h.items, x)
		h.up(len(h.items) - 1)
		return
	}
	if k > 0 && h.less(x, h.items[0]) {
		h.items[0] = x
		h.down(0)
	}
}

// worse reports whether item i ranks after item j (the max-heap order).
func (h *hitHeap) worse(i, j int) bool { return h.less(h.items[j], h.items[i]) }

func (h *hitHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.worse(i, p) {
			return
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *hitHeap) down(i int) {
	for {
		l, w := 2*i+1, i
		if l < len(h.items) && h.worse(l, w) {
			w = l
		}
		if r := l + 1; r < len(h.items) && h.worse(r, w) {
			w = r
		}
		if w == i {
			return
		}
		h.items[i], h.items[w] = h.items[w], h.items[i]
		i = w
	}
}

// Score is how a hit ranks: the algorithm and its value.
type Score struct {
	Algorithm        string `json:"algorithm"`
	MatchedTermCount int    `json:"matchedTermCount"`
	PhraseMatched    bool   `json:"phraseMatched"`
	QueryTermCount   int    `json:"queryTermCount"`
	Value            int    `json:"value"`
}

func scoreObject(algorithm string, h *searchHit, queryTerms int) Score {
	return Score{Algorithm: algorithm, MatchedTermCount: len(h.terms), PhraseMatched: h.phrase, QueryTermCount: queryTerms, Value: h.score}
}

// MatchedField is a field a hit matched in, with the terms and its value.
type MatchedField struct {
	Field         string   `json:"field"`
	MatchedTerms  []string `json:"matchedTerms"`
	PhraseMatched bool     `json:"phraseMatched"`
	SourceValue   string   `json:"sourceValue"`
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
func searchPage[Hit any](s *Service, run *searchRun, in pagingInput, build func(*searchHit) Hit) (*Paged, error) {
	cur := searchCursor{mode: in.mode, querySum: s.effectiveQuerySha256(in.request, run.normalized, in.pkgs), indexSum: s.indexSetSha256(in.pkgs)}
	var pos []any
	if in.cursor != nil {
		var err error
		if pos, err = cur.position(*in.cursor, in.byCode); err != nil {
			return nil, err
		}
	}
	page, last := run.page(in.byCode, pos, in.limit)
	hits := make([]Hit, 0, len(page))
	for _, h := range page {
		hits = append(hits, build(h))
	}
	warnings, omitted := boundWarnings(run.warnings)
	echo := scopeEcho(s, in, cur.indexSum, page)
	result := func(k int, next *string) *SearchResult[Hit] {
		pg := SearchPage[Hit]{Hits: hits[:k], Mode: in.mode, ReturnedCount: k, HasMore: next != nil, NextCursor: next,
			Warnings: warnings, WarningsOmitted: omitted, TotalMatchingCount: run.matched, Suggestions: []SearchSuggestion{}}
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
	if ok, err := anyCeiling.fits(out); err != nil {
		return nil, err
	} else if !ok {
		// Cut the page before the hit that would break the ceiling; the next
		// page starts with that hit.
		cutNext := func(k int) *string { c := cur.encode(page[k-1].key(in.byCode)); return &c }
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
	return &Paged{Result: out, Tool: in.tool, Request: in.request, Next: nextOf(next)}, nil
}
