package mcpserver_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
)

// graphSpec is a one-standard package of n indicators whose buildsTowards edges
// are exactly builds (indices in generation order).
func graphSpec(name string, n int, builds [][2]int, topic string) pkggen.Spec {
	spec := pkggen.Shipped()[1]
	spec.FrameworkID, spec.Name = "kgc-test-"+name, "kgc test graph "+name
	spec.GradeLabels, spec.GradeNumbers = []string{"GRADE ONE"}, nil
	spec.Strands, spec.Standards, spec.Indicators = 1, 1, n
	spec.Components, spec.Unresolved, spec.Builds = false, 0, builds
	if topic != "" {
		spec.Topics = []string{topic}
	}
	return spec
}

// graphFixture serves the shipped samples plus the given specs, and returns the
// source relationships of each extra package by framework ID.
func graphFixture(t *testing.T, specs ...pkggen.Spec) (*mcp.ClientSession, map[string][]srcRel) {
	t.Helper()
	rels := map[string][]srcRel{}
	dir := imgtest.Images(t, specs, func(spec pkggen.Spec, f *pkgtest.Fixture) { rels[spec.FrameworkID] = sourceRels(t, f.Dir) })
	cs, _ := client(t, dir)
	return cs, rels
}

// builds returns the stored buildsTowards edges.
func builds(rels []srcRel) []srcRel {
	var out []srcRel
	for _, r := range rels {
		if r.Label == "buildsTowards" {
			out = append(out, r)
		}
	}
	return out
}

// bfsDistances is the brute-force oracle of a traversal without limits.
func bfsDistances(edges []srcRel, origin string, upstream bool, maxDepth int) map[string]int {
	dist := map[string]int{origin: 0}
	frontier := []string{origin}
	for d := 1; d <= maxDepth && len(frontier) > 0; d++ {
		var next []string
		for _, u := range frontier {
			for _, e := range edges {
				from, to := e.Source, e.Target
				if upstream {
					from, to = to, from
				}
				if from == u {
					if _, ok := dist[to]; !ok {
						dist[to] = d
						next = append(next, to)
					}
				}
			}
		}
		frontier = next
	}
	return dist
}

type oraclePath struct{ nodes, rels []string }

// allPaths enumerates every simple path source → target of at most maxDepth
// edges, ordered by hop count then relationship-ID tuple.
func allPaths(edges []srcRel, source, target string, maxDepth int) []oraclePath {
	var out []oraclePath
	var walk func(p oraclePath)
	walk = func(p oraclePath) {
		last := p.nodes[len(p.nodes)-1]
		if last == target {
			out = append(out, oraclePath{append([]string(nil), p.nodes...), append([]string(nil), p.rels...)})
			return
		}
		if len(p.rels) == maxDepth {
			return
		}
		for _, e := range edges {
			if e.Source == last && !containsStr(p.nodes, e.Target) {
				walk(oraclePath{append(p.nodes, e.Target), append(p.rels, e.ID)})
			}
		}
	}
	walk(oraclePath{nodes: []string{source}})
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].rels) != len(out[j].rels) {
			return len(out[i].rels) < len(out[j].rels)
		}
		return strings.Join(out[i].rels, ",") < strings.Join(out[j].rels, ",")
	})
	return out
}

func nodeSel(id string) map[string]any {
	return map[string]any{"identifierType": "node_id", "nodeId": id}
}

