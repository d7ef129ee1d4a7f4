package query

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// cloneCatalog opens n images, each its own framework and profile: clones of
// the English sample (54 standards) under distinct framework IDs, built once
// into a directory under root.
var cloneDirs sync.Map

func cloneCatalog(b *testing.B, root string, n int) *catalog.Catalog {
	b.Helper()
	dir, ok := cloneDirs.Load(root + "/" + strconv.Itoa(n))
	if !ok {
		d := filepath.Join(root, strconv.Itoa(n))
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < n; i++ {
			spec := pkggen.Shipped()[0]
			spec.FrameworkID = fmt.Sprintf("kgc-clone-%04d", i)
			f := pkgtest.Write(b, spec)
			data, _ := imgtest.Build(b, f.Dir, f.Profiles, "")
			if err := os.WriteFile(filepath.Join(d, strconv.Itoa(i)+".kgimg"), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		cloneDirs.Store(root+"/"+strconv.Itoa(n), d)
		dir = d
	}
	return imgtest.Catalog(b, dir.(string))
}

// BenchmarkFederatedSearch is one 25-hit federated text search (every
// framework's current snapshot) over catalogs of 10, 100 and 1,000 images,
// reporting the encoded result's bytes.
func BenchmarkFederatedSearch(b *testing.B) {
	root := b.TempDir()
	for _, n := range []int{10, 100, 1000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			s := New(cloneCatalog(b, root, n), Options{})
			args := []byte(`{"request":{"mode":"text","query":"read words","match":{"matchMode":"tokens","operator":"any"},"limit":25}}`)
			var size int
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				out, err := s.Call(context.Background(), "search_standards", args)
				if err != nil {
					b.Fatal(err)
				}
				enc, _ := canonjson.Marshal(out.(*Paged).Result)
				size = len(enc)
			}
			b.ReportMetric(float64(size), "result-bytes")
		})
	}
}

// BenchmarkLargeTextSearch is one 25-hit text search for a common term
// ("number", in about one standard of eight) and for a rare two-term query on
// KGC_BENCH_IMAGE, a million-standard synthetic image (bench/README.md);
// skipped without it.
func BenchmarkLargeTextSearch(b *testing.B) {
	path := os.Getenv("KGC_BENCH_IMAGE")
	if path == "" {
		b.Skip("SKIP: set KGC_BENCH_IMAGE to a large synthetic image (bench/README.md) to run this benchmark")
	}
	cat, err := catalog.Open([]string{path}, catalog.PolicyFail, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(cat.Close)
	s := New(cat, Options{})
	for _, q := range []struct{ name, query, operator string }{{"common", "number", "any"}, {"two-terms-all", "count number", "all"}} {
		b.Run(q.name, func(b *testing.B) {
			args := []byte(`{"request":{"mode":"text","query":"` + q.query + `","match":{"matchMode":"tokens","operator":"` + q.operator + `"},"limit":25}}`)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := s.Call(context.Background(), "search_standards", args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCatalogOpen opens (maps, verifies, decodes) catalogs of 100 and
// 1,000 clone images: the start-up cost that grows with the catalog.
func BenchmarkCatalogOpen(b *testing.B) {
	root := b.TempDir()
	for _, n := range []int{100, 1000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			cloneCatalog(b, root, n) // built once
			paths, err := catalog.Paths([]string{filepath.Join(root, strconv.Itoa(n))})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				cat, err := catalog.Open(paths, catalog.PolicyFail, nil)
				if err != nil {
					b.Fatal(err)
				}
				cat.Close()
			}
		})
	}
}
