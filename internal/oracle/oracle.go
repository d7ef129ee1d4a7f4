// Package oracle ranks a package's records by brute force, from its
// delivery files alone, for the tests that check the search tools against
// it: text queries (tokens any/all, exact phrase) and code queries (exact,
// prefix) with the server's tie rule. It is a test kit: nothing that ships
// imports it.
package oracle

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// Node is a node as the package's delivery file states it: what the
// oracles rank.
type Node struct {
	ID, Description, Code, StatementType, NormType string
	Grades, Tags                                   []string
	Order                                          int
	// Pos is the curriculum position (Place sets it); -1 until read. Repeated:
	// another item has the same description (the image's flag).
	Pos             int
	Repeated        bool
	Item, Component bool
}

// Place sets each node's curriculum position and repeat flag, read from the
// image of the package among pkgs whose snapshot ID (or framework, when it
// has one package) is snapOrFramework: the columns kgc build writes, checked
// on their own by kgimg/kgimgwrite's TestCurriculumPositions. The oracles
// break score ties with them, as the server's deterministic_search_ranking_v2
// does.
func Place(t testing.TB, pkgs []*catalog.Package, snapOrFramework string, nodes []Node) []Node {
	t.Helper()
	for _, p := range pkgs {
		if p.SnapshotID() != snapOrFramework && p.FrameworkID() != snapOrFramework {
			continue
		}
		for i := range nodes {
			n, ok := p.Img.NodeByID(nodes[i].ID)
			if !ok {
				t.Fatalf("%s: node %s is not in the image", snapOrFramework, nodes[i].ID)
			}
			nodes[i].Pos = int(p.Img.CurriculumPosition(n))
			nodes[i].Repeated = p.Img.DescriptionRepeated(n)
		}
		return nodes
	}
	t.Fatalf("no package %s", snapOrFramework)
	return nil
}

// tieLess orders two equally Ranked nodes: a statement before its repeats,
// then curriculum position, then ID.
func tieLess(t testing.TB, a, b Node) bool {
	if a.Pos < 0 || b.Pos < 0 {
		t.Fatal("oracle ranking without curriculum positions: call Place")
	}
	if a.Repeated != b.Repeated { // the statement before its repeats
		return !a.Repeated
	}
	if a.Pos != b.Pos {
		return a.Pos < b.Pos
	}
	return a.ID < b.ID
}

// deliveryLines returns the lines of the package's one delivery file whose
// name matches pattern (e.g. "*nodes*.jsonl").
func deliveryLines(t testing.TB, dir, pattern string) []string {
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

// Nodes reads the nodes of the package in dir from its delivery file.
func Nodes(t testing.TB, dir string) []Node {
	t.Helper()
	var out []Node
	for i, line := range deliveryLines(t, dir, "*nodes*.jsonl") {
		var rec struct {
			Labels     []string          `json:"labels"`
			Properties map[string]string `json:"properties"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		p := rec.Properties
		n := Node{ID: p["identifier"], Description: p["description"], Code: p["statementCode"], StatementType: p["statementType"],
			NormType: p["normalizedStatementType"], Order: i, Pos: -1, Item: rec.Labels[0] == "StandardsFrameworkItem", Component: rec.Labels[0] == "LearningComponent"}
		_ = json.Unmarshal([]byte(p["gradeLevel"]), &n.Grades)
		_ = json.Unmarshal([]byte(p["tags"]), &n.Tags)
		out = append(out, n)
	}
	return out
}

// Ranked is one oracle hit: a node, its score and its lead ordering key (the
// normalized code in code modes).
type Ranked struct {
	ID    string
	Score int
	Lead  string
	Node  Node
}

// String leaves the node out of comparisons made through fmt.
func (r Ranked) String() string { return fmt.Sprintf("{%s %d %s}", r.ID, r.Score, r.Lead) }

// Text ranks the items of one package for a text query by brute force.
func Text(t testing.TB, nodes []Node, query, mode, operator string, components bool) []Ranked {
	q := textnorm.Tokens(query)
	var terms []string
	for _, t := range q {
		if !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	var out []Ranked
	for _, n := range nodes {
		if n.Description == "" || components != n.Component || !components && (!n.Item || n.NormType == "Standard Grouping") {
			continue
		}
		toks := textnorm.Tokens(n.Description)
		matched := 0
		for _, t := range terms {
			if slices.Contains(toks, t) {
				matched++
			}
		}
		ok := matched > 0 && (operator == "any" || matched == len(terms))
		if mode == "exact_phrase" {
			ok = strings.Contains(" "+strings.Join(toks, " ")+" ", " "+strings.Join(q, " ")+" ")
			matched = len(terms)
		}
		if ok {
			out = append(out, Ranked{ID: n.ID, Score: 1000000 * matched / len(terms), Node: n})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return tieLess(t, out[i].Node, out[j].Node)
	})
	return out
}

// mathCode is the sample profile's code normalization: case folded, no spaces.
func mathCode(s string) string { return strings.ToLower(strings.ReplaceAll(s, " ", "")) }

// Code ranks the mathematics sample's items for a code query: exact, or equal to the
// prefix or continuing it after the "." delimiter.
func Code(t testing.TB, nodes []Node, query string, prefix bool) []Ranked {
	q := mathCode(query)
	for prefix && strings.HasSuffix(q, ".") {
		q = strings.TrimSuffix(q, ".")
	}
	var out []Ranked
	for _, n := range nodes {
		c := mathCode(n.Code)
		if !n.Item || n.Code == "" || n.NormType == "Standard Grouping" {
			continue
		}
		if c == q {
			out = append(out, Ranked{ID: n.ID, Score: 1000000, Lead: c, Node: n})
		} else if prefix && strings.HasPrefix(c, q+".") {
			out = append(out, Ranked{ID: n.ID, Score: 500000, Lead: c, Node: n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Lead != out[j].Lead {
			return out[i].Lead < out[j].Lead
		}
		return tieLess(t, out[i].Node, out[j].Node)
	})
	return out
}

// Rel is a relationship as the package's delivery file states it.
type Rel struct{ ID, Label, Source, Target string }

// Rels reads the relationships of the package in dir from its delivery
// file.
func Rels(t testing.TB, dir string) []Rel {
	t.Helper()
	var out []Rel
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
		out = append(out, Rel{rec.ID, rec.Label, rec.Source, rec.Target})
	}
	return out
}

// IDs returns the IDs of the relationships keep keeps, sorted.
func IDs(rels []Rel, keep func(Rel) bool) []string {
	var out []string
	for _, r := range rels {
		if keep(r) {
			out = append(out, r.ID)
		}
	}
	sort.Strings(out)
	return out
}
