package query

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
)

// TestPageSelectionMatchesAFullSort checks the bounded top-k page selection
// against sorting every hit by its key, over random scores with many ties,
// both packages of the samples, every limit and cursor position kind.
func TestPageSelectionMatchesAFullSort(t *testing.T) {
	cat := imgtest.Catalog(t, imgtest.Images(t, nil, nil))
	rng := rand.New(rand.NewPCG(1, 2))
	var all []*searchHit
	for _, p := range cat.Packages {
		for n := 0; n < p.Img.NodeCount(); n++ {
			all = append(all, &searchHit{pkg: p, node: uint32(n), score: rng.IntN(4), code: fmt.Sprint("c", rng.IntN(5))})
		}
	}
	for _, byCode := range []bool{false, true} {
		ref := append([]*searchHit(nil), all...)
		sort.SliceStable(ref, func(i, j int) bool { return compareKeys(ref[i].key(byCode), ref[j].key(byCode)) < 0 })
		for trial := 0; trial < 200; trial++ {
			limit := 1 + rng.IntN(40)
			var pos []any
			start := 0
			if trial%3 != 0 {
				start = rng.IntN(len(ref))
				pos = ref[start].key(byCode)
				start++
			}
			hits := append([]*searchHit(nil), all...)
			rng.Shuffle(len(hits), func(i, j int) { hits[i], hits[j] = hits[j], hits[i] })
			page, next := pageOf(hits, byCode, pos, limit)
			if trial%2 == 0 {
				// The streaming form: the run keeps only the best hits as they come.
				run := &searchRun{}
				run.keepTop(nil, byCode, limit)
				run.pos = pos
				for _, h := range hits {
					run.add(*h)
				}
				page, next = run.page(byCode, pos, limit)
				for i, h := range page {
					if i < len(ref[start:]) && h.pkg == ref[start+i].pkg && h.node == ref[start+i].node {
						page[i] = ref[start+i] // same hit, copied by the run
					}
				}
			}
			end := min(start+limit, len(ref))
			want := ref[start:end]
			if len(page) != len(want) {
				t.Fatalf("byCode %v limit %d start %d: %d hits, want %d", byCode, limit, start, len(page), len(want))
			}
			for i := range want {
				if page[i] != want[i] {
					t.Fatalf("byCode %v limit %d start %d: hit %d differs", byCode, limit, start, i)
				}
			}
			if (next != nil) != (end < len(ref)) || next != nil && compareKeys(next, want[len(want)-1].key(byCode)) != 0 {
				t.Fatalf("byCode %v limit %d start %d: next %v", byCode, limit, start, next)
			}
		}
	}
}
