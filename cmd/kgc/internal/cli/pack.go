package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kgc-project/kgc/compiler/pack"
	"github.com/kgc-project/kgc/internal/safefile"
)

const packSynopsis = `kgc pack [--profiles DIR] [--prompts DIR] [--dry-run] [--created-at RFC3339] --spec FILE
       kgc pack [--profiles DIR] [--prompts DIR] [--dry-run] --jurisdiction-type T --nodes FILE --relationships FILE
                --profile-id ID --profile-version V --version-token TOKEN --output-root DIR
                [--detailed-root DIR | --detailed-artifact FILE...] [--additional-artifact NAME=FILE...]
                [--snapshot-relation JSON...] [--source-document FILE] [--source-publication-date YYYY-MM-DD]
                [--lp-builds-towards FILE --lp-relates-to FILE --lp-provenance FILE [--lp-final-claims FILE]]
                [--framework-id ID] [--created-at RFC3339]`

// repeated is a repeatable string flag.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(s string) error { *r = append(*r, s); return nil }

func runPack(_ context.Context, env cmdEnv, args []string) int {
	var f gateFlags
	var specFile string
	var dryRun bool
	var s pack.Spec
	var detailed, additional, relations repeated
	fs := newFlagSet(env, "pack", packSynopsis)
	f.bind(fs)
	fs.StringVar(&specFile, "spec", "", "a package build spec (JSON; relative paths are resolved against its directory); excludes the options below")
	fs.BoolVar(&dryRun, "dry-run", false, "stage and validate the package, then report what would be written without writing it")
	fs.StringVar(&s.JurisdictionType, "jurisdiction-type", "", "the framework's jurisdiction type (e.g. country)")
	fs.StringVar(&s.Nodes, "nodes", "", "the delivery nodes JSONL file")
	fs.StringVar(&s.Relationships, "relationships", "", "the delivery relationships JSONL file")
	fs.StringVar(&s.PublisherRelations, "publisher-relations", "", "the publisher-asserted relations JSONL file (kgc import case writes it; optional)")
	fs.StringVar(&s.ProfileID, "profile-id", "", "the interpretation profile's ID (read from the profile root)")
	fs.StringVar(&s.ProfileVersion, "profile-version", "", "the interpretation profile's version")
	fs.StringVar(&s.VersionToken, "version-token", "", "the snapshot's version token (e.g. 2019, undated)")
	fs.StringVar(&s.OutputRoot, "output-root", "", "where the package is written, as <output-root>/<framework-id>/<snapshot-id>/")
	fs.StringVar(&s.DetailedRoot, "detailed-root", "", "a directory of detailed documents (every file in it is packed)")
	fs.Var(&detailed, "detailed-artifact", "a detailed document (repeatable; its basename names its role)")
	fs.Var(&additional, "additional-artifact", "an additional artifact as NAME=FILE (repeatable)")
	fs.Var(&relations, "snapshot-relation", `a snapshot relation as JSON {"relationType":…,"targetSnapshotId":…,"evidence":…} (repeatable)`)
	fs.StringVar(&s.SourceDocument, "source-document", "", "the exact source document (its SHA-256 is recorded; it is not packed)")
	fs.StringVar(&s.SourcePublicationDate, "source-publication-date", "", "the source's publication date (YYYY-MM-DD)")
	fs.StringVar(&s.FrameworkID, "framework-id", "", "the framework, when the profile binds several")
	var lp pack.Progressions
	fs.StringVar(&lp.BuildsTowards, "lp-builds-towards", "", "learning progressions to prepare: the buildsTowards relationship records (JSONL)")
	fs.StringVar(&lp.RelatesTo, "lp-relates-to", "", "learning progressions to prepare: the relatesTo relationship records (JSONL)")
	fs.StringVar(&lp.Provenance, "lp-provenance", "", "learning progressions to prepare: the per-edge provenance (JSON object by relationship ID)")
	fs.StringVar(&lp.FinalClaims, "lp-final-claims", "", "learning progressions to prepare: the final claims, with those that did not become edges (optional)")
	fs.StringVar(&s.CreatedAt, "created-at", "", "the manifest's createdAt, RFC 3339; with --spec it wins over the spec's (default: the spec's, else SOURCE_DATE_EPOCH when set, else "+pack.DefaultCreatedAt+", so the same inputs give the same package)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return ExitFailure
	}
	if err := f.check(); err != nil {
		fmt.Fprintln(env.Stderr, "kgc pack:", err)
		return ExitFailure
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "kgc pack: unexpected argument %q\n", fs.Arg(0))
		return ExitFailure
	}
	specs := []*pack.Spec{&s}
	if specFile != "" {
		explicit := false
		fs.Visit(func(fl *flag.Flag) {
			switch fl.Name {
			case "spec", "dry-run", "created-at", flagProfiles, flagPrompts, flagErrorFormat, flagMaxFindings:
			default:
				explicit = true
			}
		})
		if explicit {
			fmt.Fprintln(env.Stderr, "kgc pack: --spec and the explicit package options are mutually exclusive")
			return ExitFailure
		}
		b, err := safefile.ReadPath(specFile, pack.MaxSpecBytes) // no FIFO, device or huge file
		if err != nil {
			fmt.Fprintf(env.Stderr, "kgc pack: --spec %s: %v\n", specFile, err)
			return ExitFailure
		}
		if specs, err = pack.DecodeSpecs(b, filepath.Dir(specFile)); err != nil {
			fmt.Fprintf(env.Stderr, "kgc pack: %s: %v\n", specFile, err)
			return ExitFailure
		}
		if s.CreatedAt != "" { // --created-at with --spec: it wins over the spec's
			for _, sp := range specs {
				sp.CreatedAt = s.CreatedAt
			}
		}
	} else {
		if lp != (pack.Progressions{}) {
			s.Progressions = &lp
		}
		s.DetailedArtifacts = detailed
		for _, a := range additional {
			name, file, ok := strings.Cut(a, "=")
			if !ok || name == "" || file == "" {
				fmt.Fprintf(env.Stderr, "kgc pack: --additional-artifact %q is not NAME=FILE\n", a)
				return ExitFailure
			}
			if s.AdditionalArtifacts == nil {
				s.AdditionalArtifacts = map[string]string{}
			}
			if _, dup := s.AdditionalArtifacts[name]; dup {
				fmt.Fprintf(env.Stderr, "kgc pack: --additional-artifact %s is given twice\n", name)
				return ExitFailure
			}
			s.AdditionalArtifacts[name] = file
		}
		for _, r := range relations {
			var rel pack.Relation
			dec := json.NewDecoder(strings.NewReader(r))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&rel); err != nil {
				fmt.Fprintf(env.Stderr, "kgc pack: --snapshot-relation %q: %v\n", r, err)
				return ExitFailure
			}
			s.SnapshotRelations = append(s.SnapshotRelations, rel)
		}
	}
	format, _ := parseFormat(f.format)
	code := exitOK
	var results []*pack.Result
	for i, spec := range specs {
		if len(specs) > 1 {
			fmt.Fprintf(env.Stderr, "kgc pack: spec %d of %d: %s\n", i+1, len(specs), spec.ProfileID)
		}
		res, c := packOne(env, &f, format, spec, dryRun)
		code = max(code, c)
		if res != nil {
			results = append(results, res)
		}
	}
	if len(results) == 0 {
		return code
	}
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	var err error
	if len(specs) == 1 {
		err = enc.Encode(results[0])
	} else {
		err = enc.Encode(results)
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "kgc pack: writing the summary:", err)
		return ExitFailure
	}
	return code
}

