package manifestfb

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/internal/corpus"
	"github.com/kgc-project/kgc/kgimg/internal/fbkit/fbtest"
	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/schema/manifest"
)

// manifests decodes the shipped packages' manifests and, when the corpus is
// beside the project, every corpus manifest (that part skips visibly without it).
func manifests(t *testing.T) map[string]*manifest.Manifest {
	t.Helper()
	paths, _ := filepath.Glob("../../packages/*/*/" + manifest.FileName)
	if len(paths) == 0 {
		t.Fatal("no shipped manifests found")
	}
	corpusFiles, _ := filepath.Glob(filepath.Join(corpus.Dir(), "*/*/*", manifest.FileName))
	derived, _ := filepath.Glob(filepath.Join(corpus.Dir(), "derived/*/*/*", manifest.FileName))
	corpusFiles = append(corpusFiles, derived...)
	if len(corpusFiles) == 0 {
		t.Log("SKIP (part): the corpusFiles manifests (internal/corpusFiles) are absent; only the shipped ones are checked")
	}
	out := map[string]*manifest.Manifest{}
	for _, path := range append(paths, corpusFiles...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, fs := manifest.Decode(data)
		if m == nil {
			t.Fatalf("%s does not decode: %v", path, fs)
		}
		out[path] = m
	}
	return out
}

func compile(m *manifest.Manifest) *kgfb.CompiledManifest {
	b := flatbuffers.NewBuilder(0)
	b.Finish(Build(b, m))
	return kgfb.GetRootAsCompiledManifest(b.FinishedBytes(), 0)
}

// TestRoundTrip: Decode(Build(m)) equals m for every real manifest, and for
// variants where every list is absent, or present and empty (a wrong field
// number fails here), and Check agrees.
func TestRoundTrip(t *testing.T) {
	for path, m := range manifests(t) {
		cm := compile(m)
		if got := Decode(cm); !reflect.DeepEqual(got, m) {
			t.Errorf("%s: the compiled manifest decodes to\n%+v\nwant\n%+v", path, got, m)
		}
		if err := Check(cm, m); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		for _, empty := range []bool{false, true} {
			v := Decode(cm)
			fbtest.SetLists(reflect.ValueOf(v), empty)
			v.Index()
			if got := Decode(compile(v)); !reflect.DeepEqual(got, v) {
				t.Errorf("%s (lists empty: %v): the compiled manifest decodes to\n%+v\nwant\n%+v", path, empty, got, v)
			}
		}
		changed := Decode(cm)
		changed.Framework.IsCurrent = !changed.Framework.IsCurrent
		if Check(compile(changed), m) == nil {
			t.Errorf("%s: Check accepts a compiled manifest with another isCurrent", path)
		}
	}
}
