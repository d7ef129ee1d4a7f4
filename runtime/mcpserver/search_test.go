package mcpserver_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// srcNode is a node as the package's delivery file states it: the oracle the
// search results are checked against.
type srcNode struct {
	id, description, code, statementType, normType string
	grades, tags                                   []string
	order                                          int
	// pos is the curriculum position (placed); -1 until read. repeated:
	// another item has the same description (the image's flag).
	pos             int
	repeated        bool
	item, component bool
}

// placed sets each node's curriculum position, read from the served image of
// the package (a snapshot ID, or a framework with one package): the column
// kgc build writes, checked on its own by kgimg/kgimgwrite's
// TestCurriculumPositions. The oracles break score ties with it, as the
// server's deterministic_search_ranking_v2 does.
func placed(t *testing.T, srv *mcpserver.Server, snapOrFramework string, nodes []srcNode) []srcNode {
	t.Helper()
	for _, p := range srv.Catalog().Packages {
		if p.SnapshotID() != snapOrFramework && p.FrameworkID() != snapOrFramework {
			continue
		}
		for i := range nodes {
			n, ok := p.Img.NodeByID(nodes[i].id)
			if !ok {
				t.Fatalf("%s: node %s is not in the image", snapOrFramework, nodes[i].id)
			}
			nodes[i].pos = int(p.Img.CurriculumPosition(n))
			nodes[i].repeated = p.Img.DescriptionRepeated(n)
		}
		return nodes
	}
	t.Fatalf("no package %s served", snapOrFramework)
	return nil
}

// tieLess orders two equally ranked nodes: a statement before its repeats,
// then curriculum position, then ID.
func tieLess(t *testing.T, a, b srcNode) bool {
	if a.pos < 0 || b.pos < 0 {
		t.Fatal("oracle ranking without curriculum positions: call placed")
	}
	if a.repeated != b.repeated { // the statement before its repeats
		return !a.repeated
	}
	if a.pos != b.pos {
		return a.pos < b.pos
	}
	return a.id < b.id
}

