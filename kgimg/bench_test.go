package kgimg_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/imgtest"
	. "github.com/kgc-project/kgc/kgimg"
)

// BenchmarkOpenVsGate measures, for each complete corpus package in one run,
// the source path (gate: read, hash, decode and validate the package) against
// the image path (Open: map, checksum, verify) and reports the speedup.
func BenchmarkOpenVsGate(b *testing.B) {
	dirs, profiles, prompts := imgtest.CorpusPackages(b)
	for _, dir := range dirs {
		data, _ := imgtest.Build(b, dir, profiles, prompts)
		path := filepath.Join(b.TempDir(), "img.kgimg")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(dir), func(b *testing.B) {
			// Each path runs b.N times in its own loop (steady state for both).
			t0 := time.Now()
			for i := 0; i < b.N; i++ {
				if _, err := gate.Run(dir, gate.Options{ProfileRoot: profiles, PromptRoot: prompts}); err != nil {
					b.Fatal(err)
				}
			}
			t1 := time.Now()
			for i := 0; i < b.N; i++ {
				img, err := Open(path)
				if err != nil {
					b.Fatal(err)
				}
				img.Close()
			}
			gateTime, openTime := t1.Sub(t0), time.Since(t1)
			b.ReportMetric(float64(gateTime.Nanoseconds())/float64(b.N), "gate-ns/op")
			b.ReportMetric(float64(openTime.Nanoseconds())/float64(b.N), "open-ns/op")
			b.ReportMetric(float64(gateTime)/float64(openTime), "speedup-x")
		})
	}
}

// benchImage opens the largest complete corpus image, or the shipped mathematics
// package when the corpus is absent.
func benchImage(b *testing.B) *Image {
	var dir, profiles, prompts string
	if _, err := os.Stat(filepath.Join(imgtest.RepoRoot(b), "..", "shared", "corpus")); err == nil {
		dirs, p, q := imgtest.CorpusPackages(b)
		for _, d := range dirs {
			if filepath.Base(d) == "india-cbse-science-learning-framework-classes-9-10@undated+92cd5087f7e0" {
				dir = d
			}
		}
		profiles, prompts = p, q
	}
	if dir == "" {
		dirs, p := imgtest.ShippedPackages(b)
		dir, profiles = dirs[len(dirs)-1], p
	}
	data, _ := imgtest.Build(b, dir, profiles, prompts)
	img, err := OpenBytes(data)
	if err != nil {
		b.Fatal(err)
	}
	return img
}

func BenchmarkNodeByID(b *testing.B) {
	img := benchImage(b)
	ids := make([]string, img.NodeCount())
	for i := range ids {
		ids[i] = string([]byte(img.NodeString(uint32(i), NodeID)))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := img.NodeByID(ids[i%len(ids)]); !ok {
			b.Fatal("missing")
		}
	}
}

func BenchmarkChildren(b *testing.B) {
	img := benchImage(b)
	adj := img.Adjacency(HasChild, Out)
	n := uint32(img.NodeCount())
	b.ReportAllocs()
	b.ResetTimer()
	sum := uint32(0)
	for i := 0; i < b.N; i++ {
		nb, _ := adj.Row(uint32(i) % n)
		for j := 0; j < nb.Len(); j++ {
			sum += nb.At(j)
		}
	}
	_ = sum
}

func BenchmarkFacetAnd(b *testing.B) {
	img := benchImage(b)
	items, ok1 := img.Facet(FacetNodeKind, "standardsframeworkitem")
	var grade Bitmap
	for _, f := range img.Facets() {
		if f.Kind == FacetNormalizedGrade {
			grade = f.Bitmap
			break
		}
	}
	if !ok1 {
		b.Fatal("no item facet")
	}
	dst := make([]uint32, 0, img.NodeCount())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst = AppendAnd(dst[:0], items, grade)
	}
	b.ReportMetric(float64(len(dst)), "result-size")
}
