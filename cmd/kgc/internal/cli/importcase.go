package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/compiler/caseimport"
	"github.com/kgc-project/kgc/internal/termsafe"
)

const importSynopsis = `kgc import <format> [flags] ...

Formats:
  case   a 1EdTech CASE CFPackage (v1.0, v1.1) → exports, a starter profile and a pack spec

Run 'kgc import case -h' for its flags.`

const importCaseSynopsis = `kgc import case [--format text|json] [--framework-id ID] [--profile-version V] [--version-token TOKEN]
                       [--jurisdiction NAME] [--jurisdiction-type TYPE] [--created-at RFC3339] -o DIR FILE_OR_DIR...

Reads CASE CFPackages (files, bulk exports that list several, directories of
*.json; the packages of one CFDocument are merged) and writes, for each
CFDocument, its exports (DIR/export/, or DIR/export/<frameworkId>/ when there
are several), a starter profile (DIR/profiles/<id>/<version>/profile.json), and
DIR/pack-spec.json, so that 'cd DIR && kgc pack --profiles profiles --spec
pack-spec.json' packs them all. isChildOf becomes the ordered hierarchy; every
other association is carried as a publisher relation (never a progression
edge); the report lists every association type and field. Records repeated
byte for byte are kept once, with a warning. A document with findings is
refused and named, the others written; findings about the input itself (not
JSON, not CASE, over 100 MiB a file or 256 MiB in all) stop everything. DIR
must not exist or be empty. Exit 0 imported, 1 findings, 2 could not run.`

// runImport dispatches kgc import <format>.
func runImport(ctx context.Context, env cmdEnv, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, "kgc import: no format given (want: case)\n\nUsage: "+importSynopsis+"\n")
		return ExitFailure
	}
	switch args[0] {
	case "case":
		return runImportCase(ctx, env, args[1:])
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(env.Stdout, "Usage: "+importSynopsis)
		return exitOK
	}
	fmt.Fprintf(env.Stderr, "kgc import: unknown format %q (want: case)\n\nUsage: %s\n", args[0], importSynopsis)
	return ExitFailure
}

func runImportCase(_ context.Context, env cmdEnv, args []string) int {
	var o caseimport.Options
	var out, format string
	fs := newFlagSet(env, "import case", importCaseSynopsis)
	fs.StringVar(&out, "o", "", "the output directory (must not exist, or be empty)")
	fs.StringVar(&format, "format", "text", "the report's format: text or json")
	fs.StringVar(&o.FrameworkID, "framework-id", "", "the framework and profile ID (default: from the CFDocument's title)")
	fs.StringVar(&o.ProfileVersion, "profile-version", "", "the starter profile's version (default 1.0)")
	fs.StringVar(&o.VersionToken, "version-token", "", "the snapshot's version token (default: the CFDocument's version, else its lastChangeDateTime date)")
	fs.StringVar(&o.CreatedAt, "created-at", "", "the packages' createdAt, RFC 3339, written into the pack spec (default: the CFDocument's lastChangeDateTime)")
	fs.StringVar(&o.Jurisdiction, "jurisdiction", "", "the framework's jurisdiction (default: the CFDocument's publisher, else its creator)")
	fs.StringVar(&o.JurisdictionType, "jurisdiction-type", "", "the pack spec's jurisdictionType, e.g. state or country (default unspecified)")
	// Flags may come before or after the files.
	var files []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return exitOK
			}
			return ExitFailure
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		files = append(files, rest[0])
		rest = rest[1:]
	}
	switch {
	case format != "text" && format != "json":
		return usageError(env, fs, "unknown --format %q (want text or json)", format)
	case out == "":
		return usageError(env, fs, "no output directory: give -o DIR")
	case len(files) == 0:
		return usageError(env, fs, "no CFPackage given: name one or more JSON files or directories")
	}
	rep, err := caseimport.Run(files, out, o)
	if err != nil {
		fmt.Fprintln(env.Stderr, "kgc import case: nothing written:", err)
		return ExitFailure
	}
	if format == "json" {
		enc := json.NewEncoder(termsafe.NewWriter(env.Stdout)) // C1 and bidi controls as \u escapes
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintln(env.Stderr, "kgc import case:", err)
			return ExitFailure
		}
	} else {
		printImportReport(env.Stdout, rep)
	}
	switch {
	case len(rep.Findings) > 0:
		fmt.Fprintf(env.Stderr, "kgc import case: nothing written: %d finding(s)\n", len(rep.Findings))
		return exitFindings
	case rep.Refused > 0 && rep.Written:
		fmt.Fprintf(env.Stderr, "kgc import case: %d of %d documents refused (not written); the others are in %s\n", rep.Refused, len(rep.Documents), rep.OutputDir)
		return exitFindings
	case rep.Refused > 0:
		fmt.Fprintf(env.Stderr, "kgc import case: nothing written: %d document(s) refused\n", rep.Refused)
		return exitFindings
	}
	return exitOK
}

