package query_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/kgimg/kgimgwrite"
	"github.com/kgc-project/kgc/runtime/query"
)

// sampleImages builds the shipped sample packages into a temp dir, as
// `make images` does (an edge program would ship the .kgimg files instead).
func sampleImages() (dir string, cleanup func()) {
	dir, err := os.MkdirTemp("", "query-example-")
	if err != nil {
		log.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "packages"), 0o755)
	os.MkdirAll(filepath.Join(dir, "profiles"), 0o755)
	for _, spec := range pkggen.Shipped() {
		w, err := pkggen.Write(spec, filepath.Join(dir, "packages"), filepath.Join(dir, "profiles"))
		if err != nil {
			log.Fatal(err)
		}
		res, err := gate.Run(w.PackageDir, gate.Options{ProfileRoot: filepath.Join(dir, "profiles")})
		if err != nil || !res.Valid() {
			log.Fatalf("gate: %v", err)
		}
		root, _ := os.OpenRoot(w.PackageDir)
		data, err := kgimgwrite.Build(res, func(p string) ([]byte, error) {
			f, err := root.Open(p)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			return io.ReadAll(f)
		}, kgimgwrite.Options{Compiler: "example"})
		root.Close()
		if err != nil {
			log.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, w.SnapshotID+".kgimg"), data, 0o644)
	}
	return dir, func() { os.RemoveAll(dir) }
}

// Open images and ask for a standard, without MCP.
func Example() {
	dir, cleanup := sampleImages()
	defer cleanup()
	svc, err := query.Open([]string{dir}, query.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer svc.Close()
	ctx := context.Background()

	// A typed call: the constructor fills the defaults from the schema.
	std, err := svc.Standard(ctx, query.NewStandardRequest("kgc-sample-mathematics-grades-1-3",
		query.ByNodeID("e4c56a5e-8e04-5198-bd96-db37083d400d")))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(std.Node.Code(), "-", std.Node.Statement())

	// A request that breaks its schema is refused as a tool call would be.
	_, err = svc.Standard(ctx, query.StandardRequest{Identifier: query.ByNodeID("x")})
	fmt.Println(err)

	// Any tool by name, with its arguments as JSON: the same answers.
	out, err := svc.Call(ctx, "get_framework", json.RawMessage(`{"request":{"frameworkId":"no-such-framework"}}`))
	fmt.Println(out, err)
	// Output:
	// M1.1.1.1 - Count counting and whole numbers, step 1 of 3, in GRADE ONE.
	// Input validation error: request: frameworkId or snapshotId is required
	// <nil> framework_not_found: framework no-such-framework is not available. Next action: call list_frameworks to see the accepted frameworks.
}

// Search standards by words and by code, then walk one standard's context
// and what it builds towards.
func ExampleService_SearchStandards() {
	dir, cleanup := sampleImages()
	defer cleanup()
	svc, err := query.Open([]string{dir}, query.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer svc.Close()
	ctx := context.Background()
	const maths = "kgc-sample-mathematics-grades-1-3"

	words, err := svc.SearchStandards(ctx, query.NewStandardSearchRequest("whole numbers", maths))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("standards with both words:", words.Page.TotalMatchingCount, "- first:", words.Page.Hits[0].Node.Code())

	byCode := query.NewCodeSearchRequest(query.SearchCodePrefix, "M1.1.1", maths)
	byCode.Limit = 3
	page, err := svc.SearchStandards(ctx, byCode)
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range page.Page.Hits {
		fmt.Println(h.Node.Code(), h.Score.Value)
	}
	fmt.Println("more:", page.Page.HasMore)
	all := len(page.Page.Hits)
	for next, ok := byCode.Next(page); ok; next, ok = next.Next(page) {
		if page, err = svc.SearchStandards(ctx, next); err != nil {
			log.Fatal(err)
		}
		all += len(page.Page.Hits)
	}
	fmt.Println("every page:", all, "of", page.Page.TotalMatchingCount)

	walk, err := svc.Traverse(ctx, query.NewTraverseRequest(maths,
		query.Selector{IdentifierType: "statement_code", StatementCode: "M1.1.1.1"}))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(walk.Distances), "standards reached;", walk.TruncationReasons)
	// Output:
	// standards with both words: 12 - first: M1.1.1
	// M1.1.1 1000000
	// M1.1.1.1 500000
	// M1.1.1.2 500000
	// more: true
	// every page: 4 of 4
	// 3 standards reached; []
}
