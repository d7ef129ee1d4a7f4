package pkggen

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func tree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestShippedPackagesAreCurrent regenerates the shipped packages and profiles and
// compares them byte for byte with the committed ones (run
// `go run ./bench/genpkg -shipped` after changing the generator).
func TestShippedPackagesAreCurrent(t *testing.T) {
	tmp := t.TempDir()
	pk, pr := filepath.Join(tmp, "packages"), filepath.Join(tmp, "profiles")
	os.MkdirAll(pk, 0o755)
	os.MkdirAll(pr, 0o755)
	for _, spec := range Shipped() {
		if _, err := Write(spec, pk, pr); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{"packages", "profiles"} {
		want := tree(t, filepath.Join(tmp, dir))
		got := tree(t, filepath.Join("..", "..", dir))
		if len(got) != len(want) {
			t.Errorf("%s: %d committed files, generator writes %d", dir, len(got), len(want))
		}
		for p, b := range want {
			if !bytes.Equal(got[p], b) {
				t.Errorf("%s/%s differs from the generator's output; run go run ./bench/genpkg -shipped", dir, p)
			}
		}
	}
}

func TestWriteIsDeterministic(t *testing.T) {
	spec := Shipped()[1]
	a, b := t.TempDir(), t.TempDir()
	for _, root := range []string{a, b} {
		os.MkdirAll(filepath.Join(root, "p"), 0o755)
		if _, err := Write(spec, filepath.Join(root, "p"), filepath.Join(root, "r")); err != nil {
			t.Fatal(err)
		}
	}
	ta, tb := tree(t, a), tree(t, b)
	for p := range ta {
		if !bytes.Equal(ta[p], tb[p]) {
			t.Errorf("%s differs between two runs", p)
		}
	}
}
