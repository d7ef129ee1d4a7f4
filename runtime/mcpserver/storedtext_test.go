package mcpserver_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/kgimg"
)

// TestInvalidStoredTextIsACatalogError: an image whose provenance records
// hold invalid UTF-8 inside a string, with its checksum resealed, passes
// Open (kgc verify refuses it). Reading such a record is catalog_error, never
// an internal error; once the warm-up has checked the stored text, the
// package is withdrawn (catalog_error on every call) while the other images
// are served.
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

	cs, srv := client(t, dir)
	lp, _ := call(t, cs, "search_learning_progressions", req(map[string]any{"frameworkId": maths, "limit": 1}))
	if lp == nil {
		t.Fatal("the progressions are not served before the check")
	}
	prov := lp["relationships"].([]any)[0].(map[string]any)["provenanceUri"].(string)
	if _, err := read(t, cs, prov); err == nil || !strings.Contains(err.Error(), "catalog_error") {
		t.Errorf("a corrupt provenance record: %v, want catalog_error", err)
	}
	srv.Warm(context.Background())
	if txt := errorText(t, cs, "get_framework", req(map[string]any{"frameworkId": maths})); !strings.HasPrefix(txt, "catalog_error: ") {
		t.Errorf("after the text check: %q, want the package withdrawn", txt)
	}
	if out, _ := call(t, cs, "get_framework", req(map[string]any{"frameworkId": english})); out == nil {
		t.Error("the sound image is no longer served")
	}
}
