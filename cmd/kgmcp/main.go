// Command kgmcp is the read-only MCP server over .kgimg images. Run `kgmcp -h`.
package main

//go:generate go test -run TestTranscripts -update .

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/kgc-project/kgc/cmd/kgmcp/internal/serve"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := serve.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}
