package gate

import (
	"sort"
	"strings"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/internal/digraph"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
)

func isFallback(r *delivery.Relationship) bool {
	return r.Str(delivery.RResolutionStatus) == delivery.UnresolvedRootFallback
}

// checkHierarchy checks the hasChild topology: acyclicity, reachability from the
// root, root-child rules, parent types, cardinality and the multi-parent policy.
func (s *state) checkHierarchy(g *graph) {
	children := make([][]int, len(g.nodes))
	for _, ri := range g.hasChild {
		src := g.src[ri]
		children[src] = append(children[src], int(g.tgt[ri]))
	}
	s.checkCycles(g, children, finding.HierarchyCycle, "hasChild")
	if g.root >= 0 {
		seen := make([]bool, len(g.nodes))
		queue := []int{g.root}
		seen[g.root] = true
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			for _, c := range children[n] {
				if !seen[c] {
					seen[c] = true
					queue = append(queue, c)
				}
			}
		}
		for i, n := range g.nodes {
			if n.Kind == delivery.KindItem && !seen[i] && !g.dup[i] {
				s.nodeFinding(finding.HierarchyUnreachable, n, "item %s cannot be reached from the framework root through hasChild", n.ID)
			}
		}
	}
	p := s.res.Profile
	if p == nil {
		return
	}
	for i, n := range g.nodes {
		if n.Kind != delivery.KindItem || g.dup[i] {
			continue
		}
		s.checkParents(g, n, g.parents[i])
	}
}

func (s *state) checkParents(g *graph, n *delivery.Node, in []int) {
	p := s.res.Profile
	t := n.Str(delivery.NStatementType)
	st, known := p.StatementType(t)
	if !known {
		return // reported by the item checks
	}
	if len(in) > 1 && !p.Hierarchy.AllowMultiParent {
		s.nodeFinding(finding.HierarchyMultiParent, n, "item %s has %d parents but profile %s forbids multi-parent hierarchies", n.ID, len(in), p.ProfileID)
	}
	fallback := false
	counts := map[string]int{}
	for _, ri := range in {
		r := g.rels[ri]
		parent := g.nodes[g.src[ri]]
		if parent.Kind == delivery.KindFramework {
			if isFallback(r) {
				fallback = true
				continue
			}
			if !p.IsRootType(t) {
				s.relFinding(finding.HierarchyRootChild, r, "the root's child %s has statement type %q, which is not a root statement type %v (and the edge is not an unresolved root fallback)", n.ID, t, p.Hierarchy.RootStatementTypes)
			}
			continue
		}
		pt := parent.Str(delivery.NStatementType)
		if p.IsRootType(t) {
			s.relFinding(finding.HierarchyRootChild, r, "item %s has root statement type %q but its parent %s is not the framework root", n.ID, t, parent.ID)
			continue
		}
		allowed := false
		for _, ap := range st.AllowedParents {
			allowed = allowed || ap.ParentStatementType == pt
		}
		if !allowed {
			s.relFinding(finding.HierarchyParentType, r, "a %q item may not have a %q parent (allowed: %s)", t, pt, allowedList(st.AllowedParents))
			continue
		}
		counts[pt]++
	}
	if fallback || p.IsRootType(t) {
		return
	}
	for _, ap := range st.AllowedParents {
		c := int64(counts[ap.ParentStatementType])
		if c < ap.MinCount || (ap.MaxCount >= 0 && c > ap.MaxCount) {
			bound := "unbounded"
			if ap.MaxCount >= 0 {
				bound = itoa(int(ap.MaxCount))
			}
			s.nodeFinding(finding.HierarchyParentCardinality, n, "item %s has %d %q parent(s); its type %q needs %d to %s", n.ID, c, ap.ParentStatementType, t, ap.MinCount, bound)
		}
	}
}

func allowedList(aps []profile.AllowedParent) string {
	if len(aps) == 0 {
		return "none"
	}
	names := make([]string, 0, len(aps))
	for _, ap := range aps {
		names = append(names, ap.ParentStatementType)
	}
	return strings.Join(names, ", ")
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// checkCycles reports each strongly connected component with more than one node
// in the directed graph given by adjacency (node index → successor indices).
func (s *state) checkCycles(g *graph, adjacency [][]int, code finding.Code, label string) {
	for _, comp := range digraph.StronglyConnected(adjacency) {
		if len(comp) < 2 {
			continue
		}
		idsIn := make([]string, 0, len(comp))
		for _, n := range comp {
			idsIn = append(idsIn, g.nodes[n].ID)
		}
		sort.Strings(idsIn)
		shown := idsIn
		if len(shown) > 6 {
			shown = shown[:6]
		}
		more := ""
		if len(idsIn) > len(shown) {
			more = " …"
		}
		s.add(finding.New(code, "%s edges form a cycle through %d nodes: %s%s", label, len(idsIn), strings.Join(shown, ", "), more).
			At(manifest.Relationships, s.res.Manifest.Path(manifest.Relationships)).For(idsIn[0]))
	}
}
