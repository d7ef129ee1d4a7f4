// Package pkgtest helps tests build packages and mutate copies of them: write a
// shipped sample package into a temp dir, rewrite JSONL records or JSON
// documents in place, and re-seal the manifest checksums so a mutation reaches
// the stage that is meant to catch it.
package pkgtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/pkggen"
)

// Fixture is a generated package in a temp dir.
type Fixture struct {
	Root     string // temp root holding packages/ and profiles/
	Dir      string // the package directory
	Profiles string // the profile root
	Snapshot string
}

// Sample writes the shipped sample package whose framework ID is frameworkID into
// a fresh temp dir.
func Sample(t testing.TB, frameworkID string) *Fixture {
	t.Helper()
	for _, spec := range pkggen.Shipped() {
		if spec.FrameworkID == frameworkID {
			return Write(t, spec)
		}
	}
	t.Fatalf("no shipped package %s", frameworkID)
	return nil
}

// Write generates spec into a fresh temp dir.
func Write(t testing.TB, spec pkggen.Spec) *Fixture {
	t.Helper()
	root := t.TempDir()
	pk, pr := filepath.Join(root, "packages"), filepath.Join(root, "profiles")
	for _, d := range []string{pk, pr} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w, err := pkggen.Write(spec, pk, pr)
	if err != nil {
		t.Fatal(err)
	}
	return &Fixture{Root: root, Dir: w.PackageDir, Profiles: pr, Snapshot: w.SnapshotID}
}

// Path returns the absolute path of a package-relative file.
func (f *Fixture) Path(rel string) string { return filepath.Join(f.Dir, filepath.FromSlash(rel)) }

// Read returns a package file's bytes.
func (f *Fixture) Read(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(f.Path(rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// WriteFile replaces a package file.
func (f *Fixture) WriteFile(t testing.TB, rel string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(f.Path(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.Path(rel), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Records rewrites a JSONL file: edit gets each record (decoded with UseNumber)
// and returns the records to write in its place (none to drop it).
func (f *Fixture) Records(t testing.TB, rel string, edit func(rec map[string]any) []map[string]any) {
	t.Helper()
	var out bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSuffix(f.Read(t, rel), []byte("\n")), []byte("\n")) {
		rec := map[string]any{}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&rec); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		for _, r := range edit(rec) {
			out.Write(compact(t, r))
			out.WriteByte('\n')
		}
	}
	f.WriteFile(t, rel, out.Bytes())
}

// Doc rewrites a JSON document.
func (f *Fixture) Doc(t testing.TB, rel string, edit func(doc map[string]any)) {
	t.Helper()
	doc := map[string]any{}
	dec := json.NewDecoder(bytes.NewReader(f.Read(t, rel)))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	edit(doc)
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteFile(t, rel, append(b, '\n'))
}

// compact encodes v as compact JSON with sorted keys and no HTML escaping.
func compact(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// Rename replaces each identifier (a key of ids) with its new spelling in
// every file of the package but the manifest, wherever it occurs (records,
// relationships, provenance); Seal the fixture afterwards. A backslash in a
// new spelling is written JSON-escaped.
func (f *Fixture) Rename(t testing.TB, ids map[string]string) {
	t.Helper()
	err := filepath.WalkDir(f.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) == "package_manifest.json" {
			return err
		}
		rel, _ := filepath.Rel(f.Dir, p)
		b := string(f.Read(t, filepath.ToSlash(rel)))
		for old, id := range ids {
			b = strings.ReplaceAll(b, old, strings.ReplaceAll(id, `\`, `\\`))
		}
		f.WriteFile(t, filepath.ToSlash(rel), []byte(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Seal recomputes the manifest checksum of every declared file that exists, so
// content mutations are judged by the stages after the checksum check.
func (f *Fixture) Seal(t testing.TB) {
	t.Helper()
	f.Doc(t, "package_manifest.json", func(m map[string]any) {
		sums := m["checksums"].(map[string]any)
		for p := range sums {
			b, err := os.ReadFile(f.Path(p))
			if err != nil {
				continue
			}
			sum := sha256.Sum256(b)
			sums[p] = "sha256:" + hex.EncodeToString(sum[:])
		}
	})
}

// Snapshot records every file under root with its content hash, for asserting
// that a command wrote nothing.
func Snapshot(t testing.TB, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := rel + " " + info.Mode().String()
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			line += " " + hex.EncodeToString(sum[:8])
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
