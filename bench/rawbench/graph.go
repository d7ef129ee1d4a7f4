package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

type gnode struct{ id, code, kind, description, label string }

// name is the node's server-memory entity name: its statement code with the
// node ID (codes repeat), or the node ID.
func (n gnode) name() string {
	if n.code != "" {
		return n.code + " " + n.id
	}
	return n.id
}

// entityType is the node's server-memory entity type: its statement type,
// else its label.
func (n gnode) entityType() string {
	if n.kind != "" {
		return n.kind
	}
	if n.label != "" {
		return n.label
	}
	return "node"
}

type gedge struct{ label, from, to string }

type graph struct {
	nodes []gnode
	edges []gedge // every relationship of the package whose ends are both nodes of it
	rels  int     // relationships in the package's delivery file
}

// readGraph reads a package's delivery nodes and relationships.
func readGraph(pkg string) (*graph, error) {
	g := &graph{}
	lines := func(pattern string, each func([]byte) error) error {
		files, _ := filepath.Glob(filepath.Join(pkg, "delivery", pattern))
		if len(files) != 1 {
			return fmt.Errorf("%s: %d files %s", pkg, len(files), pattern)
		}
		f, err := os.Open(files[0])
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			if err := each(sc.Bytes()); err != nil {
				return err
			}
		}
		return sc.Err()
	}
	str := func(v any) string { s, _ := v.(string); return s }
	err := lines("*nodes*.jsonl", func(b []byte) error {
		var rec struct {
			Labels     []string       `json:"labels"`
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			return err
		}
		p := rec.Properties
		n := gnode{id: str(p["identifier"]), code: str(p["statementCode"]), kind: str(p["statementType"]), description: str(p["description"])}
		if len(rec.Labels) > 0 {
			n.label = rec.Labels[0]
		}
		g.nodes = append(g.nodes, n)
		return nil
	})
	if err != nil {
		return nil, err
	}
	known := make(map[string]bool, len(g.nodes))
	for _, n := range g.nodes {
		known[n.id] = true
	}
	return g, lines("*relationships*.jsonl", func(b []byte) error {
		var rec struct {
			Label  string `json:"label"`
			Source string `json:"source_identifier"`
			Target string `json:"target_identifier"`
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			return err
		}
		g.rels++
		if known[rec.Source] && known[rec.Target] {
			g.edges = append(g.edges, gedge{rec.Label, rec.Source, rec.Target})
		}
		return nil
	})
}

// standard returns the node get_standard and open_nodes look up: the middle
// standards item in file order.
func (g *graph) standard() (gnode, error) {
	var items []gnode
	for _, n := range g.nodes {
		if n.label == "StandardsFrameworkItem" {
			items = append(items, n)
		}
	}
	if len(items) == 0 {
		return gnode{}, fmt.Errorf("no StandardsFrameworkItem node")
	}
	return items[len(items)/2], nil
}

// writeMemory writes the graph as server-memory's JSONL file: one entity per
// node (its description as the observation), one relation per relationship
// (its label as the relation type). It returns the file's bytes.
func (g *graph) writeMemory(path string) (int, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	names := map[string]string{}
	for _, n := range g.nodes {
		names[n.id] = n.name()
		if err := enc.Encode(map[string]any{"type": "entity", "name": n.name(), "entityType": n.entityType(), "observations": []string{n.description}}); err != nil {
			return 0, err
		}
	}
	for _, e := range g.edges {
		if err := enc.Encode(map[string]any{"type": "relation", "from": names[e.from], "to": names[e.to], "relationType": e.label}); err != nil {
			return 0, err
		}
	}
	return b.Len(), os.WriteFile(path, b.Bytes(), 0o644)
}

// memoryMatches is what server-memory's search_nodes answers to query: the
// entities whose name, type or an observation contains it (case-folded), and
// the relations with at least one end among them (its dist/index.js).
func (g *graph) memoryMatches(query string) (entities, relations int) {
	q := strings.ToLower(query)
	matched := map[string]bool{}
	for _, n := range g.nodes {
		if strings.Contains(strings.ToLower(n.name()), q) || strings.Contains(strings.ToLower(n.entityType()), q) ||
			strings.Contains(strings.ToLower(n.description), q) {
			matched[n.id] = true
		}
	}
	for _, e := range g.edges {
		if matched[e.from] || matched[e.to] {
			relations++
		}
	}
	return len(matched), relations
}

// stopwords are left out of the candidate words: a query a user would type
// names a subject.
var stopwords = map[string]bool{"about": true, "after": true, "also": true, "before": true, "been": true, "between": true,
	"each": true, "from": true, "have": true, "into": true, "more": true, "other": true, "some": true, "such": true,
	"than": true, "that": true, "their": true, "them": true, "these": true, "they": true, "this": true, "those": true,
	"through": true, "using": true, "what": true, "when": true, "which": true, "will": true, "with": true}

// word is a candidate query: a word of the graph's descriptions with the
// size of server-memory's search_nodes answer to it.
type word struct {
	text                string
	entities, relations int
}

// words returns the words of the graph's descriptions (ASCII letters only,
// at least four, no stopword), in order.
func (g *graph) words() []word {
	seen := map[string]bool{}
	for _, n := range g.nodes {
		for _, w := range strings.FieldsFunc(strings.ToLower(n.description), func(r rune) bool { return r > unicode.MaxASCII || !unicode.IsLetter(r) }) {
			if len(w) >= 4 && !stopwords[w] {
				seen[w] = true
			}
		}
	}
	out := make([]word, 0, len(seen))
	for w := range seen {
		e, r := g.memoryMatches(w)
		out = append(out, word{w, e, r})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].text < out[j].text })
	return out
}
