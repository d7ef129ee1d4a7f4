package mcpserver_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/mcpserver"
	"github.com/kgc-project/kgc/runtime/query"
)

// bigSpec is one grade of 2,400 indicators under 120 standards: the
// descendants of its grade node, at get_standard_context's maxima, are several
// MiB of node records.
func bigSpec() pkggen.Spec {
	return pkggen.Spec{
		FrameworkID: "kgc-big-fixture", VersionToken: "test", Name: "Big fixture", Subject: "Mathematics",
		Jurisdiction: "Testland", Authority: "kgc tests", GradeLabels: []string{"GRADE ONE"},
		Strands: 2, Standards: 60, Indicators: 20, Codes: true, CodePrefix: "B",
		Topics: []string{"counting objects in groups and describing how many there are"}, Verbs: []string{"Explain"},
	}
}

// envelopeBytes is what a result costs under the ceiling: text plus the
// structured copy.
func envelopeBytes(res *mcp.CallToolResult) int {
	return 2 * len(res.Content[0].(*mcp.TextContent).Text)
}

// TestContextIsCutToTheCeiling: a grade's descendants at the maxima (it was
// 8.16 MB on CBSE) are cut to the longest prefix that fits 1 MiB of envelope,
// the traversal says byte_limit, the tables hold exactly what is referenced,
// and the prefix is what a smaller maxNodes returns.
func TestContextIsCutToTheCeiling(t *testing.T) {
	imgtest.Heavy(t) // three 1 MiB answers, encoded and decoded: 5 s under -race
	t.Parallel()
	cs, srv := client(t, images(t, bigSpec()))
	fw, snap, grade := gradeNode(t, srv, "kgc-big-fixture")
	out, res := call(t, cs, "get_standard_context", req(map[string]any{"frameworkId": fw, "snapshotId": snap, "nodeId": grade,
		"includeDescendants": true, "childDepth": 64, "maxNodes": 2000, "ancestorDepth": 64, "maxPaths": 1000}))
	if out == nil {
		t.Fatalf("error: %v", res.Content[0].(*mcp.TextContent).Text)
	}
	if n := envelopeBytes(res); n > query.MaxResultBytes {
		t.Fatalf("envelope of %d bytes over the ceiling", n)
	}
	desc := out["descendants"].(map[string]any)
	nodes := desc["nodes"].([]any)
	if desc["truncationReason"] != "byte_limit" || desc["isComplete"] != false || len(nodes) < 2 || len(nodes) >= 2000 {
		t.Fatalf("descendants: reason %v, complete %v, %d nodes", desc["truncationReason"], desc["isComplete"], len(nodes))
	}
	table := map[string]bool{}
	for _, n := range out["nodes"].([]any) {
		table[n.(map[string]any)["nodeId"].(string)] = true
	}
	for _, n := range nodes {
		if id := n.(map[string]any)["nodeId"].(string); !table[id] {
			t.Fatalf("descendant %s is not in the nodes table", id)
		}
	}
	// The same walk stopped by maxNodes at that length is the same list.
	again, _ := call(t, cs, "get_standard_context", req(map[string]any{"frameworkId": fw, "snapshotId": snap, "nodeId": grade,
		"includeDescendants": true, "childDepth": 64, "maxNodes": len(nodes), "ancestorDepth": 64, "maxPaths": 1000}))
	d2 := again["descendants"].(map[string]any)
	if d2["truncationReason"] != "max_nodes" || len(d2["nodes"].([]any)) != len(nodes) {
		t.Fatalf("maxNodes=%d: %v, %d nodes", len(nodes), d2["truncationReason"], len(d2["nodes"].([]any)))
	}
	for i, n := range d2["nodes"].([]any) {
		if n.(map[string]any)["nodeId"] != nodes[i].(map[string]any)["nodeId"] {
			t.Fatalf("node %d differs from the byte-limited prefix", i)
		}
	}
	// One more node would not have fitted.
	more, res := call(t, cs, "get_standard_context", req(map[string]any{"frameworkId": fw, "snapshotId": snap, "nodeId": grade,
		"includeDescendants": true, "childDepth": 64, "maxNodes": len(nodes) + 1, "ancestorDepth": 64, "maxPaths": 1000}))
	if more["descendants"].(map[string]any)["truncationReason"] != "byte_limit" {
		t.Errorf("maxNodes=%d fits (%d bytes): the cut was not the longest prefix", len(nodes)+1, envelopeBytes(res))
	}
}

// gradeNode returns the package of a framework and the node ID of the first
// item under its root.
func gradeNode(t *testing.T, srv *mcpserver.Server, fw string) (string, string, string) {
	t.Helper()
	for _, p := range srv.Catalog().Packages {
		if p.FrameworkID() == fw {
			img := p.Img
			nb, _ := img.Adjacency(kgimg.HasChild, kgimg.Out).Row(img.RootNode())
			return fw, p.SnapshotID(), img.NodeString(nb.At(0), kgimg.NodeID)
		}
	}
	t.Fatalf("no package %s", fw)
	return "", "", ""
}

