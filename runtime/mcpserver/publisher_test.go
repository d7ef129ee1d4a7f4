package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/pkggen"
)

// alignedSpecs are two frameworks: the first's publisher says each of its
// standards is an exactMatchOf the second's standard at the same position
// (an end outside its package, by CASE identifier and URI), and that each
// indicator precedes the next.
func alignedSpecs() (a, b pkggen.Spec) {
	b = bigSpec()
	b.FrameworkID, b.Name, b.Strands, b.Standards, b.Indicators = "kgc-aligned-target", "Aligned target", 1, 2, 2
	a = bigSpec()
	a.FrameworkID, a.Name, a.Strands, a.Standards, a.Indicators = "kgc-aligned-source", "Aligned source", 1, 2, 3
	a.Publisher, a.AlignTo = true, &b
	return a, b
}

// TestPublisherRelationsAcrossTheCatalog: the publisher's exactMatchOf to
// another framework resolves to that framework's served standard, shown with
// its code, statement and URI; the other framework's standard shows the
// relation as incoming, asserted by the first; precedes gives the sequence
// around an indicator; get_standard lists them, labelled the publisher's.
func TestPublisherRelationsAcrossTheCatalog(t *testing.T) {
	t.Parallel()
	a, b := alignedSpecs()
	cs, _ := client(t, images(t, a, b))
	find := func(fw, code string) string {
		out, res := call(t, cs, "search_standards", req(map[string]any{"frameworkIds": []any{fw}, "mode": "code_exact", "query": code}))
		if out == nil {
			t.Fatalf("search %s: %v", code, res.Content[0].(*mcp.TextContent).Text)
		}
		return out["page"].(map[string]any)["hits"].([]any)[0].(map[string]any)["node"].(map[string]any)["nodeId"].(string)
	}
	stdA, stdB := find(a.FrameworkID, "B1.1.1"), find(b.FrameworkID, "B1.1.1")
	sel := func(id string) map[string]any { return map[string]any{"identifierType": "node_id", "nodeId": id} }

	out, res := call(t, cs, "get_publisher_relations", req(map[string]any{"frameworkId": a.FrameworkID, "identifier": sel(stdA)}))
	if out == nil {
		t.Fatalf("error: %v", res.Content[0].(*mcp.TextContent).Text)
	}
	rels := out["relations"].([]any)
	if len(rels) != 1 {
		t.Fatalf("relations of the source standard: %v", rels)
	}
	r := rels[0].(map[string]any)
	other := r["other"].(map[string]any)
	matches := other["matches"].([]any)
	if r["associationType"] != "exactMatchOf" || r["direction"] != "outgoing" || r["assertedBy"] != "publisher" || len(matches) != 1 ||
		matches[0].(map[string]any)["nodeId"] != stdB || matches[0].(map[string]any)["frameworkId"] != b.FrameworkID {
		t.Fatalf("relation: %v", r)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	for _, want := range []string{"Publisher-asserted", "is an exact match of (exactMatchOf):", "outside this framework: ", "served as:",
		"= B1.1.1 | " + stdB, "kgfegmcp://framework/" + b.FrameworkID + "/"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}

	// From the target's side: incoming, asserted by the source's snapshot.
	out, res = call(t, cs, "get_publisher_relations", req(map[string]any{"frameworkId": b.FrameworkID, "identifier": sel(stdB)}))
	rels = out["relations"].([]any)
	if len(rels) != 1 {
		t.Fatalf("relations of the target standard: %v", rels)
	}
	r = rels[0].(map[string]any)
	if r["direction"] != "incoming" || !strings.HasPrefix(r["assertedIn"].(string), a.FrameworkID+"@") ||
		r["other"].(map[string]any)["standard"].(map[string]any)["nodeId"] != stdA {
		t.Fatalf("incoming relation: %v", r)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "is matched exactly by (exactMatchOf):") || !strings.Contains(text, "(asserted by "+a.FrameworkID+"@") {
		t.Errorf("incoming text:\n%s", text)
	}

	// The publisher's sequence around the middle indicator.
	mid := find(a.FrameworkID, "B1.1.1.2")
	out, res = call(t, cs, "get_publisher_relations", req(map[string]any{"frameworkId": a.FrameworkID, "identifier": sel(mid),
		"associationTypes": []any{"precedes"}, "sequenceDepth": 3}))
	seq := out["sequence"].(map[string]any)
	before, after := seq["before"].([]any), seq["after"].([]any)
	if len(before) != 1 || len(after) != 1 || seq["complete"] != true ||
		before[0].(map[string]any)["standard"].(map[string]any)["statementCode"] != "B1.1.1.1" ||
		after[0].(map[string]any)["standard"].(map[string]any)["statementCode"] != "B1.1.1.3" {
		t.Fatalf("sequence: %v", seq)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "comes after (precedes):") || !strings.Contains(text, "comes before (precedes):") ||
		!strings.Contains(text, "The publisher's sequence (precedes), 3 steps each way, complete:") {
		t.Errorf("sequence text:\n%s", text)
	}

	// compare_framework_evidence lists the alignments between the compared
	// frameworks before the matches, apart from them.
	out, res = call(t, cs, "compare_framework_evidence", req(map[string]any{"frameworkIds": []any{a.FrameworkID, b.FrameworkID},
		"mode": "code_exact", "query": "B1.1.1"}))
	if out == nil {
		t.Fatalf("compare: %v", res.Content[0].(*mcp.TextContent).Text)
	}
	al := out["publisherAlignments"].(map[string]any)
	list := al["alignments"].([]any)
	if al["totalCount"] != 1.0 || len(list) != 1 {
		t.Fatalf("alignments: %v", al)
	}
	x := list[0].(map[string]any)
	if x["associationType"] != "exactMatchOf" || x["assertedBy"] != "publisher" || x["origin"].(map[string]any)["nodeId"] != stdA ||
		x["destination"].(map[string]any)["nodeId"] != stdB || !strings.HasPrefix(x["assertedIn"].(string), a.FrameworkID+"@") {
		t.Errorf("alignment: %v", x)
	}
	text = res.Content[0].(*mcp.TextContent).Text
	head := strings.Index(text, "Publisher alignments between these frameworks (1 alignment)")
	line := strings.Index(text, "1. A B1.1.1 | "+stdA+" is an exact match of (exactMatchOf) B B1.1.1 | "+stdB+"; asserted by A")
	first := strings.Index(text, "\nA. ")
	if head < 0 || line < head || first < line {
		t.Errorf("compare text (the alignments come first, apart from the matches):\n%s", text)
	}
	// Matches in both whose publisher relations stay inside one framework
	// (the indicators' precedes): no alignments.
	out, _ = call(t, cs, "compare_framework_evidence", req(map[string]any{"frameworkIds": []any{a.FrameworkID, b.FrameworkID},
		"mode": "code_exact", "query": "B1.1.1.1"}))
	if n := len(out["sections"].([]any)[0].(map[string]any)["matches"].([]any)); n != 1 || out["publisherAlignments"] != nil {
		t.Errorf("%d matches; alignments for matches without any across frameworks: %v", n, out["publisherAlignments"])
	}

	// get_standard shows them, labelled.
	out, res = call(t, cs, "get_standard", req(map[string]any{"frameworkId": a.FrameworkID, "identifier": sel(stdA)}))
	pr := out["publisherRelations"].(map[string]any)
	if pr["totalCount"] != 1.0 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "Publisher relations (1) — asserted by the publisher") {
		t.Errorf("get_standard: %v\n%s", pr, res.Content[0].(*mcp.TextContent).Text)
	}
}

