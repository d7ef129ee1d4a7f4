package mcpserver_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/kgimg"
)

// TestInvalidStoredTextIsACatalogError: an image whose provenance records
// hold invalid UTF-8 inside a string, with its checksums resealed, passes
// Open (kgc verify refuses it). Its text is checked before it is first
// served (catalog.Package.Ready), so the package is withdrawn
// (catalog_error on every call) and never answers from those bytes, while
// the other images are served.
func TestInvalidStoredTextIsACatalogError(t *testing.T) {
	dir := images(t)
	paths, _ := filepath.Glob(filepath.Join(dir, maths+"@*.kgimg"))
	b, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	marker := []byte(`"rationale":"`)
	n := 0
	for i := bytes.Index(b, marker); i >= 0; {
		b[i+len(marker)] = 0xff
		n++
		j := bytes.Index(b[i+1:], marker)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if n == 0 {
		t.Fatal("no provenance record to corrupt")
	}
	if err := os.WriteFile(paths[0], imgtest.Reseal(b), 0o644); err != nil {
		t.Fatal(err)
	}
	img, err := kgimg.OpenBytes(b)
	if err != nil {
		t.Fatalf("Open refused what only the deep checks see: %v", err)
	}
	if err := img.VerifyDeep(); err == nil {
		t.Fatal("VerifyDeep accepted invalid UTF-8 in provenance records")
	}

	cs, _ := client(t, dir)
	if txt := errorText(t, cs, "search_learning_progressions", req(map[string]any{"frameworkId": maths, "limit": 1})); !strings.HasPrefix(txt, "catalog_error: ") || !strings.Contains(txt, "failed its verification on first use") {
		t.Errorf("the first call on the image: %q, want it withdrawn for its text", txt)
	}
	if txt := errorText(t, cs, "get_framework", req(map[string]any{"frameworkId": maths})); !strings.HasPrefix(txt, "catalog_error: ") {
		t.Errorf("the next call: %q, want the package withdrawn", txt)
	}
	if out, _ := call(t, cs, "get_framework", req(map[string]any{"frameworkId": english})); out == nil {
		t.Error("the sound image is no longer served")
	}
}
