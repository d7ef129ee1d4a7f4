package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/safefile"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/profile"
	"github.com/kgc-project/kgc/schema/promptcfg"
)

const checkProfileSynopsis = `kgc check-profile [--prompts DIR | --prompt-config FILE] [--error-format text|json|github-actions] [--max-findings N] PROFILE_JSON...

Checks each interpretation profile file on its own, exactly as the validation
gate checks the profile a package binds, and reports every problem (pack stops
at the first). Its prompt config is checked with it: prompts.json beside the
profile file, or <DIR>/<profileId>/<profileVersion>/prompts.json with --prompts,
or the one FILE of --prompt-config (one profile only). Where a profile sits is
not checked: validate and build look for <root>/<profileId>/<profileVersion>/profile.json.`

// profileCheck is one profile file checked (with its prompt config).
type profileCheck struct {
	path, promptPath string
	prof             *profile.Profile
	findings         finding.List
}

// runCheckProfile checks profile files (and their prompt configs) with the
// gate's own decoders and prints the findings as validate does: exit 0 when
// all are clean, 1 with error findings, 2 when a file cannot be read.
func runCheckProfile(_ context.Context, env cmdEnv, args []string) int {
	var prompts, promptConfig, format string
	var maxFindings int
	fset := newFlagSet(env, "check-profile", checkProfileSynopsis)
	fset.StringVar(&prompts, flagPrompts, os.Getenv("KGC_PROMPTS"), "prompt-config root holding <profileId>/<profileVersion>/prompts.json (default: prompts.json beside each profile; env KGC_PROMPTS)")
	fset.StringVar(&promptConfig, "prompt-config", "", "a prompt config file to check against the one profile given")
	fset.StringVar(&format, flagErrorFormat, "text", "finding output format: "+formatList())
	fset.IntVar(&maxFindings, flagMaxFindings, 200, "show at most this many findings per profile (0: as many as kgc keeps, 10,000); every finding is counted by code")
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return ExitFailure
	}
	f := gateFlags{format: format, maxFindings: maxFindings}
	if err := f.check(); err != nil {
		return usageError(env, fset, "%v", err)
	}
	switch {
	case fset.NArg() == 0:
		return usageError(env, fset, "no profile file given")
	case promptConfig != "" && fset.NArg() != 1:
		return usageError(env, fset, "--prompt-config checks one prompt config against one profile (got %d profiles)", fset.NArg())
	case promptConfig != "" && isSet(fset, flagPrompts):
		return usageError(env, fset, "--prompts and --prompt-config are mutually exclusive")
	}
	out, _ := parseFormat(format)
	rep := newReporter(env, out, maxFindings)
	rep.key, rep.verb = "profiles", "check"
	code := exitOK
	for _, path := range fset.Args() {
		c, err := checkProfile(path, prompts, promptConfig, maxFindings)
		if err != nil {
			rep.failure(path, err)
			code = ExitFailure
			continue
		}
		res := &gate.Result{Dir: path, Findings: c.findings}
		pr := rep.resultAt(res, func(f finding.Finding) finding.Finding { return f })
		pr.Dir, pr.Path, pr.PromptConfig, pr.label, pr.where = "", path, c.promptPath, path, path
		if c.prof != nil {
			pr.ProfileID, pr.ProfileVersion = c.prof.ProfileID, c.prof.ProfileVersion
			pr.label = c.prof.ProfileID + "/" + c.prof.ProfileVersion
		}
		if c.promptPath != "" {
			pr.where += ", " + c.promptPath
		}
		if !res.Valid() && code == exitOK {
			code = exitFindings
		}
	}
	rep.finish()
	return code
}

// isSet reports whether a flag was given on the command line.
func isSet(fset *flag.FlagSet, name string) bool {
	set := false
	fset.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// checkProfile decodes one profile file and, once it decodes, its prompt
// config: the one given, else the one under promptRoot, else prompts.json
// beside the profile (absent is fine, as for the gate). Findings name the
// files by the paths given. An error means a file could not be read.
func checkProfile(path, promptRoot, promptFile string, keep int) (*profileCheck, error) {
	c := &profileCheck{path: path, findings: finding.List{Keep: keep}}
	b, tooLarge, err := readFile(path, gate.MaxProfileBytes)
	if err != nil {
		return nil, err
	}
	if tooLarge != nil {
		c.findings.Add(finding.New(finding.FileTooLarge, "%s is %d bytes, over the %d-byte ceiling for a profile; it is not read", path, tooLarge.Size, tooLarge.Max).At("profile", path))
		return c, nil
	}
	p, _, found := profile.Decode(b, path)
	c.findings.Add(found...)
	if p == nil {
		return c, nil
	}
	c.prof = p
	switch {
	case promptFile != "":
		c.promptPath = promptFile
	case promptRoot != "":
		c.promptPath = filepath.Join(promptRoot, p.ProfileID, p.ProfileVersion, promptcfg.FileName)
	default:
		c.promptPath = filepath.Join(filepath.Dir(path), promptcfg.FileName)
	}
	b, tooLarge, err = readFile(c.promptPath, promptcfg.MaxBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist) && promptFile == "":
		c.promptPath = ""
		return c, nil
	case err != nil:
		return nil, fmt.Errorf("prompt config %s: %w", c.promptPath, err)
	case tooLarge != nil:
		c.findings.Add(finding.New(finding.PromptConfigTooLarge, "%s is %d bytes; the limit is %d", c.promptPath, tooLarge.Size, tooLarge.Max).At("promptConfig", c.promptPath))
		return c, nil
	}
	_, pfs := promptcfg.Decode(b, c.promptPath, p.ProfileID, p.ProfileVersion, p.FrameworkIDs)
	c.findings.Add(pfs...)
	return c, nil
}

// readFile reads a regular file of at most max bytes (no FIFO or device, no
// final symlink); a larger one is returned as tooLarge, unread. Its errors do
// not repeat the path.
func readFile(path string, max int64) (b []byte, tooLarge *safefile.TooLargeError, err error) {
	fail := func(err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w", fs.ErrNotExist)
		}
		return fmt.Errorf("reading: %w", err)
	}
	b, err = safefile.ReadPath(path, max)
	if errors.As(err, &tooLarge) {
		return nil, tooLarge, nil
	}
	if err != nil {
		return nil, nil, fail(err)
	}
	return b, nil, nil
}
