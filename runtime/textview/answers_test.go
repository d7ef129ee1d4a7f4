package textview

import (
	"strings"
	"testing"

	"github.com/kgc-project/kgc/runtime/query"
	"github.com/kgc-project/kgc/runtime/search"
	"github.com/kgc-project/kgc/runtime/standard"
	"github.com/kgc-project/kgc/runtime/stats"
)

func ptr[T any](v T) *T { return &v }

// node is a standards record for the tests.
func node(id, text string) query.StandardNode {
	n := query.StandardNode{Description: ptr(text)}
	n.NodeID = id
	return n
}

// supportedStd is a supported standard with a grade label and a long statement.
func supportedStd(id, text string) query.SupportedStandard {
	return query.SupportedStandard{NodeID: id, Description: ptr(text), GradeLevels: []string{"1"},
		LocalGradeLabels: []string{"PRIMARY ONE"}, SupportConfidence: ptr(0.97), StandardURI: "kgfegmcp://x/standard/" + id}
}

// TestAlsoSupportsNamesStatementAndGradeOnce: the other standards the
// components support are named with grade label and clipped statement, the
// statement once per answer, and the answer says how to cite them.
func TestAlsoSupportsNamesStatementAndGradeOnce(t *testing.T) {
	long := "Pupils should be able to: 1. identify a Square, a Rectangle and a Circle " + strings.Repeat("and more ", 20)
	comp := func(id string) standard.StandardComponent {
		c := standard.StandardComponent{SupportedStandards: []query.SupportedStandard{supportedStd("s2", "ignored"), supportedStd("p1", long)}}
		c.Node.NodeID = id
		return c
	}
	r := &query.StandardComponentsResult{Standard: node("s2", "the P2 objective"), Components: []standard.StandardComponent{comp("c1"), comp("c2")}}
	r.Package.PackageIdentity = query.PackageIdentity{FrameworkID: "fw", SnapshotID: "fw@1"}
	text, _ := Render(r, nil)
	if strings.Count(text, "also supports: p1 | PRIMARY ONE | confidence 0.97 — Pupils should be able to: 1. identify a Square") != 1 ||
		strings.Count(text, "also supports: p1 | PRIMARY ONE | confidence 0.97 — see above") != 1 {
		t.Errorf("also supports:\n%s", text)
	}
	if strings.Contains(text, "and more and more and more and more and more and more and more and more and more and more") || !strings.Contains(text, "…") {
		t.Errorf("the statement is not clipped:\n%s", text)
	}
	if !strings.Contains(text, "; other standards kgfegmcp://framework/fw/snapshot/fw%401/standard/{nodeId}") {
		t.Errorf("no URI pattern for the other standards:\n%s", text)
	}
	r.Components = r.Components[:0]
	if text, _ := Render(r, nil); strings.Contains(text, "other standards") {
		t.Errorf("a pattern for no other standard:\n%s", text)
	}
}

// TestComponentHitsNameTheirStandards: each supported standard on its own
// line with its statement (once per page), and a standards URI pattern.
func TestComponentHitsNameTheirStandards(t *testing.T) {
	hit := func(id string) query.ComponentHit {
		h := query.ComponentHit{SupportedStandards: []query.SupportedStandard{supportedStd("s1", "enumerate the uses of money"), supportedStd("s2", "shop with money")}}
		h.Node.NodeID, h.PackageIdentity.SnapshotID = id, "fw@1"
		return h
	}
	r := &query.SearchResult[query.ComponentHit]{Page: query.SearchPage[query.ComponentHit]{Hits: []query.ComponentHit{hit("c1"), hit("c2")}, ReturnedCount: 2},
		SelectedSnapshots: []query.FrameworkSnapshot{{FrameworkID: "fw", SnapshotID: "fw@1"}}}
	text, _ := Render(r, map[string]any{"query": "money", "mode": "learning_component_text"})
	for want, n := range map[string]int{
		"   supports: s1 | PRIMARY ONE | confidence 0.97 — enumerate the uses of money\n": 1,
		"   supports: s1 | PRIMARY ONE | confidence 0.97 — see above\n":                   1,
		"   supports: s2 | PRIMARY ONE | confidence 0.97 — shop with money\n":             1,
		"; standards kgfegmcp://framework/fw/snapshot/fw%401/standard/{nodeId}":           1,
	} {
		if strings.Count(text, want) != n {
			t.Errorf("want %d× %q in:\n%s", n, want, text)
		}
	}
}

