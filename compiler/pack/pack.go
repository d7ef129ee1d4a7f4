package pack

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/safefile"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
)

// Outcomes of a pack.
const (
	Created           = "created"
	DryRun            = "dry_run"
	ExistingIdentical = "existing_identical"
)

// DefaultCreatedAt is the manifest's createdAt when neither the spec
// (--created-at) nor SOURCE_DATE_EPOCH states one: the Unix epoch, a fixed
// value that says "not stated", so that the same inputs give the same package
// on any machine, at any time, after any copy or checkout (file modification
// times change with each).
const DefaultCreatedAt = "1970-01-01T00:00:00Z"

// Options configure a pack beyond its spec.
type Options struct {
	// ProfileRoot holds <profileId>/<profileVersion>/profile.json; PromptRoot
	// the prompt configs the gate also checks (empty: ProfileRoot).
	ProfileRoot string
	PromptRoot  string
	// DryRun does everything but the final rename.
	DryRun bool
	// MaxFindings is how many findings a refused package's result keeps.
	MaxFindings int
	// Getenv reads SOURCE_DATE_EPOCH (nil: os.Getenv).
	Getenv func(string) string
}

// Result is what a pack did.
type Result struct {
	Outcome        string `json:"outcome"`
	FrameworkID    string `json:"frameworkId"`
	SnapshotID     string `json:"snapshotId"`
	GraphPackageID string `json:"graphPackageId"`
	PackageDir     string `json:"packageDir"`
	ManifestSha256 string `json:"manifestSha256"`
	// CreatedAt is the manifest's createdAt and CreatedAtSource where it came
	// from: "spec", "SOURCE_DATE_EPOCH" or "default" (DefaultCreatedAt).
	CreatedAt       string `json:"createdAt"`
	CreatedAtSource string `json:"createdAtSource"`
	ArtifactCount   int    `json:"artifactCount"`
	Counts          any    `json:"counts"`
}

// UsageError is a spec or input problem: nothing could be packed (exit 2).
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// RefusedError says why the package was not written (exit 1): the gate's
// findings (Gate is set), or an existing package in the way.
type RefusedError struct {
	Reason string
	// Gate holds the findings. They are about the package pack staged and
	// removed: Locate turns each into one about the user's own files. Gate.Dir
	// is where the package would have been written.
	Gate   *gate.Result
	locate func(finding.Finding) finding.Finding
}

func (e *RefusedError) Error() string { return e.Reason }

// Locate returns a finding of Gate as one about the files the user gave: the
// input file and line the staged bytes came from, the prompt config under its
// root, or, for a file pack writes itself (the manifest, prepared progression
// artifacts), the path it would have had, saying so. Its Path is then a path
// to print as it is, not one relative to the package.
func (e *RefusedError) Locate(f finding.Finding) finding.Finding {
	if e.locate == nil {
		return f
	}
	return e.locate(f)
}

func usage(format string, args ...any) error { return &UsageError{fmt.Errorf(format, args...)} }

