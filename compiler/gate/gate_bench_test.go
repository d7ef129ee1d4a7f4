package gate

import (
	"crypto/sha256"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kgc-project/kgc/internal/pkggen"
)

// largestCorpusPackage returns the complete corpus package with the most bytes.
func largestCorpusPackage(b *testing.B) (dir, profiles string, total, largest int64) {
	corpus := filepath.Join("..", "..", "..", "shared", "corpus")
	pkgs, _ := filepath.Glob(filepath.Join(corpus, "derived", "graph_packages", "*", "*"))
	if len(pkgs) == 0 {
		b.Skipf("SKIP: needs the real corpus at %s", corpus)
	}
	for _, p := range pkgs {
		var sum, big int64
		filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				info, _ := d.Info()
				sum += info.Size()
				big = max(big, info.Size())
			}
			return nil
		})
		if sum > total {
			dir, total, largest = p, sum, big
		}
	}
	return dir, filepath.Join(corpus, "profiles"), total, largest
}

// peakHeap samples the live heap while fn runs and returns the maximum.
func peakHeap(fn func()) uint64 {
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	fn()
	close(stop)
	wg.Wait()
	return peak.Load()
}

// BenchmarkGate runs the whole gate over the largest complete corpus package and
// reports throughput (MB/s over the package's bytes) and the peak live heap as a
// multiple of the largest artifact.
func BenchmarkGate(b *testing.B) {
	dir, profiles, total, largest := largestCorpusPackage(b)
	b.SetBytes(total)
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	peak := peakHeap(func() {
		if res, err := Run(dir, Options{ProfileRoot: profiles}); err != nil || !res.Valid() {
			b.Fatalf("gate: %v %+v", err, res)
		}
	})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Run(dir, Options{ProfileRoot: profiles}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(peak-min(peak, base.HeapAlloc))/float64(largest), "peak-heap/largest-artifact")
}

// BenchmarkGateBaseline is the floor the gate is compared with in the same run:
// read every file of the same package, SHA-256 it and check it is valid JSON
// (per line for JSONL) with encoding/json, and nothing else.
func BenchmarkGateBaseline(b *testing.B) {
	dir, _, total, _ := largestCorpusPackage(b)
	b.SetBytes(total)
	for i := 0; i < b.N; i++ {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sha256.Sum256(data)
			if filepath.Ext(path) == ".jsonl" {
				start := 0
				for j, c := range data {
					if c == '\n' {
						if !json.Valid(data[start:j]) {
							b.Fatal("invalid line")
						}
						start = j + 1
					}
				}
				return nil
			}
			if !json.Valid(data) {
				b.Fatal("invalid json")
			}
			return nil
		})
	}
}

// BenchmarkGateMemory holds the gate's memory bound (docs/validation.md,
// "Memory"): over a synthetic package of about 20,000 standards items with
// progressions in one strand per grade (no corpus needed), it reports the
// peak live heap per byte of input, "peak-heap/input-byte". The bound the
// docs state is 1.5; the figure measured with this benchmark is in
// bench/README.md. -benchtime=1x is enough: one gate run is one measurement.
func BenchmarkGateMemory(b *testing.B) {
	root := b.TempDir()
	spec := pkggen.Synthetic(20000)
	spec.ProgressionStrands = 1
	for _, d := range []string{"packages", "profiles"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	w, err := pkggen.Write(spec, filepath.Join(root, "packages"), filepath.Join(root, "profiles"))
	if err != nil {
		b.Fatal(err)
	}
	var total int64
	filepath.WalkDir(w.PackageDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			info, _ := d.Info()
			total += info.Size()
		}
		return nil
	})
	b.SetBytes(total)
	opts := Options{ProfileRoot: filepath.Join(root, "profiles")}
	var worst float64
	for b.Loop() {
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		peak := peakHeap(func() {
			if res, err := Run(w.PackageDir, opts); err != nil || !res.Valid() {
				b.Fatalf("gate: %v %+v", err, res)
			}
		})
		worst = max(worst, float64(peak-min(peak, base.HeapAlloc))/float64(total))
	}
	b.ReportMetric(worst, "peak-heap/input-byte")
}
