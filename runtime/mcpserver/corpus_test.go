package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/textnorm"
)

// corpusImages builds every complete corpus package into a temp dir (skipping
// the test, visibly, without the corpus) and maps snapshot IDs to sources.
func corpusImages(t testing.TB) (string, map[string]string) { return imgtest.CorpusImages(t) }

// TestCorpusSurface drives every tool and resource family over every corpus
// image, checking search results against a brute-force reading of the source.
// Heavy: the concurrency it runs through (parallel calls on one session) is
// raced on the samples by TestSwapUnderLoad and the other tests.
func TestCorpusSurface(t *testing.T) {
	t.Parallel()
	imgtest.Heavy(t)
	dir, sources := corpusImages(t)
	cs, srv := client(t, dir)
	for _, p := range srv.Catalog().Packages {
		fw, snap := p.FrameworkID(), p.SnapshotID()
		t.Run(snap, func(t *testing.T) {
			t.Parallel() // each snapshot is independent; the client session is safe for concurrent calls
			nodes := placed(t, srv, snap, sourceNodes(t, sources[snap]))
			route := map[string]any{"frameworkId": fw, "snapshotId": snap}
			with := func(extra map[string]any) map[string]any { return merged(route, extra) }
			for _, tool := range []string{"get_framework", "get_framework_statistics"} {
				if out, res := call(t, cs, tool, req(route)); out == nil {
					t.Errorf("%s: %s", tool, res.Content[0].(*mcp.TextContent).Text)
				}
			}
			corpusStandards(t, cs, nodes, with)
			corpusTextSearch(t, cs, nodes, snap)
			corpusCodeSearch(t, cs, nodes, snap)
			corpusComponents(t, cs, nodes, with, snap)
			corpusResources(t, cs, fw, snap, nodes)
		})
	}
}

func sampleItems(nodes []srcNode, every int) []srcNode {
	var out []srcNode
	k := 0
	for _, n := range nodes {
		if n.Item {
			if k%every == 0 {
				out = append(out, n)
			}
			k++
		}
	}
	return out
}

func corpusStandards(t *testing.T, cs *mcp.ClientSession, nodes []srcNode, with func(map[string]any) map[string]any) {
	for _, n := range sampleItems(nodes, 37) {
		sel := map[string]any{"identifierType": "node_id", "nodeId": n.ID}
		out, res := call(t, cs, "get_standard", req(with(map[string]any{"identifier": sel})))
		if out == nil || out["node"].(map[string]any)["nodeId"] != n.ID {
			t.Fatalf("get_standard %s: %v", n.ID, res.Content[0])
		}
		ctx, res := call(t, cs, "get_standard_context", req(with(map[string]any{"nodeId": n.ID, "includeDescendants": true})))
		if ctx == nil || ctx["ancestors"].(map[string]any)["originNodeId"] != n.ID {
			t.Fatalf("get_standard_context %s: %v", n.ID, res.Content[0])
		}
		if out, res := call(t, cs, "get_learning_components_for_standard", req(with(map[string]any{"identifier": sel}))); out == nil {
			t.Fatalf("get_learning_components_for_standard %s: %v", n.ID, res.Content[0])
		}
	}
}

func corpusTextSearch(t *testing.T, cs *mcp.ClientSession, nodes []srcNode, snap string) {
	for _, n := range sampleItems(nodes, 61) {
		toks := textnorm.Tokens(n.Description)
		if len(toks) < 3 || n.NormType == "Standard Grouping" {
			continue
		}
		for _, q := range []struct{ query, mode, operator string }{
			{strings.Join(toks[:2], " "), "tokens", "all"},
			{strings.Join(toks[1:3], " "), "tokens", "any"},
			{strings.Join(toks[:3], " "), "exact_phrase", ""},
		} {
			match := map[string]any{"matchMode": q.mode}
			if q.operator != "" {
				match["operator"] = q.operator
			}
			want := textOracle(t, nodes, q.query, q.mode, q.operator, false)
			hits := pageAll(t, cs, "search_standards", map[string]any{"snapshotIds": []any{snap}, "mode": "text", "query": q.query, "match": match}, 100)
			sameRanking(t, q.query+"/"+q.mode, hits, want)
			if !inRanked(want, n.ID) {
				t.Errorf("%q does not find the item it was taken from", q.query)
			}
		}
	}
}

