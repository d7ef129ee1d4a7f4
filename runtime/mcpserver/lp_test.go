package mcpserver_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
)

// srcRel is a relationship as the package's delivery file states it.
type srcRel struct{ id, label, source, target string }

func sourceRels(t *testing.T, dir string) []srcRel {
	t.Helper()
	var out []srcRel
	for _, line := range deliveryLines(t, dir, "*relationships*.jsonl") {
		var rec struct {
			ID     string `json:"identifier"`
			Label  string `json:"label"`
			Source string `json:"source_identifier"`
			Target string `json:"target_identifier"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		out = append(out, srcRel{rec.ID, rec.Label, rec.Source, rec.Target})
	}
	return out
}

// lpCall calls a progression tool, checks the ceilings and the one text block,
// and returns the structured result (nil and the error text on a tool error).
func lpCall(t *testing.T, cs *mcp.ClientSession, tool string, r map[string]any) (map[string]any, string) {
	t.Helper()
	out, res := call(t, cs, tool, req(r))
	text := res.Content[0].(*mcp.TextContent).Text
	if out == nil {
		return nil, text
	}
	if len(res.Content) != 1 {
		t.Errorf("%s: %d content blocks", tool, len(res.Content))
	}
	if 2*len(text) > 1<<20 || 2*utf8.RuneCountInString(text) > 100000 {
		t.Errorf("%s: result of %d bytes breaks the ceiling", tool, len(text))
	}
	return out, text
}

// collect pages a progression collection to the end by replaying nextRequest,
// returning the relationship IDs in order.
func collect(t *testing.T, cs *mcp.ClientSession, tool string, r map[string]any) []string {
	t.Helper()
	var ids []string
	for range 10000 {
		out, txt := lpCall(t, cs, tool, r)
		if out == nil {
			t.Fatalf("%s(%v): %s", tool, r, txt)
		}
		page := out["page"].(map[string]any)
		conns := out["connections"].([]any)
		if int(page["returnedCount"].(float64)) != len(conns) {
			t.Fatalf("returnedCount %v for %d connections", page["returnedCount"], len(conns))
		}
		for _, c := range conns {
			ids = append(ids, c.(map[string]any)["relationshipId"].(string))
		}
		rels := out["relationships"].([]any)
		if len(rels) != len(conns) {
			t.Errorf("%d relationship rows for %d connections", len(rels), len(conns))
		}
		if page["hasMore"] != true {
			if page["nextRequest"] != nil || page["isComplete"] != true {
				t.Fatalf("last page %v", page)
			}
			return ids
		}
		next := page["nextRequest"].(map[string]any)
		if next["cursor"] != page["nextCursor"] {
			t.Fatal("nextRequest does not carry nextCursor")
		}
		r = next
	}
	t.Fatal("paging did not end")
	return nil
}

func idsOf(rels []srcRel, keep func(srcRel) bool) []string {
	var out []string
	for _, r := range rels {
		if keep(r) {
			out = append(out, r.id)
		}
	}
	sort.Strings(out)
	return out
}

func TestProgressionCollectionsReturnEveryEdgeOnce(t *testing.T) {
	t.Parallel()
	imgtest.Heavy(t)
	cs, _ := client(t, images(t))
	rels := sourceRels(t, samplePackageDir(t, maths))
	for _, label := range []string{"buildsTowards", "relatesTo"} {
		want := idsOf(rels, func(r srcRel) bool { return r.label == label })
		if len(want) == 0 {
			t.Fatalf("no %s edges in the sample", label)
		}
		for _, limit := range []int{1, 7, 25, 100} {
			got := collect(t, cs, "search_learning_progressions", map[string]any{"frameworkId": maths, "relationshipTypes": []any{label}, "limit": limit})
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s, limit %d: %d edges, want %d in ID order", label, limit, len(got), len(want))
			}
		}
	}
	// Both types: buildsTowards first, each in ID order; a page of 100 stops at
	// the size ceiling and carries the rest.
	both := append(idsOf(rels, func(r srcRel) bool { return r.label == "buildsTowards" }), idsOf(rels, func(r srcRel) bool { return r.label == "relatesTo" })...)
	out, _ := lpCall(t, cs, "search_learning_progressions", map[string]any{"frameworkId": maths, "limit": 100})
	page := out["page"].(map[string]any)
	if page["stoppingReason"] != "byte_limit" || page["hasMore"] != true || page["totalMatchingCount"] != nil {
		t.Errorf("a 100-edge page of the sample should stop at the ceiling: %v", page)
	}
	if got := collect(t, cs, "search_learning_progressions", map[string]any{"frameworkId": maths, "limit": 100}); fmt.Sprint(got) != fmt.Sprint(both) {
		t.Errorf("both types: %d edges, want %d", len(got), len(both))
	}
	// Per standard: each kind of connection, against the source.
	spec := pkggen.Shipped()[1]
	for _, std := range []string{pkggen.NodeID(spec, 0, 0, 0, 0), pkggen.NodeID(spec, 1, 0, 0, 1), pkggen.NodeID(spec, 2, 1, 1, 2)} {
		standardConnections(t, cs, rels, std)
	}
}

func standardConnections(t *testing.T, cs *mcp.ClientSession, rels []srcRel, std string) {
	t.Helper()
	all := 0
	for kind, keep := range map[string]func(srcRel) bool{
		"incoming_builds": func(r srcRel) bool { return r.label == "buildsTowards" && r.target == std },
		"outgoing_builds": func(r srcRel) bool { return r.label == "buildsTowards" && r.source == std },
		"related":         func(r srcRel) bool { return r.label == "relatesTo" && (r.source == std || r.target == std) },
	} {
		want := idsOf(rels, keep)
		got := collect(t, cs, "get_standard_progressions", map[string]any{"frameworkId": maths, "connectionKind": kind, "limit": 1,
			"identifier": map[string]any{"identifierType": "node_id", "nodeId": std}})
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s of %s: %v, want %v", kind, std, got, want)
		}
		all += len(want)
	}
	got := collect(t, cs, "get_standard_progressions", map[string]any{"frameworkId": maths, "limit": 2,
		"identifier": map[string]any{"identifierType": "node_id", "nodeId": std}})
	if len(got) != all || all == 0 {
		t.Errorf("all connections of %s: %d, want %d", std, len(got), all)
	}
}

// TestProgressionSearchFiltersAgreeWithBruteForce checks every endpoint scope
// under facet and standard filters against the source files.
func TestProgressionSearchFiltersAgreeWithBruteForce(t *testing.T) {
	t.Parallel()
	imgtest.Heavy(t)
	cs, _ := client(t, images(t))
	dir := samplePackageDir(t, maths)
	rels, nodes := sourceRels(t, dir), sourceNodes(t, dir)
	byID := map[string]srcNode{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	spec := pkggen.Shipped()[1]
	selected := pkggen.NodeID(spec, 1, 0, 1, 1)
	for name, c := range map[string]struct {
		filters map[string]any
		match   func(srcNode) bool
	}{
		"grade 2 (alias)": {map[string]any{"localGradeLabels": []any{"year 2"}}, func(n srcNode) bool { return containsStr(n.Grades, "2") }},
		"grades 1 or 3, indicators": {map[string]any{"normalizedGrades": []any{"1", "3"}, "statementTypes": []any{"INDICATOR"}},
			func(n srcNode) bool {
				return (containsStr(n.Grades, "1") || containsStr(n.Grades, "3")) && n.StatementType == "Indicator"
			}},
		"a selected standard": {map[string]any{"standardIdentifiers": []any{map[string]any{"identifierType": "node_id", "nodeId": selected}}},
			func(n srcNode) bool { return n.ID == selected }},
		"selected by code, grade 2": {map[string]any{"standardIdentifiers": []any{map[string]any{"identifierType": "statement_code", "statementCode": byID[selected].Code}},
			"localGradeLabels": []any{"GRADE TWO"}}, func(n srcNode) bool { return n.ID == selected }},
		"no standard is a grouping": {map[string]any{"normalizedStatementTypes": []any{"Standard Grouping"}}, func(srcNode) bool { return false }},
	} {
		for _, scope := range []string{"either", "both", "source", "target"} {
			want := idsOf(rels, func(r srcRel) bool {
				if r.label != "buildsTowards" && r.label != "relatesTo" {
					return false
				}
				s, g := c.match(byID[r.source]), c.match(byID[r.target])
				return map[string]bool{"either": s || g, "both": s && g, "source": s, "target": g}[scope]
			})
			var got []string
			for _, label := range []string{"buildsTowards", "relatesTo"} {
				r := merged(c.filters, map[string]any{"frameworkId": maths, "endpointScope": scope, "relationshipTypes": []any{label}, "limit": 10})
				got = append(got, collect(t, cs, "search_learning_progressions", r)...)
			}
			sort.Strings(got)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s, scope %s: %d edges, want %d", name, scope, len(got), len(want))
			}
		}
	}
	for name, r := range map[string]map[string]any{
		"unknown grade label":    {"localGradeLabels": []any{"Year 9"}},
		"unknown grade":          {"normalizedGrades": []any{"12"}},
		"repeated after folding": {"statementTypes": []any{"Indicator", " indicator"}},
		"unknown statement type": {"statementTypes": []any{"Lesson"}},
		"normalized type":        {"normalizedStatementTypes": []any{"Standards"}},
		"repeated standard": {"standardIdentifiers": []any{map[string]any{"identifierType": "node_id", "nodeId": selected},
			map[string]any{"identifierType": "statement_code", "statementCode": byID[selected].Code}}},
	} {
		if _, txt := lpCall(t, cs, "search_learning_progressions", merged(r, map[string]any{"frameworkId": maths})); !strings.HasPrefix(txt, "invalid_progression_request: ") {
			t.Errorf("%s: %q", name, txt)
		}
	}
	if _, txt := lpCall(t, cs, "search_learning_progressions", map[string]any{"frameworkId": maths,
		"relationshipTypes": []any{"relatesTo", "relatesTo"}}); !strings.HasPrefix(txt, "Input validation error: ") {
		t.Errorf("repeated relationship type: %q", txt)
	}
	if _, txt := lpCall(t, cs, "search_learning_progressions", map[string]any{"frameworkId": maths,
		"standardIdentifiers": []any{map[string]any{"identifierType": "node_id", "nodeId": "no-such-node"}}}); !strings.HasPrefix(txt, "standard_not_found: ") {
		t.Errorf("missing standard: %q", txt)
	}
}

func TestProgressionCursorsAreBound(t *testing.T) {
	cs, _ := client(t, images(t))
	first := map[string]any{"frameworkId": maths, "relationshipTypes": []any{"relatesTo"}, "limit": 3}
	out, _ := lpCall(t, cs, "search_learning_progressions", first)
	next := out["page"].(map[string]any)["nextRequest"].(map[string]any)
	cursor := next["cursor"].(string)
	raw, _ := base64.RawURLEncoding.DecodeString(cursor)
	forged := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(raw), `"offset":3`, `"offset":4`, 1)))
	for name, edit := range map[string]func(map[string]any){
		"limit":          func(r map[string]any) { r["limit"] = 4 },
		"type":           func(r map[string]any) { r["relationshipTypes"] = []any{"buildsTowards"} },
		"scope":          func(r map[string]any) { r["endpointScope"] = "both" },
		"filter":         func(r map[string]any) { r["normalizedGrades"] = []any{"1"} },
		"forged offset":  func(r map[string]any) { r["cursor"] = forged },
		"truncated":      func(r map[string]any) { r["cursor"] = cursor[:len(cursor)-4] },
		"other package":  func(r map[string]any) { r["frameworkId"] = english; delete(r, "snapshotId") },
		"tool of search": func(r map[string]any) {},
	} {
		r := merged(next, nil)
		edit(r)
		tool := "search_learning_progressions"
		if name == "tool of search" {
			tool = "get_standard_progressions"
			r = map[string]any{"frameworkId": maths, "cursor": cursor, "identifier": map[string]any{"identifierType": "node_id", "nodeId": mathIndicator(t, cs)}}
		}
		_, txt := lpCall(t, cs, tool, r)
		want := "invalid_cursor: "
		if name == "other package" {
			want = "capability_unavailable: "
		}
		if !strings.HasPrefix(txt, want) {
			t.Errorf("%s: %q", name, txt)
		}
	}
	if out, txt := lpCall(t, cs, "search_learning_progressions", next); out == nil {
		t.Fatalf("the untouched nextRequest: %s", txt)
	}
}

// TestRelationshipProvenanceIsTheStoredRecord reads the provenance resource of
// every progression edge linked from a page and compares it with the record in
// the source shard.
func TestRelationshipProvenanceIsTheStoredRecord(t *testing.T) {
	cs, _ := client(t, images(t))
	f := pkgtest.Sample(t, maths)
	records := map[string]any{}
	for k := 0; k < 64; k++ {
		var shard map[string]any
		if err := json.Unmarshal(f.Read(t, fmt.Sprintf("additional/lp_relationship_provenance_shard_%02d.json", k)), &shard); err != nil {
			t.Fatal(err)
		}
		for id, rec := range shard {
			records[id] = rec
		}
	}
	out, _ := lpCall(t, cs, "search_learning_progressions", map[string]any{"frameworkId": maths, "limit": 10})
	rows := out["relationships"].([]any)
	if len(rows) == 0 {
		t.Fatal("no edges")
	}
	for _, row := range rows {
		row := row.(map[string]any)
		id := row["relationship"].(map[string]any)["relationshipId"].(string)
		doc, err := read(t, cs, row["provenanceUri"].(string))
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		var got struct {
			RelationshipID string `json:"relationshipId"`
			Partition      int    `json:"partition"`
			Provenance     any    `json:"provenance"`
		}
		if err := json.Unmarshal([]byte(doc.Text), &got); err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(got.Provenance)
		b, _ := json.Marshal(records[id])
		if got.RelationshipID != id || string(a) != string(b) {
			t.Errorf("%s: the served record differs from the shard's", id)
		}
		sum := sha256.Sum256([]byte(id))
		if got.Partition != int(sum[0])%64 {
			t.Errorf("%s: partition %d", id, got.Partition)
		}
		j := row["judgment"].(map[string]any)
		if j["relationshipId"] != id || j["confidence"] == nil || j["warningCount"].(float64) != float64(len(records[id].(map[string]any)["claim"].(map[string]any)["judgment"].(map[string]any)["warnings"].([]any))) {
			t.Errorf("%s: judgment %v", id, j)
		}
	}
}