// TestGroupingHitListsChildren: children that are hits of the page by
// number, the others with ID and statement, the rest counted.
func TestGroupingHitListsChildren(t *testing.T) {
	topic := query.StandardHit{Node: node("t1", "3. Addition"), Children: &search.HitChildren{Count: 14, Nodes: []search.ChildSummary{
		{NodeID: "o1", Description: ptr("find missing numbers in a statement")},
		{NodeID: "o2", Description: ptr("cross-check the correctness of addition")},
		{NodeID: "g1", StatementCode: ptr("T.1"), StatementType: ptr("Topic"), NormalizedStatementType: ptr("Standard Grouping"), Description: ptr("a sub-topic")},
	}}}
	other := query.StandardHit{Node: node("o2", "cross-check the correctness of addition")}
	for _, h := range []*query.StandardHit{&topic, &other} {
		h.PackageIdentity.SnapshotID = "fw@1"
	}
	r := &query.SearchResult[query.StandardHit]{Page: query.SearchPage[query.StandardHit]{Hits: []query.StandardHit{topic, other}, ReturnedCount: 2}}
	text, _ := Render(r, map[string]any{"query": "addition", "mode": "text"})
	want := "   children (14): hit 2 on this page; others:\n" +
		"     - o1 — find missing numbers in a statement\n" +
		"     - T.1 | g1 | Topic (grouping) — a sub-topic\n" +
		"     (11 more not listed: get_standard_context of this grouping lists them)\n"
	if !strings.Contains(text, want) {
		t.Errorf("want\n%s\nin:\n%s", want, text)
	}
	if strings.Count(text, "children") != 1 {
		t.Errorf("a hit without children lists them:\n%s", text)
	}
}

// TestContextListsChildrenOnce: with descendants that hold every child, the
// children are the tree's first level, not a list of their own; a walk cut
// short of a child keeps the list.
func TestContextListsChildrenOnce(t *testing.T) {
	r := &query.ContextResult{
		Standard:       query.StandardResult{Node: node("ch", "Chapter 13")},
		Ancestors:      standard.Traversal{Nodes: []standard.DepthNode{{NodeID: "ch"}}},
		DirectChildren: &standard.Direct{IsComplete: true, TotalCount: 2, Order: "code", Neighbors: []standard.Neighbor{{NodeID: "lo1"}, {NodeID: "lo2"}}},
		Descendants:    &standard.Traversal{IsComplete: true, MaxDepth: 2, Nodes: []standard.DepthNode{{NodeID: "ch"}, {NodeID: "lo1", Depth: 1}, {NodeID: "lo2", Depth: 1}, {NodeID: "i1", Depth: 2}}},
		Nodes:          []query.StandardNode{node("lo1", "outcome one"), node("lo2", "outcome two"), node("i1", "indicator one")},
		Relationships: []query.GraphRelationship{{SourceNodeID: "ch", TargetNodeID: "lo1"}, {SourceNodeID: "ch", TargetNodeID: "lo2"},
			{SourceNodeID: "lo1", TargetNodeID: "i1"}},
	}
	text, _ := Render(r, nil)
	if strings.Count(text, "outcome one") != 1 || !strings.Contains(text, "Children (2) and descendants (3 to depth 2, complete), each item's children in its curriculum order (this one's: ordered by code):\n") ||
		!strings.Contains(text, "\n    - i1 — indicator one\n") {
		t.Errorf("children and descendants:\n%s", text)
	}
	r.Descendants.Nodes = r.Descendants.Nodes[:2] // cut before lo2
	r.Descendants.IsComplete = false
	text, _ = Render(r, nil)
	if !strings.Contains(text, "Children (2, ordered by code):\n") || !strings.Contains(text, "Descendants (1 to depth 2") {
		t.Errorf("cut descendants:\n%s", text)
	}
}

// TestStatisticsNameMultiParentTypes and TestPackagesShowCreatedAt: the
// figures that tell multi-parent items and snapshot builds apart.
func TestStatisticsNameMultiParentTypes(t *testing.T) {
	r := &query.StatisticsResult{}
	r.Statistics.MultiParent = stats.MultiParentStatistics{TargetCount: 235, MaximumParentCount: 2,
		StatementTypeCounts:  []stats.ValueCount{{Value: ptr("Content Domain Specific Learning Outcome"), Count: 235}},
		ParentStatementTypes: []stats.ValueCount{{Value: ptr("Chapter + NCERT Learning Outcome"), Count: 235}}}
	text, _ := Render(r, nil)
	want := "Multi-parent: 235 items with more than one parent (at most 2); their types: Content Domain Specific Learning Outcome: 235; their parents' types: Chapter + NCERT Learning Outcome: 235.\n"
	if !strings.Contains(text, want) {
		t.Errorf("want %q in:\n%s", want, text)
	}
}

func TestPackagesShowCreatedAt(t *testing.T) {
	snap := func(id, created string) query.FrameworkSnapshot {
		f := query.FrameworkSnapshot{FrameworkID: "fw", SnapshotID: id, GraphPackages: []query.PackageSummary{{CreatedAt: created}}}
		f.SourceMetadata.IsCurrent = true
		return f
	}
	r := &query.FrameworkList{Items: []query.FrameworkSnapshot{snap("fw@a", "2026-09-06T18:49:42Z"), snap("fw@b", "2026-07-22T15:55:37Z")}, ReturnedCount: 2}
	text, _ := Render(r, nil)
	for _, want := range []string{"; package created 2026-09-06T18:49:42Z\n", "; package created 2026-07-22T15:55:37Z\n",
		"version , created 2026-09-06T18:49:42Z | fw@b", "created 2026-07-22T15:55:37Z."} {
		if !strings.Contains(text, want) {
			t.Errorf("want %q in:\n%s", want, text)
		}
	}
}

