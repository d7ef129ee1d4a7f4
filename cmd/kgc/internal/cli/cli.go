// Package cli implements the kgc command line: one file per command, all output
// through injected writers, exit codes 0 (ok), 1 (findings or corruption) and 2
// (could not run).
package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/kgc-project/kgc/internal/version"
)

// Exit codes (the package comment says what each means).
const (
	exitOK       = 0
	exitFindings = 1
	// ExitFailure is exported for main, which exits with it when a signal
	// stops kgc.
	ExitFailure = 2
)

// cmdEnv carries the process streams, so commands never touch os.Std*.
type cmdEnv struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env cmdEnv, args []string) int
}

func commands() []command {
	return []command{
		{"validate", "run the validation gate over package directories", runValidate},
		{"build", "validate packages and compile each valid one to <snapshot-id>.kgimg", runBuild},
		{"pack", "turn delivery exports, detailed documents and a profile into a pending package", runPack},
		{"import", "import a framework from another format (case: a CASE CFPackage → exports, starter profile, pack spec)", runImport},
		{"check-profile", "check interpretation profiles (and their prompt configs) on their own, every problem reported", runCheckProfile},
		{"review-rights", "record a rights review in a profile (licence, status, full text, derivatives, who and when)", runReviewRights},
		{"inspect", "show an image's identity, counts and sections", runInspect},
		{"verify", "check images (header, checksum, structure); print their SHA-256", runVerify},
		{"diff", "compare two snapshots of a framework (packages or images): what changed, by standard", runDiff},
		{"render", "draw a standard's neighbourhood or a framework overview from an image as SVG, Mermaid or DOT", runRender},
		{"smoke", "check a running server (stdio command or HTTP URL) the way an MCP host uses it", runSmoke},
		{"version", "print the kgc version", runVersion},
	}
}

const usage = `kgc — the curriculum knowledge-graph compiler

Usage:
  kgc <command> [flags] [arguments]

Commands:
%s
Exit codes:
  0  ok (warnings may have been printed)
  1  findings: a package failed the gate, or an image is corrupt
  2  could not run: bad usage, a missing path, unreadable input

Run 'kgc <command> -h' for a command's flags; 'kgc --version' prints the version.
`

func printUsage(w io.Writer) {
	list := ""
	for _, c := range commands() {
		list += fmt.Sprintf("  %-14s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, usage, list)
}

// Main runs kgc with args (without the program name) and returns the exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := cmdEnv{Stdin: stdin, Stdout: stdout, Stderr: stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, "kgc: no command given\n\n")
		printUsage(stderr)
		return ExitFailure
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		printUsage(stdout)
		return exitOK
	case "--version", "-version":
		return runVersion(ctx, env, args[1:])
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, env, args[1:])
		}
	}
	fmt.Fprintf(stderr, "kgc: unknown command %q\n\n", args[0])
	printUsage(stderr)
	return ExitFailure
}

// runVersion prints "kgc <version>" (internal/version, the source kgmcp
// --version reads too).
func runVersion(_ context.Context, env cmdEnv, args []string) int {
	if len(args) > 0 {
		fmt.Fprintf(env.Stderr, "kgc version: unexpected argument %q\n", args[0])
		return ExitFailure
	}
	fmt.Fprintln(env.Stdout, "kgc", version.String())
	return exitOK
}

// usageError says what is wrong with a command line in one line, then prints
// the command's usage; it returns ExitFailure.
func usageError(env cmdEnv, fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(env.Stderr, "kgc %s: %s\n\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return ExitFailure
}
