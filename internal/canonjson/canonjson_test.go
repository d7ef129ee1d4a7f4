package canonjson

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// slowMarshal is the reference: encoding/json, then the canonical re-encoding.
func slowMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := appendReflected(nil, v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDirectEncodingMatchesEncodingJSON(t *testing.T) {
	type named struct {
		A string `json:"a"`
		B []int  `json:"b"`
	}
	values := []any{
		nil, true, false, 0, -1, 1 << 40, int64(-7), uint32(4000000000),
		0.0, 1.5, -2.25, 1e-7, 1e21, 123456789.125, 0.1, 1e20, 5e-324, math.MaxFloat64,
		"", "plain", "quote \" backslash \\ slash / <html> & tab\t nl\n cr\r bell\a del\x7f",
		"non-ASCII: é ü ½ 中文 😀 \u2028 \u2029 \ufeff", "invalid \xff\xfe utf-8 \xc3", "\xed\xa0\x80 surrogate",
		map[string]any{"z": 1, "a": []any{"x", nil, 2.5}, "é": map[string]any{}, "A": []string{"b", "a"}},
		[]map[string]any{{"k": "v"}, nil}, []string(nil), []any(nil), map[string]any(nil), []string{},
		json.RawMessage(`{"b": 1, "a": [1.50, "x"]}`),
		named{A: "x", B: []int{3, 1}},
		map[string]any{"nested": named{A: "y"}, "list": []any{named{}, map[string]any{"q": 1}}},
	}
	for _, v := range values {
		got, err := Marshal(v)
		if err != nil {
			t.Fatalf("%#v: %v", v, err)
		}
		if want := slowMarshal(t, v); !bytes.Equal(got, want) {
			t.Errorf("%#v:\n got %s\nwant %s", v, got, want)
		}
	}
	if _, err := Marshal(math.NaN()); err == nil {
		t.Error("NaN encoded")
	}
	if _, err := Marshal(map[string]any{"x": math.Inf(1)}); err == nil {
		t.Error("Inf encoded")
	}
}

// BenchmarkMarshal encodes a result-shaped value: a list of records of strings,
// numbers and nested lists.
func BenchmarkMarshal(b *testing.B) {
	rows := make([]any, 0, 50)
	for i := 0; i < 50; i++ {
		rows = append(rows, map[string]any{
			"nodeId": "0014ea30-7a68-5ae0-bd90-fbfcc93bc711", "description": "Demonstrate an understanding of quantities and place value for multi-digit whole numerals up to 100,000 — “quoted”.",
			"gradeLevel": []string{"4", "5"}, "sourceExportOrder": i, "confidence": 0.85, "isCurrent": true, "statementCode": nil,
			"facets": map[string]any{"localSubject": "Mathematics", "normalizedGrades": []string{"4"}, "statementType": "Content Standard"},
		})
	}
	v := map[string]any{"nodes": rows, "page": map[string]any{"returnedCount": 50, "hasMore": false}}
	n, _ := Marshal(v)
	b.SetBytes(int64(len(n)))
	b.ReportAllocs()
	for b.Loop() {
		Marshal(v)
	}
}