// packOne packs one spec, reporting a refusal; its result, or nil and the
// exit code.
func packOne(env cmdEnv, f *gateFlags, format findingFormat, spec *pack.Spec, dryRun bool) (*pack.Result, int) {
	res, err := pack.Run(spec, pack.Options{ProfileRoot: f.profiles, PromptRoot: f.prompts, DryRun: dryRun, MaxFindings: f.maxFindings})
	if err != nil {
		var ue *pack.UsageError
		var re *pack.RefusedError
		switch {
		case errors.As(err, &re) && re.Gate != nil:
			rep := newReporter(env, format, f.maxFindings)
			pr := rep.resultAt(re.Gate, re.Locate)
			pr.where = "not written: " + re.Gate.Dir
			rep.finish()
			fmt.Fprintln(env.Stderr, "kgc pack: nothing written:", re.Reason)
			return nil, exitFindings
		case errors.As(err, &re):
			fmt.Fprintln(env.Stderr, "kgc pack: nothing written:", re.Reason)
			return nil, exitFindings
		case errors.As(err, &ue):
			fmt.Fprintln(env.Stderr, "kgc pack: nothing written:", strings.ReplaceAll(ue.Error(), "\n", "\n  "))
			return nil, ExitFailure
		default:
			fmt.Fprintln(env.Stderr, "kgc pack: nothing written:", err)
			return nil, ExitFailure
		}
	}
	if res.CreatedAtSource == "default" {
		fmt.Fprintf(env.Stderr, "kgc pack: createdAt is %s (not stated): give --created-at or SOURCE_DATE_EPOCH to record when the package was made\n", res.CreatedAt)
	}
	return res, exitOK
}
