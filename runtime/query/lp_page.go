package query

import (
	"github.com/kgc-project/kgc/runtime/record"

	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/progression"
)

const lpCursorKind = "learning_progression_collection_v1"

// encodedSize returns the canonical encoding's length in bytes and characters.
func encodedSize(v any) (int, int, error) {
	b, err := canonjson.Marshal(v)
	return len(b), utf8.RuneCount(b), err
}

// fitsCeiling reports whether a progression or evidence result holds under
// the contract's ceilings.
func fitsCeiling(result any) (bool, error) { return accessCeiling.fits(result) }

func tooLarge(what string) error {
	return kgerr.New(kgerr.ProgressionResultTooLarge, "%s does not fit the 1 MiB / 100,000-character result ceiling", what).
		WithHint("read the edge's relationship and provenance resources (natively or with read_evidence), which have no such ceiling")
}

// lpCollection is a paged progression collection: a deterministic candidate
// stream, a predicate, and the request it is bound to.
type lpCollection struct {
	tool    string
	p       *catalog.Package
	request obj // effective request, cursor excluded
	cursor  *string
	limit   int
	stream  []progression.Candidate
	// match reports whether a candidate belongs to the collection and, if so,
	// its connection entry.
	match    func(c progression.Candidate) (Connection, bool)
	scope    string
	filters  ProgressionFilters
	resolved []string // resolvedStandardNodeIds
}

func (c *lpCollection) binding(manifestSha256 string) obj {
	querySum, _ := canonjson.Sha256(c.request)
	id := record.Identity(c.p)
	return obj{"cursorKind": lpCursorKind, "cursorVersion": 1, "tool": c.tool, "graphPackageId": id.GraphPackageID,
		"manifestSha256": manifestSha256, "profileSha256": id.ProfileSha256, "effectiveQuerySha256": querySum}
}

// page runs one page of the collection and builds the result.
func (s *Service) page(c *lpCollection) (*ProgressionCollection, error) {
	bind := c.binding(s.lpMetadata(c.p).ManifestSha256) // hashed once a package
	start := 0
	if c.cursor != nil {
		fields, err := decodeCursor(*c.cursor, bind)
		if err != nil {
			return nil, err
		}
		off, ok := fields["offset"].(float64)
		last, _ := fields["lastRelationshipId"].(string)
		if !ok || off < 1 || int(off) > len(c.stream) || off != float64(int(off)) ||
			c.p.Img.RelString(c.stream[int(off)-1].Rel, kgimg.RelID) != last {
			return nil, invalidCursor("its position is not in this collection")
		}
		start = int(off)
	}
	type hit struct {
		pos  int
		rel  uint32
		conn Connection
	}
	var hits []hit
	i, stopping := start, any(nil)
	for i < len(c.stream) {
		if len(hits) == c.limit {
			stopping = "page_limit"
			break
		}
		if i-start == progression.MaxExaminedRelationships {
			stopping = "work_limit"
			break
		}
		if conn, ok := c.match(c.stream[i]); ok {
			hits = append(hits, hit{i, c.stream[i].Rel, conn})
		}
		i++
	}
	rows := progression.NewRows()
	build := func(k int, next int, stopping any) *ProgressionCollection {
		e := progression.NewEvidence(c.p, rows)
		conns := make([]Connection, 0, k)
		for _, h := range hits[:k] {
			e.AddEdge(h.rel)
			conns = append(conns, h.conn)
		}
		hasMore := next < len(c.stream)
		var nextCursor *string
		var nextRequest map[string]any
		if hasMore {
			f := obj{"offset": next}
			for key, v := range bind {
				f[key] = v
			}
			f["lastRelationshipId"] = c.p.Img.RelString(c.stream[next-1].Rel, kgimg.RelID)
			cur := encodeCursor(f)
			nextCursor = &cur
			nextRequest = obj{}
			for key, v := range c.request {
				nextRequest[key] = v
			}
			nextRequest["cursor"] = cur
		}
		var total *int
		if start == 0 && !hasMore {
			total = &k
		}
		notice := collectionComplete
		if hasMore {
			notice = collectionNotice
		}
		req := obj{}
		for key, v := range c.request {
			req[key] = v
		}
		req["cursor"] = c.cursor
		var why *string
		if r, ok := stopping.(string); ok {
			why = &r
		}
		return &ProgressionCollection{
			ProgressionEvidence: s.lpEvidence(c.p, req, e, notice), Connections: conns,
			EndpointScope: c.scope, Filters: c.filters, ResolvedStandardNodeIDs: c.resolved,
			Page: CollectionPage{
				ReturnedCount: k, ExaminedCount: next - start, CandidateCount: len(c.stream), HasMore: hasMore,
				IsComplete: !hasMore, StoppingReason: why, TotalMatchingCount: total,
				MaxExaminedRelationships: progression.MaxExaminedRelationships, NextCursor: nextCursor, NextRequest: nextRequest,
			},
		}
	}
	result := build(len(hits), i, stopping)
	if ok, err := fitsCeiling(result); err != nil || ok {
		return result, err
	}
	// Too large: keep the most edges that fit; the first left out starts the
	// next page. Each edge's share of the encoding (its connection, its row and
	// the endpoint summaries it adds) gives the count, one encoding confirms it.
	if len(hits) == 0 {
		return nil, tooLarge("this page's metadata")
	}
	// The base is the page with no edge (its cursor position only needs the
	// right length, so it may not be 0).
	bytes, chars, err := encodedSize(build(0, max(hits[0].pos, 1), "byte_limit"))
	if err != nil {
		return nil, err
	}
	img, seen := c.p.Img, map[uint32]bool{}
	k := 0
	for ; k < len(hits); k++ {
		parts := []any{hits[k].conn, rows.Rel(c.p, hits[k].rel)}
		for _, n := range []uint32{img.RelSource(hits[k].rel), img.RelTarget(hits[k].rel)} {
			if !seen[n] {
				seen[n] = true
				parts = append(parts, rows.Node(c.p, n))
			}
		}
		for _, part := range parts {
			b, ch, err := encodedSize(part)
			if err != nil {
				return nil, err
			}
			bytes, chars = bytes+b+1, chars+ch+1
		}
		if 2*bytes > maxProgressionResultBytes || 2*chars > maxProgressionResultChars {
			break
		}
	}
	k = min(k, len(hits)-1) // all of them did not fit
	for ; k > 0; k-- {
		if ok, err := fitsCeiling(build(k, hits[k].pos, "byte_limit")); err != nil {
			return nil, err
		} else if ok {
			break
		}
	}
	if k == 0 {
		return nil, tooLarge("the progression edge " + img.RelString(hits[0].rel, kgimg.RelID))
	}
	return build(k, hits[k].pos, "byte_limit"), nil
}
