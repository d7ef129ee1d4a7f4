package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/internal/safefile"
	"github.com/kgc-project/kgc/internal/termsafe"
	"github.com/kgc-project/kgc/schema/profile"
)

const reviewRightsSynopsis = `kgc review-rights --by NAME [--at WHEN] [--status STATUS] [--license TEXT] [--license-uri URL|none]
                  [--attribution TEXT] [--full-text yes|no] [--standard-resources yes|no] [--bulk yes|no]
                  [--derivatives allowed|prohibited|review_required] [--note TEXT] PROFILE_JSON

Records a rights review in an interpretation profile: the rights policy's
fields given (the others kept) and rightsReview {reviewedBy, reviewedAt, note},
so that nobody edits the JSON by hand. The profile is checked as the gate
checks it before it is written (atomically; members keep their order); nothing
is written when it does not pass. The profile's bytes change, so its SHA-256
does: pack the package again (kgc pack), then build. --status defaults to
approved, --at to now (UTC). Exit 0 written, 1 the result does not pass, 2 bad
usage or the file cannot be read or written.`

// runReviewRights records a rights review in a profile file.
func runReviewRights(_ context.Context, env cmdEnv, args []string) int {
	fs := newFlagSet(env, "review-rights", reviewRightsSynopsis)
	by := fs.String("by", "", "who reviewed the rights (required)")
	at := fs.String("at", "", "when: an RFC 3339 timestamp or YYYY-MM-DD (default: now, UTC)")
	status := fs.String("status", "approved", "reviewStatus: approved, provisional_operator_approved, restricted, review_required or unreviewed")
	license := fs.String("license", "", "sourceLicense: the licence as its holder names it (e.g. CC BY 4.0)")
	licenseURI := fs.String("license-uri", "", "licenseUri: the licence's URL, or none")
	attribution := fs.String("attribution", "", "attributionStatement: what every use must credit")
	fullText := fs.String("full-text", "", "allowFullText: yes or no")
	standard := fs.String("standard-resources", "", "allowStandardResources: yes or no")
	bulk := fs.String("bulk", "", "allowBulkResource: yes or no")
	derivatives := fs.String("derivatives", "", "allowGeneratedDerivatives: allowed, prohibited or review_required")
	note := fs.String("note", "", "why, or what was checked (recorded as rightsReview.note)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return ExitFailure
	}
	if fs.NArg() != 1 {
		return usageError(env, fs, "give exactly one profile file")
	}
	if strings.TrimSpace(*by) == "" {
		return usageError(env, fs, "--by is required: who reviewed the rights")
	}
	when := *at
	if when == "" {
		when = time.Now().UTC().Format(time.RFC3339)
	}
	path := fs.Arg(0)
	b, err := safefile.ReadPath(path, gate.MaxProfileBytes)
	if err != nil {
		fmt.Fprintf(env.Stderr, "kgc review-rights: %s: %v\n", path, err)
		return ExitFailure
	}
	root, errs := jsonv.Parse(b)
	if len(errs) > 0 || root.Kind != jsonv.Object {
		fmt.Fprintf(env.Stderr, "kgc review-rights: %s: not a JSON object\n", path)
		return ExitFailure
	}
	rights := root.Get("rights")
	if rights == nil || rights.Kind != jsonv.Object {
		fmt.Fprintf(env.Stderr, "kgc review-rights: %s: the profile has no rights object\n", path)
		return ExitFailure
	}
	var problems []string
	set := func(v *jsonv.Value, key string, val *jsonv.Value) {
		for i := range v.Obj {
			if v.Obj[i].Key == key {
				v.Obj[i].Val = val
				return
			}
		}
		v.Obj = append(v.Obj, jsonv.Member{Key: key, Val: val})
	}
	str := func(s string) *jsonv.Value { return &jsonv.Value{Kind: jsonv.String, Str: s} }
	boolean := func(flagName, s string) *jsonv.Value {
		switch s {
		case "yes", "true":
			return &jsonv.Value{Kind: jsonv.Bool, Bool: true}
		case "no", "false":
			return &jsonv.Value{Kind: jsonv.Bool}
		}
		problems = append(problems, fmt.Sprintf("--%s %q: want yes or no", flagName, s))
		return nil
	}
	set(rights, "reviewStatus", str(*status))
	for _, f := range []struct{ key, val string }{{"sourceLicense", *license}, {"attributionStatement", *attribution}, {"allowGeneratedDerivatives", *derivatives}} {
		if f.val != "" {
			set(rights, f.key, str(f.val))
		}
	}
	switch *licenseURI {
	case "":
	case "none":
		set(rights, "licenseUri", &jsonv.Value{Kind: jsonv.Null})
	default:
		set(rights, "licenseUri", str(*licenseURI))
	}
	for _, f := range []struct{ flag, key, val string }{{"full-text", "allowFullText", *fullText}, {"standard-resources", "allowStandardResources", *standard}, {"bulk", "allowBulkResource", *bulk}} {
		if f.val != "" {
			if v := boolean(f.flag, f.val); v != nil {
				set(rights, f.key, v)
			}
		}
	}
	review := &jsonv.Value{Kind: jsonv.Object, Obj: []jsonv.Member{{Key: "reviewedBy", Val: str(*by)}, {Key: "reviewedAt", Val: str(when)}}}
	if *note != "" {
		review.Obj = append(review.Obj, jsonv.Member{Key: "note", Val: str(*note)})
	}
	set(root, "rightsReview", review)
	if len(problems) > 0 {
		fmt.Fprintf(env.Stderr, "kgc review-rights: nothing written: %s\n", strings.Join(problems, "; "))
		return ExitFailure
	}
	var out bytes.Buffer
	writeJSON(&out, root, "")
	out.WriteByte('\n')
	if _, _, found := profile.Decode(out.Bytes(), path); len(found) > 0 {
		tw := termsafe.NewWriter(env.Stderr)
		for _, f := range found {
			fmt.Fprintf(tw, "%s: %s %s: %s\n", path, f.Severity, f.Code, f.Message)
		}
		tw.Flush()
		fmt.Fprintln(env.Stderr, "kgc review-rights: nothing written: the reviewed profile would not pass the gate")
		return exitFindings
	}
	if err := writeFileAtomic(path, out.Bytes()); err != nil {
		fmt.Fprintf(env.Stderr, "kgc review-rights: %s: %v\n", path, err)
		return ExitFailure
	}
	fmt.Fprintf(env.Stdout, "recorded in %s: reviewStatus %s, reviewed by %s at %s\n", path, *status, termsafe.String(*by), when)
	fmt.Fprintln(env.Stdout, "the profile's SHA-256 changed: pack the package again (kgc pack), then build")
	return exitOK
}

// writeJSON writes v indented by two spaces, members in their order.
func writeJSON(b *bytes.Buffer, v *jsonv.Value, indent string) {
	switch v.Kind {
	case jsonv.Object:
		if len(v.Obj) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, m := range v.Obj {
			k, _ := json.Marshal(m.Key)
			b.WriteString(indent + "  ")
			b.Write(k)
			b.WriteString(": ")
			writeJSON(b, m.Val, indent+"  ")
			if i < len(v.Obj)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case jsonv.Array:
		if len(v.Arr) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range v.Arr {
			b.WriteString(indent + "  ")
			writeJSON(b, e, indent+"  ")
			if i < len(v.Arr)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case jsonv.String:
		var s bytes.Buffer
		enc := json.NewEncoder(&s)
		enc.SetEscapeHTML(false)
		enc.Encode(v.Str)
		b.Write(bytes.TrimSuffix(s.Bytes(), []byte("\n")))
	case jsonv.Number:
		b.WriteString(v.Str)
	case jsonv.Bool:
		fmt.Fprint(b, v.Bool)
	default:
		b.WriteString("null")
	}
}