func strList(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// checkTraversal compares an unlimited traversal with the oracle.
func checkTraversal(t *testing.T, cs *mcp.ClientSession, fw string, edges []srcRel, origin, dir string, depth int) {
	t.Helper()
	out, txt := lpCall(t, cs, "traverse_learning_progressions", map[string]any{"frameworkId": fw, "identifier": nodeSel(origin),
		"direction": dir, "maxDepth": depth, "maxNodes": 250, "maxEdges": 100})
	if out == nil {
		t.Fatalf("traverse %s: %s", origin, txt)
	}
	want := bfsDistances(edges, origin, dir == "upstream", depth)
	got := map[string]int{}
	for _, d := range out["distances"].([]any) {
		d := d.(map[string]any)
		got[d["nodeId"].(string)] = int(d["depth"].(float64))
	}
	reasons := strList(append([]any{}, out["truncationReasons"].([]any)...))
	if containsStr(reasons, "byte_limit") || containsStr(reasons, "edge_limit") {
		// Cut short: the nodes returned are still at their true minimum depth.
		for n, d := range got {
			if want[n] != d {
				t.Errorf("traverse %s: %s at depth %d, want %d", origin[:8], n[:8], d, want[n])
			}
		}
	} else if fmt.Sprint(got) != fmt.Sprint(want) {
		var diff []string
		for n, d := range want {
			if g, ok := got[n]; !ok || g != d {
				diff = append(diff, fmt.Sprintf("%s want %d got %d(%v)", n[:8], d, g, ok))
			}
		}
		for n, g := range got {
			if _, ok := want[n]; !ok {
				diff = append(diff, fmt.Sprintf("%s extra at %d", n[:8], g))
			}
		}
		t.Errorf("traverse %s %s depth %d: %v (reasons %v)", origin[:8], dir, depth, diff, reasons)
	}
	// Every returned edge joins two returned nodes and is stored as returned.
	stored := map[string]srcRel{}
	for _, e := range edges {
		stored[e.ID] = e
	}
	for _, r := range out["relationships"].([]any) {
		rel := r.(map[string]any)["relationship"].(map[string]any)
		e, ok := stored[rel["relationshipId"].(string)]
		if !ok || rel["sourceNodeId"] != e.Source || rel["targetNodeId"] != e.Target {
			t.Errorf("edge %v is not a stored buildsTowards edge", rel["relationshipId"])
		}
		if _, ok := got[e.Source]; !ok {
			t.Errorf("edge %s leaves the returned nodes", e.ID)
		}
	}
	// A full walk returns every edge among the reached nodes.
	if len(reasons) == 0 {
		n := 0
		for _, e := range edges {
			_, a := got[e.Source]
			_, b := got[e.Target]
			if a && b {
				n++
			}
		}
		if len(out["relationships"].([]any)) != n || out["graphExhausted"] != true {
			t.Errorf("traverse %s: %d edges, want %d", origin, len(out["relationships"].([]any)), n)
		}
	}
}

func checkPaths(t *testing.T, cs *mcp.ClientSession, fw string, edges []srcRel, source, target string, depth, max int) map[string]any {
	t.Helper()
	out, txt := lpCall(t, cs, "get_learning_progression_paths", map[string]any{"frameworkId": fw, "sourceIdentifier": nodeSel(source),
		"targetIdentifier": nodeSel(target), "maxDepth": depth, "maxPaths": max})
	if out == nil {
		t.Fatalf("paths %s → %s: %s", source, target, txt)
	}
	var got []string
	for _, p := range out["paths"].([]any) {
		got = append(got, strings.Join(strList(p.(map[string]any)["relationshipIds"]), ","))
	}
	reasons := strList(append([]any{}, out["truncationReasons"].([]any)...))
	stored := map[string]srcRel{}
	for _, e := range edges {
		stored[e.ID] = e
	}
	prev := ""
	for _, p := range out["paths"].([]any) {
		nodes, ids := strList(p.(map[string]any)["nodeIds"]), strList(p.(map[string]any)["relationshipIds"])
		key := fmt.Sprintf("%03d:%s", len(ids), strings.Join(ids, ","))
		if key <= prev || len(ids) > depth || len(nodes) != len(ids)+1 || nodes[0] != source || nodes[len(nodes)-1] != target {
			t.Errorf("path %v is out of order, too deep or misplaced", ids)
		}
		prev = key
		for i, id := range ids {
			if e, ok := stored[id]; !ok || e.Source != nodes[i] || e.Target != nodes[i+1] || containsStr(nodes[:i+1], nodes[i+1]) {
				t.Errorf("path %v: hop %d is not a stored edge of a simple path", ids, i)
			}
		}
	}
	if containsStr(reasons, "work_limit") || containsStr(reasons, "queue_limit") || (containsStr(reasons, "path_limit") && len(edges) > 200) {
		return out // cut short: real, ordered and simple is all that can be asked
	}
	all := allPaths(edges, source, target, depth)
	var want []string
	for _, p := range all {
		want = append(want, strings.Join(p.rels, ","))
	}
	if len(want) > max {
		want = want[:max]
	}
	if containsStr(reasons, "byte_limit") {
		// Admitted whole and in order: a prefix, and the next one is named.
		next := strings.Join(strList(out["nextUnreturnedPath"].(map[string]any)["relationshipIds"]), ",")
		if len(got) == 0 || len(got) >= len(want) || fmt.Sprint(got) != fmt.Sprint(want[:len(got)]) || next != want[len(got)] {
			t.Errorf("byte-limited paths %s → %s: %d returned, next %s", source[:8], target[:8], len(got), next)
		}
		return out
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("paths %s → %s depth %d max %d:\n got %v\nwant %v (reasons %v)", source, target, depth, max, got, want, reasons)
	}
	if len(all) > max && !containsStr(reasons, "path_limit") {
		t.Errorf("paths %s → %s: %d stored, max %d, reasons %v", source, target, len(all), max, reasons)
	}
	return out
}

func chain(n int) [][2]int {
	var out [][2]int
	for i := 0; i+1 < n; i++ {
		out = append(out, [2]int{i, i + 1})
	}
	return out
}

// dense is every pair i < j over n indicators.
func dense(n int) [][2]int {
	var out [][2]int
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			out = append(out, [2]int{i, j})
		}
	}
	return out
}

