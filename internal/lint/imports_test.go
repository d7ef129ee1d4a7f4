// Package lint holds repository-policy tests: the import direction between the
// compiler, the runtime and the commands.
package lint

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/kgc-project/kgc"

// deps returns the non-test dependencies of a package pattern inside the module.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pkg, err)
	}
	var in []string
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, module+"/") {
			in = append(in, strings.TrimPrefix(p, module+"/"))
		}
	}
	return in
}

func TestImportDirection(t *testing.T) {
	rules := []struct {
		pkg       string
		forbidden []string
	}{
		// The runtime never links the compiler (it has no write paths).
		{module + "/runtime/...", []string{"compiler/", "cmd/", "internal/pkggen", "internal/pkgtest", "internal/imgtest"}},
		// The server binary never links the compiler.
		{module + "/cmd/kgmcp/...", []string{"compiler/", "cmd/kgc", "internal/pkggen", "internal/pkgtest", "internal/imgtest"}},
		// The contracts import nothing from the compiler, runtime or commands.
		{module + "/schema/...", []string{"compiler/", "runtime/", "cmd/"}},
		// The compiler does not depend on the commands.
		{module + "/compiler/...", []string{"cmd/"}},
	}
	for _, r := range rules {
		for _, d := range deps(t, r.pkg) {
			for _, f := range r.forbidden {
				if strings.HasPrefix(d, f) {
					t.Errorf("%s depends on %s", r.pkg, d)
				}
			}
		}
	}
}
