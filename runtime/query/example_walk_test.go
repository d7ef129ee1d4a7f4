package query_test

import (
	"context"
	"fmt"
	"log"

	"github.com/kgc-project/kgc/runtime/query"
)

// How a text query's words must match: the exact words (every one, or any),
// any light form of them, or the words in order.
func ExampleWords() {
	svc, done := openSamples()
	defer done()
	ctx := context.Background()
	const maths = "kgc-sample-mathematics-grades-1-3"
	count := func(q string, m *query.MatchPolicy) int {
		r := query.NewStandardSearchRequest(q, maths)
		r.Match = m
		res, err := svc.SearchStandards(ctx, r)
		if err != nil {
			log.Fatal(err)
		}
		return res.Page.TotalMatchingCount
	}
	fmt.Println("every word:", count("whole number", query.Words(query.MatchTokens, query.OperatorAll)))
	fmt.Println("any word:", count("whole number", query.Words(query.MatchTokens, query.OperatorAny)))
	fmt.Println("any form of every word:", count("whole number", query.Words(query.MatchStems, query.OperatorAll)))
	fmt.Println(`"counting and whole numbers", in order:`, count("counting and whole numbers", query.Phrase()))
	// Output:
	// every word: 0
	// any word: 12
	// any form of every word: 12
	// "counting and whole numbers", in order: 12
}

// Where a standard leads in the generated learning progressions: a bounded
// walk along buildsTowards, then the paths between two standards.
func ExampleService_Traverse() {
	svc, done := openSamples()
	defer done()
	ctx := context.Background()
	const maths = "kgc-sample-mathematics-grades-1-3"
	code := func(c string) query.Selector {
		return query.Selector{IdentifierType: "statement_code", StatementCode: c}
	}
	r := query.NewTraverseRequest(maths, code("M1.1.1.1"))
	r.Direction, r.MaxDepth = "downstream", 2
	walk, err := svc.Traverse(ctx, r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(walk.Distances), "standards reached, the origin included;", walk.EpistemicStatus, walk.TruncationReasons)
	for _, d := range walk.Distances {
		fmt.Println(" depth", d.Depth)
	}
	far := walk.Distances[len(walk.Distances)-1].NodeID
	p := query.NewPathsRequest(maths, code("M1.1.1.1"), query.ByNodeID(far))
	p.MaxPaths = 3
	paths, err := svc.Paths(ctx, p)
	if err != nil {
		log.Fatal(err)
	}
	for _, path := range paths.Paths {
		fmt.Println("a path of", len(path.RelationshipIDs), "edges")
	}
	// Output:
	// 3 standards reached, the origin included; deterministic_derived []
	//  depth 0
	//  depth 1
	//  depth 2
	// a path of 2 edges
}

// A resource read in windows of its original bytes, each with the cursor
// of the next, until the last says the content is complete.
func ExampleService_ReadEvidence() {
	svc, done := openSamples()
	defer done()
	ctx := context.Background()
	fw, err := svc.GetFramework(ctx, query.FrameworkRequest{FrameworkID: "kgc-sample-mathematics-grades-1-3"})
	if err != nil {
		log.Fatal(err)
	}
	r := query.NewEvidenceRequest("kgfegmcp://framework/kgc-sample-mathematics-grades-1-3/snapshot/" + fw.Framework.SnapshotID + "/manifest")
	r.MaxContentBytes = 2048
	windows, total, first := 0, 0, ""
	for {
		res, err := svc.ReadEvidence(ctx, r)
		if err != nil {
			log.Fatal(err)
		}
		if windows == 0 {
			first = res.ContentStatus
		}
		windows, total = windows+1, total+res.Page.ReturnedBytes
		if res.Page.IsComplete {
			fmt.Println(windows, first, "windows; every byte read once:", total == res.Page.TotalBytes)
			break
		}
		r.Cursor = res.Page.NextCursor
	}
	// Output:
	// 11 partial windows; every byte read once: true
}
