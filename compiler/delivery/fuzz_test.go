package delivery

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/kgc-project/kgc/schema/finding"
)

func checkRegistered(t *testing.T, fs []finding.Finding) {
	for _, f := range fs {
		if !finding.Registered(f.Code) {
			t.Fatalf("unregistered finding code %q", f.Code)
		}
		if f.Line <= 0 {
			t.Fatalf("finding without a line: %+v", f)
		}
	}
}

func seeds(f *testing.F, pattern string) {
	files, _ := filepath.Glob(pattern)
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		lines := bytes.Split(b, []byte("\n"))
		for i := 0; i < len(lines) && i < 5; i++ {
			f.Add(append(lines[i], '\n'))
		}
	}
}

// FuzzDecodeNodes feeds arbitrary bytes to the node decoder: findings with a
// registered code and a line, never a panic. Seeds: testdata/fuzz/FuzzDecodeNodes
// and the first lines of the shipped nodes files.
func FuzzDecodeNodes(f *testing.F) {
	seeds(f, "../../packages/*/*/delivery/nodes.jsonl")
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Decode(bytes.NewReader(data), NodesFile, "nodes", "delivery/nodes.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		checkRegistered(t, res.Findings.Items())
		checkNodeIndex(t, res)
	})
}

// checkNodeIndex checks that the table finds every decoded node's first
// record by its ID.
func checkNodeIndex(t *testing.T, res *Result) {
	t.Helper()
	first := map[string]int{}
	for i, n := range res.Nodes {
		if _, ok := first[n.ID]; !ok {
			first[n.ID] = i
		}
	}
	for id, want := range first {
		if got, ok := res.Table.NodeIndex(id); !ok || got != want {
			t.Fatalf("NodeIndex(%q) = %d, %t; want %d", id, got, ok, want)
		}
	}
}

// A node ID the table already holds as another record's repeated value
// (here a licence) is still found, repeated IDs find their first node, and
// a repeated value no node has as its ID finds none.
func TestNodeIndex(t *testing.T) {
	line := func(id, license string) string {
		return `{"identifier":"` + id + `","labels":["StandardsFrameworkItem"],"properties":{"identifier":"` + id + `","license":"` + license + `"},"type":"node"}` + "\n"
	}
	data := line("a", "CC0") + line("CC0", "x") + line("b", "CC0") + line("CC0", "y") + line("a", "z")
	res, err := Decode(bytes.NewReader([]byte(data)), NodesFile, "nodes", "delivery/nodes.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Nodes) != 5 {
		t.Fatalf("%d nodes decoded", len(res.Nodes))
	}
	checkNodeIndex(t, res)
	if i, ok := res.Table.NodeIndex("x"); ok {
		t.Errorf("NodeIndex(\"x\") = %d: a licence, not a node", i)
	}
}

// FuzzDecodeRelationships is FuzzDecodeNodes for relationship records.
func FuzzDecodeRelationships(f *testing.F) {
	seeds(f, "../../packages/*/*/delivery/relationships.jsonl")
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Decode(bytes.NewReader(data), RelationshipsFile, "relationships", "delivery/relationships.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		checkRegistered(t, res.Findings.Items())
	})
}

