package jsonv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// toAny converts a tree to the shape encoding/json produces with UseNumber, keeping
// the last duplicate like encoding/json does.
func toAny(v *Value) any {
	switch v.Kind {
	case Null:
		return nil
	case Bool:
		return v.Bool
	case Number:
		return json.Number(v.Str)
	case String:
		return v.Str
	case Array:
		out := make([]any, len(v.Arr))
		for i, el := range v.Arr {
			out[i] = toAny(el)
		}
		return out
	default:
		out := make(map[string]any, len(v.Obj))
		for _, m := range v.Obj {
			out[m.Key] = toAny(m.Val)
		}
		return out
	}
}

func stdDecode(data []byte) (any, bool) {
	if !json.Valid(data) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, false
	}
	return out, true
}

func TestParseAcceptsAndRejects(t *testing.T) {
	good := []string{
		`{}`, `[]`, `0`, `-0`, `1.5e-3`, `"a\u00e9\ud83d\ude00"`, ` {"a":[1,2,{"b":null}]} `,
		"\"caf\u00e9\"", `{"a":true,"b":false}`,
	}
	for _, s := range good {
		v, errs := Parse([]byte(s))
		if v == nil || len(errs) != 0 {
			t.Errorf("Parse(%q) rejected: %v", s, errs)
			continue
		}
		want, _ := stdDecode([]byte(s))
		if got := toAny(v); !reflect.DeepEqual(got, want) {
			t.Errorf("Parse(%q) = %#v, want %#v", s, got, want)
		}
	}
	bad := map[string]ErrorKind{
		``:                       SyntaxError,
		`{`:                      SyntaxError,
		`{"a":1,}`:               SyntaxError,
		`[1,]`:                   SyntaxError,
		`01`:                     SyntaxError,
		`1.`:                     SyntaxError,
		`NaN`:                    SyntaxError,
		`{"a":1} {}`:             SyntaxError,
		"\ufeff{}":               SyntaxError,
		"\"a\x01\"":              SyntaxError,
		`"\ud800"`:               SyntaxError,
		`"\udc00x"`:              SyntaxError,
		`"\x"`:                   SyntaxError,
		"\"\xff\"":               InvalidUTF8,
		"\"a\\n\xc3\x28\"":       InvalidUTF8,
		strings.Repeat("[", 300): TooDeep,
	}
	for s, kind := range bad {
		v, errs := Parse([]byte(s))
		if v != nil || len(errs) != 1 || errs[0].Kind != kind {
			t.Errorf("Parse(%q) = %v, %v; want one error of kind %d", s, v, errs, kind)
		}
	}
}

func TestParseReportsEveryDuplicateKey(t *testing.T) {
	v, errs := Parse([]byte(`{"a":1,"b":{"c":1,"c":2},"a":3}`))
	if v == nil {
		t.Fatal("duplicate keys must not be fatal")
	}
	if len(errs) != 2 {
		t.Fatalf("got %d errors, want 2: %v", len(errs), errs)
	}
	for _, e := range errs {
		if e.Kind != DuplicateKey {
			t.Errorf("kind = %d, want DuplicateKey", e.Kind)
		}
	}
	if errs[0].Off != 18 || errs[1].Off != 25 {
		t.Errorf("offsets = %d, %d; want 18, 25", errs[0].Off, errs[1].Off)
	}
}

// TestParseLargeObjects checks repeated keys are found on both sides of the
// switch from scanning to a key set, in an object of 200,000 members (which the
// scan alone would take quadratic time over).
func TestParseLargeObjects(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	n := 200000
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		key := fmt.Sprintf("k%d", i)
		switch i {
		case 5, 10:
			key = "k1" // repeats in the scanned prefix
		case 150000:
			key = "k3" // repeats an early key after the switch
		case 199999:
			key = "k149999"
		}
		fmt.Fprintf(&b, "%q:%d", key, i)
	}
	b.WriteString("}")
	v, errs := Parse([]byte(b.String()))
	if v == nil || len(v.Obj) != n {
		t.Fatalf("parse failed: %v", errs)
	}
	var keys []string
	for _, e := range errs {
		if e.Kind != DuplicateKey {
			t.Fatalf("unexpected error %v", e)
		}
		keys = append(keys, e.Msg)
	}
	want := `[duplicate key "k1" duplicate key "k1" duplicate key "k3" duplicate key "k149999"]`
	if fmt.Sprint(keys) != want {
		t.Errorf("got %v, want %s", keys, want)
	}
}

