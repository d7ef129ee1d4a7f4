package serve

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// serverMethods must be exactly the methods the SDK's server handles: a
// method it gained would otherwise be answered -32601 over HTTP. The list is
// read from the SDK's source in the module cache (serverMethodInfos, and the
// method constants it names).
func TestServerMethodsAreTheSDKs(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/modelcontextprotocol/go-sdk").Output()
	if err != nil {
		t.Fatalf("locating the go-sdk module: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "mcp")
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var src strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	all := src.String()
	block := regexp.MustCompile(`(?s)var serverMethodInfos = map\[string\]methodInfo\{(.*?)\n\}`).FindStringSubmatch(all)
	if block == nil {
		t.Fatal("serverMethodInfos not found in the SDK's source")
	}
	consts := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^\s*((?:method|notification)\w+)\s*=\s*"([^"]+)"`).FindAllStringSubmatch(all, -1) {
		consts[m[1]] = m[2]
	}
	sdk := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s*(\w+):`).FindAllStringSubmatch(block[1], -1) {
		name, ok := consts[m[1]]
		if !ok {
			t.Fatalf("constant %s not found in the SDK's source", m[1])
		}
		sdk[name] = true
	}
	for m := range sdk {
		if !serverMethods[m] {
			t.Errorf("the SDK handles %q; serverMethods lacks it", m)
		}
	}
	for m := range serverMethods {
		if !sdk[m] {
			t.Errorf("serverMethods has %q; the SDK does not handle it", m)
		}
	}
}
