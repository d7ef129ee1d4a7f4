package progression

import (
	"os"
	"testing"

	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/kgimg"
)

// benchImage opens an image for the progression benchmarks: the shipped
// mathematics sample (built here), or KGC_BENCH_IMAGE (a prebuilt synthetic
// image, see bench/README.md).
func benchImage(b *testing.B, size string) *kgimg.Image {
	b.Helper()
	path := os.Getenv("KGC_BENCH_IMAGE")
	if size != "large" {
		spec := pkggen.Shipped()[1]
		if size == "dense" {
			// One standard of 70 indicators, every pair i < j joined: every
			// search runs into its budgets.
			spec.FrameworkID, spec.GradeLabels, spec.Strands, spec.Standards, spec.Indicators = "kgc-bench-dense", []string{"GRADE ONE"}, 1, 1, 70
			spec.Components = false
			for i := 0; i < 70; i++ {
				for j := i + 1; j < 70; j++ {
					spec.Builds = append(spec.Builds, [2]int{i, j})
				}
			}
		}
		return openSpec(b, spec)
	}
	if path == "" {
		b.Skip("SKIP: set KGC_BENCH_IMAGE to a large synthetic image (bench/README.md) to run this size")
	}
	return openImage(b, path, nil)
}

// longestChain returns the buildsTowards source whose downstream walk reaches
// the most nodes among the first sources, and a node at the end of that walk.
func longestChain(img *kgimg.Image) (origin, end uint32) {
	out := img.Adjacency(kgimg.BuildsTowards, kgimg.Out)
	in := img.Adjacency(kgimg.BuildsTowards, kgimg.In)
	best := -1
	for n, seen := uint32(0), 0; int(n) < img.NodeCount() && seen < 200; n++ {
		if out.Degree(n) == 0 || in.Degree(n) != 0 {
			continue
		}
		seen++
		t := BFS(img, n, kgimg.Out, 12, 250, 100)
		if len(t.Order) > best {
			best, origin, end = len(t.Order), n, t.Order[len(t.Order)-1]
		}
	}
	return origin, end
}

// BenchmarkProgressionCompute measures the traversal and path searches at the
// maximum budgets on the CSR arrays in place (result building excluded), on the
// sample, on a complete 70-node DAG (every budget reached) and, with
// KGC_BENCH_IMAGE, on a large synthetic image: the cost is bound by the
// budgets, not the graph.
//
//	go test ./runtime/progression -run '^$' -bench ProgressionCompute -benchtime 2s
func BenchmarkProgressionCompute(b *testing.B) {
	for _, size := range []string{"sample", "dense", "large"} {
		b.Run(size, func(b *testing.B) {
			img := benchImage(b, size)
			origin, end := longestChain(img)
			b.Run("traverse", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					BFS(img, origin, kgimg.Out, 12, 250, 100)
				}
			})
			b.Run("traverse-upstream", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					BFS(img, end, kgimg.In, 12, 250, 100)
				}
			})
			b.Run("paths", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					FindPaths(img, origin, end, 12, 20)
				}
			})
		})
	}
}
