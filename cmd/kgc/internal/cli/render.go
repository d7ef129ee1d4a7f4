package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/diagram"
	"github.com/kgc-project/kgc/runtime/render"
)

const renderSynopsis = `kgc render [--format svg|mermaid|dot] (--node ID | --overview) [-o FILE] IMAGE

Draws one standard's neighbourhood (--node: its hierarchy path, siblings and
children, the learning components that support it, its buildsTowards and
relatesTo links in and out) or the framework's overview by grade and strand
(--overview), from a .kgimg image, through the same diagram engine kgmcp serves:
statement text appears only where the package's rights allow full text.
Lists are bounded ("+k more" boxes; docs/render.md). The output is
deterministic: the same image and options give the same bytes.`

// runRender is kgc render: exit 0 when the picture was written, 1 when the
// image is corrupt, 2 on bad usage, an unreadable image or an unknown node.
func runRender(ctx context.Context, env cmdEnv, args []string) int {
	var (
		format, node, out string
		overview          bool
	)
	fset := newFlagSet(env, "render", renderSynopsis)
	fset.StringVar(&format, "format", "svg", "output format: svg, mermaid or dot")
	fset.StringVar(&node, "node", "", "the node ID of the standard to draw")
	fset.BoolVar(&overview, "overview", false, "draw the framework's overview by grade and strand")
	fset.StringVar(&out, "o", "", "write to FILE instead of standard output")
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return ExitFailure
	}
	f := render.Format(format)
	switch {
	case fset.NArg() != 1:
		return usageError(env, fset, "give exactly one image (got %d)", fset.NArg())
	case (node == "") == !overview:
		return usageError(env, fset, "give exactly one of --node ID and --overview")
	case f != render.SVG && f != render.Mermaid && f != render.DOT:
		return usageError(env, fset, "unknown format %q (want svg, mermaid or dot)", format)
	}
	path := fset.Arg(0)
	if fi, err := os.Stat(path); err != nil || fi.IsDir() {
		if err == nil {
			err = errors.New("is a directory, not an image")
		}
		fmt.Fprintf(env.Stderr, "kgc render: %s: %v\n", path, err)
		return ExitFailure
	}
	cat, err := catalog.OpenContext(ctx, []string{path}, catalog.PolicyFail, nil)
	if err != nil {
		fmt.Fprintln(env.Stderr, "kgc render:", err)
		return exitFindings
	}
	defer cat.Close()
	if len(cat.Packages) != 1 {
		fmt.Fprintf(env.Stderr, "kgc render: %s holds %d packages, want 1\n", path, len(cat.Packages))
		return ExitFailure
	}
	p := cat.Packages[0]
	if err := p.Ready(); err != nil {
		fmt.Fprintln(env.Stderr, "kgc render:", err)
		return exitFindings
	}
	var d *render.Diagram
	if overview {
		d = diagram.Overview(p)
	} else if d, err = diagram.Standard(p, node); err != nil {
		fmt.Fprintln(env.Stderr, "kgc render:", err)
		return ExitFailure
	}
	var b bytes.Buffer
	if err := render.Write(&b, d, f); err != nil {
		fmt.Fprintln(env.Stderr, "kgc render:", err)
		return ExitFailure
	}
	if out == "" {
		if _, err := env.Stdout.Write(b.Bytes()); err != nil {
			fmt.Fprintln(env.Stderr, "kgc render:", err)
			return ExitFailure
		}
		return exitOK
	}
	if err := writeFileAtomic(out, b.Bytes()); err != nil {
		fmt.Fprintln(env.Stderr, "kgc render:", err)
		return ExitFailure
	}
	return exitOK
}
