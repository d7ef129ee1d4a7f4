// Package lint holds repository-policy tests: the import direction between the
// compiler, the runtime and the commands, and the ground make test stands on
// to run some packages without the race detector.
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
	var in []string
	for _, p := range goList(t, "-deps", "-f", "{{.ImportPath}}", pkg) {
		if strings.HasPrefix(p, module+"/") {
			in = append(in, strings.TrimPrefix(p, module+"/"))
		}
	}
	return in
}

func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	return strings.Fields(string(out))
}

const sdk = "github.com/modelcontextprotocol/go-sdk"

// TestOnlyTheAdapterImportsTheSDK: the MCP SDK is imported (directly) only by
// runtime/mcpserver and cmd/kgmcp, and by the clients that drive a server
// (bench/, internal/smoke behind kgc smoke); the query layer links neither
// the SDK nor the adapter, so a Go program can embed it without speaking MCP.
func TestOnlyTheAdapterImportsTheSDK(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"/...").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module+"/")
		// bench/ and internal/smoke hold MCP clients that drive kgmcp, not server code.
		allowed := pkg == "runtime/mcpserver" || strings.HasPrefix(pkg, "cmd/kgmcp") || strings.HasPrefix(pkg, "bench/") || pkg == "internal/smoke"
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, sdk) && !allowed {
				t.Errorf("%s imports the MCP SDK (%s): only runtime/mcpserver, cmd/kgmcp and the clients may", pkg, imp)
			}
		}
	}
	for _, d := range goList(t, "-deps", "-f", "{{.ImportPath}}", module+"/runtime/query") {
		if strings.HasPrefix(d, sdk) || d == module+"/runtime/mcpserver" {
			t.Errorf("runtime/query depends on %s", d)
		}
	}
}

func TestImportDirection(t *testing.T) {
	rules := []struct {
		pkg       string
		forbidden []string
	}{
		// The runtime never links the compiler or the image writer (it has
		// no write paths).
		{module + "/runtime/...", []string{"compiler/", "kgimg/kgimgwrite", "cmd/", "internal/pkggen", "internal/pkgtest", "internal/imgtest", "internal/oracle"}},
		// The server binary never links the compiler or the image writer.
		{module + "/cmd/kgmcp/...", []string{"compiler/", "kgimg/kgimgwrite", "cmd/kgc", "internal/pkggen", "internal/pkgtest", "internal/imgtest", "internal/oracle"}},
		// The image reader never links the compiler or the writer: the writer
		// builds on the format, not on the reader.
		{module + "/kgimg", []string{"compiler/", "kgimg/kgimgwrite", "runtime/", "cmd/"}},
		// The contracts import nothing from the image, the compiler, the
		// runtime or the commands.
		{module + "/schema/...", []string{"kgimg", "compiler/", "runtime/", "cmd/"}},
		// The engines below the query layer never reach back up to it.
		{module + "/runtime/diagram", []string{"runtime/query", "runtime/mcpserver", "runtime/textview"}},
		{module + "/runtime/search", []string{"runtime/query", "runtime/mcpserver", "runtime/textview", "runtime/diagram"}},
		{module + "/runtime/progression", []string{"runtime/query", "runtime/mcpserver", "runtime/textview", "runtime/diagram", "runtime/search"}},
		{module + "/runtime/record", []string{"runtime/query", "runtime/mcpserver", "runtime/textview", "runtime/diagram", "runtime/search", "runtime/progression"}},
		{module + "/runtime/standard", []string{"runtime/query", "runtime/mcpserver", "runtime/textview", "runtime/diagram", "runtime/search", "runtime/progression"}},
		{module + "/runtime/stats", []string{"runtime/query", "runtime/mcpserver", "runtime/textview", "runtime/diagram", "runtime/search", "runtime/progression", "runtime/standard"}},
		// The browser view talks to the server over /mcp only.
		{module + "/runtime/explorer", []string{"runtime/query", "runtime/catalog", "runtime/mcpserver", "kgimg", "compiler/", "schema/", "internal/"}},
		{module + "/runtime/complete", []string{"runtime/query", "runtime/mcpserver", "runtime/textview", "runtime/search", "runtime/progression", "runtime/standard"}},
		{module + "/runtime/compare", []string{"runtime/query", "runtime/mcpserver", "runtime/textview", "runtime/diagram", "runtime/progression"}},
		{module + "/runtime/resource", []string{"runtime/query", "runtime/mcpserver", "runtime/textview", "runtime/search", "runtime/compare"}},
		{module + "/runtime/uri", []string{"runtime/query", "runtime/mcpserver", "runtime/textview", "runtime/catalog", "kgimg"}},
		{module + "/runtime/graph", []string{"runtime/query", "runtime/mcpserver", "runtime/textview", "runtime/diagram"}},
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

// TestTheWriterBuildsOnTheFormat: the image writer shares the header, the
// version and the seal with the reader through kgimg/format, never through
// the reader itself, and kgimg/format depends on no package of this module.
func TestTheWriterBuildsOnTheFormat(t *testing.T) {
	sawFormat := false
	for _, d := range deps(t, module+"/kgimg/kgimgwrite") {
		if d == "kgimg" {
			t.Errorf("kgimg/kgimgwrite depends on the reader (kgimg): share through kgimg/format")
		}
		sawFormat = sawFormat || d == "kgimg/format"
	}
	if !sawFormat {
		t.Errorf("kgimg/kgimgwrite does not depend on kgimg/format")
	}
	if d := deps(t, module+"/kgimg/format"); len(d) != 1 {
		t.Errorf("kgimg/format depends on %v, want only itself", d)
	}
}

const formatPkg = module + "/kgimg/kgfb"

// formatImporter reports whether pkg may import the image format's
// generated code (kgimg/kgfb): the packages of the image's home, kgimg/…
// (reader, writer, compiled forms). Everything else reads images through the
// reader's own types, so the format can change under that folder alone.
func formatImporter(pkg string) bool {
	return pkg == "kgimg" || strings.HasPrefix(pkg, "kgimg/")
}

// TestOnlyTheImageLayerImportsTheFormat: no package outside kgimg/… imports
// kgimg/kgfb, in its code or its tests.
func TestOnlyTheImageLayerImportsTheFormat(t *testing.T) {
	out, err := exec.Command("go", "list", "-f",
		`{{.ImportPath}}{{range .Imports}} {{.}}{{end}}{{range .TestImports}} {{.}}{{end}}{{range .XTestImports}} {{.}}{{end}}`,
		module+"/...").Output()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module+"/")
		checked++
		for _, imp := range f[1:] {
			if imp == formatPkg && !formatImporter(pkg) {
				t.Errorf("%s imports %s: read images through kgimg", pkg, formatPkg)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("go list named only %d packages", checked)
	}
}
