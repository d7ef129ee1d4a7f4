package progression

import (
	"fmt"
	"strings"

	"github.com/kgc-project/kgc/kgimg"
)

// An empty progression answer says why and where the edges are (beyond the
// contract, in a field of its own): the stored edges of a package are often
// on the standards below a grouping, or beside a standard, not on it. A
// model reading "connections: []" otherwise concludes there is no
// progression to tell.

// Bounds of the nearby search.
const (
	nearbyDepth = 3  // levels of descendants looked at
	nearbyNodes = 64 // descendants (or siblings) looked at
	nearbyNamed = 5  // standards named
)

// edgeCounts are a standard's stored progression edges by kind.
type edgeCounts struct{ in, out, related int }

func (c edgeCounts) total() int { return c.in + c.out + c.related }

func (c edgeCounts) String() string {
	var parts []string
	for _, x := range []struct {
		n    int
		what string
	}{{c.in, "incoming build"}, {c.out, "outgoing build"}, {c.related, "related"}} {
		switch {
		case x.n == 1:
			parts = append(parts, "1 "+x.what)
		case x.n > 1 && x.what == "related":
			parts = append(parts, fmt.Sprintf("%d related", x.n))
		case x.n > 1:
			parts = append(parts, fmt.Sprintf("%d %ss", x.n, x.what))
		}
	}
	return strings.Join(parts, ", ")
}

func countEdges(img *kgimg.Image, n uint32) edgeCounts {
	return edgeCounts{
		in:      img.Adjacency(kgimg.BuildsTowards, kgimg.In).Degree(n),
		out:     img.Adjacency(kgimg.BuildsTowards, kgimg.Out).Degree(n),
		related: img.Adjacency(kgimg.RelatesTo, kgimg.In).Degree(n) + img.Adjacency(kgimg.RelatesTo, kgimg.Out).Degree(n),
	}
}

// Nearby is the notice of an empty answer about standard n: that no
// stored edge touches it, and which of its descendants (within nearbyDepth)
// or, for a standard without any, its siblings have edges, the first
// nearbyNamed by name with their counts. Empty when n has edges itself.
func Nearby(img *kgimg.Image, n uint32) string {
	if countEdges(img, n).total() > 0 {
		return ""
	}
	name := func(x uint32) string {
		if c := img.NodeString(x, kgimg.NodeStatementCode); c != "" {
			return c
		}
		return img.NodeString(x, kgimg.NodeID)
	}
	head := "No stored progression edge touches " + name(n) + "."
	down := img.Adjacency(kgimg.HasChild, kgimg.Out)
	var found []uint32
	seen := map[uint32]bool{n: true}
	frontier := []uint32{n}
	looked := 0
	for d := 0; d < nearbyDepth && len(frontier) > 0 && looked < nearbyNodes; d++ {
		var next []uint32
		for _, x := range frontier {
			kids, _ := down.Row(x)
			for i := 0; i < kids.Len() && looked < nearbyNodes; i++ {
				k := kids.At(i)
				if seen[k] {
					continue
				}
				seen[k] = true
				looked++
				next = append(next, k)
				if countEdges(img, k).total() > 0 {
					found = append(found, k)
				}
			}
		}
		frontier = next
	}
	where := "its descendants"
	if len(found) == 0 {
		parents, _ := img.Adjacency(kgimg.HasChild, kgimg.In).Row(n)
		for i := 0; i < parents.Len(); i++ {
			sibs, _ := down.Row(parents.At(i))
			for j := 0; j < sibs.Len() && len(found) < nearbyNodes; j++ {
				if s := sibs.At(j); !seen[s] && countEdges(img, s).total() > 0 {
					seen[s] = true
					found = append(found, s)
				}
			}
		}
		where = "the standards beside it (its parent's other children)"
	}
	if len(found) == 0 {
		return head + " Neither its descendants nor the standards beside it have any: this package stores no progression near it."
	}
	var named []string
	for _, x := range found[:min(len(found), nearbyNamed)] {
		named = append(named, name(x)+" ("+countEdges(img, x).String()+")")
	}
	more := ""
	if len(found) > nearbyNamed {
		more = fmt.Sprintf(" and %d more", len(found)-nearbyNamed)
	}
	return fmt.Sprintf("%s %s have stored edges: %s%s; ask get_standard_progressions for theirs (identifierType statement_code with the code, or node_id).",
		head, strings.ToUpper(where[:1])+where[1:], strings.Join(named, "; "), more)
}
