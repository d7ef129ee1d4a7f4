package jsonv

import (
	"fmt"
	"strings"
	"testing"
)

// dump writes a tree with every offset; below depth prune, containers are
// written empty.
func dump(b *strings.Builder, v *Value, depth, prune int) {
	fmt.Fprintf(b, "%d@%d", v.Kind, v.Off)
	switch v.Kind {
	case Bool:
		fmt.Fprintf(b, ":%v", v.Bool)
	case Number, String:
		fmt.Fprintf(b, ":%q", v.Str)
	case Array:
		b.WriteString("[")
		if depth+1 != prune {
			for _, el := range v.Arr {
				dump(b, el, depth+1, prune)
				b.WriteString(",")
			}
		}
		b.WriteString("]")
	case Object:
		b.WriteString("{")
		if depth+1 != prune {
			for _, m := range v.Obj {
				fmt.Fprintf(b, "%q@%d:", m.Key, m.KeyOff)
				dump(b, m.Val, depth+1, prune)
				b.WriteString(",")
			}
		}
		b.WriteString("}")
	}
}

func dumpTree(v *Value, errs []*Error, prune int) string {
	var b strings.Builder
	if v != nil {
		dump(&b, v, 0, prune)
	}
	for _, e := range errs {
		fmt.Fprintf(&b, "\n%d@%d %s", e.Kind, e.Off, e.Msg)
	}
	return b.String()
}

var shared Parser

// checkReuse compares a reused Parser with Parse on one input.
func checkReuse(t *testing.T, data []byte) {
	v, errs := Parse(data)
	want := dumpTree(v, errs, -1)
	for round := 0; round < 2; round++ {
		gv, gerrs := shared.Parse(data)
		if got := dumpTree(gv, gerrs, -1); got != want {
			t.Fatalf("Parser.Parse(%q) round %d:\n%s\nParse:\n%s", data, round, got, want)
		}
	}
}

func TestParserMatchesParse(t *testing.T) {
	inputs := []string{
		`{}`, `[]`, `0`, `"x"`, `null`, ` {"a":[1,2,{"b":null}]} `, `{"a":true,"b":false}`,
		`"a\u00e9\ud83d\ude00"`, `{"k\n":"v\"","e":"","n":-1.5e3}`,
		`{"a":1,"b":{"c":1,"c":2},"a":3}`, `[{"a":1,"a":1},[{"x":[1,[2,[3]]]}],{}]`,
		`{"claims":[{"pair_id":"p1","decision":"relatesTo"},{"pair_id":"p2"}],"n":1,"o":{"x":{"y":2}}}`,
		`{"a":1,}`, `[1,]`, `{"a":[1,2}`, `{"a":1} {}`, `{"a":"\ud800"}`, "{\"a\":\"\xff\"}", `{"a":1,"b":[1,2,`,
	}
	var big strings.Builder
	big.WriteString(`{"props":{`)
	for i := 0; i < 70; i++ { // past the scan-to-set switch, with a repeat on each side
		if i > 0 {
			big.WriteString(",")
		}
		k := fmt.Sprintf("k%d", i)
		if i == 20 || i == 60 {
			k = "k3"
		}
		fmt.Fprintf(&big, `%q:[%d,"v%d",{"d":%d}]`, k, i, i, i)
	}
	big.WriteString(`},"list":[`)
	for i := 0; i < 3000; i++ { // more values than a slab chunk holds
		if i > 0 {
			big.WriteString(",")
		}
		fmt.Fprintf(&big, `{"i":%d,"s":"x\u0041%d"}`, i, i)
	}
	big.WriteString("]}")
	inputs = append(inputs, big.String())
	for _, s := range inputs {
		checkReuse(t, []byte(s))
	}
	// After a large document, small ones still parse right from reused memory.
	for _, s := range inputs[:12] {
		checkReuse(t, []byte(s))
	}
}

// FuzzParser checks the reused Parser against Parse on arbitrary bytes: the
// same tree, offsets and errors.
func FuzzParser(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x",{"b":null}]}`, `[1e5,-0.5,true]`, `"\u0041\ud83d\ude00"`, `{"a":1,"a":2}`, "\"\xff\"", `{"c":[{"p":"1"},{"p":"2"}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkReuse(t, data) })
}

// A Parser reuses its memory: once its slabs have grown, parsing a document
// with no escaped strings allocates nothing (the delivery decoder and the
// server's text check parse thousands of documents with one Parser).
func TestParserReusesItsMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	doc := []byte(`{"a": [1, 2.5, true, null, "x"], "b": {"c": "d", "e": [{"f": false}]}, "g": "h"}`)
	var ps Parser
	ps.Parse(doc)
	allocs := testing.AllocsPerRun(100, func() {
		if v, errs := ps.Parse(doc); v == nil || len(errs) > 0 {
			t.Fatal("the document did not parse")
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a document, want 0", allocs)
	}
}
