// Package search is the lexical engine under the search tools: what a
// standards or component search matches (StandardQuery, ComponentQuery:
// filters, mode checks, a Run across packages), matching query tokens
// against a package's posting lists in their written form or other word
// forms, matching codes exactly or as a prefix (CodeMatches), the package's
// own words near a misspelt one, the counted suggestions of a search that
// finds little (StandardSuggestions, SpellingSuggestions), and ranking hits
// into pages (Hit). It reads images in place and knows nothing of the tools'
// requests: runtime/query converts its requests into queries and turns the
// hits into the tools' pages.
package search

import (
	"sort"
	"strings"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// Hit is a ranked candidate of either search tool; the hit object is
// built only for the returned page.
type Hit struct {
	Pkg    *catalog.Package
	Node   uint32
	Score  int
	Terms  []string // matched normalized terms
	Phrase bool
	Code   string   // normalized code (the lead ordering key of code modes)
	Stds   []uint32 // supported-code modes: the matched standards, in edge order
	Rels   []uint32 // and their supports edges
}

// Key is the hit's ordering Key and cursor position (docs/reference/tools.md#search_standards): the lead
// term is -score for ranked modes and the normalized code for code modes.
func (h *Hit) Key(byCode bool) []any {
	var lead any = -h.Score
	if byCode {
		lead = h.Code
	}
	m := h.Pkg.Manifest
	return []any{lead, m.FrameworkID, m.SnapshotID, m.GraphType, m.PackageRevision, m.GraphPackageID,
		repeatKey(h), int(h.Pkg.Img.CurriculumPosition(h.Node)), h.Pkg.Img.NodeString(h.Node, kgimg.NodeID), int(h.Pkg.Img.NodeOrder(h.Node))}
}

// repeatKey ranks a statement before its repeats: 1 for a hit whose
// description another item of its package repeats word for word.
func repeatKey(h *Hit) int {
	if h.Pkg.Img.DescriptionRepeated(h.Node) {
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

// ValidPosition reports whether a decoded cursor position has the shape of a
// key: a lead of the mode's type, five strings, a number, a string, a number.
func ValidPosition(pos []any, byCode bool) bool {
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

// pageOf returns the page after pos (nil: the first page) and, when more
// follow, the position of its last hit. It selects the limit+1 best hits
// after pos with a bounded heap (O(n log limit)) instead of sorting them all.
func pageOf(hits []*Hit, byCode bool, pos []any, limit int) (page []*Hit, next []any) {
	less := func(a, b *Hit) bool { return compare(a, b, byCode) < 0 }
	top := heap{less: less}
	for _, h := range hits {
		if pos != nil && compareKeys(h.Key(byCode), pos) <= 0 {
			continue
		}
		top.offer(h, limit+1)
	}
	sel := top.items
	sort.Slice(sel, func(i, j int) bool { return less(sel[i], sel[j]) })
	if len(sel) > limit {
		sel = sel[:limit]
		next = sel[limit-1].Key(byCode)
	}
	return sel, next
}

// Page returns the page after pos and, when more follow, the position of its
// last hit: from the best hits kept, or selected from all of them.
func (c *collector) Page(byCode bool, pos []any, limit int) ([]*Hit, []any) {
	if c.top == nil {
		return pageOf(c.hits, byCode, pos, limit)
	}
	sel := c.top.items
	sort.Slice(sel, func(i, j int) bool { return c.top.less(sel[i], sel[j]) })
	if len(sel) > limit {
		sel = sel[:limit]
		return sel, sel[limit-1].Key(byCode)
	}
	return sel, nil
}

// compareToKey orders a hit against a cursor position exactly as
// compareKeys orders the hit's key against it, without building the key.
func compareToKey(h *Hit, pos []any, byCode bool) int {
	var c int
	if byCode {
		c = compareTerm(h.Code, pos[0])
	} else {
		c = compareTerm(float64(-h.Score), pos[0])
	}
	if c != 0 {
		return c
	}
	m := h.Pkg.Manifest
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
	if c := compareTerm(float64(h.Pkg.Img.CurriculumPosition(h.Node)), pos[7]); c != 0 {
		return c
	}
	if c := compareTerm(h.Pkg.Img.NodeString(h.Node, kgimg.NodeID), pos[8]); c != 0 {
		return c
	}
	return compareTerm(float64(h.Pkg.Img.NodeOrder(h.Node)), pos[9])
}

// compare orders two hits exactly as compareKeys orders their keys,
// without building them.
func compare(a, b *Hit, byCode bool) int {
	if byCode {
		if c := strings.Compare(a.Code, b.Code); c != 0 {
			return c
		}
	} else if a.Score != b.Score {
		if a.Score > b.Score {
			return -1
		}
		return 1
	}
	if a.Pkg != b.Pkg {
		ma, mb := a.Pkg.Manifest, b.Pkg.Manifest
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
	if pa, pb := a.Pkg.Img.CurriculumPosition(a.Node), b.Pkg.Img.CurriculumPosition(b.Node); pa != pb {
		if pa < pb {
			return -1
		}
		return 1
	}
	if x := strings.Compare(a.Pkg.Img.NodeString(a.Node, kgimg.NodeID), b.Pkg.Img.NodeString(b.Node, kgimg.NodeID)); x != 0 {
		return x
	}
	oa, ob := a.Pkg.Img.NodeOrder(a.Node), b.Pkg.Img.NodeOrder(b.Node)
	switch {
	case oa < ob:
		return -1
	case oa > ob:
		return 1
	}
	return 0
}

// heap keeps the best k hits offered: a max-heap on rank, whose root is
// the worst hit kept.
type heap struct {
	items []*Hit
	less  func(a, b *Hit) bool
}

func (h *heap) offer(x *Hit, k int) {
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
func (h *heap) worse(i, j int) bool { return h.less(h.items[j], h.items[i]) }

func (h *heap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.worse(i, p) {
			return
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *heap) down(i int) {
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

// collector gathers the hits of one search call across its packages: all of
// them, or, once KeepTop was called, only the best after a page position.
// Matched counts every hit offered (the candidate stream is read whole, so
// it is the exact total of matches).
type collector struct {
	Matched int

	hits []*Hit
	slab []Hit // hits are allocated in chunks
	// top, when set, keeps only the topK best hits after pos.
	top     *heap
	scratch Hit
	topK    int
	pos     []any
	byCode  bool
}

// Add records a hit: kept in full, or, once KeepTop was called, only while
// it is among the page's best.
func (c *collector) Add(h Hit) {
	c.Matched++
	if c.top != nil {
		if c.pos != nil && compareToKey(&h, c.pos, c.byCode) <= 0 {
			return
		}
		if len(c.top.items) < c.topK {
			c.top.offer(c.alloc(h), c.topK)
			return
		}
		// Compared in place: the candidate never escapes unless it is kept.
		c.scratch = h
		if c.top.less(&c.scratch, c.top.items[0]) {
			*c.top.items[0] = h
			c.top.down(0)
		}
		return
	}
	c.hits = append(c.hits, c.alloc(h))
}

// Append records hits kept in full, counted as matches.
func (c *collector) Append(hits ...*Hit) {
	c.Matched += len(hits)
	c.hits = append(c.hits, hits...)
}

// Hits returns every hit kept in full (none once KeepTop was called).
func (c *collector) Hits() []*Hit { return c.hits }

// alloc copies a hit into the collector's slab.
func (c *collector) alloc(h Hit) *Hit {
	if len(c.slab) == cap(c.slab) {
		c.slab = make([]Hit, 0, min(max(16, 2*cap(c.slab)), 4096))
	}
	c.slab = append(c.slab, h)
	return &c.slab[len(c.slab)-1]
}

// KeepTop makes the collector keep only the limit+1 best hits after pos
// (nil: the first page).
func (c *collector) KeepTop(pos []any, byCode bool, limit int) {
	c.pos, c.byCode, c.topK = pos, byCode, limit+1
	c.top = &heap{less: func(a, b *Hit) bool { return compare(a, b, byCode) < 0 }}
}
