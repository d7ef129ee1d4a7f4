package jsonv

import (
	"fmt"
	"strings"
	"testing"
)

// scanParts lists the parts Parse's tree divides into as Scan hands them
// out (split members' arrays element by element), dumped.
func scanParts(v *Value, split func(string) bool) []string {
	var out []string
	part := func(key string, keyOff, index int, val *Value) {
		var b strings.Builder
		fmt.Fprintf(&b, "%q@%d[%d] ", key, keyOff, index)
		dump(&b, val, 0, -1)
		out = append(out, b.String())
	}
	switch v.Kind {
	case Object:
		for _, m := range v.Obj {
			if split != nil && m.Val.Kind == Array && split(m.Key) {
				part(m.Key, m.KeyOff, -1, &Value{Kind: Array, Off: m.Val.Off})
				for i, el := range m.Val.Arr {
					part(m.Key, m.KeyOff, i, el)
				}
				continue
			}
			part(m.Key, m.KeyOff, -1, m.Val)
		}
	case Array:
		for i, el := range v.Arr {
			part("", -1, i, el)
		}
	default:
		part("", -1, -1, v)
	}
	return out
}

func dumpErrors(errs []*Error) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "%d@%d %s\n", e.Kind, e.Off, e.Msg)
	}
	return b.String()
}

var scanner Parser

// checkScan compares Scan with Parse on one input: the same errors, and when
// there are none or only duplicate keys, the same parts in the same order.
func checkScan(t *testing.T, data []byte) {
	t.Helper()
	splitClaims := func(key string) bool { return key == "claims" || key == "list" }
	for _, split := range []func(string) bool{nil, splitClaims} {
		v, errs := Parse(data)
		var got []string
		top, gerrs := scanner.Scan(data, split, func(p Part) {
			var b strings.Builder
			fmt.Fprintf(&b, "%q@%d[%d] ", p.Key, p.KeyOff, p.Index)
			dump(&b, p.Val, 0, -1)
			got = append(got, b.String())
		})
		if g, w := dumpErrors(gerrs), dumpErrors(errs); g != w {
			t.Fatalf("Scan(%q) errors:\n%s\nParse:\n%s", data, g, w)
		}
		if v == nil {
			continue
		}
		if top != v.Kind {
			t.Fatalf("Scan(%q) top = %v, Parse: %v", data, top, v.Kind)
		}
		if g, w := strings.Join(got, "\n"), strings.Join(scanParts(v, split), "\n"); g != w {
			t.Fatalf("Scan(%q) parts:\n%s\nParse:\n%s", data, g, w)
		}
	}
}

func TestScanMatchesParse(t *testing.T) {
	inputs := []string{
		``, `   `, `{}`, `[]`, `0`, `"x"`, `null`, ` {"a":[1,2,{"b":null}]} `, `{"a":true,"b":false}`,
		`"a\u00e9\ud83d\ude00"`, `{"k\n":"v\"","e":"","n":-1.5e3}`,
		`{"a":1,"b":{"c":1,"c":2},"a":3}`, `[{"a":1,"a":1},[{"x":[1,[2,[3]]]}],{}]`,
		`{"claims":[{"pair_id":"p1","decision":"relatesTo"},{"pair_id":"p2"}],"n":1,"o":{"x":{"y":2}}}`,
		`{"claims":[{"a":1,"a":2}],"claims":{"x":1}}`, `{"claims":[]}`, `{"claims":[1,]}`, `{"claims":[1 2]}`,
		`{"a":1,}`, `[1,]`, `{"a":[1,2}`, `{"a":1} {}`, `{"a":"\ud800"}`, "{\"a\":\"\xff\"}", `{"a":1,"b":[1,2,`,
		`{"a" 1}`, `{1:2}`, `{"a":1 "b":2}`, `{`, `[`, `{"a":`, `tru`, `[1] x`,
		strings.Repeat("[", 300) + strings.Repeat("]", 300),
		`{"a":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`,
		`{"claims":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`,
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
	// A large top-level object, with repeated keys on both sides of the
	// switch to a set.
	var wide strings.Builder
	wide.WriteString("{")
	for i := 0; i < 100; i++ {
		if i > 0 {
			wide.WriteString(",")
		}
		k := fmt.Sprintf("id%d", i)
		if i == 10 || i == 90 {
			k = "id2"
		}
		fmt.Fprintf(&wide, `%q:{"claim":{"x":[%d,{"y":"z"}]},"n":%d}`, k, i, i)
	}
	wide.WriteString("}")
	inputs = append(inputs, wide.String(), strings.Replace(wide.String(), `"id2"`, `"idX"`, -1))
	for _, s := range inputs {
		checkScan(t, []byte(s))
	}
	// After large documents, small ones still scan right from reused memory.
	for _, s := range inputs[:20] {
		checkScan(t, []byte(s))
	}
}

// FuzzScan checks Scan against Parse on arbitrary bytes.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x",{"b":null}]}`, `[1e5,-0.5,true]`, `"\u0041\ud83d\ude00"`, `{"a":1,"a":2}`, "\"\xff\"", `{"claims":[{"p":"1"},{"p":"2"}],"n":{}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkScan(t, data) })
}

// Scanning reuses the memory of one part for the next: a document of many
// parts without escaped strings allocates only the list of its keys.
func TestScanReusesItsMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 10000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"a":[1,2.5,true,null,"x%d"],"b":{"c":"d"}}`, i)
	}
	b.WriteString("]")
	doc := []byte(b.String())
	var ps Parser
	ps.Scan(doc, nil, func(Part) {})
	allocs := testing.AllocsPerRun(10, func() {
		n := 0
		if _, errs := ps.Scan(doc, nil, func(Part) { n++ }); len(errs) > 0 || n != 10000 {
			t.Fatal("the document did not scan")
		}
	})
	if allocs > 2 {
		t.Fatalf("%v allocations a document of 10,000 parts", allocs)
	}
}
