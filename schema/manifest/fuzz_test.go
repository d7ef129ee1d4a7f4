package manifest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kgc-project/kgc/schema/finding"
)

// FuzzDecode feeds arbitrary bytes to the manifest decoder: it must return
// findings, never panic, and every finding must carry a registered code.
// Seeds are in testdata/fuzz/FuzzDecode (the shipped manifests and mutations).
func FuzzDecode(f *testing.F) {
	if ms, _ := filepath.Glob("../../packages/*/*/package_manifest.json"); len(ms) > 0 {
		for _, p := range ms {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, fs := Decode(data)
		for _, x := range fs {
			if !finding.Registered(x.Code) {
				t.Fatalf("unregistered finding code %q", x.Code)
			}
		}
		if m == nil && len(fs) == 0 {
			t.Fatal("no manifest and no finding")
		}
	})
}

func TestDecodeShippedManifests(t *testing.T) {
	ms, _ := filepath.Glob("../../packages/*/*/package_manifest.json")
	if len(ms) == 0 {
		t.Fatal("no shipped manifests found")
	}
	for _, p := range ms {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m, fs := Decode(b)
		if m == nil || len(fs) != 0 {
			t.Errorf("%s: %v", p, fs)
		}
	}
}

func TestDecodeReportsEveryProblem(t *testing.T) {
	// Three independent problems: a wrong type, an unknown field, an unsupported
	// version. All three must be reported.
	_, fs := Decode([]byte(`{"manifestVersion":"9.9","frameworkId":7,"surprise":true}`))
	want := map[finding.Code]bool{finding.SchemaWrongType: false, finding.SchemaUnknown: false, finding.ManifestVersionUnsupported: false}
	for _, f := range fs {
		if _, ok := want[f.Code]; ok {
			want[f.Code] = true
		}
	}
	for code, seen := range want {
		if !seen {
			t.Errorf("missing %s in %v", code, fs)
		}
	}
}
