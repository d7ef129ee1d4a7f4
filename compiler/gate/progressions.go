package gate

import (
	"sort"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/manifest"
)

// claimTally counts final claims by decision.
type claimTally struct {
	total, builds, relates, noRelation, needsReview int
	needsReviewPairs                                map[string]bool
}

// checkProgressions runs learning-progression acceptance (stage 10 of
// docs/validation.md). It returns
// nil when the package declares no progressions.
func (s *state) checkProgressions(g *graph) *claimTally {
	m := s.res.Manifest
	if !m.Includes(manifest.GraphLearningProgressions) {
		return nil
	}
	lpEdges := append(append([]int(nil), g.builds...), g.relates...)
	s.checkEdgeShape(g)
	s.checkRecordOrder(g)
	s.checkSplit(g, manifest.LPBuildsTowards, g.builds)
	s.checkSplit(g, manifest.LPRelatesTo, g.relates)
	s.checkProvenance(g, lpEdges)
	tally := s.checkClaims(g)
	s.checkLPReports(g, tally)
	return tally
}

// caseUUIDs returns the CASE UUIDs of a checked relationship's endpoints.
func caseUUIDs(g *graph, ri int) (source, target string) {
	return g.nodes[g.src[ri]].Str(delivery.NCaseIdentifierUUID), g.nodes[g.tgt[ri]].Str(delivery.NCaseIdentifierUUID)
}

// checkEdgeShape checks canonical relatesTo order, one edge per pair, and that
// buildsTowards is acyclic.
func (s *state) checkEdgeShape(g *graph) {
	pairs := map[[2]string]string{}
	for _, ri := range append(append([]int(nil), g.builds...), g.relates...) {
		r := g.rels[ri]
		a, b := caseUUIDs(g, ri)
		if r.Label == delivery.RelatesTo && a > b {
			s.relFinding(finding.ProgressionRelatesOrder, r, "relatesTo must be stored in canonical CASE order (source %s sorts after target %s)", a, b)
		}
		key := [2]string{a, b}
		if b < a {
			key = [2]string{b, a}
		}
		if prev, dup := pairs[key]; dup {
			s.relFinding(finding.ProgressionDuplicatePair, r, "standards %s and %s already have progression edge %s; a pair has at most one stored judgment", a, b, prev)
			continue
		}
		pairs[key] = r.ID
	}
	adj := make([][]int, len(g.nodes))
	for _, ri := range g.builds {
		adj[g.src[ri]] = append(adj[g.src[ri]], int(g.tgt[ri]))
	}
	s.checkCycles(g, adj, finding.ProgressionCycle, "buildsTowards")
}

// checkRecordOrder checks that progression records follow every AS/LC record,
// in (type, identifier) order, and notes the byte length of the AS/LC prefix.
func (s *state) checkRecordOrder(g *graph) {
	lastPrefix := -1
	var prev *delivery.Relationship
	for _, r := range g.rels {
		if !delivery.IsProgression(r.Label) {
			if prev != nil {
				s.relFinding(finding.ProgressionRecordOrder, r, "%s record follows progression records; progression records must be appended after every standards and component record", r.Label)
			}
			if r.Order > lastPrefix {
				lastPrefix = r.Order
				s.relPrefixBytes = r.EndOffset
			}
			continue
		}
		if prev != nil && (prev.Label > r.Label || prev.Label == r.Label && prev.ID >= r.ID) {
			s.relFinding(finding.ProgressionRecordOrder, r, "progression records must be in (type, identifier) order; %s %s follows %s %s", r.Label, r.ID, prev.Label, prev.ID)
		}
		prev = r
	}
}

// checkSplit checks that a split progression file repeats the delivery file's
// records of its type, line for line.
func (s *state) checkSplit(g *graph, name string, edges []int) {
	lines, ok := s.splitLines[name]
	if !s.need(name) || !ok && len(edges) > 0 {
		return
	}
	path := s.res.Manifest.Path(name)
	if len(lines) != len(edges) {
		s.add(finding.New(finding.ProgressionSplitMismatch, "%s has %d records but the relationships artifact has %d of that type", name, len(lines), len(edges)).At(name, path))
		return
	}
	for i, ri := range edges {
		if lines[i] != s.lineHashes[ri] {
			s.add(finding.New(finding.ProgressionSplitMismatch, "line %d differs from relationship %s in the relationships artifact", i+1, g.rels[ri].ID).At(name, path).OnLine(i + 1).For(g.rels[ri].ID))
		}
	}
}

