package query

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
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