// TestHitsSayWhyTheyHangFromTheRoot: items the source left without a
// resolved parent are marked as such in the hit's location (structured and
// text); the others name their parent's ID to open.
func TestHitsSayWhyTheyHangFromTheRoot(t *testing.T) {
	t.Parallel()
	s := bigSpec()
	s.FrameworkID, s.Standards, s.Indicators, s.Unresolved = "kgc-unresolved-fixture", 2, 3, 2
	cs, _ := client(t, images(t, s))
	out, res := call(t, cs, "search_standards", req(map[string]any{"frameworkIds": []any{s.FrameworkID}, "mode": "code_prefix", "query": "B1", "limit": 100}))
	if out == nil {
		t.Fatal(res.Content[0].(*mcp.TextContent).Text)
	}
	fallbacks, withParent := 0, 0
	for _, h := range out["page"].(map[string]any)["hits"].([]any) {
		loc := h.(map[string]any) // the location's fields are the hit's
		if loc["rootFallback"] == true {
			fallbacks++
			if len(loc["parents"].([]any)) != 0 {
				t.Errorf("a root fallback lists parents: %v", loc)
			}
		} else if ps := loc["parents"].([]any); len(ps) == 1 && ps[0].(map[string]any)["nodeId"] != "" {
			withParent++
		}
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if fallbacks != 2 || withParent == 0 || !strings.Contains(text, "could not be resolved (attached to the framework root as a fallback)") ||
		!strings.Contains(text, " (parent ") {
		t.Errorf("%d root fallbacks, %d with a parent:\n%s", fallbacks, withParent, text)
	}
}
