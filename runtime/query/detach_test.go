package query

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"reflect"
	"runtime"
	"runtime/debug"
	"sort"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// readAll reads every byte of every string and byte slice reachable from v.
func readAll(v reflect.Value, h interface{ Write([]byte) (int, error) }) {
	switch v.Kind() {
	case reflect.String:
		h.Write([]byte(v.String()))
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			readAll(v.Elem(), h)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				readAll(v.Field(i), h)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			h.Write(v.Bytes())
			return
		}
		for i := range v.Len() {
			readAll(v.Index(i), h)
		}
	case reflect.Map: // in key order, so that two reads hash alike
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys {
			readAll(k, h)
			readAll(v.MapIndex(k), h)
		}
	}
}

// TestResultsOutliveClose: what the Service returns — typed results, Call's
// values, resources — stays readable after Close has unmapped the images (the
// package doc's promise): every string and byte of them is read afterwards,
// with faults turned into panics. And the same results read the same before
// and after, so nothing was lost in the copy.
func TestResultsOutliveClose(t *testing.T) {
	paths, err := catalog.Paths([]string{imgtest.Images(t, nil, nil)})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Open(paths, catalog.PolicyFail, nil)
	if err != nil {
		t.Fatal(err)
	}
	svc := New(cat, Options{})
	ctx := context.Background()
	ind := pkggen.NodeID(pkggen.Shipped()[1], 1, 0, 0, 2)
	var results []any
	keep := func(v any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, v)
	}
	keep(svc.SearchStandards(ctx, NewStandardSearchRequest("count", mathsSample)))
	keep(svc.Standard(ctx, NewStandardRequest(mathsSample, ByNodeID(ind))))
	keep(svc.StandardContext(ctx, NewContextRequest(mathsSample, ind)))
	keep(svc.StandardComponents(ctx, NewStandardRequest(mathsSample, ByNodeID(ind))))
	keep(svc.StandardProgressions(ctx, NewStandardProgressionsRequest(mathsSample, ByNodeID(ind))))
	keep(svc.Traverse(ctx, NewTraverseRequest(mathsSample, ByNodeID(ind))))
	keep(svc.FrameworkStatistics(ctx, FrameworkRequest{FrameworkID: mathsSample}))
	keep(svc.ListFrameworks(ctx, ListFrameworksRequest{}))
	keep(svc.Call(ctx, "get_standard_context", json.RawMessage(`{"request":{"frameworkId":"`+mathsSample+`","nodeId":"`+ind+`"}}`)))
	keep(svc.ReadResource(ctx, "kgfegmcp://catalog"))
	before := make([]uint64, len(results))
	for i, r := range results {
		h := fnv.New64a()
		readAll(reflect.ValueOf(r), h)
		before[i] = h.Sum64()
	}
	svc.Close()
	runtime.GC()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	for i, r := range results {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("result %d (%T) points into an unmapped image: %v", i, r, p)
				}
			}()
			h := fnv.New64a()
			readAll(reflect.ValueOf(r), h)
			if h.Sum64() != before[i] {
				t.Errorf("result %d (%T) changed after Close", i, r)
			}
		}()
	}
}

// TestResultsAreTheCallersOwn: a typed result shares nothing with the
// Service's caches or the catalog's manifests — a caller that changes one
// changes nothing another call returns. (Detaching wrote through them
// before: two goroutines calling FrameworkStatistics raced under -race.)
func TestResultsAreTheCallersOwn(t *testing.T) {
	svc := New(sampleCatalog(t), Options{})
	ctx := context.Background()
	fw := "kgc-sample-mathematics-grades-1-3"
	get := func() *StatisticsResult {
		res, err := svc.FrameworkStatistics(ctx, FrameworkRequest{FrameworkID: fw})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := get()
	want, _ := json.Marshal(first)
	if len(first.Statistics.StatementTypeCounts) == 0 || len(first.SourceMetadata.Languages) == 0 {
		t.Fatalf("the sample's statistics have nothing to change: %s", want)
	}
	first.Statistics.StatementTypeCounts[0].Count = -1
	*first.Statistics.StatementTypeCounts[0].Value = "changed"
	first.SourceMetadata.Languages[0] = "changed" // the manifest's own slice, before
	if got, _ := json.Marshal(get()); string(got) != string(want) {
		t.Errorf("a caller's change reached the next call:\n%s\nwant\n%s", got, want)
	}
}