// TestSearchPagesAreCutToTheCeiling: 100 hits of long statements are over
// 1 MiB of envelope. The page stops before the hit that would break it, says
// byte_limit, and its cursor starts the next page with that hit: following
// the cut pages returns exactly the hits, in the order, of small pages.
func TestSearchPagesAreCutToTheCeiling(t *testing.T) {
	t.Parallel()
	imgtest.Heavy(t)
	spec := bigSpec()
	spec.FrameworkID, spec.Indicators = "kgc-long-fixture", 2
	spec.Topics = []string{strings.Repeat("counting objects in groups and describing how many there are ", 60)}
	cs, _ := client(t, images(t, spec))
	search := func(limit int, cursor any) (map[string]any, int) {
		r := map[string]any{"frameworkIds": []any{spec.FrameworkID}, "mode": "text", "query": "counting objects",
			"match": map[string]any{"matchMode": "tokens", "operator": "all"}, "limit": limit}
		if cursor != nil {
			r["cursor"] = cursor
		}
		out, res := call(t, cs, "search_standards", req(r))
		if out == nil {
			t.Fatalf("search: %v", res.Content[0].(*mcp.TextContent).Text)
		}
		return out["page"].(map[string]any), envelopeBytes(res)
	}
	collect := func(limit int) (ids []string, cut int) {
		var cursor any
		for {
			page, size := search(limit, cursor)
			if size > query.MaxResultBytes {
				t.Fatalf("page of %d bytes", size)
			}
			for _, h := range page["hits"].([]any) {
				ids = append(ids, h.(map[string]any)["node"].(map[string]any)["nodeId"].(string))
			}
			if page["truncationReason"] == "byte_limit" {
				cut++
			}
			if page["hasMore"] != true {
				return ids, cut
			}
			cursor = page["nextCursor"]
		}
	}
	big, cut := collect(100)
	small, smallCut := collect(5)
	if cut == 0 || smallCut != 0 {
		t.Fatalf("%d cut pages at limit 100, %d at limit 5", cut, smallCut)
	}
	if strings.Join(big, ",") != strings.Join(small, ",") || len(big) < 200 {
		t.Fatalf("cut pages returned %d hits, small pages %d, or a different order", len(big), len(small))
	}
}

// wideSpec is one standard with n children.
func wideSpec(n int) pkggen.Spec {
	s := bigSpec()
	s.FrameworkID, s.Strands, s.Standards, s.Indicators, s.Compact = "kgc-wide-fixture", 1, 1, n, true
	return s
}

// TestWideParentsAnswerABoundedPage: get_standard_context on a standard with
// 20,000 children built every child's record, several times over, to answer
// result_too_large (260 MB a call; 100,000 children: 1.24 GB, and two calls
// at once ended the process). maxNodes bounds the children as it bounds the
// walks, before anything is built: the answer is the first page with the
// count and the next offset, childOffset reads on, and a call allocates a
// small fraction of what it did.
func TestWideParentsAnswerABoundedPage(t *testing.T) {
	imgtest.Heavy(t) // builds a 20,000-item package
	// Not parallel: the allocation measured is the process's.
	const n = 20000
	cs, srv := client(t, images(t, wideSpec(n)))
	var fw, snap, std string
	for _, p := range srv.Catalog().Packages {
		if p.FrameworkID() == "kgc-wide-fixture" {
			img := p.Img
			for o := 0; o < img.NodeCount(); o++ {
				if nb, _ := img.Adjacency(kgimg.HasChild, kgimg.Out).Row(uint32(o)); nb.Len() == n {
					fw, snap, std = p.FrameworkID(), p.SnapshotID(), img.NodeString(uint32(o), kgimg.NodeID)
				}
			}
		}
	}
	if std == "" {
		t.Fatal("no standard with 20,000 children")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, res := call(t, cs, "get_standard_context", req(map[string]any{"frameworkId": fw, "snapshotId": snap, "nodeId": std}))
	runtime.ReadMemStats(&after)
	t.Logf("one call allocated %.1f MB", float64(after.TotalAlloc-before.TotalAlloc)/(1<<20))
	if out == nil {
		t.Fatalf("error: %v", res.Content[0].(*mcp.TextContent).Text)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("one call allocated %d MB", alloc>>20)
	}
	kids := out["directChildren"].(map[string]any)
	if len(kids["neighbors"].([]any)) != 250 || kids["totalCount"] != float64(n) || kids["isComplete"] != false || kids["truncationReason"] != "max_nodes" {
		t.Fatalf("children: %d listed, %v", len(kids["neighbors"].([]any)), kids)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	for _, want := range []string{"Children (1–250 of 20000", "19750 more (cut: max_nodes); next: childOffset 250"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	// The last page, and maxNodes 10.
	out, _ = call(t, cs, "get_standard_context", req(map[string]any{"frameworkId": fw, "snapshotId": snap, "nodeId": std, "childOffset": n - 5, "maxNodes": 10}))
	kids = out["directChildren"].(map[string]any)
	if len(kids["neighbors"].([]any)) != 5 || kids["offset"] != float64(n-5) || kids["truncationReason"] != nil {
		t.Fatalf("last page: %v", kids)
	}
	// At maxNodes 2000 the children are cut at the ceiling, to the longest
	// prefix that fits.
	out, res = call(t, cs, "get_standard_context", req(map[string]any{"frameworkId": fw, "snapshotId": snap, "nodeId": std, "maxNodes": 2000}))
	kids = out["directChildren"].(map[string]any)
	if kids["truncationReason"] != "byte_limit" || envelopeBytes(res) > query.MaxResultBytes {
		t.Fatalf("maxNodes 2000: %v, %d bytes", kids["truncationReason"], envelopeBytes(res))
	}
}
