package finding

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"testing"
)

// TestEveryCodeIsRegistered parses registry.go and checks that every Code
// constant declared there has exactly one registry entry, with a snake_case code
// of at most 120 characters and a summary.
func TestEveryCodeIsRegistered(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "registry.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := map[Code]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || vs.Type == nil {
			return true
		}
		if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
			return true
		}
		for _, v := range vs.Values {
			if lit, ok := v.(*ast.BasicLit); ok {
				s, _ := strconv.Unquote(lit.Value)
				declared[Code(s)] = true
			}
		}
		return true
	})
	if len(declared) < 50 {
		t.Fatalf("found only %d declared codes; the parse is wrong", len(declared))
	}
	re := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	for c := range declared {
		if !Registered(c) {
			t.Errorf("code %s is declared but not registered", c)
		}
	}
	for _, r := range Rules {
		if !declared[r.Code] {
			t.Errorf("registered code %s has no constant", r.Code)
		}
		if !re.MatchString(string(r.Code)) || len(r.Code) > 120 || r.Summary == "" {
			t.Errorf("bad rule %+v", r)
		}
		if _, ok := stageOrder[r.Stage]; !ok {
			t.Errorf("rule %s has unknown stage %q", r.Code, r.Stage)
		}
	}
}