func indicatorIDs(spec pkggen.Spec) []string {
	var out []string
	for i := 0; i < spec.Indicators; i++ {
		out = append(out, pkggen.NodeID(spec, 0, 0, 0, i))
	}
	return out
}

// TestAdversarialGraphsStopAtTheirBudgets runs long chains (depth) and dense
// DAGs (path explosion, work and queue limits, the size ceiling).
func TestAdversarialGraphsStopAtTheirBudgets(t *testing.T) {
	t.Parallel()
	imgtest.Heavy(t)
	long := graphSpec("chain", 40, chain(40), "")
	den := graphSpec("dense", 70, dense(70), "")
	big := graphSpec("wide", 30, dense(30), strings.Repeat("measurement of length in everyday contexts ", 60))
	cs, rels := graphFixture(t, long, den, big)
	reasons := func(out map[string]any) []string {
		return strList(append([]any{}, out["truncationReasons"].([]any)...))
	}

	ids := indicatorIDs(long)
	// The answers carry the walk as the engine made it (the engine's own
	// brute-force checks are in runtime/progression).
	checkTraversal(t, cs, long.FrameworkID, builds(rels[long.FrameworkID]), ids[5], "downstream", 12)
	checkTraversal(t, cs, long.FrameworkID, builds(rels[long.FrameworkID]), ids[30], "upstream", 7)
	out, _ := lpCall(t, cs, "traverse_learning_progressions", map[string]any{"frameworkId": long.FrameworkID, "identifier": nodeSel(ids[0]), "maxDepth": 12})
	if r := reasons(out); fmt.Sprint(r) != "[depth_limit]" || len(out["distances"].([]any)) != 13 || out["scopeComplete"] != true || out["graphExhausted"] != false {
		t.Errorf("chain traversal: reasons %v, %d nodes, scopeComplete %v", r, len(out["distances"].([]any)), out["scopeComplete"])
	}
	out, _ = lpCall(t, cs, "traverse_learning_progressions", map[string]any{"frameworkId": long.FrameworkID, "identifier": nodeSel(ids[39]),
		"direction": "upstream", "maxDepth": 12, "maxNodes": 5})
	if r := reasons(out); !containsStr(r, "node_limit") || len(out["distances"].([]any)) != 5 || out["scopeComplete"] != false {
		t.Errorf("chain upstream with 5 nodes: %v", r)
	}
	out = checkPaths(t, cs, long.FrameworkID, builds(rels[long.FrameworkID]), ids[0], ids[39], 12, 3)
	if r := reasons(out); fmt.Sprint(r) != "[depth_limit]" || len(out["paths"].([]any)) != 0 || out["scopeComplete"] != true {
		t.Errorf("chain paths beyond depth: %v", r)
	}

	ids = indicatorIDs(den)
	out, _ = lpCall(t, cs, "traverse_learning_progressions", map[string]any{"frameworkId": den.FrameworkID, "identifier": nodeSel(ids[0]), "maxEdges": 100})
	if r := reasons(out); !containsStr(r, "edge_limit") || out["counters"].(map[string]any)["returnedRelationshipCount"] != float64(len(out["relationships"].([]any))) {
		t.Errorf("dense traversal: %v, %d edges", r, len(out["relationships"].([]any)))
	}
	out = checkPaths(t, cs, den.FrameworkID, builds(rels[den.FrameworkID]), ids[0], ids[69], 12, 20)
	if r := reasons(out); !containsStr(r, "work_limit") && !containsStr(r, "queue_limit") && !containsStr(r, "path_limit") {
		t.Errorf("dense paths: %v", r)
	}
	c := out["counters"].(map[string]any)
	if c["examinedRelationshipCount"].(float64) > 5000 || c["enqueuedStateCount"].(float64) > 5000 {
		t.Errorf("dense paths overspent: %v", c)
	}
	out = checkPaths(t, cs, den.FrameworkID, builds(rels[den.FrameworkID]), ids[1], ids[68], 12, 20)
	if r := reasons(out); !containsStr(r, "work_limit") && !containsStr(r, "queue_limit") || out["scopeComplete"] != false || out["graphExhausted"] != false {
		t.Errorf("dense paths without a direct edge: %v", r)
	}

	// Long statements: results stop at the size ceiling, whole edges and paths.
	ids = indicatorIDs(big)
	out, _ = lpCall(t, cs, "traverse_learning_progressions", map[string]any{"frameworkId": big.FrameworkID, "identifier": nodeSel(ids[0])})
	if r := reasons(out); !containsStr(r, "byte_limit") || out["scopeComplete"] != false {
		t.Errorf("wide traversal: %v", r)
	}
	out = checkPaths(t, cs, big.FrameworkID, builds(rels[big.FrameworkID]), ids[0], ids[29], 12, 20)
	if r := reasons(out); !containsStr(r, "byte_limit") || out["nextUnreturnedPath"] == nil || len(out["paths"].([]any)) == 0 {
		t.Errorf("wide paths: %v, next %v", r, out["nextUnreturnedPath"])
	}
	got := collect(t, cs, "search_learning_progressions", map[string]any{"frameworkId": big.FrameworkID, "relationshipTypes": []any{"buildsTowards"}, "limit": 100})
	if want := idsOf(rels[big.FrameworkID], func(r srcRel) bool { return r.Label == "buildsTowards" }); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("wide collection across byte-limited pages: %d edges, want %d", len(got), len(want))
	}
}

