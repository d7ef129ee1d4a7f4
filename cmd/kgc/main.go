// Command kgc validates curriculum graph packages and compiles them into
// checksummed .kgimg images. Run `kgc help` for usage.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"github.com/kgc-project/kgc/cmd/kgc/internal/cli"
	"github.com/kgc-project/kgc/compiler/pack"
	"github.com/kgc-project/kgc/kgimg/kgimgwrite"
)

func main() {
	cli.ApplyMemoryLimit(os.Getenv)
	// On SIGINT or SIGTERM, let an image being written (or a package being
	// renamed into place) finish or be removed, then stop (exit 2): no temp
	// file or staging directory is left behind. (One left by a build
	// killed outright is removed by the next build into the same directory.)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		kgimgwrite.Quiesce()
		pack.Quiesce()
		fmt.Fprintf(os.Stderr, "kgc: stopped by %v\n", s)
		os.Exit(cli.ExitFailure)
	}()
	if path := os.Getenv("KGC_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			code := cli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
	}
	os.Exit(cli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