// TestHitsShowEveryParent: a standard under several parents shows the path
// through each listed parent with the parent's type and ID, says how many
// more there are, hangs from the root with the reason when its parent could
// not be resolved, and a hit in the same place as an earlier one says so.
func TestHitsShowEveryParent(t *testing.T) {
	two := query.Location{ParentCount: 5, HierarchyPath: []string{"FW", "Class X", "Chapter 3", "CLO7"}, Parents: []standard.ParentPlace{
		{NodeID: "ch3", StatementType: ptr("Chapter"), Path: []string{"FW", "Class X", "Chapter 3"}},
		{NodeID: "lo2", StatementType: ptr("NCERT Learning Outcome"), Path: []string{"FW", "Class X", "LO2 Classifies materials"}},
	}}
	fallback := query.Location{ParentCount: 1, RootFallback: true, HierarchyPath: []string{"FW", "B5.1.4.1"}}
	hit := func(id string, loc query.Location) query.StandardHit {
		h := query.StandardHit{Node: node(id, "statement "+id), Location: loc}
		h.PackageIdentity.SnapshotID = "fw@1"
		return h
	}
	r := &query.SearchResult[query.StandardHit]{Page: query.SearchPage[query.StandardHit]{
		Hits: []query.StandardHit{hit("clo7", two), hit("clo8", two), hit("b5", fallback)}, ReturnedCount: 3}}
	text, _ := Render(r, map[string]any{"query": "x", "mode": "text"})
	for _, want := range []string{
		"   in: Class X > Chapter 3 (parent Chapter ch3)\n",
		"   also in: Class X > LO2 Classifies materials (parent NCERT Learning Outcome lo2); 3 more parents: get_standard_context lists every path\n",
		"2. clo8\n   statement clo8\n   in: as hit 1\n",
		"   in: top level, because the source's parent for it could not be resolved (attached to the framework root as a fallback)\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("want\n%s\nin:\n%s", want, text)
		}
	}
}

// TestComparisonSaysHowComplete: each section says whether its matches are
// all there are, and a warning a section shows is not repeated at the end.
func TestComparisonSaysHowComplete(t *testing.T) {
	hit := func(id string) query.ComparisonMatch {
		return query.ComparisonMatch{SearchHit: query.StandardHit{Node: node(id, "statement "+id)}}
	}
	warn := query.ComparisonWarning{Code: "no_matches", SnapshotID: "c@1", Message: "the package-local search found no standards"}
	r := &query.ComparisonResult{Request: query.ComparisonRequest{Query: "x", Mode: "text", MaxMatchesPerFramework: 2}, Sections: []query.ComparisonSection{
		{SnapshotID: "a@1", Matches: []query.ComparisonMatch{hit("a1"), hit("a2")}, TotalMatchingCount: 23},
		{SnapshotID: "b@1", Matches: []query.ComparisonMatch{hit("b1"), hit("b2")}, TotalMatchingCount: 2},
		{SnapshotID: "c@1", Matches: []query.ComparisonMatch{}, Warnings: []query.ComparisonWarning{warn}},
	}, Warnings: []query.ComparisonWarning{warn}}
	text, _ := Render(r, nil)
	for _, want := range []string{"  Matches: 2 of 23, best first", "  Matches: all 2.\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("want %q in:\n%s", want, text)
		}
	}
	if strings.Count(text, "Warning no_matches") != 1 {
		t.Errorf("the section's warning is repeated:\n%s", text)
	}
}

// TestRepeatedStatementsAreNamedOnce: a hit whose statement an earlier hit
// of the page has word for word points to it instead of repeating it.
func TestRepeatedStatementsAreNamedOnce(t *testing.T) {
	long := "At later grades, pupils recognise area as an attribute of plane figures."
	hit := func(id, text string) query.StandardHit {
		h := query.StandardHit{Node: node(id, text)}
		h.PackageIdentity.SnapshotID = "fw@1"
		return h
	}
	r := &query.SearchResult[query.StandardHit]{Page: query.SearchPage[query.StandardHit]{
		Hits: []query.StandardHit{hit("a", long), hit("b", "short"), hit("c", long), hit("d", "short")}, ReturnedCount: 4}}
	text, _ := Render(r, map[string]any{"query": "area", "mode": "text"})
	if strings.Count(text, long) != 1 || !strings.Contains(text, "3. c\n   (the statement of hit 1, word for word)\n") || strings.Count(text, "   short\n") != 2 {
		t.Errorf("repeated statements:\n%s", text)
	}
}
