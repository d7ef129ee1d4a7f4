package search

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
	var all []*Hit
	for _, p := range cat.Packages {
		for n := 0; n < p.Img.NodeCount(); n++ {
			all = append(all, &Hit{Pkg: p, Node: uint32(n), Score: rng.IntN(4), Code: fmt.Sprint("c", rng.IntN(5))})
		}
	}
	for _, byCode := range []bool{false, true} {
		ref := append([]*Hit(nil), all...)
		sort.SliceStable(ref, func(i, j int) bool { return compareKeys(ref[i].Key(byCode), ref[j].Key(byCode)) < 0 })
		for trial := 0; trial < 200; trial++ {
			limit := 1 + rng.IntN(40)
			var pos []any
			start := 0
			if trial%3 != 0 {
				start = rng.IntN(len(ref))
				pos = ref[start].Key(byCode)
				start++
			}
			hits := append([]*Hit(nil), all...)
			rng.Shuffle(len(hits), func(i, j int) { hits[i], hits[j] = hits[j], hits[i] })
			page, next := pageOf(hits, byCode, pos, limit)
			if trial%2 == 0 {
				// The streaming form: the collector keeps only the best hits as they come.
				var c collector
				c.KeepTop(pos, byCode, limit)
				for _, h := range hits {
					c.Add(*h)
				}
				page, next = c.Page(byCode, pos, limit)
				for i, h := range page {
					if i < len(ref[start:]) && h.Pkg == ref[start+i].Pkg && h.Node == ref[start+i].Node {
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
			if (next != nil) != (end < len(ref)) || next != nil && compareKeys(next, want[len(want)-1].Key(byCode)) != 0 {
				t.Fatalf("byCode %v limit %d start %d: next %v", byCode, limit, start, next)
			}
		}
	}
}
