package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"sort"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/schema/ids"
)

// inspectReport is what kgc inspect prints.
type inspectReport struct {
	Path             string          `json:"path"`
	Sha256           string          `json:"sha256"`
	Bytes            int64           `json:"bytes"`
	FormatVersion    uint32          `json:"formatVersion"`
	FrameworkID      string          `json:"frameworkId"`
	SnapshotID       string          `json:"snapshotId"`
	GraphPackageID   string          `json:"graphPackageId"`
	ProfileID        string          `json:"profileId"`
	ProfileVersion   string          `json:"profileVersion"`
	ProfileSha256    string          `json:"profileSha256"`
	ManifestSha256   string          `json:"manifestSha256"`
	PromptConfig     string          `json:"promptConfigSha256,omitempty"`
	Compiler         string          `json:"compiler"`
	Nodes            map[string]int  `json:"nodes"`
	Relationships    map[string]int  `json:"relationships"`
	ProvenanceCount  int             `json:"provenanceRecords"`
	FacetValues      int             `json:"facetValues"`
	Artifacts        int             `json:"artifacts"`
	EmbeddedArtifact int             `json:"embeddedArtifacts"`
	Sections         []kgimg.Section `json:"sections"`
}

func fileSHA(img *kgimg.Image) string {
	return ids.Sha256(img.Bytes())
}

func inspect(img *kgimg.Image) inspectReport {
	id := img.Identity()
	r := inspectReport{
		Path: img.Path(), Sha256: fileSHA(img), Bytes: img.Size(), FormatVersion: img.Header().Version,
		FrameworkID: id.FrameworkID, SnapshotID: id.SnapshotID, GraphPackageID: id.GraphPackageID,
		ProfileID: id.ProfileID, ProfileVersion: id.ProfileVersion, ProfileSha256: id.ProfileSha256,
		ManifestSha256: id.ManifestSha256, PromptConfig: id.PromptConfigSha256, Compiler: id.Compiler,
		Nodes: map[string]int{}, Relationships: map[string]int{}, FacetValues: len(img.Facets()), Sections: img.Sections(),
	}
	for n := 0; n < img.NodeCount(); n++ {
		r.Nodes[img.NodeKind(uint32(n)).String()]++
	}
	for e := 0; e < img.RelationshipCount(); e++ {
		r.Relationships[img.RelLabel(uint32(e)).String()]++
		if _, _, ok := img.Provenance(uint32(e)); ok {
			r.ProvenanceCount++
		}
	}
	for a := range img.Artifacts() {
		r.Artifacts++
		if a.Embedded() {
			r.EmbeddedArtifact++
		}
	}
	return r
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func runInspect(_ context.Context, env cmdEnv, args []string) int {
	var asJSON bool
	fset := newFlagSet(env, "inspect", "kgc inspect [--json] IMAGE")
	fset.BoolVar(&asJSON, "json", false, "print JSON")
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return ExitFailure
	}
	if fset.NArg() != 1 {
		return usageError(env, fset, "give exactly one image (got %d)", fset.NArg())
	}
	img, err := kgimg.Open(fset.Arg(0))
	if err != nil {
		fmt.Fprintln(env.Stderr, "kgc inspect:", err)
		return imageErrorCode(err)
	}
	defer img.Close()
	r := inspect(img)
	if asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		_ = enc.Encode(r)
		return exitOK
	}
	w := env.Stdout
	fmt.Fprintf(w, "image      %s\nsha256     %s\nbytes      %d\nformat     %d\ncompiler   %s\n", r.Path, r.Sha256, r.Bytes, r.FormatVersion, r.Compiler)
	fmt.Fprintf(w, "framework  %s\nsnapshot   %s\npackage    %s\nprofile    %s/%s %s\nmanifest   %s\n", r.FrameworkID, r.SnapshotID, r.GraphPackageID, r.ProfileID, r.ProfileVersion, r.ProfileSha256, r.ManifestSha256)
	if r.PromptConfig != "" {
		fmt.Fprintf(w, "prompts    %s\n", r.PromptConfig)
	}
	for _, k := range sortedKeys(r.Nodes) {
		fmt.Fprintf(w, "nodes      %-14s %d\n", k, r.Nodes[k])
	}
	for _, k := range sortedKeys(r.Relationships) {
		fmt.Fprintf(w, "edges      %-14s %d\n", k, r.Relationships[k])
	}
	fmt.Fprintf(w, "provenance %d records\nfacets     %d values\nartifacts  %d declared, %d embedded\nsections:\n", r.ProvenanceCount, r.FacetValues, r.Artifacts, r.EmbeddedArtifact)
	for _, s := range r.Sections {
		fmt.Fprintf(w, "  %-22s %10d bytes\n", s.Name, s.Bytes)
	}
	return exitOK
}

// imageErrorCode maps an open error to an exit code: unreadable → 2, corrupt → 1.
func imageErrorCode(err error) int {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return ExitFailure
	}
	return exitFindings
}

func runVerify(_ context.Context, env cmdEnv, args []string) int {
	fset := newFlagSet(env, "verify", "kgc verify IMAGE...\n\nOpens each image with every check kgmcp runs at start (header, checksum, structure)\nplus the deep checks (roaring Validate, UTF-8, index order, provenance partitions).")
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return ExitFailure
	}
	if fset.NArg() == 0 {
		return usageError(env, fset, "no image given")
	}
	code, bad := exitOK, 0
	for _, p := range fset.Args() {
		img, err := kgimg.Open(p)
		if err == nil {
			if err = img.VerifyDeep(); err != nil {
				img.Close()
			}
		}
		if err != nil {
			c := imageErrorCode(err)
			if c == ExitFailure {
				fmt.Fprintf(env.Stderr, "kgc verify: %v\n", err)
			} else {
				fmt.Fprintf(env.Stdout, "CORRUPT %s: %v\n", p, err)
				bad++
			}
			code = max(code, c)
			continue
		}
		fmt.Fprintf(env.Stdout, "ok      %s %s (%d bytes)\n", p, fileSHA(img), img.Size())
		img.Close()
	}
	if bad > 0 {
		fmt.Fprintf(env.Stdout, "%d of %d images are corrupt\n", bad, fset.NArg())
	}
	return code
}