// Run packs one package. On any error, and after a dry run, nothing is left
// under the output root but what was there before (the output root itself
// included, when pack created it).
func Run(spec *Spec, opts Options) (*Result, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if err := spec.Check(); err != nil {
		return nil, &UsageError{err}
	}
	prof, profileDigest, err := readProfile(opts.ProfileRoot, spec.ProfileID, spec.ProfileVersion)
	if err != nil {
		return nil, err
	}
	frameworkID := spec.FrameworkID
	switch {
	case frameworkID == "" && len(prof.FrameworkIDs) == 1:
		frameworkID = prof.FrameworkIDs[0]
	case frameworkID == "":
		return nil, usage("profile %s/%s binds %d frameworks (%v): say which with frameworkId", prof.ProfileID, prof.ProfileVersion, len(prof.FrameworkIDs), prof.FrameworkIDs)
	case !slices.Contains(prof.FrameworkIDs, frameworkID):
		return nil, usage("profile %s/%s does not bind framework %s (it binds %v)", prof.ProfileID, prof.ProfileVersion, frameworkID, prof.FrameworkIDs)
	}
	// Sizes first: an input over the gate's ceiling for its artifact is
	// refused before anything is hashed, copied or created.
	inputs, oversize, err := spec.inputs()
	if err != nil {
		return nil, &UsageError{err}
	}
	if lp := spec.Progressions; lp != nil {
		more, err := lp.oversize()
		if err != nil {
			return nil, &UsageError{err}
		}
		oversize = append(oversize, more...)
	}
	if len(oversize) > 0 {
		return nil, tooLarge(filepath.Join(spec.OutputRoot, frameworkID), oversize, opts.MaxFindings)
	}
	p := &plan{spec: spec, frameworkID: frameworkID, profile: prof, profileDigest: profileDigest, inputs: inputs}
	if spec.SourceDocument != "" {
		if p.sourceDocSum, _, err = digest(spec.SourceDocument); err != nil {
			return nil, &UsageError{err}
		}
	}
	if p.content, err = readContent(spec.Nodes, spec.Relationships); err != nil {
		return nil, &UsageError{err}
	}
	if spec.Progressions != nil {
		if p.inputs, err = p.prepareProgressions(); err != nil {
			return nil, &UsageError{err}
		}
		inputs = p.inputs
	}
	checksums := map[string]string{}
	for _, in := range inputs {
		checksums[in.path] = in.sum
	}
	p.snapshotID = frameworkID + "@" + spec.VersionToken + "+" + manifest.SnapshotHash(checksums, profileDigest)
	if p.createdAt, p.createdAtSource, err = createdAt(spec, opts.Getenv); err != nil {
		return nil, &UsageError{err}
	}
	target := filepath.Join(spec.OutputRoot, frameworkID, p.snapshotID)
	if err := insideRoot(spec.OutputRoot, frameworkID, p.snapshotID); err != nil {
		return nil, err
	}
	if err := checkExisting(target); err != nil {
		return nil, err
	}
	var made createdDirs
	kept := false
	defer func() {
		if !kept {
			made.remove()
		}
	}()
	if err := made.mkdirAll(spec.OutputRoot); err != nil {
		return nil, usage("output root: %v", err)
	}
	pkgRel := filepath.Join(frameworkID, p.snapshotID)
	subdirs := []string{pkgRel}
	for _, in := range inputs {
		subdirs = append(subdirs, filepath.Join(pkgRel, filepath.Dir(filepath.FromSlash(in.path))))
	}
	stage, err := stages.start(spec.OutputRoot, subdirs)
	if err != nil {
		return nil, err
	}
	defer stages.end(stage)
	staged := filepath.Join(stage, pkgRel)
	if err := copyInputs(staged, inputs); err != nil {
		return nil, err
	}
	manifestBytes, err := p.prove(staged, target, opts)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Counts any `json:"counts"`
	}
	json.Unmarshal(manifestBytes, &doc)
	sum := sha256.Sum256(manifestBytes)
	res := &Result{FrameworkID: frameworkID, SnapshotID: p.snapshotID, GraphPackageID: p.graphPackageID(), PackageDir: target,
		ManifestSha256: "sha256:" + hex.EncodeToString(sum[:]), CreatedAt: p.createdAt, CreatedAtSource: p.createdAtSource,
		ArtifactCount: len(inputs), Counts: doc.Counts}
	if _, err := os.Lstat(target); err == nil {
		diff, err := differences(staged, target)
		if err != nil {
			return nil, err
		}
		if len(diff) > 0 {
			return nil, &RefusedError{Reason: differentPackage(target, diff)}
		}
		res.Outcome = ExistingIdentical
		return res, nil
	}
	if opts.DryRun {
		res.Outcome = DryRun
		return res, nil
	}
	if err := made.mkdirAll(filepath.Dir(target)); err != nil {
		return nil, usage("output root: %v", err)
	}
	if err := stages.rename(staged, target); err != nil {
		return nil, &RefusedError{Reason: fmt.Sprintf("moving the package into %s: %v", target, err)}
	}
	kept = true
	syncDir(filepath.Dir(target))
	res.Outcome = Created
	return res, nil
}

