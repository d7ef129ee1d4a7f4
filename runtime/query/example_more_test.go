package query_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/kgc-project/kgc/runtime/query"
)

// openSamples opens the sample images (see sampleImages).
func openSamples() (*query.Service, func()) {
	dir, cleanup := sampleImages()
	svc, err := query.Open([]string{dir}, query.Options{})
	if err != nil {
		log.Fatal(err)
	}
	return svc, func() { svc.Close(); cleanup() }
}

// Where a standard sits and what is under it: its children come in
// curriculum order, and the answer says what that order rests on.
func ExampleService_StandardContext() {
	svc, done := openSamples()
	defer done()
	ctx := context.Background()
	const maths = "kgc-sample-mathematics-grades-1-3"
	hit, err := svc.SearchStandards(ctx, query.NewCodeSearchRequest(query.SearchCodeExact, "M1.1.1", maths))
	if err != nil {
		log.Fatal(err)
	}
	res, err := svc.StandardContext(ctx, query.NewContextRequest(maths, hit.Page.Hits[0].Node.NodeID))
	if err != nil {
		log.Fatal(err)
	}
	code := map[string]string{}
	for _, n := range res.Nodes {
		code[n.NodeID] = n.Code()
	}
	fmt.Println("path:", len(res.RootPaths.Paths), "root path,", len(res.RootPaths.Paths[0].NodeIDs), "nodes")
	fmt.Print("children, ordered by ", res.DirectChildren.Order, ":")
	for _, c := range res.DirectChildren.Neighbors {
		fmt.Print(" ", code[c.NodeID])
	}
	fmt.Println()
	// Output:
	// path: 1 root path, 4 nodes
	// children, ordered by code: M1.1.1.1 M1.1.1.2 M1.1.1.3
}

// The learning components of a standard: the package's generated
// decomposition, each with the generator's confidence.
func ExampleService_SearchComponents() {
	svc, done := openSamples()
	defer done()
	ctx := context.Background()
	r := query.NewComponentSearchRequest("counting", "kgc-sample-mathematics-grades-1-3")
	r.Limit = 2
	page, err := svc.SearchComponents(ctx, r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.Page.TotalMatchingCount, "components mention counting; the first supports", len(page.Page.Hits[0].SupportedStandards), "standards")
	fmt.Println(page.Page.Hits[0].EpistemicStatus)

	// A word no component uses gets the words they do use.
	typo, err := svc.SearchComponents(ctx, query.NewComponentSearchRequest("countng", "kgc-sample-mathematics-grades-1-3"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(typo.Page.TotalMatchingCount, "matches;", typo.Page.Suggestions[0].Message)
	// Output:
	// 9 components mention counting; the first supports 2 standards
	// retrieval_candidate
	// 0 matches; did you mean "counting" for "countng"? (used in 9 statements of the searched frameworks)
}

// The stored (generated) learning-progression edges of a standard, and
// where they are when a grouping has none of its own.
func ExampleService_StandardProgressions() {
	svc, done := openSamples()
	defer done()
	ctx := context.Background()
	const maths = "kgc-sample-mathematics-grades-1-3"
	code := func(c string) query.Selector {
		return query.Selector{IdentifierType: "statement_code", StatementCode: c}
	}
	edges, err := svc.StandardProgressions(ctx, query.NewStandardProgressionsRequest(maths, code("M2.1.2.2")))
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range edges.Connections {
		fmt.Println(*c.ConnectionKind, c.RelationshipID != "")
	}
	none, err := svc.StandardProgressions(ctx, query.NewStandardProgressionsRequest(maths, code("M2.1.2")))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(none.Connections), "edges on M2.1.2:", strings.SplitN(none.NearbyNotice, ". ", 2)[0])
	// Output:
	// outgoing_builds true
	// incoming_builds true
	// related true
	// related true
	// 0 edges on M2.1.2: No stored progression edge touches M2.1.2
}

// One search in two frameworks, each ranked on its own: candidates, never
// equivalences, and each section says how many it has in all.
func ExampleService_CompareFrameworkEvidence() {
	svc, done := openSamples()
	defer done()
	r := query.NewCompareRequest("step", "kgc-sample-mathematics-grades-1-3", "kgc-sample-english-grades-1-2")
	r.MaxMatchesPerFramework = 2
	res, err := svc.CompareFrameworkEvidence(context.Background(), r)
	if err != nil {
		log.Fatal(err)
	}
	for _, sec := range res.Sections {
		fmt.Println(sec.FrameworkID, len(sec.Matches), "of", sec.TotalMatchingCount, sec.Matches[0].RetrievalStatus)
	}
	fmt.Println(res.PublisherAlignments == nil)
	// Output:
	// kgc-sample-english-grades-1-2 2 of 36 retrieval_candidate
	// kgc-sample-mathematics-grades-1-3 2 of 81 retrieval_candidate
	// true
}

// Any tool by name with JSON arguments, as an MCP adapter calls it: the
// answer is the same typed result the methods return.
func ExampleService_Call() {
	svc, done := openSamples()
	defer done()
	out, err := svc.Call(context.Background(), "get_framework_statistics",
		[]byte(`{"request":{"frameworkId":"kgc-sample-english-grades-1-2"}}`))
	if err != nil {
		log.Fatal(err)
	}
	stats := out.(*query.StatisticsResult)
	fmt.Println(stats.Package.PackageIdentity.FrameworkID, stats.Statistics.TotalItemNodes, "items")
	_, err = svc.Call(context.Background(), "get_framework_statistics", []byte(`{"frameworkId":"x"}`))
	fmt.Println(err)
	// Output:
	// kgc-sample-english-grades-1-2 54 items
	// Input validation error: arguments: frameworkId is a field of request: get_framework_statistics takes its fields wrapped in "request", e.g. {"request":{"frameworkId":"x"}}
}
