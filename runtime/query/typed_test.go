package query

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/canonjson"
)

// TestTypedRequestsAreCheckedLikeCalls: the typed API refuses what Call
// refuses, with the same input error — patterns included (a schema built
// for one typed call checked no pattern: ListFrameworks took languages
// ["!!"] and SearchStandards an ill-formed framework ID).
func TestTypedRequestsAreCheckedLikeCalls(t *testing.T) {
	svc := New(sampleCatalog(t), Options{})
	ctx := context.Background()
	_, typedErr := svc.ListFrameworks(ctx, ListFrameworksRequest{Languages: []string{"!!"}})
	_, callErr := svc.Call(ctx, "list_frameworks", json.RawMessage(`{"request":{"languages":["!!"]}}`))
	var typed, call *InputError
	if !errors.As(typedErr, &typed) || !errors.As(callErr, &call) || typed.Error() != call.Error() {
		t.Errorf("languages [\"!!\"]: typed %v, call %v", typedErr, callErr)
	}
	r := NewStandardSearchRequest("count", "Not An ID!")
	if _, err := svc.SearchStandards(ctx, r); !errors.As(err, &typed) {
		t.Errorf("an ill-formed framework ID: %v, want an input error", err)
	}
}

// TestPagedEncodingIsTheResults: the bytes a search hands the adapter with
// its page (Paged.Encoded, so that the page is not encoded twice) are the
// page's canonical JSON exactly — also when the page changed after its
// ceiling check (suggestions on a page with few matches) — and most pages
// carry them.
func TestPagedEncodingIsTheResults(t *testing.T) {
	svc := New(sampleCatalog(t), Options{ResultsAliasImages: true})
	ctx := context.Background()
	carried := 0
	for _, args := range []string{
		`{"request":{"mode":"text","query":"count numbers","match":{"matchMode":"tokens","operator":"any"},"limit":3}}`,
		`{"request":{"mode":"text","query":"numbers","match":{"matchMode":"tokens","operator":"all"}}}`,
		`{"request":{"mode":"text","query":"multiplcation","match":{"matchMode":"tokens","operator":"all"}}}`,
		`{"request":{"mode":"code_prefix","query":"M1"}}`,
		`{"request":{"mode":"code_exact","query":"M1.1.1"}}`,
	} {
		for _, tool := range []string{"search_standards", "search_learning_components"} {
			a := args
			if tool == "search_learning_components" {
				a = strings.Replace(strings.Replace(a, `"mode":"text"`, `"mode":"learning_component_text"`, 1), `"mode":"code_`, `"mode":"learning_component_supported_code_`, 1)
			}
			out, err := svc.Call(ctx, tool, json.RawMessage(a))
			if err != nil {
				continue // a mode the sample cannot serve
			}
			p := out.(*Paged)
			if p.Encoded == nil {
				continue
			}
			carried++
			want, err := canonjson.Marshal(p.Result)
			if err != nil || !bytes.Equal(p.Encoded, want) {
				t.Errorf("%s %s: encoded bytes differ from the result's\n%s\nwant\n%s", tool, a, p.Encoded, want)
			}
		}
	}
	if carried == 0 {
		t.Error("no page carried its encoding")
	}
}
