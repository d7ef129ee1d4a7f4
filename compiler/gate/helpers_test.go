package gate_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/pkgtest"
	"github.com/kgc-project/kgc/schema/ids"
)

// pkg is a sample package being mutated by one rule case.
type pkg struct {
	*pkgtest.Fixture
	t    *testing.T
	name string // the sample's framework ID (= its profile ID)
	dir  string // the directory given to gate.Run
	opts gate.Options
	want loc
	// raw skips sealing: the case breaks checksums or the manifest on purpose.
	raw bool
}

func newPkg(t *testing.T, name string) *pkg {
	f := sample(t, name)
	return &pkg{Fixture: f, t: t, name: name, dir: f.Dir, opts: gate.Options{ProfileRoot: f.Profiles}}
}

// at sets the expected location fields that are non-zero in l.
func (p *pkg) at(l loc) {
	if l.artifact != "" {
		p.want.artifact = l.artifact
	}
	if l.path != "" {
		p.want.path = l.path
	}
	if l.line != 0 {
		p.want.line = l.line
	}
	if l.record != "" {
		p.want.record = l.record
	}
	if l.field != "" {
		p.want.field = l.field
	}
}

// atNode and atRel expect a finding about one delivery record.
func (p *pkg) atNode(id string, line int) {
	p.at(loc{artifact: "nodes", path: nodesF, line: line, record: id})
}
func (p *pkg) atRel(id string, line int) {
	p.at(loc{artifact: "relationships", path: relsF, line: line, record: id})
}

// seal recomputes the manifest checksums and, in a package with learning
// progressions, the digests the receipt and the provenance index repeat (and
// the receipt's AS/LC prefix length), so only the mutation itself is judged.
func (p *pkg) seal() {
	if p.raw {
		return
	}
	p.Seal(p.t)
	if p.name != maths {
		return
	}
	sums := p.checksums()
	p.doc("detailed/lp_normalization_receipt.json", func(d map[string]any) {
		out := d["outputSha256"].(map[string]any)
		for name := range out {
			out[name] = strings.TrimPrefix(sums[artifactPath(p, name)], "sha256:")
		}
		d["asLcRelationshipPrefixBytes"] = p.prefixBytes()
	})
	p.doc("detailed/lp_relationship_provenance_index.json", func(d map[string]any) {
		d["originalProvenanceSha256"] = sums["detailed/lp_relationship_provenance.json"]
		for _, v := range d["partitions"].(map[string]any) {
			part := v.(map[string]any)
			if s, ok := sums[part["artifactPath"].(string)]; ok {
				part["sha256"] = s
			}
		}
	})
	p.Seal(p.t)
}

func (p *pkg) checksums() map[string]string {
	out := map[string]string{}
	for k, v := range obj(p.get(manifestF), "checksums") {
		out[k] = v.(string)
	}
	return out
}

// artifactPath returns the path the manifest declares for a built-in artifact.
func artifactPath(p *pkg, name string) string {
	path, _ := obj(p.get(manifestF), "artifacts")[name].(string)
	return path
}

// prefixBytes is the length of the relationships file before its first
// progression record.
func (p *pkg) prefixBytes() int {
	n := 0
	for _, line := range bytes.SplitAfter(p.Read(p.t, relsF), []byte("\n")) {
		if bytes.Contains(line, []byte(`"label":"buildsTowards"`)) || bytes.Contains(line, []byte(`"label":"relatesTo"`)) {
			break
		}
		n += len(line)
	}
	return n
}

func (p *pkg) doc(rel string, edit func(d map[string]any)) { p.Doc(p.t, rel, edit) }

// get decodes a package JSON document without rewriting it.
func (p *pkg) get(rel string) map[string]any { return decode(p.t, p.Read(p.t, rel)) }

func decode(t testing.TB, b []byte) map[string]any {
	d := map[string]any{}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&d); err != nil {
		t.Fatal(err)
	}
	return d
}

// each calls fn with every record of a JSONL file and its line, rewriting
// nothing.
func (p *pkg) each(rel string, fn func(line int, rec map[string]any)) {
	for i, line := range bytes.Split(bytes.TrimSuffix(p.Read(p.t, rel), []byte("\n")), []byte("\n")) {
		fn(i+1, decode(p.t, line))
	}
}
func (p *pkg) manifest(edit func(m map[string]any)) { p.Doc(p.t, manifestF, edit) }

func obj(v any, keys ...string) map[string]any {
	m := v.(map[string]any)
	for _, k := range keys {
		m = m[k].(map[string]any)
	}
	return m
}

