package kgimg

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// TestBitmapAgainstRoaring builds bitmaps of every container kind with the
// roaring library and checks the in-place reader and AppendAnd against it.
func TestBitmapAgainstRoaring(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gen := func(kind int) *roaring.Bitmap {
		bm := roaring.New()
		for c := 0; c < 3; c++ {
			base := uint32(c) << 16
			switch (kind + c) % 3 {
			case 0: // sparse array
				for k := 0; k < 200; k++ {
					bm.Add(base + uint32(r.IntN(65536)))
				}
			case 1: // dense bitmap
				for k := 0; k < 30000; k++ {
					bm.Add(base + uint32(r.IntN(65536)))
				}
			default: // runs
				bm.AddRange(uint64(base)+100, uint64(base)+5000)
				bm.AddRange(uint64(base)+9000, uint64(base)+9100)
			}
		}
		bm.RunOptimize()
		return bm
	}
	for ka := 0; ka < 3; ka++ {
		for kb := 0; kb < 3; kb++ {
			a, b := gen(ka), gen(kb)
			ab, _ := a.ToBytes()
			bb, _ := b.ToBytes()
			va, why := parseBitmap(ab, 1<<20)
			if why != "" {
				t.Fatal(why)
			}
			vb, why := parseBitmap(bb, 1<<20)
			if why != "" {
				t.Fatal(why)
			}
			if got, want := va.AppendTo(nil), a.ToArray(); fmt.Sprint(got) != fmt.Sprint(want) || va.Len() != int(a.GetCardinality()) {
				t.Fatalf("AppendTo differs for kind %d", ka)
			}
			want := roaring.And(a, b).ToArray()
			got := AppendAnd(nil, va, vb)
			if !sort.SliceIsSorted(got, func(i, j int) bool { return got[i] < got[j] }) || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("AppendAnd(%d,%d): %d values, want %d", ka, kb, len(got), len(want))
			}
			for _, v := range []uint32{0, 100, 4999, 5000, 9050, 70000, 1 << 17} {
				if va.Contains(v) != a.Contains(v) {
					t.Fatalf("Contains(%d) differs", v)
				}
			}
		}
	}
	if _, why := parseBitmap([]byte{1, 2, 3}, 10); why == "" {
		t.Error("a 3-byte bitmap parsed")
	}
	small := roaring.BitmapOf(1, 5, 9)
	b, _ := small.ToBytes()
	if _, why := parseBitmap(b, 9); why == "" {
		t.Error("a value at the limit was accepted")
	}
}
