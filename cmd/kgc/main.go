// Command kgc validates curriculum graph packages and compiles them into
// checksummed .kgimg images. Run `kgc help` for usage.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/kgc-project/kgc/cmd/kgc/internal/cli"
)

func main() {
	cli.ApplyMemoryLimit(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
