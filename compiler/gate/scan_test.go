package gate_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/compiler/gate"
)

var update = flag.Bool("update", false, "rewrite testdata/scanned.golden from this run")

// TestScannedDocuments runs the gate over packages whose large detailed
// documents (provenance shards, the original provenance map, the entity
// provenance map, the final claims; read part by part) and split progression
// files are broken in every way their reading distinguishes, and compares
// every finding (code, severity, stage, location, message, in order) with
// testdata/scanned.golden, which was written by the gate that parsed each
// document whole: reading them part by part changes no finding.
func TestScannedDocuments(t *testing.T) {
	// edit replaces the first occurrence of old in a file (the case fails
	// when there is none).
	edit := func(p *pkg, rel, old, new string) {
		b := p.Read(p.t, rel)
		if !bytes.Contains(b, []byte(old)) {
			p.t.Fatalf("%s holds no %q", rel, old)
		}
		p.WriteFile(p.t, rel, bytes.Replace(b, []byte(old), []byte(new), 1))
	}
	// firstKey is the first key of a document's top-level object, as written.
	firstKey := func(p *pkg, rel string) string {
		b := p.Read(p.t, rel)
		i := bytes.IndexByte(b, '"')
		j := bytes.IndexByte(b[i+1:], '"')
		return string(b[i : i+j+2])
	}
	shard := func(p *pkg) string { k, _ := p.firstShard(); return shardPath(k) }
	cases := []struct {
		name, pkg string
		mutate    func(p *pkg)
	}{
		{"shard is a non-empty array", maths, func(p *pkg) { p.WriteFile(p.t, shard(p), []byte(`[{"a":1},{"b":[2]}]`)) }},
		{"shard is a string", maths, func(p *pkg) { p.WriteFile(p.t, shard(p), []byte(`"shard"`)) }},
		{"shard is empty", maths, func(p *pkg) { p.WriteFile(p.t, shard(p), nil) }},
		{"shard repeats a key", maths, func(p *pkg) {
			rel := shard(p)
			k := firstKey(p, rel)
			edit(p, rel, k+":", k+`: {"claim": {"a": 1, "a": 2}}, `+k+":")
		}},
		{"shard has a syntax error after its first entry", maths, func(p *pkg) {
			rel := shard(p)
			b := p.Read(p.t, rel)
			p.WriteFile(p.t, rel, append(bytes.TrimRight(b, "}\n \t"), []byte(`,,}`)...))
		}},
		{"shard starts with a byte-order mark", maths, func(p *pkg) {
			rel := shard(p)
			p.WriteFile(p.t, rel, append([]byte("\xef\xbb\xbf"), p.Read(p.t, rel)...))
		}},
		{"shard holds invalid UTF-8", maths, func(p *pkg) {
			rel := shard(p)
			edit(p, rel, `"claim"`, "\"cl\xffaim\"")
		}},
		{"shard entry is not an object", maths, func(p *pkg) {
			rel := shard(p)
			p.doc(rel, func(d map[string]any) { d[minKey(d)] = []any{"x", 1.5, nil} })
		}},
		{"shard entry without a claim", maths, func(p *pkg) {
			rel := shard(p)
			p.doc(rel, func(d map[string]any) {
				d[minKey(d)] = map[string]any{"claim": map[string]any{"judgment": "none", "source_sfi_uuid": 7}}
			})
		}},
		{"shard has data after its object", maths, func(p *pkg) {
			rel := shard(p)
			p.WriteFile(p.t, rel, append(p.Read(p.t, rel), []byte(" {}")...))
		}},
		{"original map is a number", maths, func(p *pkg) { p.WriteFile(p.t, originalF, []byte("42\n")) }},
		{"original map is a non-empty array", maths, func(p *pkg) { p.WriteFile(p.t, originalF, []byte(`[{"x":{"y":1}}, 2]`)) }},
		{"original map repeats a key", maths, func(p *pkg) {
			k := firstKey(p, originalF)
			edit(p, originalF, k+":", k+`: {}, `+k+":")
		}},
		{"original map entry changed", maths, func(p *pkg) {
			p.doc(originalF, func(d map[string]any) {
				d[minKey(d)] = map[string]any{"z": []any{map[string]any{"b": 1, "a": 2}}}
			})
		}},
		{"original map is truncated", maths, func(p *pkg) {
			b := p.Read(p.t, originalF)
			p.WriteFile(p.t, originalF, b[:len(b)/2])
		}},
		{"entity provenance is an array", english, func(p *pkg) { p.WriteFile(p.t, entityProvF, []byte(`[{"a":1}]`)) }},
		{"entity provenance is null", english, func(p *pkg) { p.WriteFile(p.t, entityProvF, []byte(`null`)) }},
		{"entity provenance repeats a key", english, func(p *pkg) {
			k := firstKey(p, entityProvF)
			edit(p, entityProvF, k+":", k+`: 1, `+k+":")
		}},
		{"entity provenance has a syntax error", english, func(p *pkg) { edit(p, entityProvF, ":", "::") }},
		{"entity provenance entries for no node", english, func(p *pkg) {
			p.doc(entityProvF, func(d map[string]any) {
				d["ghost"] = map[string]any{"b": []any{1, "x"}, "a": nil}
				d["\u00e9t\u00e9"] = "plain"
			})
		}},
		{"entity provenance is empty", english, func(p *pkg) { p.WriteFile(p.t, entityProvF, []byte(`{}`)) }},
		{"final claims is an array", maths, func(p *pkg) { p.WriteFile(p.t, claimsF, []byte(`[{"claims":[]}]`)) }},
		{"final claims without claims", maths, func(p *pkg) { p.WriteFile(p.t, claimsF, []byte(`{"other":[1,2]}`)) }},
		{"final claims' claims is an object", maths, func(p *pkg) {
			p.WriteFile(p.t, claimsF, []byte(`{"claims":{"pair_id":"p"}}`))
		}},
		{"final claims' claims is empty", maths, func(p *pkg) { p.WriteFile(p.t, claimsF, []byte(`{"note":{"a":[1]},"claims":[]}`)) }},
		{"final claims repeat claims", maths, func(p *pkg) { edit(p, claimsF, `"claims"`, `"claims": [], "claims"`) }},
		{"final claims repeat a key in a claim", maths, func(p *pkg) { edit(p, claimsF, `"decision"`, `"decision": "x", "decision"`) }},
		{"final claims with odd claims", maths, func(p *pkg) {
			p.doc(claimsF, func(d map[string]any) {
				list := d["claims"].([]any)
				d["claims"] = append([]any{1, "x", nil, []any{}, map[string]any{"pair_id": 5, "first_sfi_uuid": "a", "second_sfi_uuid": "b", "decision": true}}, list...)
				d["after"] = map[string]any{"claims": []any{}}
			})
		}},
		{"final claims have a syntax error in a claim", maths, func(p *pkg) { edit(p, claimsF, `"decision"`, `"decision" "x", "y"`) }},
		{"final claims have data after them", maths, func(p *pkg) { p.WriteFile(p.t, claimsF, append(p.Read(p.t, claimsF), []byte("]")...)) }},
		{"split file line repeats a key", maths, func(p *pkg) { edit(p, buildsF, `"label"`, `"label":"x","label"`) }},
		{"split file line is not an object", maths, func(p *pkg) {
			b := p.Read(p.t, buildsF)
			p.WriteFile(p.t, buildsF, append([]byte("[1,2]\n"), b...))
		}},
		{"split file line has a syntax error", maths, func(p *pkg) { edit(p, buildsF, `"label"`, `"label"::`) }},
		{"split file line has escapes", maths, func(p *pkg) { edit(p, buildsF, `"description":"`, `"description":"\u00e9\n`) }},
	}
	var out strings.Builder
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPkg(t, c.pkg)
			c.mutate(p)
			p.seal()
			res, err := gate.Run(p.dir, p.opts)
			if err != nil {
				t.Fatalf("gate.Run: %v", err)
			}
			fmt.Fprintf(&out, "== %s\n", c.name)
			for _, f := range res.Findings.Items() {
				// The shard a case picks is the same in every run; record
				// IDs and messages are the sample's own.
				fmt.Fprintf(&out, "%s %s %s %v %s\n", f.Code, f.Severity, f.Stage, locOf(f), f.Message)
			}
			fmt.Fprintf(&out, "valid=%t provenance=%d entity=%d reports=%d\n", res.Valid(), len(res.Provenance), len(res.EntityProvenance), len(res.ProgressionReports))
		})
	}
	golden := filepath.Join("testdata", "scanned.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != string(want) {
		t.Errorf("findings differ from %s (rerun with -update only for a change of findings made on purpose):\n%s", golden, diffLines(string(want), got))
	}
}

// minKey returns the smallest key of d.
func minKey(d map[string]any) string {
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	return slices.Min(keys)
}

// diffLines lists the lines of got that want lacks and the other way round.
func diffLines(want, got string) string {
	count := func(s string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			m[l]++
		}
		return m
	}
	w, g := count(want), count(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if g[l] < w[l] {
			fmt.Fprintf(&b, "- %s\n", l)
			g[l]++
		}
	}
	w2 := count(want)
	for _, l := range strings.Split(got, "\n") {
		if w2[l] == 0 {
			fmt.Fprintf(&b, "+ %s\n", l)
		} else {
			w2[l]--
		}
	}
	return b.String()
}