// printImportReport writes the report as text.
func printImportReport(out io.Writer, r *caseimport.Report) {
	// Item types, grades, codes and identifiers come from the package: escape
	// the controls a hostile one could use to drive the terminal.
	w := termsafe.NewWriter(out)
	defer w.Flush()
	for _, f := range r.Findings {
		fmt.Fprintln(w, f.String())
	}
	if len(r.Findings) > 0 {
		fmt.Fprintf(w, "FAIL %s: %d finding(s); nothing written\n", strings.Join(r.Files, ", "), len(r.Findings))
		return
	}
	for _, d := range r.Documents {
		printDocument(w, d, r.OutputDir)
	}
	if !r.Written {
		return
	}
	fmt.Fprintln(w, "next:")
	for _, n := range r.Next {
		fmt.Fprintln(w, "  "+n)
	}
}

// printDocument writes one document's part of the report.
func printDocument(w io.Writer, r *caseimport.Document, out string) {
	for _, f := range append(r.Findings, r.Warnings...) {
		fmt.Fprintln(w, f.String())
	}
	if !r.Written {
		fmt.Fprintf(w, "REFUSED %q (CFDocument %s): %d finding(s); nothing of it written\n", r.Title, r.DocumentID, len(r.Findings))
		return
	}
	fmt.Fprintf(w, "imported %q (CASE %s, CFDocument %s) into %s\n", r.Title, r.CaseVersion, r.DocumentID, filepath.Join(out, r.Exports))
	fmt.Fprintf(w, "  framework %s, profile %s/%s, version token %s\n", r.FrameworkID, r.FrameworkID, r.ProfileVersion, r.VersionToken)
	fmt.Fprintf(w, "  items: %d read, %d carried (%d repeated, kept once; %d without CFItemType, typed by depth; %d without isChildOf and %d directly under the document though their type sits under items, hung under the framework as unresolved root fallbacks)\n",
		r.Items.Read, r.Items.Carried, r.Items.Duplicates, r.Items.Untyped, r.Items.Orphans, r.Items.MixedRootFallbacks)
	fmt.Fprintf(w, "  associations: %d read, %d carried (%d as hasChild, %d as publisher relations, %d with one end outside the package), %d not carried, %d repeated and kept once\n",
		r.Associations.Read, r.Associations.Carried, r.Associations.Carried-r.Associations.Publisher, r.Associations.Publisher,
		r.Associations.ExternalEndpoints, r.Associations.NotCarried, r.Associations.Duplicates)
	counts := func(title string, m map[string]int) {
		if len(m) == 0 {
			return
		}
		fmt.Fprintf(w, "  %s:\n", title)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(w, "    %-48s %d\n", k, m[k])
		}
	}
	counts("carried associations (isChildOf as the hierarchy; the others as publisher relations, never progression edges)", r.CarriedAssociations)
	counts("associations NOT carried", r.NotCarriedAssociations)
	counts("fields NOT carried", r.NotCarriedFields)
	counts("definitions NOT carried", r.NotCarriedDefinitions)
	fmt.Fprintln(w, "  statement types (starter profile):")
	for _, t := range r.StatementTypes {
		root := ""
		if t.Root {
			root = ", root"
		}
		fmt.Fprintf(w, "    %-32s %s, %d items%s\n", t.StatementType, t.NormalizedStatementType, t.Items, root)
	}
	if len(r.Grades) > 0 {
		fmt.Fprintf(w, "  grades: %s\n", strings.Join(r.Grades, ", "))
	}
	fmt.Fprintf(w, "  codes: %d items coded\n", r.CodedItems)
	for _, p := range r.CodePatterns {
		fmt.Fprintf(w, "    %s\n", p)
	}
	if r.Rights != nil {
		fmt.Fprintf(w, "  rights: %s; full text allowed: %v; review status %s (review the profile, then record it: kgc review-rights)\n", r.Rights.SourceLicense, r.Rights.AllowFullText, r.Rights.ReviewStatus)
	}
}
