package mcpserver_test

import (
	"github.com/kgc-project/kgc/internal/oracle"

	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/pkgtest"
)

// srcRel and sourceRels are internal/oracle's.
type srcRel = oracle.Rel

var (
	sourceRels = oracle.Rels
	idsOf      = oracle.IDs
)

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
