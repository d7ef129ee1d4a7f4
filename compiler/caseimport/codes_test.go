package caseimport

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDocsListEveryCode: docs/import-case.md's two tables (errors, then
// warnings) list exactly the package's code* constants, each in the table
// its kind belongs to (warningCodes).
func TestDocsListEveryCode(t *testing.T) {
	fset := token.NewFileSet()
	names, _ := filepath.Glob("*.go")
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var errs, warns []string
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, "code") || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok {
						continue
					}
					code, _ := strconv.Unquote(lit.Value)
					if warningCodes[code] {
						warns = append(warns, code)
					} else {
						errs = append(errs, code)
					}
				}
			}
		}
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "import-case.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The two tables headed "| code | when |", in order.
	tables := strings.Split(string(doc), "| code | when |")
	if len(tables) != 3 {
		t.Fatalf("docs/import-case.md has %d code tables, want 2", len(tables)-1)
	}
	row := regexp.MustCompile("(?m)^\\| `(case_[a-z_]+)` \\|")
	for i, want := range [][]string{errs, warns} {
		body := tables[i+1]
		if end := strings.Index(body, "\n\n"); end >= 0 {
			body = body[:end]
		}
		var got []string
		for _, m := range row.FindAllStringSubmatch(body, -1) {
			got = append(got, m[1])
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("table %d lists %v, the code has %v", i+1, got, want)
		}
	}
	if len(errs) < 10 || len(warns) < 2 {
		t.Fatalf("found %d error and %d warning codes", len(errs), len(warns))
	}
}