func TestDecodeLongLineAndCRLF(t *testing.T) {
	long := append(bytes.Repeat([]byte("x"), maxLineBytes+10), '\n')
	in := append([]byte("{\"a\":1}\r\n"), long...)
	in = append(in, []byte("\n")...)
	res, err := Decode(bytes.NewReader(in), NodesFile, "nodes", "n.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[int]bool{}
	for _, f := range res.Findings.Items() {
		if f.Code == finding.JSONLParsingError {
			lines[f.Line] = true
		}
	}
	for _, l := range []int{1, 2, 3} {
		if !lines[l] {
			t.Errorf("no jsonl_parsing_error on line %d: %+v", l, res.Findings.Items())
		}
	}
	if res.Size != int64(len(in)) {
		t.Errorf("size %d, want %d", res.Size, len(in))
	}
}

func TestDecodeTypedProperties(t *testing.T) {
	in := `{"identifier":"n1","labels":["StandardsFrameworkItem"],"properties":{"identifier":"n1","isCurrent":"false","gradeLevel":"[\"3\",\"4\"]","tags":"[1]","extra":"dropped","description":5},"type":"node"}` + "\n"
	res, err := Decode(bytes.NewReader([]byte(in)), NodesFile, "nodes", "n.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Nodes) != 1 {
		t.Fatalf("nodes: %d", len(res.Nodes))
	}
	n := res.Nodes[0]
	if !n.Has(NIsCurrent) || n.IsCurrent || len(n.GradeLevel) != 2 || n.GradeLevel[1] != "4" || n.Order != 1 {
		t.Errorf("decoded %+v", n)
	}
	var decode int
	for _, f := range res.Findings.Items() {
		if f.Code == finding.DeliveryPropertyDecoding {
			decode++
		}
	}
	if decode != 2 { // tags is not an array of strings; description is not a string
		t.Errorf("want 2 property findings, got %+v", res.Findings.Items())
	}
}

// The property switches name every property and nothing else.
func TestPropertyNames(t *testing.T) {
	for i, name := range NodePropNames {
		if p, ok := nodePropOf(name); !ok || p != NodeProp(i) {
			t.Errorf("nodePropOf(%q) = %d, %t", name, p, ok)
		}
	}
	for i, name := range RelPropNames {
		if p, ok := relPropOf(name); !ok || p != RelProp(i) {
			t.Errorf("relPropOf(%q) = %d, %t", name, p, ok)
		}
	}
	for _, name := range []string{"", "Identifier", "type", "labels", "sourceentity"} {
		if _, ok := nodePropOf(name); ok {
			t.Errorf("nodePropOf(%q) is a property", name)
		}
		if _, ok := relPropOf(name); ok {
			t.Errorf("relPropOf(%q) is a property", name)
		}
	}
}

// Decoding a package's relationships with the table its nodes were decoded
// with (sharing node IDs) or with a table of their own gives the same
// records: the table only decides where their strings are stored.
func TestTablesDecideNoValue(t *testing.T) {
	dirs, _ := filepath.Glob("../../packages/*/*/delivery")
	if len(dirs) == 0 {
		t.Skip("no shipped packages")
	}
	for _, dir := range dirs {
		nodes, err := os.ReadFile(filepath.Join(dir, "nodes.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		rels, err := os.ReadFile(filepath.Join(dir, "relationships.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		dump := func(res *Result) string {
			var b bytes.Buffer
			for i, r := range res.Relationships {
				fmt.Fprintf(&b, "%q %q %q %q %q %q %v %v %v\n", r.ID, r.Label, r.Source, r.Target, r.SourceLabels, r.TargetLabels, r.Order, r.Confidence, res.LineHashes[i])
				for p := RelProp(0); p < NumRelProps; p++ {
					v, ok := r.Prop(p)
					fmt.Fprintf(&b, " %d:%q:%t", p, v, ok)
				}
				b.WriteString("\n")
			}
			return b.String()
		}
		own, err := Decode(bytes.NewReader(rels), RelationshipsFile, "relationships", "delivery/relationships.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		tab := NewTable()
		if _, err := tab.Decode(bytes.NewReader(nodes), NodesFile, "nodes", "delivery/nodes.jsonl"); err != nil {
			t.Fatal(err)
		}
		shared, err := tab.Decode(bytes.NewReader(rels), RelationshipsFile, "relationships", "delivery/relationships.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if a, b := dump(own), dump(shared); a != b || len(own.Relationships) == 0 {
			t.Errorf("%s: the relationships decode differently with a shared table", dir)
		}
	}
}

// DecodeSized gives what Decode gives, whatever size it is told.
func TestDecodeSized(t *testing.T) {
	var nodes, rels bytes.Buffer
	for i := range 2 * sizeAfter {
		id := fmt.Sprintf("n%05d", i)
		fmt.Fprintf(&nodes, `{"identifier":%q,"labels":["StandardsFrameworkItem"],"properties":{"identifier":%q,"license":"CC0","description":"item %d"},"type":"node"}`+"\n", id, id, i)
		fmt.Fprintf(&rels, `{"identifier":"r%05d","label":"hasChild","properties":{"identifier":"r%05d","license":"CC0"},"source_identifier":"n00000","source_labels":["StandardsFrameworkItem"],"target_identifier":%q,"target_labels":["StandardsFrameworkItem"],"type":"relationship"}`+"\n", i, i, id)
	}
	for _, c := range []struct {
		kind Kind
		data []byte
	}{{NodesFile, nodes.Bytes()}, {RelationshipsFile, rels.Bytes()}} {
		want, err := Decode(bytes.NewReader(c.data), c.kind, "a", "p")
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int64{int64(len(c.data)), 1, 1 << 40} {
			got, err := NewTable().DecodeSized(bytes.NewReader(c.data), size, c.kind, "a", "p")
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Nodes) != len(want.Nodes) || len(got.Relationships) != len(want.Relationships) || got.Sha256 != want.Sha256 || got.Findings.Len() != want.Findings.Len() {
				t.Fatalf("size %d: %d nodes, %d relationships, %s; want %d, %d, %s", size, len(got.Nodes), len(got.Relationships), got.Sha256, len(want.Nodes), len(want.Relationships), want.Sha256)
			}
			for i, n := range got.Nodes {
				if n.ID != want.Nodes[i].ID || n.Str(NDescription) != want.Nodes[i].Str(NDescription) || n.Str(NLicense) != want.Nodes[i].Str(NLicense) {
					t.Fatalf("size %d: node %d differs", size, i)
				}
			}
			if c.kind == NodesFile {
				checkNodeIndex(t, got)
			}
		}
	}
}
