package main

import (
	"encoding/json"
	"fmt"
	"sort"
)

// page is what rawbench reads of a search_standards answer.
type page struct {
	Hits    []json.RawMessage `json:"hits"`
	HasMore bool              `json:"hasMore"`
	Total   int               `json:"totalMatchingCount"`
}

func pageOf(line []byte) (page, bool) {
	var resp struct {
		Result struct {
			Structured struct {
				Page *page `json:"page"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if json.Unmarshal(line, &resp) != nil || resp.Result.Structured.Page == nil {
		return page{}, false
	}
	return *resp.Result.Structured.Page, true
}

// wantPage fails unless a search_standards answer has hits hits and, when
// complete, no further page.
func wantPage(what string, hits int, complete bool) func([]byte) error {
	return func(line []byte) error {
		p, ok := pageOf(line)
		switch {
		case !ok:
			return fmt.Errorf("%s: no page of hits in the answer: %.300s", what, line)
		case len(p.Hits) != hits:
			return fmt.Errorf("%s: %d hits, the row claims %d", what, len(p.Hits), hits)
		case complete && p.HasMore:
			return fmt.Errorf("%s: the row claims every match, the answer has more pages", what)
		}
		return nil
	}
}

// maxLimit is search_standards' largest page.
const maxLimit = 100

// chooseWord picks the text search row's word. Preferably one both servers
// answer completely (kgmcp's limit set to its total, at most 100; server-memory
// answers every match anyway) with item counts as close as the graph allows,
// both at least 10, nearest 25 among equals: "every match" on both sides.
// kgmcp searches standards by token, server-memory every entity (learning
// components too) by substring, so the counts can differ; the row names both.
// Where no word qualifies, the word with the smallest server-memory answer
// among those kgmcp has 25 matches for: a 25-hit page against an unbounded
// answer, named so.
func (s *subject) chooseWord() error {
	type cand struct {
		word
		total int
	}
	var all []cand
	for _, w := range s.g.words() {
		if w.entities == 0 {
			continue
		}
		line, err := s.kg.roundTrip(searchBody(w.text, 1, s.snap))
		if err != nil {
			return fmt.Errorf("%s: kgmcp search %q: %w", s.key, w.text, err)
		}
		if p, ok := pageOf(line); ok && p.Total > 0 {
			all = append(all, cand{w, p.Total})
		}
	}
	abs := func(x int) int { return max(x, -x) }
	spread := func(c cand) float64 {
		return float64(max(c.total, c.entities)) / float64(min(c.total, c.entities))
	}
	var both []cand
	for _, c := range all {
		if c.total >= 10 && c.entities >= 10 && c.total <= maxLimit && c.entities <= maxLimit {
			both = append(both, c)
		}
	}
	sort.Slice(both, func(i, j int) bool {
		a, b := both[i], both[j]
		if sa, sb := spread(a), spread(b); sa != sb {
			return sa < sb
		}
		if da, db := abs(a.total-searchHits), abs(b.total-searchHits); da != db {
			return da < db
		}
		return a.text < b.text
	})
	for _, c := range both {
		// The whole page must fit the result ceiling.
		line, err := s.kg.roundTrip(searchBody(c.text, c.total, s.snap))
		if err == nil && wantPage("", c.total, true)(line) == nil {
			s.like, s.kgLimit, s.kgTotal, s.likeN, s.likeRels, s.complete = c.text, c.total, c.total, c.entities, c.relations, true
			return nil
		}
	}
	var unbounded []cand
	for _, c := range all {
		if c.total >= searchHits {
			unbounded = append(unbounded, c)
		}
	}
	sort.Slice(unbounded, func(i, j int) bool {
		a, b := unbounded[i], unbounded[j]
		if a.entities != b.entities {
			return a.entities < b.entities
		}
		return a.text < b.text
	})
	for _, c := range unbounded {
		line, err := s.kg.roundTrip(searchBody(c.text, searchHits, s.snap))
		if err == nil && wantPage("", searchHits, false)(line) == nil {
			s.like, s.kgLimit, s.kgTotal, s.likeN, s.likeRels = c.text, searchHits, c.total, c.entities, c.relations
			return nil
		}
	}
	return fmt.Errorf("%s: no word of the graph's descriptions has a search both servers answer", s.key)
}
