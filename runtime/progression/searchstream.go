package progression

import (
	"slices"

	"github.com/kgc-project/kgc/kgimg"
)

// SearchStream lists the candidate edges of a progression search: those
// touching a selected standard, or (when f selects all) every edge of the
// requested types (all of them when types is empty) as edges lists them,
// by (type, relationship ID).
func SearchStream(img *kgimg.Image, f *Filter, selectedNodes []uint32, types []string, edges func(kgimg.RelLabel) []uint32) []Candidate {
	want := func(l kgimg.RelLabel) bool { return len(types) == 0 || slices.Contains(types, kgimg.RelLabelName(l)) }
	var out []Candidate
	for _, label := range []kgimg.RelLabel{kgimg.BuildsTowards, kgimg.RelatesTo} {
		if !want(label) {
			continue
		}
		var rels []uint32
		if f.SelectsAll() {
			rels = edges(label)
		} else {
			for _, n := range selectedNodes {
				for _, d := range []kgimg.Direction{kgimg.In, kgimg.Out} {
					_, rs := img.Adjacency(label, d).Row(n)
					rels = rs.AppendTo(rels)
				}
			}
			rels = sortedUniqueByID(img, rels)
		}
		for _, r := range rels {
			out = append(out, Candidate{Rel: r, Kind: searchKind(img, r, f)})
		}
	}
	return out
}
