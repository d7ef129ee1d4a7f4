package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/schema/finding"
)

// Flag names shared by validate and build.
const (
	flagProfiles    = "profiles"
	flagPrompts     = "prompts"
	flagErrorFormat = "error-format"
	flagMaxFindings = "max-findings"
)

// gateFlags are the options of every command that runs the gate.
type gateFlags struct {
	profiles    string
	prompts     string
	format      string
	maxFindings int
}

func (f *gateFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&f.profiles, flagProfiles, defaultProfiles(), "profile root holding <profileId>/<version>/profile.json (env KGC_PROFILES)")
	fs.StringVar(&f.prompts, flagPrompts, os.Getenv("KGC_PROMPTS"), "prompt-config root holding <profileId>/<version>/prompts.json (default: the profile root; env KGC_PROMPTS)")
	fs.StringVar(&f.format, flagErrorFormat, "text", "finding output format: "+formatList())
	fs.IntVar(&f.maxFindings, flagMaxFindings, 200, "show at most this many findings per package (0: as many as kgc keeps, 10,000); every finding is counted by code")
}

// options are the gate options: the gate keeps only the findings shown.
func (f *gateFlags) options() gate.Options {
	return gate.Options{ProfileRoot: f.profiles, PromptRoot: f.prompts, MaxFindings: f.maxFindings}
}

func defaultProfiles() string {
	if p := os.Getenv("KGC_PROFILES"); p != "" {
		return p
	}
	return "profiles"
}

// checkProfileRoot says, once for the whole command, that the profile root
// is missing and how to give it.
func (f *gateFlags) checkProfileRoot() error {
	st, err := os.Stat(f.profiles)
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("profile root %s does not exist (the default is ./profiles, or $KGC_PROFILES): give the directory that holds <profileId>/<profileVersion>/profile.json with --%s DIR", f.profiles, flagProfiles)
	case err != nil:
		return fmt.Errorf("profile root: %w", err)
	case !st.IsDir():
		return fmt.Errorf("profile root %s is not a directory: give the directory that holds <profileId>/<profileVersion>/profile.json with --%s DIR", f.profiles, flagProfiles)
	}
	return nil
}

func (f *gateFlags) check() error {
	if _, err := parseFormat(f.format); err != nil {
		return err
	}
	if f.maxFindings < 0 || f.maxFindings > finding.DefaultKeep {
		return fmt.Errorf("--max-findings must be from 0 to %d", finding.DefaultKeep)
	}
	return nil
}

func newFlagSet(env cmdEnv, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "Usage: %s\n", synopsis)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprint(env.Stderr, "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
	return fs
}

func runValidate(_ context.Context, env cmdEnv, args []string) int {
	var f gateFlags
	var listRules bool
	fs := newFlagSet(env, "validate", "kgc validate [--profiles DIR] [--prompts DIR] [--error-format text|json|github-actions] [--max-findings N] PACKAGE_DIR...\n       kgc validate --list-rules [--error-format text|json]")
	f.bind(fs)
	fs.BoolVar(&listRules, "list-rules", false, "print the registry of finding codes and exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return ExitFailure
	}
	if err := f.check(); err != nil {
		fmt.Fprintln(env.Stderr, "kgc validate:", err)
		return ExitFailure
	}
	format, _ := parseFormat(f.format)
	if listRules {
		return printRules(env.Stdout, format)
	}
	if fs.NArg() == 0 {
		return usageError(env, fs, "no package directory given (a package is <root>/<framework-id>/<snapshot-id>/)")
	}
	rep := newReporter(env, format, f.maxFindings)
	if err := f.checkProfileRoot(); err != nil {
		return rep.cannotRun("validate", fs.Args(), err)
	}
	code := exitOK
	for _, dir := range fs.Args() {
		res, err := runGate(dir, f.options())
		if err != nil {
			rep.failure(dir, err)
			code = ExitFailure
			continue
		}
		rep.result(res)
		if !res.Valid() && code == exitOK {
			code = exitFindings
		}
	}
	rep.finish()
	return code
}
