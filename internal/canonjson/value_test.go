package canonjson

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kgc-project/kgc/internal/jsonv"
)

type vInner struct {
	Kind  string  `json:"kind"`
	Value *string `json:"value,omitempty"`
}

type VEmbedded struct {
	Cursor *string  `json:"cursor,omitempty"`
	IDs    []string `json:"ids,omitempty"`
	Limit  int      `json:"limit,omitempty"`
}

type vRequest struct {
	VEmbedded
	Mode    string            `json:"mode"`
	Query   string            `json:"query"`
	Match   *vInner           `json:"match,omitempty"`
	Grades  []string          `json:"grades"`
	Sel     vInner            `json:"identifier"`
	Deep    bool              `json:"deep"`
	Ratio   float64           `json:"ratio"`
	Extra   map[string]any    `json:"extra,omitempty"`
	Raw     json.RawMessage   `json:"raw,omitempty"`
	Any     any               `json:"any"`
	Labels  map[string]string `json:"labels"`
	Skipped string            `json:"-"`
}

func samples() []vRequest {
	s := "x"
	return []vRequest{
		{},
		{VEmbedded: VEmbedded{Cursor: &s, IDs: []string{"a", "b"}, Limit: 25}, Mode: "text", Query: "fractions ü \u2028",
			Match: &vInner{Kind: "stems", Value: &s}, Grades: []string{}, Sel: vInner{Kind: "node_id"}, Deep: true, Ratio: 0.25,
			Extra: map[string]any{"b": 1.0, "a": []any{"x", true, nil}}, Raw: json.RawMessage(`{"z":1,"a":[2]}`), Any: map[string]any{"k": "v"},
			Labels: map[string]string{"y": "1", "x": "2"}},
		{Mode: "bad \xff utf8", Ratio: 1e-7, Any: 3.5},
	}
}

// TestValueOfIsMarshalParsed: ValueOf gives the document Marshal writes, as
// jsonv reads it back.
func TestValueOfIsMarshalParsed(t *testing.T) {
	for i, x := range samples() {
		want, err := Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := ValueOf(x)
		if err != nil {
			t.Fatal(err)
		}
		if got := Encode(doc); string(got) != string(want) {
			t.Errorf("sample %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// TestDecodeIsUnmarshal: Decode fills a value as json.Unmarshal fills it from
// the same document.
func TestDecodeIsUnmarshal(t *testing.T) {
	for i, x := range samples() {
		b, _ := Marshal(x)
		var want vRequest
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		doc, errs := jsonv.Parse(b)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		var got vRequest
		if err := Decode(doc, &got); err != nil {
			t.Fatal(err)
		}
		if gb, _ := Marshal(got); string(gb) != string(b) || !reflect.DeepEqual(normal(got), normal(want)) {
			t.Errorf("sample %d:\n got %+v\nwant %+v", i, got, want)
		}
	}
	var r vRequest
	doc, _ := jsonv.Parse([]byte(`{"mode":3}`))
	if err := Decode(doc, &r); err == nil {
		t.Error("a number decoded into a string")
	}
}

// normal drops what DeepEqual tells apart but JSON does not (raw spacing).
func normal(r vRequest) vRequest {
	if r.Raw != nil {
		r.Raw = Encode(mustParse(r.Raw))
	}
	return r
}

func mustParse(b []byte) *jsonv.Value { v, _ := jsonv.Parse(b); return v }