func props(rec map[string]any) map[string]any { return obj(rec, "properties") }

func num(v any) int64 {
	n, err := v.(json.Number).Int64()
	if err != nil {
		panic(err)
	}
	return n
}

// bump adds by to a manifest count ("relationships", "additionalCounts.codedItems").
func (p *pkg) bump(key string, by int) {
	p.manifest(func(m map[string]any) {
		c := obj(m, "counts")
		if k, ok := strings.CutPrefix(key, "additionalCounts."); ok {
			c, key = obj(c, "additionalCounts"), k
		}
		c[key] = json.Number(fmt.Sprint(num(c[key]) + int64(by)))
	})
}

// bumpObjectCount adds by to object_counts.key of a detailed report.
func (p *pkg) bumpObjectCount(rel, key string, by int) {
	p.doc(rel, func(d map[string]any) {
		c := obj(d, "object_counts")
		c[key] = json.Number(fmt.Sprint(num(c[key]) + int64(by)))
	})
}

// records rewrites a JSONL file; edit gets each record and the line the first
// record it returns will have.
func (p *pkg) records(rel string, edit func(line int, rec map[string]any) []map[string]any) {
	out := 0
	p.Records(p.t, rel, func(rec map[string]any) []map[string]any {
		recs := edit(out+1, rec)
		out += len(recs)
		return recs
	})
}

// editFirst edits the first record of a JSONL file that match accepts and
// returns its identifier and line.
func (p *pkg) editFirst(rel string, match func(rec map[string]any) bool, edit func(rec map[string]any)) (id string, line int) {
	p.records(rel, func(l int, rec map[string]any) []map[string]any {
		if line == 0 && match(rec) {
			id, line = rec["identifier"].(string), l
			edit(rec)
		}
		return []map[string]any{rec}
	})
	if line == 0 {
		p.t.Fatalf("%s: no matching record", rel)
	}
	return id, line
}

func (p *pkg) node(match func(map[string]any) bool, edit func(map[string]any)) (string, int) {
	return p.editFirst(nodesF, match, edit)
}

func (p *pkg) rel(match func(map[string]any) bool, edit func(map[string]any)) (string, int) {
	return p.editFirst(relsF, match, edit)
}

// find returns a copy of the first record that match accepts, and its line.
func (p *pkg) find(rel string, match func(map[string]any) bool) (map[string]any, int) {
	var found map[string]any
	line := 0
	p.each(rel, func(l int, rec map[string]any) {
		if found == nil && match(rec) {
			found, line = rec, l
		}
	})
	if found == nil {
		p.t.Fatalf("%s: no matching record", rel)
	}
	return found, line
}

// insertAfter writes recs after the first record that match accepts and
// returns the line of the first of them.
func (p *pkg) insertAfter(rel string, match func(map[string]any) bool, recs ...map[string]any) int {
	line := 0
	p.records(rel, func(l int, rec map[string]any) []map[string]any {
		if line == 0 && match(rec) {
			line = l + 1
			return append([]map[string]any{rec}, recs...)
		}
		return []map[string]any{rec}
	})
	if line == 0 {
		p.t.Fatalf("%s: no matching record", rel)
	}
	return line
}

// lastMatch returns a matcher for the last record of rel that match accepts.
func (p *pkg) lastMatch(rel string, match func(map[string]any) bool) func(map[string]any) bool {
	last := ""
	p.each(rel, func(_ int, rec map[string]any) {
		if match(rec) {
			last = rec["identifier"].(string)
		}
	})
	return withID(last)
}

func clone(rec map[string]any) map[string]any {
	var out map[string]any
	dec := json.NewDecoder(bytes.NewReader(mustJSON(rec)))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		panic(err)
	}
	return out
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// Record matchers.
func ofType(st string) func(map[string]any) bool {
	return func(rec map[string]any) bool { return props(rec)["statementType"] == st }
}

func withLabel(l string) func(map[string]any) bool {
	return func(rec map[string]any) bool { return rec["label"] == l }
}

func labelled(l string) func(map[string]any) bool {
	return func(rec map[string]any) bool { return rec["labels"].([]any)[0] == l }
}

func withID(id string) func(map[string]any) bool {
	return func(rec map[string]any) bool { return rec["identifier"] == id }
}

func into(id string) func(map[string]any) bool {
	return func(rec map[string]any) bool { return rec["target_identifier"] == id }
}

