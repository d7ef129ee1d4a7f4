package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestMetricsCurrent: runtime/render/metrics.go is what this program writes
// from the installed fonts.
func TestMetricsCurrent(t *testing.T) {
	if _, err := os.Stat(filepath.Join(defaultFonts, "dejavu", "DejaVuSans.ttf")); err != nil {
		t.Skipf("the fonts are not installed (Debian's fonts-dejavu-core and fonts-liberation): %v", err)
	}
	got, err := generate(defaultFonts)
	if err != nil {
		t.Skipf("the fonts cannot be read: %v", err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "runtime", "render", "metrics.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("runtime/render/metrics.go is not current: go run ./tools/fontmetrics > runtime/render/metrics.go")
	}
}
