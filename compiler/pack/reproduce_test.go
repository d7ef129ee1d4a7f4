package pack_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/compiler/pack"
	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
)

// specFor reads a package's manifest and returns the spec that packs its
// files again: the delivery files, every declared detailed document and
// additional artifact, the bound profile, the jurisdiction type and version.
func specFor(t *testing.T, dir, out string) (*pack.Spec, map[string]any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "package_manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	arts := m["artifacts"].(map[string]any)
	fw := m["framework"].(map[string]any)
	prof := m["profile"].(map[string]any)
	s := &pack.Spec{JurisdictionType: fw["jurisdictionType"].(string), VersionToken: fw["sourceVersion"].(string),
		ProfileID: prof["profileId"].(string), ProfileVersion: prof["profileVersion"].(string), OutputRoot: out,
		Nodes: filepath.Join(dir, arts["nodes"].(string)), Relationships: filepath.Join(dir, arts["relationships"].(string))}
	for name, p := range arts {
		switch name {
		case "nodes", "relationships":
		case "additionalArtifacts":
			for n, ap := range p.(map[string]any) {
				if s.AdditionalArtifacts == nil {
					s.AdditionalArtifacts = map[string]string{}
				}
				s.AdditionalArtifacts[n] = filepath.Join(dir, ap.(string))
			}
		default:
			s.DetailedArtifacts = append(s.DetailedArtifacts, filepath.Join(dir, p.(string)))
		}
	}
	sort.Strings(s.DetailedArtifacts)
	return s, m
}

// compare reports every field of got that differs from want, except those
// listed (which must differ or be absent as stated by the caller).
func compare(t *testing.T, label string, got, want map[string]any, allowed map[string]bool) {
	t.Helper()
	var walk func(p string, a, b any)
	walk = func(p string, a, b any) {
		if allowed[p] {
			return
		}
		am, aok := a.(map[string]any)
		bm, bok := b.(map[string]any)
		if aok && bok {
			keys := map[string]bool{}
			for k := range am {
				keys[k] = true
			}
			for k := range bm {
				keys[k] = true
			}
			for k := range keys {
				walk(p+"."+k, am[k], bm[k])
			}
			return
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: %s is %v, published %v", label, p, a, b)
		}
	}
	walk("", got, want)
}

func readManifest(t *testing.T, dir string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "package_manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// proven checks that a packed package passes the gate and builds.
func proven(t *testing.T, dir, profiles string) {
	t.Helper()
	res, err := gate.Run(dir, gate.Options{ProfileRoot: profiles})
	if err != nil || !res.Valid() {
		t.Fatalf("packed %s does not pass the gate: %v %+v", dir, err, res.Findings.Items())
	}
	if _, _, err := imgtest.Compile(dir, profiles, ""); err != nil {
		t.Fatalf("packed %s does not build: %v", dir, err)
	}
}

// The shipped packages, written by the project's generator, are packed again
// from their own files: the manifests agree on everything, snapshot ID
// included (the generator hashes snapshots the same way), except the
// lifecycle (pending, not passed) and createdAt.
func TestPackReproducesShippedPackages(t *testing.T) {
	for _, spec := range pkggen.Shipped() {
		w, profiles := generate(t, spec)
		s, published := specFor(t, w.PackageDir, t.TempDir())
		s.CreatedAt = "2026-12-01T00:00:00Z"
		res, err := pack.Run(s, pack.Options{ProfileRoot: profiles})
		if err != nil {
			t.Fatalf("%s: %v", spec.FrameworkID, err)
		}
		if res.Outcome != pack.Created || res.SnapshotID != w.SnapshotID {
			t.Errorf("%s: %s %s, generated %s", spec.FrameworkID, res.Outcome, res.SnapshotID, w.SnapshotID)
		}
		got := readManifest(t, res.PackageDir)
		compare(t, spec.FrameworkID, got, published, map[string]bool{".validation": true})
		if v := got["validation"].(map[string]any); len(v) != 1 || v["status"] != "pending" {
			t.Errorf("%s: validation %v, want pending only", spec.FrameworkID, v)
		}
		proven(t, res.PackageDir, profiles)
	}
}

// Every complete corpus package is packed from its delivery files, detailed
// documents and profile, and the manifest compared with the published one
// field by field. The differences that must exist are docs/pack.md's list.
func TestPackReproducesCorpusPackages(t *testing.T) {
	dirs, profiles, _ := imgtest.CorpusPackages(t)
	for _, dir := range dirs {
		s, published := specFor(t, dir, t.TempDir())
		res, err := pack.Run(s, pack.Options{ProfileRoot: profiles})
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		got := readManifest(t, res.PackageDir)
		compare(t, filepath.Base(dir), got, published, map[string]bool{
			".createdAt": true, ".snapshotId": true, ".graphPackageId": true, ".validation": true,
		})
		pubSnap := published["snapshotId"].(string)
		if prefix := pubSnap[:strings.LastIndex(pubSnap, "+")]; !strings.HasPrefix(res.SnapshotID, prefix+"+") {
			t.Errorf("%s: snapshot %s does not keep %s", dir, res.SnapshotID, prefix)
		}
		if strings.TrimPrefix(published["graphPackageId"].(string), pubSnap) != strings.TrimPrefix(res.GraphPackageID, res.SnapshotID) {
			t.Errorf("%s: graph package ID form %s, published %s", dir, res.GraphPackageID, published["graphPackageId"])
		}
		proven(t, res.PackageDir, profiles)
	}
}
