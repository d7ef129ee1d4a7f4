// Package graph holds what the query layer and its engines (search,
// progressions, diagrams) share about one package's graph, read in place
// from its image: curriculum order, a node's first parent and the path of
// first parents up to the root, its children and its progression partners,
// the short label that names a node on a path, and what the generated
// progression labels mean.
package graph

import (
	"sort"
	"strings"

	"github.com/kgc-project/kgc/kgimg"
)

// ProgressionSemantics says what the generated progression labels mean; every
// answer and picture that shows progression edges carries it.
const ProgressionSemantics = "buildsTowards means the source supports success toward the target, not a mandatory prerequisite; " +
	"relatesTo is a conceptual or skill link without sequence, stored once in canonical order (its orientation implies " +
	"no teaching direction). Structural acceptance of an edge is not pedagogical correctness."

// Less orders nodes by curriculum position (the image's depth-first walk of
// the ordered hierarchy; sourceExportOrder in older images), then node ID.
func Less(img *kgimg.Image, a, b uint32) bool {
	if oa, ob := img.CurriculumPosition(a), img.CurriculumPosition(b); oa != ob {
		return oa < ob
	}
	return img.NodeString(a, kgimg.NodeID) < img.NodeString(b, kgimg.NodeID)
}

// firstParent returns n's first parent in curriculum order; false for a node
// without parents.
func firstParent(img *kgimg.Image, n uint32) (uint32, bool) {
	parents, _ := img.Adjacency(kgimg.HasChild, kgimg.In).Row(n)
	if parents.Len() == 0 {
		return 0, false
	}
	first := parents.At(0)
	for i := 1; i < parents.Len(); i++ {
		if Less(img, parents.At(i), first) {
			first = parents.At(i)
		}
	}
	return first, true
}

// FirstPath returns the path from the root down to n (n included) following
// each node's first parent, at most depth levels up; a cycle ends it.
func FirstPath(img *kgimg.Image, n uint32, depth int) []uint32 {
	path := []uint32{n}
	seen := map[uint32]bool{n: true}
	for range depth {
		p, ok := firstParent(img, n)
		if !ok || seen[p] {
			break
		}
		n = p
		seen[n] = true
		path = append(path, n)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// Children lists n's children in curriculum order (the image's row order).
func Children(img *kgimg.Image, n uint32) []uint32 {
	nb, _ := img.Adjacency(kgimg.HasChild, kgimg.Out).Row(n)
	return nb.AppendTo(nil)
}

// Partners lists the other ends of n's label edges in the directions given,
// each once, in curriculum order.
func Partners(img *kgimg.Image, n uint32, label kgimg.RelLabel, dirs ...kgimg.Direction) []uint32 {
	seen := map[uint32]bool{}
	var out []uint32
	for _, d := range dirs {
		nb, _ := img.Adjacency(label, d).Row(n)
		for i := 0; i < nb.Len(); i++ {
			if m := nb.At(i); m != n && !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return Less(img, out[i], out[j]) })
	return out
}

// labelChars bounds the description part of a place label.
const labelChars = 100

// PlaceLabel names a node on a standard's path: its code and the start of its
// description (at most LabelChars characters, white space collapsed, a cut
// marked with …), or the framework root's name.
func PlaceLabel(img *kgimg.Image, n uint32) string {
	if img.NodeKind(n) == kgimg.FrameworkNode {
		return img.NodeString(n, kgimg.NodeName)
	}
	d := strings.Join(strings.Fields(img.NodeString(n, kgimg.NodeDescription)), " ")
	if r := []rune(d); len(r) > labelChars {
		d = strings.TrimRight(string(r[:labelChars-1]), " ") + "…"
	}
	if c := img.NodeString(n, kgimg.NodeStatementCode); c != "" {
		return strings.TrimSpace(c + " " + d)
	}
	return d
}

// Walk walks adj (a hierarchy adjacency, either direction) breadth first
// from origin, up to depth levels and maxNodes nodes (origin included): the
// nodes in the order reached, each one's depth, and whether the walk reached
// everything within depth.
func Walk(adj kgimg.Adjacency, origin uint32, depth, maxNodes int) (order []uint32, depths map[uint32]int, complete bool) {
	depths = map[uint32]int{origin: 0}
	frontier := []uint32{origin}
	order = []uint32{origin}
	complete = true
	for d := 1; d <= depth && len(frontier) > 0; d++ {
		var next []uint32
		for _, n := range frontier {
			nb, _ := adj.Row(n)
			for i := 0; i < nb.Len(); i++ {
				m := nb.At(i)
				if _, seen := depths[m]; seen {
					continue
				}
				if len(order) >= maxNodes {
					return order, depths, false
				}
				depths[m] = d
				order = append(order, m)
				next = append(next, m)
			}
		}
		frontier = next
	}
	return order, depths, complete
}
