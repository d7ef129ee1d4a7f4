package canonjson

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

type inner struct {
	Z    string   `json:"z"`
	A    *float64 `json:"a"`
	List []string `json:"list"`
}

type base struct {
	ID    string `json:"id"`
	Order uint32 `json:"order"`
}

type extra struct {
	Extra *string `json:"extra"`
}

type outer struct {
	base
	*extra
	Name     *string           `json:"name"`
	Opt      string            `json:"opt,omitempty"`
	OptPtr   *inner            `json:"optPtr,omitempty"`
	OptList  []int             `json:"optList,omitempty"`
	Count    int               `json:"count"`
	Ok       bool              `json:"ok"`
	Inner    inner             `json:"inner"`
	Items    []inner           `json:"items"`
	Any      any               `json:"any"`
	Raw      json.RawMessage   `json:"raw"`
	Map      map[string]*inner `json:"map"`
	Skip     string            `json:"-"`
	private  int
	Untagged string
	ID       string `json:"id"` // wins over the embedded id
}

func randString(r *rand.Rand) string {
	runes := []string{"a", "Z", "é", "\u2028", "\"", "\\", "\n", "\x01", "😀", "\xff", "<", "&"}
	s := ""
	for i := r.IntN(6); i > 0; i-- {
		s += runes[r.IntN(len(runes))]
	}
	return s
}

func randInner(r *rand.Rand) inner {
	in := inner{Z: randString(r)}
	if r.IntN(2) == 0 {
		f := []float64{0, 1, 0.5, 1e-7, 123456789, 1e21, -2.25}[r.IntN(7)]
		in.A = &f
	}
	if r.IntN(3) > 0 {
		in.List = []string{}
		for i := r.IntN(3); i > 0; i-- {
			in.List = append(in.List, randString(r))
		}
	}
	return in
}

func randOuter(r *rand.Rand) outer {
	o := outer{base: base{ID: randString(r), Order: r.Uint32()}, Count: r.IntN(1000) - 500, Ok: r.IntN(2) == 0,
		Inner: randInner(r), Opt: []string{"", "x"}[r.IntN(2)], Skip: "never", private: 1, Untagged: randString(r), ID: randString(r)}
	if r.IntN(2) == 0 {
		s := randString(r)
		o.Name = &s
	}
	if r.IntN(2) == 0 {
		o.extra = &extra{}
		if r.IntN(2) == 0 {
			s := randString(r)
			o.extra.Extra = &s
		}
	}
	if r.IntN(2) == 0 {
		in := randInner(r)
		o.OptPtr = &in
	}
	if r.IntN(2) == 0 {
		o.OptList = []int{}
	}
	for i := r.IntN(3); i > 0; i-- {
		o.Items = append(o.Items, randInner(r))
	}
	o.Any = []any{nil, "s", 1.5, map[string]any{"b": 1, "a": []any{true}}, randInner(r)}[r.IntN(5)]
	o.Raw = json.RawMessage([]string{`{"b":1,"a":[1,2]}`, `null`, `"x"`, `1.50`}[r.IntN(4)])
	if r.IntN(2) == 0 {
		o.Map = map[string]*inner{}
		for i := r.IntN(3); i > 0; i-- {
			in := randInner(r)
			o.Map[randString(r)] = &in
		}
		o.Map["nil"] = nil
	}
	return o
}

// The typed encoder gives the bytes of the long way (encoding/json, parsed and
// re-encoded canonically) for every shape it handles.
func TestTypedMatchesReflected(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		o := randOuter(r)
		for _, v := range []any{o, &o, []outer{o}, map[string]outer{"k": o}, []*outer{nil, &o}} {
			got, err := Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			want, err := appendReflected(nil, v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Fatalf("typed:\n%s\nreflected:\n%s", got, want)
			}
		}
	}
}

type node struct {
	V    int     `json:"v"`
	Next *node   `json:"next"`
	Kids []*node `json:"kids"`
}

// A recursive type gets one encoder that refers to itself.
func TestTypedRecursive(t *testing.T) {
	n := &node{V: 1, Next: &node{V: 2}, Kids: []*node{{V: 3}}}
	got, err := Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"kids":[{"kids":null,"next":null,"v":3}],"next":{"kids":null,"next":null,"v":2},"v":1}`; string(got) != want {
		t.Fatalf("%s", got)
	}
}

// A NaN is refused on the typed path too.
func TestTypedNaN(t *testing.T) {
	nan := 0.0
	nan /= nan
	if _, err := Marshal(inner{A: &nan}); err == nil {
		t.Fatal("NaN encoded")
	}
}