// deliveryLines returns the lines of the package's one delivery file whose
// name matches pattern (e.g. "*nodes*.jsonl").
func deliveryLines(t *testing.T, dir, pattern string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "delivery", pattern))
	if len(files) != 1 {
		t.Fatalf("%s: %s files %v", dir, pattern, files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

func sourceNodes(t *testing.T, dir string) []srcNode {
	t.Helper()
	var out []srcNode
	for i, line := range deliveryLines(t, dir, "*nodes*.jsonl") {
		var rec struct {
			Labels     []string          `json:"labels"`
			Properties map[string]string `json:"properties"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		p := rec.Properties
		n := srcNode{id: p["identifier"], description: p["description"], code: p["statementCode"], statementType: p["statementType"],
			normType: p["normalizedStatementType"], order: i, pos: -1, item: rec.Labels[0] == "StandardsFrameworkItem", component: rec.Labels[0] == "LearningComponent"}
		_ = json.Unmarshal([]byte(p["gradeLevel"]), &n.grades)
		_ = json.Unmarshal([]byte(p["tags"]), &n.tags)
		out = append(out, n)
	}
	return out
}

type ranked struct {
	id    string
	score int
	lead  string
	node  srcNode
}

// String leaves the node out of the comparison sameRanking makes.
func (r ranked) String() string { return fmt.Sprintf("{%s %d %s}", r.id, r.score, r.lead) }

// textOracle ranks the items of one package for a text query by brute force.
func textOracle(t *testing.T, nodes []srcNode, query, mode, operator string, components bool) []ranked {
	q := textnorm.Tokens(query)
	var terms []string
	for _, t := range q {
		if !containsStr(terms, t) {
			terms = append(terms, t)
		}
	}
	var out []ranked
	for _, n := range nodes {
		if n.description == "" || components != n.component || !components && (!n.item || n.normType == "Standard Grouping") {
			continue
		}
		toks := textnorm.Tokens(n.description)
		matched := 0
		for _, t := range terms {
			if containsStr(toks, t) {
				matched++
			}
		}
		ok := matched > 0 && (operator == "any" || matched == len(terms))
		if mode == "exact_phrase" {
			ok = strings.Contains(" "+strings.Join(toks, " ")+" ", " "+strings.Join(q, " ")+" ")
			matched = len(terms)
		}
		if ok {
			out = append(out, ranked{id: n.id, score: 1000000 * matched / len(terms), node: n})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return tieLess(t, out[i].node, out[j].node)
	})
	return out
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// mathCode is the sample profile's code normalization: case folded, no spaces.
func mathCode(s string) string { return strings.ToLower(strings.ReplaceAll(s, " ", "")) }

// codeOracle ranks the maths items for a code query: exact, or equal to the
// prefix or continuing it after the "." delimiter.
func codeOracle(t *testing.T, nodes []srcNode, query string, prefix bool) []ranked {
	q := mathCode(query)
	for prefix && strings.HasSuffix(q, ".") {
		q = strings.TrimSuffix(q, ".")
	}
	var out []ranked
	for _, n := range nodes {
		c := mathCode(n.code)
		if !n.item || n.code == "" || n.normType == "Standard Grouping" {
			continue
		}
		if c == q {
			out = append(out, ranked{id: n.id, score: 1000000, lead: c, node: n})
		} else if prefix && strings.HasPrefix(c, q+".") {
			out = append(out, ranked{id: n.id, score: 500000, lead: c, node: n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].lead != out[j].lead {
			return out[i].lead < out[j].lead
		}
		return tieLess(t, out[i].node, out[j].node)
	})
	return out
}

// continuation returns the nextRequest of a result's continuation block, or nil.
func continuation(t *testing.T, res *mcp.CallToolResult, tool string) map[string]any {
	t.Helper()
	if len(res.Content) < 2 {
		return nil
	}
	text := res.Content[1].(*mcp.TextContent).Text
	head, body, ok := strings.Cut(text, "\n")
	if !ok || head != "MCP continuation data. Cursor values are opaque; pass them back unchanged:" {
		t.Fatalf("continuation block %q", text)
	}
	var c struct {
		Tool string         `json:"continuationTool"`
		Next map[string]any `json:"nextRequest"`
	}
	if err := json.Unmarshal([]byte(body), &c); err != nil || c.Tool != tool {
		t.Fatalf("continuation %q: %v", body, err)
	}
	return c.Next
}

// pageAll follows a search's continuation blocks to the end and returns every
// hit, checking page sizes, hasMore and nextCursor on the way.
func pageAll(t *testing.T, cs *mcp.ClientSession, tool string, request map[string]any, limit int) []map[string]any {
	t.Helper()
	request["limit"] = limit
	var hits []map[string]any
	for range 1000 {
		out, res := call(t, cs, tool, req(request))
		if out == nil {
			t.Fatalf("%s(%v): %s", tool, request, res.Content[0].(*mcp.TextContent).Text)
		}
		page := out["page"].(map[string]any)
		got := page["hits"].([]any)
		if int(page["returnedCount"].(float64)) != len(got) || len(got) > limit {
			t.Fatalf("returnedCount %v for %d hits (limit %d)", page["returnedCount"], len(got), limit)
		}
		for _, h := range got {
			hits = append(hits, h.(map[string]any))
		}
		next := continuation(t, res, tool)
		if page["hasMore"] != (next != nil) || (page["nextCursor"] != nil) != (next != nil) {
			t.Fatalf("hasMore %v, nextCursor %v, continuation %v", page["hasMore"], page["nextCursor"], next)
		}
		if next == nil {
			return hits
		}
		if next["cursor"] != page["nextCursor"] {
			t.Fatal("nextRequest does not carry nextCursor")
		}
		request = next
	}
	t.Fatal("paging did not end")
	return nil
}

func hitRank(h map[string]any) ranked {
	node := h["node"].(map[string]any)
	r := ranked{id: node["nodeId"].(string), score: int(h["score"].(map[string]any)["value"].(float64))}
	if cm, ok := h["codeMatch"].(map[string]any); ok {
		r.lead = cm["normalizedCode"].(string)
	}
	return r
}

func sameRanking(t *testing.T, what string, hits []map[string]any, want []ranked) {
	t.Helper()
	got := make([]ranked, len(hits))
	for i, h := range hits {
		got[i] = hitRank(h)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s:\n got %v\nwant %v", what, got, want)
	}
}

func samplePackageDir(t *testing.T, framework string) string {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "packages", framework, "*"))
	if len(dirs) != 1 {
		t.Fatalf("shipped package %s: %v", framework, dirs)
	}
	return dirs[0]
}

// merged returns a new map with a's entries, then b's.
func merged(a, b map[string]any) map[string]any {
	r := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		r[k] = v
	}
	for k, v := range b {
		r[k] = v
	}
	return r
}