// corpusCodeSearch looks every sampled authored code up exactly: the item is
// among the hits, all hits share one normalized code, and several hits each
// carry multiple_code_matches.
func corpusCodeSearch(t *testing.T, cs *mcp.ClientSession, nodes []srcNode, snap string) {
	ambiguous, scoped := 0, 0
	for _, n := range sampleItems(nodes, 7) {
		if n.Code == "" || n.NormType == "Standard Grouping" {
			continue
		}
		r := map[string]any{"snapshotIds": []any{snap}, "mode": "code_exact", "query": n.Code}
		out, res := call(t, cs, "search_standards", req(r))
		if out == nil {
			if txt := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(txt, "capability_unavailable: ") {
				t.Fatalf("code_exact %q: %s", n.Code, txt)
			}
			return
		}
		hits := pageAll(t, cs, "search_standards", r, 100)
		found := false
		for _, h := range hits {
			rk := hitRank(h)
			found = found || rk.ID == n.ID
			if rk.Lead != hitRank(hits[0]).Lead || rk.Score != 1000000 {
				t.Errorf("code %q: hit %v", n.Code, rk)
			}
			grades := toStrings(h["facets"].(map[string]any)["normalizedGrades"])
			for _, sc := range h["codeMatch"].(map[string]any)["scopes"].([]any) {
				scope := sc.(map[string]any)
				node := scope["scopeNode"].(map[string]any)
				if node["statementType"] != scope["scopeStatementType"] {
					t.Errorf("code %q: scope %v", n.Code, scope)
				}
				for _, g := range node["gradeLevel"].([]any) {
					if !containsStr(grades, g.(string)) {
						t.Errorf("code %q: scope grade %v missing from normalizedGrades %v", n.Code, g, grades)
					}
				}
				scoped++
			}
			if warned := len(h["warnings"].([]any)) > 0 && h["warnings"].([]any)[0].(map[string]any)["code"] == "multiple_code_matches"; warned != (len(hits) > 1) {
				t.Errorf("code %q: %d hits, warnings %v", n.Code, len(hits), h["warnings"])
			}
		}
		if !found {
			t.Errorf("code %q does not find its item %s", n.Code, n.ID)
		}
		if len(hits) > 1 {
			ambiguous++
		}
		pr := map[string]any{"snapshotIds": []any{snap}, "mode": "code_prefix", "query": n.Code}
		if out, res := call(t, cs, "search_standards", req(pr)); out == nil {
			if txt := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(txt, "capability_unavailable: ") {
				t.Fatalf("code_prefix %q: %s", n.Code, txt)
			}
			continue
		}
		prefix := pageAll(t, cs, "search_standards", pr, 100)
		if len(prefix) < len(hits) {
			t.Errorf("prefix %q: %d hits, exact %d", n.Code, len(prefix), len(hits))
		}
		for i := 1; i < len(prefix); i++ {
			if hitRank(prefix[i-1]).Lead > hitRank(prefix[i]).Lead {
				t.Errorf("prefix %q: hits out of code order", n.Code)
			}
		}
	}
	t.Logf("%s: %d sampled codes are ambiguous; %d code scopes checked", snap, ambiguous, scoped)
}

func corpusComponents(t *testing.T, cs *mcp.ClientSession, nodes []srcNode, with func(map[string]any) map[string]any, snap string) {
	checked := 0
	for _, n := range nodes {
		if !n.Component || checked >= 5 {
			continue
		}
		checked++
		for _, tool := range []string{"get_learning_component", "get_learning_component_context"} {
			if out, res := call(t, cs, tool, req(with(map[string]any{"nodeId": n.ID}))); out == nil {
				t.Fatalf("%s %s: %v", tool, n.ID, res.Content[0])
			}
		}
		toks := textnorm.Tokens(n.Description)
		if len(toks) > 1 {
			q := strings.Join(toks[:2], " ")
			want := textOracle(t, nodes, q, "tokens", "all", true)
			hits := pageAll(t, cs, "search_learning_components", map[string]any{"snapshotIds": []any{snap}, "mode": "learning_component_text",
				"query": q, "match": map[string]any{"matchMode": "tokens", "operator": "all"}}, 100)
			sameRanking(t, "component "+q, hits, want)
		}
		for _, tag := range n.Tags {
			hits := pageAll(t, cs, "search_learning_components", map[string]any{"snapshotIds": []any{snap}, "mode": "learning_component_tag", "query": tag}, 100)
			found := false
			for _, h := range hits {
				found = found || hitRank(h).ID == n.ID
			}
			if !found {
				t.Errorf("tag %q does not find component %s", tag, n.ID)
			}
		}
	}
}

// corpusResources reads each resource family of the package: every read either
// succeeds or is refused with a documented code.
func corpusResources(t *testing.T, cs *mcp.ClientSession, fw, snap string, nodes []srcNode) {
	base := "kgfegmcp://framework/" + fw + "/snapshot/" + strings.NewReplacer("@", "%40", "+", "%2B").Replace(snap)
	uris := []string{"kgfegmcp://framework/" + fw, base + "/manifest", base + "/validation", base + "/unresolved",
		base + "/interpretation-profile", base + "/artifact/nodes", base + "/learning-progressions"}
	for _, n := range sampleItems(nodes, 101) {
		uris = append(uris, base+"/standard/"+n.ID, base+"/standard/"+n.ID+"/provenance", base+"/standard/"+n.ID+"/learning-components")
	}
	for _, n := range nodes {
		if n.Component {
			uris = append(uris, base+"/learning-component/"+n.ID, base+"/learning-component/"+n.ID+"/provenance")
			break
		}
	}
	served := 0
	for _, uri := range uris {
		doc, err := read(t, cs, uri)
		switch {
		case err == nil && (len(doc.Text) > 0 || len(doc.Blob) > 0):
			served++
		case err != nil && (strings.Contains(err.Error(), "resource_access_denied") || strings.Contains(err.Error(), "resource_not_found") ||
			strings.Contains(err.Error(), "ambiguous_framework")):
		default:
			t.Errorf("%s: %v", uri, err)
		}
	}
	if served == 0 {
		t.Errorf("%s: no resource could be read", snap)
	}
}
