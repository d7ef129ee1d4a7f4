package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/kgc-project/kgc/compiler/diff"
	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/schema/finding"
)

const diffSynopsis = `kgc diff [--format text|markdown|json] [--profiles DIR] [--prompts DIR] [--max-findings N] OLD NEW

Compares two snapshots of one framework, each a package directory (run through
the validation gate; a package that fails it is refused with its findings) or a
.kgimg image. First the rights, profile and metadata that changed (licence,
review status, full text, derivatives, who reviewed, the profile), then
standards added, removed, reworded (word-level diff), recoded, regraded, moved,
reidentified or retyped, parents whose children were reordered, learning
components added, removed or reworded, supports edges added, removed or
rescored, generated progression edges and publisher relations added or
removed, each edge with its ends' codes and statements, grouped by standard.
Nodes are matched by node ID, then CASE UUID, then statement code; each
changed standard says which key matched it. To review a profile change,
compare the image built before it with the package packed after it.

Exit codes: 0 the snapshots are equal, 1 they differ, 2 the comparison could
not run (bad usage, unreadable input, a refused package, two frameworks).`

// runDiff is kgc diff (compiler/diff, docs/diff.md).
func runDiff(_ context.Context, env cmdEnv, args []string) int {
	var f gateFlags
	var format string
	fs := newFlagSet(env, "diff", diffSynopsis)
	fs.StringVar(&format, "format", diff.FormatText, "output format: "+strings.Join(diff.Formats, "|"))
	fs.StringVar(&f.profiles, flagProfiles, defaultProfiles(), "profile root holding <profileId>/<version>/profile.json, for package inputs (env KGC_PROFILES)")
	fs.StringVar(&f.prompts, flagPrompts, os.Getenv("KGC_PROMPTS"), "prompt-config root for package inputs (default: the profile root; env KGC_PROMPTS)")
	fs.IntVar(&f.maxFindings, flagMaxFindings, 20, "show at most this many findings of a refused package (0: as many as kgc keeps, 10,000)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return ExitFailure
	}
	switch {
	case !slices.Contains(diff.Formats, format):
		return usageError(env, fs, "unknown --format %q (want %s)", format, strings.Join(diff.Formats, ", "))
	case f.maxFindings < 0 || f.maxFindings > finding.DefaultKeep:
		return usageError(env, fs, "--max-findings must be from 0 to %d", finding.DefaultKeep)
	case fs.NArg() != 2:
		return usageError(env, fs, "give exactly two snapshots, OLD and NEW, each a package directory or a .kgimg image (got %d argument(s))", fs.NArg())
	}
	var sides [2]*diff.Snapshot
	defer func() {
		for _, s := range sides {
			if s != nil {
				s.Close()
			}
		}
	}()
	for k, path := range fs.Args() {
		s, err := loadSide(env, &f, path)
		if err != nil {
			return ExitFailure
		}
		sides[k] = s
	}
	rep, err := diff.Compare(sides[0], sides[1])
	if err != nil {
		fmt.Fprintln(env.Stderr, "kgc diff:", err)
		return ExitFailure
	}
	if err := diff.Write(env.Stdout, rep, format); err != nil {
		fmt.Fprintln(env.Stderr, "kgc diff:", err)
		return ExitFailure
	}
	if rep.Equal {
		return exitOK
	}
	return exitFindings
}

// loadSide reads one snapshot, printing why it could not (a refused
// package with its findings) on stderr.
func loadSide(env cmdEnv, f *gateFlags, path string) (*diff.Snapshot, error) {
	st, err := os.Stat(path)
	if err != nil {
		fmt.Fprintf(env.Stderr, "kgc diff: %v\n", err)
		return nil, err
	}
	if st.IsDir() {
		if err := wrongLevel(path); err != nil {
			fmt.Fprintf(env.Stderr, "kgc diff: %s: %v\n", path, err)
			return nil, err
		}
		if err := f.checkProfileRoot(); err != nil {
			fmt.Fprintf(env.Stderr, "kgc diff: %s: %v\n", path, err)
			return nil, err
		}
	}
	s, err := diff.Load(path, f.options())
	var refused *gate.RefusedError
	switch {
	case errors.As(err, &refused):
		fmt.Fprintf(env.Stderr, "kgc diff: %v:\n", err)
		rep := newReporter(cmdEnv{Stdout: env.Stderr, Stderr: env.Stderr}, formatText, f.maxFindings)
		rep.summary(rep.result(refused.Result))
		return nil, err
	case err != nil:
		fmt.Fprintf(env.Stderr, "kgc diff: %s: %v\n", path, err)
		return nil, err
	}
	return s, nil
}
