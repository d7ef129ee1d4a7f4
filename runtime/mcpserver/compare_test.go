package mcpserver_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// rootPathsOracle lists every root-to-node path of the source hierarchy by
// brute force over the delivery relationships (hasChild, parent → child).
func rootPathsOracle(rels []srcRel, root, node string) [][]string {
	parents := map[string][]string{}
	for _, r := range rels {
		if r.Label == "hasChild" {
			parents[r.Target] = append(parents[r.Target], r.Source)
		}
	}
	var out [][]string
	var up func(n string, suffix []string)
	up = func(n string, suffix []string) {
		path := append([]string{n}, suffix...)
		if n == root {
			out = append(out, path)
			return
		}
		for _, p := range parents[n] {
			up(p, path)
		}
	}
	up(node, nil)
	return out
}

func pathKeys(paths [][]string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = strings.Join(p, ">")
	}
	sort.Strings(out)
	return out
}

// checkComparison checks every section of a comparison against the package's
// sources: its matches are the first k of a brute-force ranking of that
// package alone, hasMore says whether more exist, every hierarchy path is a
// real root-to-match path with the source's codes and descriptions, and all
// of them are listed; no_matches appears exactly on empty sections.
func checkComparison(t *testing.T, srv *mcpserver.Server, out map[string]any, sources map[string]string, query string, k int) {
	t.Helper()
	for _, s := range out["sections"].([]any) {
		sec := s.(map[string]any)
		snap := sec["snapshotId"].(string)
		nodes := placed(t, srv, snap, sourceNodes(t, sources[snap]))
		rels := sourceRels(t, sources[snap])
		byID := map[string]srcNode{}
		for _, n := range nodes {
			byID[n.ID] = n
		}
		want := textOracle(t, nodes, query, "tokens", "any", false)
		matches := sec["matches"].([]any)
		hits := make([]map[string]any, len(matches))
		for i, m := range matches {
			hits[i] = m.(map[string]any)["searchHit"].(map[string]any)
		}
		sameRanking(t, snap+" "+query, hits, want[:min(k, len(want))])
		if sec["hasMore"] != (len(want) > k) {
			t.Errorf("%s: hasMore %v with %d oracle hits and k=%d", snap, sec["hasMore"], len(want), k)
		}
		warned := false
		for _, w := range sec["warnings"].([]any) {
			warned = warned || w.(map[string]any)["code"] == "no_matches"
		}
		if warned != (len(want) == 0) {
			t.Errorf("%s: no_matches warning %v with %d oracle hits", snap, warned, len(want))
		}
		for _, m := range matches {
			match := m.(map[string]any)
			id := match["searchHit"].(map[string]any)["node"].(map[string]any)["nodeId"].(string)
			var got [][]string
			for _, p := range match["hierarchyPaths"].([]any) {
				var ids []string
				for _, st := range p.([]any) {
					step := st.(map[string]any)
					src := byID[step["nodeId"].(string)]
					if fmt.Sprint(step["statementCode"]) != fmt.Sprint(orNil(src.Code)) || fmt.Sprint(step["description"]) != fmt.Sprint(orNil(src.Description)) {
						t.Errorf("%s: step %v differs from the source node %+v", snap, step, src)
					}
					ids = append(ids, src.ID)
				}
				got = append(got, ids)
			}
			if len(got) == 0 {
				t.Errorf("%s %s: no hierarchy path", snap, id)
				continue
			}
			all := rootPathsOracle(rels, got[0][0], id)
			if match["contextComplete"] == true && strings.Join(pathKeys(got), "|") != strings.Join(pathKeys(all), "|") {
				t.Errorf("%s %s: paths\n got %v\nwant %v", snap, id, pathKeys(got), pathKeys(all))
			}
			if match["contextComplete"] == false && len(got) >= len(all) {
				t.Errorf("%s %s: contextComplete false with all %d paths listed", snap, id, len(all))
			}
			if hasParent(rels, got[0][0]) {
				t.Errorf("%s %s: path starts at %s, which has a parent", snap, id, got[0][0])
			}
		}
	}
}

func hasParent(rels []srcRel, id string) bool {
	for _, r := range rels {
		if r.Label == "hasChild" && r.Target == id {
			return true
		}
	}
	return false
}

func orNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// TestCompareCorpus compares Ghana, CBSE and a pinned Nigeria snapshot on the
// real corpus and checks every section against the sources.
func TestCompareCorpus(t *testing.T) {
	t.Parallel()
	imgtest.Heavy(t)
	dir, sources := corpusImages(t)
	cs, srv := client(t, dir)
	const ng = "nigeria-nerdc-mathematics-primary-1-3"
	fws := []any{"ghana-nacca-primary-mathematics-basic-4-6", "india-cbse-science-learning-framework-classes-9-10", ng}
	for _, q := range []string{"fractions", "number", "energy"} {
		for _, k := range []int{1, 4, 10} {
			r := map[string]any{"mode": "text", "query": q, "match": map[string]any{"matchMode": "tokens", "operator": "any"},
				"frameworkIds": fws, "snapshotIds": []any{ng + "@undated+3f35e11c6624"}, "maxMatchesPerFramework": k}
			out, res := call(t, cs, "compare_framework_evidence", req(r))
			if out == nil {
				t.Fatalf("%s: %s", q, res.Content[0].(*mcp.TextContent).Text)
			}
			checkComparison(t, srv, out, sources, q, k)
			flat, _ := call(t, cs, "compare_framework_evidence", r)
			a, _ := json.Marshal(out)
			b, _ := json.Marshal(flat)
			if string(a) != string(b) {
				t.Errorf("%s: the flat form answers differently from the wrapped form", q)
			}
		}
	}
	// Both Nigeria snapshots at once: one framework, two pins.
	r := map[string]any{"mode": "code_exact", "query": "B4.1.1.1", "frameworkIds": []any{fws[0], ng},
		"snapshotIds": []any{ng + "@undated+3f35e11c6624", ng + "@undated+530f13dcf3c3"}}
	if _, res := call(t, cs, "compare_framework_evidence", req(r)); !strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "invalid_comparison_selection: ") {
		t.Errorf("two pins of one framework: %v", res.Content[0])
	}
}

// TestCompareSamples checks the comparison on the shipped samples: each
// section is the package-local search_standards page of that snapshot alone,
// code modes a package cannot serve become section warnings, and bad
// selections are refused with the contract's codes.
func TestCompareSamples(t *testing.T) {
	cs, _ := client(t, images(t))
	r := map[string]any{"mode": "code_prefix", "query": "M1", "frameworkIds": []any{maths, english}, "maxMatchesPerFramework": 3}
	out, res := call(t, cs, "compare_framework_evidence", req(r))
	if out == nil {
		t.Fatal(res.Content[0].(*mcp.TextContent).Text)
	}
	secs := out["sections"].([]any)
	if len(secs) != 2 || secs[0].(map[string]any)["frameworkId"] != english {
		t.Fatalf("sections not ordered by framework: %v", secs)
	}
	en, ma := secs[0].(map[string]any), secs[1].(map[string]any)
	if w := en["warnings"].([]any); len(w) != 1 || w[0].(map[string]any)["code"] != "code_search_unsupported" || len(en["matches"].([]any)) != 0 {
		t.Errorf("english section warnings: %v", w)
	}
	page, _ := call(t, cs, "search_standards", req(map[string]any{"mode": "code_prefix", "query": "M1", "limit": 3,
		"snapshotIds": []any{ma["snapshotId"]}}))
	var ids, want []string
	for _, m := range ma["matches"].([]any) {
		ids = append(ids, m.(map[string]any)["searchHit"].(map[string]any)["node"].(map[string]any)["nodeId"].(string))
	}
	for _, h := range page["page"].(map[string]any)["hits"].([]any) {
		want = append(want, h.(map[string]any)["node"].(map[string]any)["nodeId"].(string))
	}
	if strings.Join(ids, ",") != strings.Join(want, ",") || ma["nextCursor"] != page["page"].(map[string]any)["nextCursor"] {
		t.Errorf("maths section %v (cursor %v) is not the package-local page %v (cursor %v)", ids, ma["nextCursor"], want, page["page"].(map[string]any)["nextCursor"])
	}
	if d := out["disclosures"].([]any); len(d) < 7 || out["epistemicStatus"] != "deterministic_derived" {
		t.Errorf("disclosures %v, status %v", d, out["epistemicStatus"])
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"mode": "code_exact", "query": "M1", "frameworkIds": []any{maths}}, "Input validation error: "},
		{map[string]any{"mode": "code_exact", "query": "M1", "frameworkIds": []any{maths, maths}}, "Input validation error: "},
		{map[string]any{"mode": "code_exact", "query": "M1", "frameworkIds": []any{maths, english}, "maxMatchesPerFramework": 11}, "Input validation error: "},
		{map[string]any{"mode": "fuzzy", "query": "M1", "frameworkIds": []any{maths, english}}, "unsupported_search_mode: "},
		{map[string]any{"mode": "code_exact", "query": "M1", "frameworkIds": []any{maths, "kgc-missing"}}, "framework_not_found: "},
		{map[string]any{"mode": "code_exact", "query": "M1", "frameworkIds": []any{english, "kgc-missing"},
			"snapshotIds": []any{"kgc-sample-mathematics-grades-1-3@2026+e2a8ceb6a0e6"}}, "invalid_comparison_selection: "},
	} {
		_, res := call(t, cs, "compare_framework_evidence", req(c.args))
		if text := res.Content[0].(*mcp.TextContent).Text; !res.IsError || !strings.HasPrefix(text, c.want) {
			t.Errorf("%v: %s, want %s…", c.args, text, c.want)
		}
	}
}
