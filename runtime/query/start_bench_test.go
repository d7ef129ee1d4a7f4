package query

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// cloneDir returns a directory of n clone images: KGC_BENCH_CLONES/clones-n
// when that exists (bench/startbench -keep DIR builds them), otherwise one
// built under root (slow past 1,000).
func cloneDir(b *testing.B, root string, n int) string {
	b.Helper()
	if d := os.Getenv("KGC_BENCH_CLONES"); d != "" {
		dir := filepath.Join(d, "clones-"+strconv.Itoa(n))
		if _, err := os.Stat(dir); err == nil {
			return dir
		}
	}
	cloneCatalog(b, root, n).Close()
	v, _ := cloneDirs.Load(root + "/" + strconv.Itoa(n))
	return v.(string)
}

// BenchmarkStart is what a server does between exec and its first answer
// over a catalog of n clone images (bench/startbench measures the same
// through the binary): open and verify the catalog, build the query layer
// and warm it, answer list_frameworks. live-B/image is the heap still in use
// afterwards (after a collection) per image: what the catalog and the query
// layer keep. KGC_BENCH_CLONES names a directory of prebuilt catalogs
// (clones-N, as bench/startbench -keep writes them); KGC_BENCH_SIZES the sizes
// (default 100,1000).
func BenchmarkStart(b *testing.B) {
	root := b.TempDir()
	sizes := []int{100, 1000}
	if s := os.Getenv("KGC_BENCH_SIZES"); s != "" {
		sizes = nil
		for _, f := range filepath.SplitList(s) {
			n, err := strconv.Atoi(f)
			if err != nil {
				b.Fatal(err)
			}
			sizes = append(sizes, n)
		}
	}
	args := []byte(`{"request":{}}`)
	for _, n := range sizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			paths, err := catalog.Paths([]string{cloneDir(b, root, n)})
			if err != nil {
				b.Fatal(err)
			}
			var live uint64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				cat, err := catalog.Open(paths, catalog.PolicyFail, nil)
				if err != nil {
					b.Fatal(err)
				}
				s := New(cat, Options{})
				s.Warm()
				if _, err := s.Call(context.Background(), "list_frameworks", args); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&after)
				runtime.KeepAlive(s)
				cat.Close()
				s = nil
				runtime.GC()
				runtime.ReadMemStats(&before)
				live = after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
				b.StartTimer()
			}
			b.ReportMetric(float64(live)/float64(len(paths)), "live-B/image")
		})
	}
}

// BenchmarkFirstStandard is a server's first get_standard after its start
// over a catalog of n clone images (none of which declares publisher
// relations): open the catalog, then read one standard of one clone. It
// verifies that clone's image, and no other (a standard's publisher
// relations verify only the packages that declare some).
func BenchmarkFirstStandard(b *testing.B) {
	root := b.TempDir()
	spec := pkggen.Shipped()[0]
	spec.FrameworkID = "kgc-clone-0000"
	args := []byte(`{"request":{"frameworkId":"kgc-clone-0000","identifier":{"identifierType":"node_id","nodeId":"` + pkggen.NodeID(spec, 0, 0, 0, 0) + `"}}}`)
	for _, n := range []int{100, 1000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			paths, err := catalog.Paths([]string{cloneDir(b, root, n)})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				cat, err := catalog.Open(paths, catalog.PolicyFail, nil)
				if err != nil {
					b.Fatal(err)
				}
				res, err := New(cat, Options{}).Call(context.Background(), "get_standard", args)
				if err != nil {
					b.Fatal(err)
				}
				if r, ok := res.(*StandardResult); !ok || r.Node.NodeID == "" {
					b.Fatalf("not the standard: %T %+v", res, res)
				}
				b.StopTimer()
				cat.Close()
				b.StartTimer()
			}
		})
	}
}
