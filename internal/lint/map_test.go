package lint

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryPackageIsOnTheMap: ARCHITECTURE.md's map names every package of the
// module, and every package it names exists.
func TestEveryPackageIsOnTheMap(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "## The map")
	if !ok {
		t.Fatal("ARCHITECTURE.md has no \"## The map\" section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	mapped := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllStringSubmatch(table, -1) {
		mapped[m[1]] = true
	}
	if len(mapped) < 20 {
		t.Fatalf("the map names only %d packages", len(mapped))
	}
	for _, p := range goList(t, "-f", "{{.ImportPath}}", module+"/...") {
		rel := strings.TrimPrefix(p, module+"/")
		if rel == module || strings.HasPrefix(rel, "deploy/") {
			continue // the module root holds no Go package; deploy/ is its own module
		}
		if !mapped[rel] {
			t.Errorf("package %s is not on ARCHITECTURE.md's map", rel)
		}
		delete(mapped, rel)
	}
	for p := range mapped {
		t.Errorf("ARCHITECTURE.md's map names %s, which is no package of the module", p)
	}
}