// prove writes the manifest into the staged package and runs the gate twice.
// The first run is provisional (gate.Options.Provisional): the manifest's
// counts and the capabilities derived from them are placeholders the gate
// does not compare, so every finding it reports is a real problem of the
// inputs; it observes the counts and graph facts. The manifest is then
// written with them, and the second run must accept the package as written.
// A refusal's findings name the user's files (RefusedError.Locate); its
// Gate.Dir is the destination.
func (p *plan) prove(staged, target string, opts Options) ([]byte, error) {
	var obs *gate.Observed
	for pass := 0; pass < 2; pass++ {
		gopts := gate.Options{ProfileRoot: opts.ProfileRoot, PromptRoot: opts.PromptRoot, MaxFindings: opts.MaxFindings, Provisional: pass == 0}
		m := p.manifest(obs)
		if err := writeFile(filepath.Join(staged, manifest.FileName), m); err != nil {
			return nil, err
		}
		res, err := gate.Run(staged, gopts)
		if err != nil {
			return nil, usage("validating the staged package: %v", err)
		}
		if !res.Valid() {
			res.Dir = target
			promptRoot := opts.PromptRoot
			if promptRoot == "" {
				promptRoot = opts.ProfileRoot
			}
			return nil, &RefusedError{Reason: fmt.Sprintf("the package does not pass the validation gate (%d error(s))", res.Findings.Errors()),
				Gate: res, locate: p.locator(target, opts.ProfileRoot, promptRoot)}
		}
		if pass == 1 {
			return m, nil
		}
		if obs = res.Observed; obs == nil {
			return nil, usage("validating the staged package: the gate accepted it without observing its graph")
		}
	}
	panic("unreachable")
}

// readProfile reads and decodes the bound profile; a profile with findings
// cannot be bound (kgc check-profile lists them all).
func readProfile(root, id, version string) (*profile.Profile, string, error) {
	if root == "" {
		return nil, "", usage("no profile root given")
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, "", usage("profile root: %v (give the directory that holds <profileId>/<profileVersion>/profile.json with --profiles)", err)
	}
	defer r.Close()
	rel := filepath.Join(id, version, profile.FileName)
	path := filepath.Join(root, rel)
	b, err := safefile.Read(r, rel, gate.MaxProfileBytes)
	if err != nil {
		return nil, "", usage("profile %s: %v", path, err)
	}
	prof, _, fs := profile.Decode(b, rel)
	if prof == nil || len(fs) > 0 {
		msg := "does not decode"
		if len(fs) > 0 {
			msg = fs[0].Message
		}
		return nil, "", usage("profile %s: %s (%d problem(s) in all; `kgc check-profile %s` lists every one)", path, msg, max(len(fs), 1), path)
	}
	if prof.ProfileID != id || prof.ProfileVersion != version {
		return nil, "", usage("profile %s says it is %s/%s", path, prof.ProfileID, prof.ProfileVersion)
	}
	sum := sha256.Sum256(b)
	return prof, "sha256:" + hex.EncodeToString(sum[:]), nil
}

// createdAt is the spec's createdAt, else SOURCE_DATE_EPOCH, else
// DefaultCreatedAt; the second result says which.
func createdAt(spec *Spec, getenv func(string) string) (string, string, error) {
	if spec.CreatedAt != "" {
		t, err := time.Parse(time.RFC3339, spec.CreatedAt)
		if err != nil {
			return "", "", fmt.Errorf("createdAt %q is not an RFC 3339 timestamp", spec.CreatedAt)
		}
		return t.UTC().Format(time.RFC3339), "spec", nil
	}
	if s := getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return "", "", fmt.Errorf("SOURCE_DATE_EPOCH %q is not a Unix time", s)
		}
		return time.Unix(n, 0).UTC().Format(time.RFC3339), "SOURCE_DATE_EPOCH", nil
	}
	return DefaultCreatedAt, "default", nil
}
