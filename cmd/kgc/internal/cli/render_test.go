package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/runtime/render"
)

// kgc render draws from an image in each format, to stdout or -o FILE (the
// same bytes), and refuses bad usage, unknown nodes and missing images with
// exit 2. The pictures themselves are checked in runtime/render.
func TestRender(t *testing.T) {
	dir := imgtest.Images(t, nil, nil)
	maths := pkggen.Shipped()[1]
	images, _ := filepath.Glob(filepath.Join(dir, maths.FrameworkID+"@*.kgimg"))
	if len(images) != 1 {
		t.Fatalf("no mathematics image in %s", dir)
	}
	img := images[0]
	node := pkggen.NodeID(maths, 1, 0, 1, 1)
	starts := map[render.Format]string{render.SVG: "<?xml", render.Mermaid: "---\ntitle: ", render.DOT: "digraph kgc {"}
	for _, f := range render.Formats() {
		for _, what := range [][]string{{"--node", node}, {"--overview"}} {
			args := append([]string{"render", "--format", string(f)}, what...)
			code, out, errOut := run(t, append(args, img)...)
			if code != exitOK || !strings.HasPrefix(out, starts[f]) || errOut != "" {
				t.Fatalf("%v: exit %d, stderr %q, stdout %.80q", args, code, errOut, out)
			}
			file := filepath.Join(t.TempDir(), "picture")
			if code, _, errOut := run(t, append(args, "-o", file, img)...); code != exitOK {
				t.Fatalf("%v -o: exit %d: %s", args, code, errOut)
			}
			if b, err := os.ReadFile(file); err != nil || string(b) != out {
				t.Errorf("%v: -o FILE differs from stdout (%v)", args, err)
			}
		}
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"render", img}, ExitFailure, "exactly one of --node ID and --overview"},
		{[]string{"render", "--overview", "--node", node, img}, ExitFailure, "exactly one of --node ID and --overview"},
		{[]string{"render", "--overview", "--format", "png", img}, ExitFailure, `unknown format "png"`},
		{[]string{"render", "--overview"}, ExitFailure, "give exactly one image"},
		{[]string{"render", "--node", "no-such-node", img}, ExitFailure, "standard_not_found"},
		{[]string{"render", "--overview", filepath.Join(dir, "missing.kgimg")}, ExitFailure, "no such file"},
		{[]string{"render", "--overview", dir}, ExitFailure, "is a directory"},
	} {
		code, _, errOut := run(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
	// A corrupt image is exit 1.
	b, _ := os.ReadFile(img)
	b[len(b)/2] ^= 0xff
	bad := filepath.Join(t.TempDir(), "corrupt.kgimg")
	os.WriteFile(bad, b, 0o644)
	if code, _, errOut := run(t, "render", "--overview", bad); code != exitFindings {
		t.Errorf("corrupt image: exit %d, stderr %q", code, errOut)
	}
}