// TestAmbiguousCodeSelectorsAreRefused serves a package whose two strands
// share their codes: a code selector naming two standards is refused, never
// guessed.
func TestAmbiguousCodeSelectorsAreRefused(t *testing.T) {
	spec := graphSpec("twin", 3, chain(6), "")
	spec.Strands, spec.RepeatCodes = 2, true
	cs, _ := graphFixture(t, spec)
	sel := map[string]any{"identifierType": "statement_code", "statementCode": "M1.1.1.1"}
	for tool, r := range map[string]map[string]any{
		"traverse_learning_progressions": {"identifier": sel},
		"get_standard_progressions":      {"identifier": sel},
		"search_learning_progressions":   {"standardIdentifiers": []any{sel}},
		"get_learning_progression_paths": {"sourceIdentifier": sel, "targetIdentifier": nodeSel(pkggen.NodeID(spec, 0, 0, 0, 2))},
	} {
		if _, txt := lpCall(t, cs, tool, merged(r, map[string]any{"frameworkId": spec.FrameworkID})); !strings.HasPrefix(txt, "ambiguous_graph_node: ") {
			t.Errorf("%s: %q", tool, txt)
		}
	}
	// The English sample has no codes: a code selector is unavailable there
	// (it has no progressions either, which is checked first).
	if _, txt := lpCall(t, cs, "traverse_learning_progressions", map[string]any{"frameworkId": english, "identifier": sel}); !strings.HasPrefix(txt, "capability_unavailable: ") {
		t.Errorf("english: %q", txt)
	}
}
