package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// makeVar returns the words of a simple Makefile variable (NAME = words,
// continued across lines ending in a backslash).
func makeVar(t *testing.T, makefile, name string) []string {
	t.Helper()
	var words []string
	in := false
	for _, line := range strings.Split(makefile, "\n") {
		if !in {
			rest, ok := strings.CutPrefix(line, name+" =")
			if !ok {
				continue
			}
			line, in = rest, true
		}
		cont := strings.HasSuffix(line, "\\")
		words = append(words, strings.Fields(strings.TrimSuffix(line, "\\"))...)
		if !cont {
			return words
		}
	}
	if !in {
		t.Fatalf("the Makefile sets no %s", name)
	}
	return words
}

// TestRaceFreePackagesStartNoGoroutine: make test runs the Makefile's
// RACE_PURE packages without the race detector, on the ground that their code
// and tests start no goroutine, so the detector has nothing to find in them.
// A go statement in one of them (tests included) means it belongs under -race
// again: remove it from RACE_PURE.
func TestRaceFreePackagesStartNoGoroutine(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	pkgs := makeVar(t, string(b), "RACE_PURE")
	if len(pkgs) < 5 {
		t.Fatalf("RACE_PURE read as %v", pkgs)
	}
	for _, pkg := range pkgs {
		files, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(pkg), "*.go"))
		if len(files) == 0 {
			t.Errorf("RACE_PURE names %s, which holds no Go file", pkg)
		}
		fset := token.NewFileSet()
		for _, f := range files {
			file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(file, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok {
					t.Errorf("%s: a go statement in RACE_PURE package %s: move it back under -race (Makefile)", fset.Position(g.Pos()), pkg)
				}
				return true
			})
		}
	}
}