func TestObjReaderReportsAllProblems(t *testing.T) {
	v, _ := Parse([]byte(`{"name":1,"count":2.5,"flag":"true","extra":null,"list":["a",2]}`))
	var is Issues
	o := AsObj(v, "", &is)
	o.Str("name", true)
	o.Int("count", true)
	o.Bool("flag", true)
	o.Strs("list", true)
	o.Str("missing", true)
	o.Done()
	codes := []string{}
	for _, i := range is.List {
		codes = append(codes, i.Code+":"+i.Path)
	}
	want := []string{
		"schema_wrong_type:name", "schema_wrong_type:count", "schema_wrong_type:flag",
		"schema_wrong_type:list[1]", "schema_missing_field:missing", "schema_unknown_field:extra",
	}
	if !reflect.DeepEqual(codes, want) {
		t.Errorf("issues = %v\nwant %v", codes, want)
	}
}

// FuzzParse checks Parse against encoding/json: whatever Parse accepts without
// problems, encoding/json accepts with the same value; whatever encoding/json
// accepts, Parse accepts unless it holds something this parser is stricter about.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x",{"b":null}]}`, `[1e5,-0.5,true]`, `"\u0041\ud83d\ude00"`, `{"a":1,"a":2}`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, errs := Parse(data)
		std, stdOK := stdDecode(data)
		if v != nil && len(errs) == 0 {
			if !stdOK {
				t.Fatalf("Parse accepted %q but encoding/json rejects it", data)
			}
			if got := toAny(v); !reflect.DeepEqual(got, std) {
				t.Fatalf("Parse(%q) = %#v, encoding/json = %#v", data, got, std)
			}
			return
		}
		if stdOK && v == nil {
			stricter := !utf8.Valid(data) || bytes.Contains(data, []byte(`\u`)) || bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) >= maxDepth
			if !stricter {
				t.Fatalf("Parse rejected %q (%v) but encoding/json accepts it", data, errs)
			}
		}
	})
}

// TestStringsAtEveryOffset checks the word-at-a-time string scan: a string
// of every length up to 40 bytes with one quote, backslash escape, control
// character, invalid byte or multi-byte character at every offset parses as
// the byte-by-byte rules say.
func TestStringsAtEveryOffset(t *testing.T) {
	for n := 0; n <= 40; n++ {
		for at := 0; at < n; at++ {
			for _, ins := range []string{"\xff", "\xc3\xa9", "\x1f", "\\n", "\\\"", "\xe2\x82", "\x7f", "\x80"} {
				content := []byte(strings.Repeat("a", at) + ins + strings.Repeat("b", n-at))
				for _, pad := range []string{"", " ", "  ", "   "} { // shift the string against word boundaries
					doc := append([]byte(pad+`"`), append(content, '"')...)
					v, errs := Parse(doc)
					decoded, ok := stdDecode(doc)
					switch {
					case !utf8.Valid(content):
						if v != nil || len(errs) != 1 || errs[0].Kind != InvalidUTF8 {
							t.Fatalf("%q: %v %v, want an invalid UTF-8 error", doc, v, errs)
						}
						off := len(pad) + 1 + strings.IndexFunc(string(content), func(r rune) bool { return r == utf8.RuneError })
						if errs[0].Off != off {
							t.Fatalf("%q: error at %d, want %d", doc, errs[0].Off, off)
						}
					case !ok:
						if v != nil || len(errs) != 1 || errs[0].Kind != SyntaxError {
							t.Fatalf("%q: %v %v, want a syntax error", doc, v, errs)
						}
					default:
						if v == nil || len(errs) != 0 || v.Str != decoded.(string) {
							t.Fatalf("%q: %v %v, want %q", doc, v, errs, decoded)
						}
					}
				}
			}
		}
	}
}