// plainChild matches a hasChild edge that is not an unresolved fallback.
func plainChild(rec map[string]any) bool {
	return rec["label"] == "hasChild" && props(rec)["resolutionStatus"] == nil
}

// nodeIDs returns the node IDs of a statement type (or a label for nodes
// without one), in file order.
func (p *pkg) nodeIDs(kind string) []string {
	var out []string
	p.each(nodesF, func(_ int, rec map[string]any) {
		st, _ := props(rec)["statementType"].(string)
		if st == kind || rec["labels"].([]any)[0] == kind {
			out = append(out, rec["identifier"].(string))
		}
	})
	return out
}

// parents maps each hasChild target to its (first) source.
func (p *pkg) parents() map[string]string {
	out := map[string]string{}
	p.each(relsF, func(_ int, rec map[string]any) {
		if rec["label"] == "hasChild" {
			out[rec["target_identifier"].(string)] = rec["source_identifier"].(string)
		}
	})
	return out
}

// edgeLike copies relationship rec under a new ID between new endpoints (node
// IDs with their single label), keeping the entity properties consistent.
func edgeLike(rec map[string]any, id, src, srcLabel, tgt, tgtLabel string) map[string]any {
	out := clone(rec)
	pr := props(out)
	key := func(label string) string {
		if label == "LearningComponent" {
			return "identifier"
		}
		return "caseIdentifierUUID"
	}
	pr["identifier"] = id
	pr["sourceEntity"], pr["sourceEntityKey"], pr["sourceEntityValue"] = srcLabel, key(srcLabel), src
	pr["targetEntity"], pr["targetEntityKey"], pr["targetEntityValue"] = tgtLabel, key(tgtLabel), tgt
	delete(pr, "resolutionStatus")
	out["identifier"] = id
	out["source_identifier"], out["source_labels"] = src, []any{srcLabel}
	out["target_identifier"], out["target_labels"] = tgt, []any{tgtLabel}
	return out
}

// Files outside the package: the bound profile and its prompt config.

func (p *pkg) profilePath() string { return filepath.Join(p.Profiles, p.name, "1.0", "profile.json") }
func (p *pkg) promptsPath() string { return filepath.Join(p.Profiles, p.name, "1.0", "prompts.json") }
func (p *pkg) profileRel() string  { return p.name + "/1.0/profile.json" }
func (p *pkg) promptsRel() string  { return p.name + "/1.0/prompts.json" }

func editJSON(t *testing.T, path string, edit func(d map[string]any)) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := decode(t, b)
	edit(d)
	out, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, '\n')
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// profile edits the bound profile and rebinds the manifest to its new bytes.
func (p *pkg) profile(edit func(d map[string]any)) {
	b := editJSON(p.t, p.profilePath(), edit)
	p.manifest(func(m map[string]any) { obj(m, "profile")["sha256"] = ids.Sha256(b) })
}

// statementType edits one statement type of the bound profile.
func (p *pkg) statementType(name string, edit func(st map[string]any)) {
	p.profile(func(d map[string]any) {
		for _, st := range d["statementTypes"].([]any) {
			if st.(map[string]any)["sourceStatementType"] == name {
				edit(st.(map[string]any))
			}
		}
	})
}

func (p *pkg) prompts(edit func(d map[string]any)) { editJSON(p.t, p.promptsPath(), edit) }

func (p *pkg) mkdir(rel string) {
	if err := os.MkdirAll(p.Path(rel), 0o755); err != nil {
		p.t.Fatal(err)
	}
}

func (p *pkg) remove(path string) {
	if err := os.Remove(path); err != nil {
		p.t.Fatal(err)
	}
}

func (p *pkg) symlink(target, link string) {
	if err := os.Symlink(target, link); err != nil {
		p.t.Fatal(err)
	}
}

// declare adds an additional artifact with a placeholder checksum (seal
// computes it when the file exists).
func (p *pkg) declare(name, path string) {
	p.manifest(func(m map[string]any) {
		a := obj(m, "artifacts")
		add, ok := a["additionalArtifacts"].(map[string]any)
		if !ok {
			add = map[string]any{}
			a["additionalArtifacts"] = add
		}
		add[name] = path
		obj(m, "checksums")[path] = "sha256:" + strings.Repeat("0", 64)
	})
}

// truncate makes a sparse file of size bytes (cheap, whatever the size).
func (p *pkg) truncate(path string, size int64) {
	if err := os.Truncate(path, size); err != nil {
		p.t.Fatal(err)
	}
}