// checkClaims checks the final claims against the stored edges: each published
// edge has exactly one accepted claim of its type and orientation, and no
// no_relation or needs_review claim became an edge.
func (s *state) checkClaims(g *graph) *claimTally {
	d := s.docs[manifest.LPFinalClaims]
	if d == nil {
		return nil
	}
	if d.claims == nil {
		s.docFinding(d, finding.ProgressionClaimsMismatch, "claims", "final claims must be an object with a claims array")
		return nil
	}
	t := &claimTally{needsReviewPairs: map[string]bool{}}
	type edgeKey struct{ label, a, b string }
	edges := map[edgeKey]string{}
	pairs := map[[2]string]string{}
	for _, ri := range append(append([]int(nil), g.builds...), g.relates...) {
		r := g.rels[ri]
		a, b := caseUUIDs(g, ri)
		edges[edgeKey{r.Label, a, b}] = r.ID
		if b < a {
			a, b = b, a
		}
		pairs[[2]string{a, b}] = r.ID
	}
	matched := map[string]bool{}
	seenPair := map[[2]string]string{}
	for i, c := range d.claims.list {
		field := "claims[" + itoa(i) + "]"
		pair, first, second := c.pair, c.first, c.second
		decision, direction := c.decision, c.direction
		if pair == "" || first == "" || second == "" {
			s.docFinding(d, finding.ProgressionClaimsMismatch, field, "claim needs pair_id, first_sfi_uuid and second_sfi_uuid")
			continue
		}
		t.total++
		key := [2]string{first, second}
		if second < first {
			key = [2]string{second, first}
		}
		if prev, dup := seenPair[key]; dup {
			s.docFinding(d, finding.ProgressionDuplicatePair, field, "claims %s and %s judge the same pair of standards", prev, pair)
		}
		seenPair[key] = pair
		switch decision {
		case delivery.BuildsTowards:
			t.builds++
			src, tgt := first, second
			switch direction {
			case "second_to_first":
				src, tgt = second, first
			case "first_to_second":
			default:
				s.docFinding(d, finding.ProgressionClaimsMismatch, field, "buildsTowards claim %s needs direction first_to_second or second_to_first", pair)
				continue
			}
			if id, ok := edges[edgeKey{delivery.BuildsTowards, src, tgt}]; ok {
				matched[id] = true
			} else {
				s.docFinding(d, finding.ProgressionClaimsMismatch, field, "accepted claim %s (buildsTowards %s → %s) has no stored edge", pair, src, tgt)
			}
		case delivery.RelatesTo:
			t.relates++
			if id, ok := edges[edgeKey{delivery.RelatesTo, key[0], key[1]}]; ok {
				matched[id] = true
			} else {
				s.docFinding(d, finding.ProgressionClaimsMismatch, field, "accepted claim %s (relatesTo %s, %s) has no stored edge", pair, key[0], key[1])
			}
		case "no_relation", "needs_review":
			if decision == "no_relation" {
				t.noRelation++
			} else {
				t.needsReview++
				t.needsReviewPairs[pair] = true
			}
			if id, ok := pairs[key]; ok {
				s.docFinding(d, finding.ProgressionClaimsMismatch, field, "claim %s is %s but edge %s connects the pair", pair, decision, id)
			}
		default:
			s.docFinding(d, finding.ProgressionClaimsMismatch, field, "claim %s has unknown decision %q", pair, decision)
		}
	}
	var unmatched []string
	for _, ri := range append(append([]int(nil), g.builds...), g.relates...) {
		if id := g.rels[ri].ID; !matched[id] {
			unmatched = append(unmatched, id)
		}
	}
	sort.Strings(unmatched)
	for _, id := range unmatched {
		s.docFinding(d, finding.ProgressionClaimsMismatch, "claims", "edge %s has no accepted final claim", id)
	}
	return t
}
