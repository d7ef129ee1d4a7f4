// Package imgtest builds images for tests and benchmarks: it runs the gate over a
// package directory and compiles the result, failing the test on any finding.
package imgtest

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/corpus"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
	"github.com/kgc-project/kgc/kgimg/format"
	"github.com/kgc-project/kgc/kgimg/kgimgwrite"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// Images generates the shipped sample packages plus extra specs, builds each
// into <snapshot-id>.kgimg in a fresh temp dir and returns the dir. each, when
// given, sees every written package (its spec and fixture).
func Images(t testing.TB, extra []pkggen.Spec, each func(pkggen.Spec, *pkgtest.Fixture)) string {
	t.Helper()
	if len(extra) == 0 && each == nil {
		dir, _ := shipped.write(t, buildShipped)
		return dir
	}
	dir := t.TempDir()
	for _, spec := range append(pkggen.Shipped(), extra...) {
		f := pkgtest.Write(t, spec)
		data, res := Build(t, f.Dir, f.Profiles, "")
		if err := os.WriteFile(filepath.Join(dir, res.Manifest.SnapshotID+".kgimg"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if each != nil {
			each(spec, f)
		}
	}
	return dir
}

// imageSet is a set of images built once per test process (the generator,
// the gate and the compiler are deterministic) and written fresh into each
// test's directory, which the test may change.
type imageSet struct {
	mu      sync.Mutex
	byName  map[string][]byte // <snapshot-id>.kgimg → image bytes
	sources map[string]string // snapshot ID → package directory, where it outlives the build
}

var shipped, corpusSet imageSet

// write builds the set on first use (build returns it), writes its images
// into a fresh temp dir and returns the dir and a copy of the sources.
func (s *imageSet) write(t testing.TB, build func(testing.TB) (map[string][]byte, map[string]string)) (string, map[string]string) {
	t.Helper()
	images, sources := s.get(t, build)
	dir := t.TempDir()
	for name, data := range images {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, maps.Clone(sources)
}

// get returns the set, built on first use. A failed build ends its test
// (t.Fatal unlocks through the defer); the next test tries again.
func (s *imageSet) get(t testing.TB, build func(testing.TB) (map[string][]byte, map[string]string)) (map[string][]byte, map[string]string) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byName == nil {
		s.byName, s.sources = build(t)
	}
	return s.byName, s.sources
}

// buildShipped builds the shipped samples (generated into the first test's
// temp dirs, so no source directory outlives it).
func buildShipped(t testing.TB) (map[string][]byte, map[string]string) {
	out := map[string][]byte{}
	for _, spec := range pkggen.Shipped() {
		f := pkgtest.Write(t, spec)
		data, res := Build(t, f.Dir, f.Profiles, "")
		out[res.Manifest.SnapshotID+".kgimg"] = data
	}
	return out, nil
}

// Build validates the package in dir and returns its image bytes and the gate
// result it was compiled from.
func Build(t testing.TB, dir, profiles, prompts string) ([]byte, *gate.Result) {
	t.Helper()
	data, res, err := Compile(dir, profiles, prompts)
	if err != nil {
		t.Fatal(err)
	}
	return data, res
}

// Compile is Build for callers without a testing.TB (benchmark commands): a
// package with findings is an error listing them.
func Compile(dir, profiles, prompts string) ([]byte, *gate.Result, error) {
	return compileWith(dir, profiles, prompts, kgimgwrite.Options{Compiler: "kgc test"})
}

// compileWith is Compile with the writer's options.
func compileWith(dir, profiles, prompts string, opts kgimgwrite.Options) ([]byte, *gate.Result, error) {
	res, err := gate.Run(dir, gate.Options{ProfileRoot: profiles, PromptRoot: prompts})
	if err != nil {
		return nil, nil, err
	}
	if !res.Valid() {
		return nil, nil, fmt.Errorf("%s does not pass the gate: %+v", dir, res.Findings.Items())
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	data, err := kgimgwrite.Build(res, func(p string) ([]byte, error) {
		f, err := root.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return io.ReadAll(f)
	}, opts)
	if err != nil {
		return nil, nil, err
	}
	return data, res, nil
}

// RepoRoot returns the module root.
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}

// Corpus returns the optional real corpus (internal/corpus: $KGC_CORPUS, else
// beside the module), or skips with a visible message. go test
// shows a skip only under -v, so a skip is also appended, one line per test,
// to the file named by KGC_SKIP_LOG, which `make test` prints at its end.
func Corpus(t testing.TB) string {
	t.Helper()
	dir := corpus.Dir()
	if _, err := os.Stat(dir); err != nil {
		logSkip(t.Name())
		t.Skipf("SKIP: this test needs the real corpus at %s (absent: %v)", dir, err)
	}
	return dir
}

// logSkip appends a line naming the skipped test (and the package that ran
// it) to $KGC_SKIP_LOG, when it is set.
func logSkip(name string) {
	p := os.Getenv("KGC_SKIP_LOG")
	if p == "" {
		return
	}
	wd, _ := os.Getwd() // go test runs a package's tests in its directory
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "SKIP %s (%s): needs the real corpus (%s, or set %s), which is absent\n", name, filepath.Base(wd), corpus.Dir(), corpus.Env)
}

// CorpusPackages returns the complete corpus packages with their profile and
// prompt roots (skipping the test without the corpus).
func CorpusPackages(t testing.TB) (dirs []string, profiles, prompts string) {
	c := Corpus(t)
	dirs, _ = filepath.Glob(filepath.Join(c, "derived", "graph_packages", "*", "*"))
	return dirs, filepath.Join(c, "profiles"), filepath.Join(c, "prompts")
}

// CorpusImages writes the complete corpus packages' images into a temporary
// directory (skipping the test without the corpus) and returns it, with each
// image's source package directory by snapshot ID. The images are built once
// per test process (imageSet).
func CorpusImages(t testing.TB) (dir string, sources map[string]string) {
	t.Helper()
	dirs, profiles, prompts := CorpusPackages(t)
	return corpusSet.write(t, func(t testing.TB) (map[string][]byte, map[string]string) {
		images, sources := map[string][]byte{}, map[string]string{}
		for _, d := range dirs {
			data, res := Build(t, d, profiles, prompts)
			images[res.Manifest.SnapshotID+".kgimg"] = data
			sources[res.Manifest.SnapshotID] = d
		}
		return images, sources
	})
}

// ShippedPackages returns the packages that ship with the project and the
// profile root.
func ShippedPackages(t testing.TB) (dirs []string, profiles string) {
	root := RepoRoot(t)
	dirs, _ = filepath.Glob(filepath.Join(root, "packages", "*", "*"))
	return dirs, filepath.Join(root, "profiles")
}

// Catalog opens every image under dir (failing on any refusal) and closes
// the catalog when the test ends.
func Catalog(t testing.TB, dir string) *catalog.Catalog {
	t.Helper()
	paths, err := catalog.Paths([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Open(paths, catalog.PolicyFail, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cat.Close)
	return cat
}

// Reseal recomputes an image's checksums (the catalog part's and the whole
// file's) after a deliberate mutation, so that what Open checks beyond the
// checksums is what refuses it (or not).
func Reseal(b []byte) []byte {
	format.Reseal(b)
	return b
}
