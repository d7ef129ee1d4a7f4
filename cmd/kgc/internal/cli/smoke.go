package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/kgc-project/kgc/internal/smoke"
	"github.com/kgc-project/kgc/internal/termsafe"
)

const smokeSynopsis = `kgc smoke [--timeout D] -- SERVER_COMMAND [ARG...]
       kgc smoke [--timeout D] --url http://HOST:PORT/mcp   (KGC_SMOKE_TOKEN: a key or token to send)`

// runSmoke checks a server the way a host uses it and prints the summary.
func runSmoke(ctx context.Context, env cmdEnv, args []string) int {
	var endpoint string
	var timeout time.Duration
	fs := newFlagSet(env, "smoke", smokeSynopsis)
	fs.StringVar(&endpoint, "url", "", "a running server's Streamable HTTP endpoint (…/mcp)")
	fs.DurationVar(&timeout, "timeout", 2*time.Minute, "give up after this long")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return ExitFailure
	}
	if (endpoint == "") == (fs.NArg() == 0) {
		fmt.Fprintln(env.Stderr, "kgc smoke: give either --url or a server command after --")
		fs.Usage()
		return ExitFailure
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var s *smoke.Summary
	var err error
	if endpoint != "" {
		// The key or token comes from the environment, not a flag: a flag's
		// value would be seen in the process list and the shell's history.
		s, err = smoke.HTTP(ctx, endpoint, os.Getenv("KGC_SMOKE_TOKEN"))
	} else {
		s, err = smoke.Stdio(ctx, fs.Args(), env.Stderr)
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "kgc smoke: failed:", termsafe.String(err.Error()))
		return exitFindings
	}
	enc := json.NewEncoder(termsafe.NewWriter(env.Stdout)) // a server's names: C1 and bidi controls as \u escapes
	enc.SetIndent("", "  ")
	enc.Encode(s)
	if len(s.Withheld) > 0 {
		names := make([]string, len(s.Withheld))
		for i, w := range s.Withheld {
			names[i] = w.Name
		}
		fmt.Fprintf(env.Stderr, "kgc smoke: %d read(s) or call(s) withheld by the packages' rights, as expected of a package whose rights are not reviewed or allowed (not failures): %s; kgc review-rights records a review\n",
			len(s.Withheld), termsafe.String(strings.Join(names, ", ")))
	}
	if s.Status != "passed" {
		for _, f := range s.Failures {
			fmt.Fprintln(env.Stderr, "kgc smoke: failed:", termsafe.String(f)) // names and URIs the server chose
		}
		return exitFindings
	}
	return exitOK
}
