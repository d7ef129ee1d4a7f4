package pack

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/safefile"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
)

// Outcomes of a pack.
const (
	Created           = "created"
	DryRun            = "dry_run"
	ExistingIdentical = "existing_identical"
)

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
	ArtifactCount  int    `json:"artifactCount"`
	Counts         any    `json:"counts"`
}

// UsageError is a spec or input problem: nothing could be packed (exit 2).
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// RefusedError says why the package was not written (exit 1): the gate's
// findings (Gate is set), or an existing package in the way.
type RefusedError struct {
	Reason string
	Gate   *gate.Result
}

func (e *RefusedError) Error() string { return e.Reason }

func usage(format string, args ...any) error { return &UsageError{fmt.Errorf(format, args...)} }

// Run packs one package. On any error nothing is left under the output root
// but what was there before.
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
	case !contains(prof.FrameworkIDs, frameworkID):
		return nil, usage("profile %s/%s does not bind framework %s (it binds %v)", prof.ProfileID, prof.ProfileVersion, frameworkID, prof.FrameworkIDs)
	}
	inputs, err := spec.inputs()
	if err != nil {
		return nil, &UsageError{err}
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
	if p.createdAt, err = createdAt(spec, inputs, opts.Getenv); err != nil {
		return nil, &UsageError{err}
	}
	if err := os.MkdirAll(spec.OutputRoot, 0o755); err != nil {
		return nil, usage("output root: %v", err)
	}
	target := filepath.Join(spec.OutputRoot, frameworkID, p.snapshotID)
	if err := insideRoot(spec.OutputRoot, frameworkID, p.snapshotID); err != nil {
		return nil, err
	}
	if err := checkExisting(target); err != nil {
		return nil, err
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
	manifestBytes, err := p.prove(staged, opts)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Counts any `json:"counts"`
	}
	json.Unmarshal(manifestBytes, &doc)
	sum := sha256.Sum256(manifestBytes)
	res := &Result{FrameworkID: frameworkID, SnapshotID: p.snapshotID, GraphPackageID: p.graphPackageID(), PackageDir: target,
		ManifestSha256: "sha256:" + hex.EncodeToString(sum[:]), ArtifactCount: len(inputs), Counts: doc.Counts}
	if _, err := os.Lstat(target); err == nil {
		same, err := sameTree(staged, target)
		if err != nil {
			return nil, err
		}
		if !same {
			return nil, &RefusedError{Reason: fmt.Sprintf("%s already holds a different package; a package is never overwritten (remove it first if it is yours to replace)", target)}
		}
		res.Outcome = ExistingIdentical
		return res, nil
	}
	if opts.DryRun {
		res.Outcome = DryRun
		return res, nil
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return nil, usage("output root: %v", err)
	}
	if err := stages.rename(staged, target); err != nil {
		return nil, &RefusedError{Reason: fmt.Sprintf("moving the package into %s: %v", target, err)}
	}
	syncDir(filepath.Dir(target))
	res.Outcome = Created
	return res, nil
}

// stages tracks the staging directories of the packs in progress, so that a
// signal can remove them (Quiesce).
var stages = &stageSet{dirs: map[string]bool{}}

type stageSet struct {
	mu      sync.Mutex
	dirs    map[string]bool
	stopped bool
}

var errStopped = errors.New("pack: stopping")

// start creates a staging directory under root with its subdirectories.
// Everything later written into it only creates files, never directories, so
// that once Quiesce has removed it nothing recreates it.
func (s *stageSet) start(root string, subdirs []string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return "", errStopped
	}
	dir, err := os.MkdirTemp(root, ".kgc-pack-")
	if err != nil {
		return "", usage("output root: %v", err)
	}
	s.dirs[dir] = true
	for _, sub := range subdirs {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return dir, usage("staging: %v", err)
		}
	}
	return dir, nil
}

func (s *stageSet) end(dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.dirs, dir)
	os.RemoveAll(dir)
}

// create creates a file in a staging directory unless the process is
// stopping: once Quiesce has run, no new entry appears in a tree it removes.
func (s *stageSet) create(path string) (*os.File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return nil, errStopped
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}

// write creates a staged file holding b.
func (s *stageSet) write(path string, b []byte) error {
	f, err := s.create(path)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// rename moves a staged package into place unless the process is stopping.
func (s *stageSet) rename(from, to string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return errStopped
	}
	return os.Rename(from, to)
}

// Quiesce stops every pack in progress: a package being renamed into place
// finishes; every staging directory is removed; no pack starts or completes
// afterwards. kgc calls it on SIGINT and SIGTERM before exiting.
func Quiesce() {
	stages.mu.Lock()
	defer stages.mu.Unlock()
	stages.stopped = true
	for dir := range stages.dirs {
		os.RemoveAll(dir)
	}
}

// prepareProgressions replaces the relationships input by the combined file
// and adds the prepared progression artifacts.
func (p *plan) prepareProgressions() ([]input, error) {
	var out []input
	var prefix []byte
	var relPath string
	for _, in := range p.inputs {
		switch {
		case in.name == manifest.Relationships:
			b, err := readAll(in.src)
			if err != nil {
				return nil, err
			}
			prefix, relPath = b, in.path
		case manifest.IsLP(in.name) || strings.HasPrefix(in.name, "learningProgressionProvenanceShard"):
			return nil, fmt.Errorf("%s is a prepared progression artifact: give either the prepared artifacts or learningProgressions, not both", in.src)
		default:
			out = append(out, in)
		}
	}
	n := p.content.framework
	docKey := sha([]byte("kgc-pack:" + p.frameworkID))
	for _, in := range p.inputs {
		if in.name == manifest.StandardsFramework {
			var sf struct {
				Metadata struct {
					DocKey string `json:"doc_key"`
				} `json:"metadata"`
			}
			if b, err := readAll(in.src); err == nil && json.Unmarshal(b, &sf) == nil && len(sf.Metadata.DocKey) == 64 {
				docKey = sf.Metadata.DocKey
			}
		}
	}
	rel, gen, err := p.spec.Progressions.prepare(p.frameworkID, n.Str(delivery.NCaseIdentifierUUID), docKey, p.content.items, prefix)
	if err != nil {
		return nil, err
	}
	add := func(name string, additional bool, path string, data []byte) {
		sum := sha256.Sum256(data)
		out = append(out, input{name: name, additional: additional, path: path, data: data, size: int64(len(data)), sum: "sha256:" + hex.EncodeToString(sum[:])})
	}
	add(manifest.Relationships, false, relPath, rel)
	for _, g := range gen {
		add(g.name, g.additional, g.path, g.data)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, nil
}

// prove writes the manifest into the staged package and runs the gate: the
// first run observes the counts and graph facts (its only errors may be the
// count and capability mismatches of the provisional manifest), the second
// must accept the package as written.
func (p *plan) prove(staged string, opts Options) ([]byte, error) {
	gopts := gate.Options{ProfileRoot: opts.ProfileRoot, PromptRoot: opts.PromptRoot, MaxFindings: opts.MaxFindings}
	var obs *gate.Observed
	for pass := 0; pass < 2; pass++ {
		m := p.manifest(obs)
		if err := writeFile(filepath.Join(staged, manifest.FileName), m); err != nil {
			return nil, err
		}
		res, err := gate.Run(staged, gopts)
		if err != nil {
			return nil, usage("validating the staged package: %v", err)
		}
		if res.Valid() {
			return m, nil
		}
		if pass == 1 || !onlyDerivable(res) {
			return nil, &RefusedError{Reason: fmt.Sprintf("the package does not pass the validation gate (%d errors)", res.Findings.Errors()), Gate: res}
		}
		obs = res.Observed
	}
	panic("unreachable")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// readProfile reads and decodes the bound profile; a profile with findings
// cannot be bound.
func readProfile(root, id, version string) (*profile.Profile, string, error) {
	if root == "" {
		return nil, "", usage("no profile root given")
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, "", usage("profile root: %v", err)
	}
	defer r.Close()
	rel := filepath.Join(id, version, profile.FileName)
	b, err := safefile.Read(r, rel, 8<<20)
	if err != nil {
		return nil, "", usage("profile %s: %v", filepath.Join(root, rel), err)
	}
	prof, _, fs := profile.Decode(b, rel)
	if prof == nil || len(fs) > 0 {
		msg := "does not decode"
		if len(fs) > 0 {
			msg = fs[0].Message
		}
		return nil, "", usage("profile %s: %s (%d problems; kgc validate reports them all)", filepath.Join(root, rel), msg, len(fs))
	}
	if prof.ProfileID != id || prof.ProfileVersion != version {
		return nil, "", usage("profile %s says it is %s/%s", filepath.Join(root, rel), prof.ProfileID, prof.ProfileVersion)
	}
	sum := sha256.Sum256(b)
	return prof, "sha256:" + hex.EncodeToString(sum[:]), nil
}

// createdAt is the spec's createdAt, else SOURCE_DATE_EPOCH, else the newest
// modification time among the inputs: the same inputs give the same package.
func createdAt(spec *Spec, inputs []input, getenv func(string) string) (string, error) {
	if spec.CreatedAt != "" {
		t, err := time.Parse(time.RFC3339, spec.CreatedAt)
		if err != nil {
			return "", fmt.Errorf("createdAt %q is not an RFC 3339 timestamp", spec.CreatedAt)
		}
		return t.UTC().Format(time.RFC3339), nil
	}
	if s := getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return "", fmt.Errorf("SOURCE_DATE_EPOCH %q is not a Unix time", s)
		}
		return time.Unix(n, 0).UTC().Format(time.RFC3339), nil
	}
	var newest time.Time
	for _, in := range inputs {
		if in.src == "" {
			continue
		}
		if fi, err := os.Stat(in.src); err == nil && fi.ModTime().After(newest) {
			newest = fi.ModTime()
		}
	}
	return newest.UTC().Truncate(time.Second).Format(time.RFC3339), nil
}

// insideRoot refuses a destination that would leave the output root: the
// framework or snapshot directory already there as a symlink or as anything
// but a directory.
func insideRoot(root string, parts ...string) error {
	p := root
	for _, part := range parts {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return usage("output root: %v", err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
			return &RefusedError{Reason: fmt.Sprintf("%s is not a directory inside the output root (a symlink or a file): the package would be written outside %s", p, root)}
		}
	}
	return nil
}

// checkExisting refuses a terminal package at target, even in a dry run.
func checkExisting(target string) error {
	b, err := os.ReadFile(filepath.Join(target, manifest.FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		if _, serr := os.Lstat(target); serr == nil {
			return &RefusedError{Reason: fmt.Sprintf("%s exists but its manifest cannot be read (%v); a package is never overwritten", target, err)}
		}
		return nil
	}
	var m struct {
		Validation struct {
			Status string `json:"status"`
		} `json:"validation"`
	}
	if json.Unmarshal(b, &m) == nil && m.Validation.Status != "" && m.Validation.Status != "pending" {
		return &RefusedError{Reason: fmt.Sprintf("%s is a %s package: terminal packages are never rewritten", target, m.Validation.Status)}
	}
	return nil
}

// copyInputs copies every input into the staged package, checking that each
// still has the digest it was hashed with.
func copyInputs(staged string, inputs []input) error {
	for _, in := range inputs {
		dst := filepath.Join(staged, filepath.FromSlash(in.path))
		if in.src == "" {
			if err := stages.write(dst, in.data); err != nil {
				return usage("staging: %v", err)
			}
			continue
		}
		src, err := openInput(in.src)
		if err != nil {
			return usage("input %s: %v", in.src, err)
		}
		out, err := stages.create(dst)
		if err != nil {
			src.Close()
			return usage("staging: %v", err)
		}
		h := sha256.New()
		_, err = io.Copy(io.MultiWriter(out, h), src)
		src.Close()
		if err == nil {
			err = out.Sync()
		}
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return usage("copying %s: %v", in.src, err)
		}
		if got := "sha256:" + hex.EncodeToString(h.Sum(nil)); got != in.sum {
			return usage("input %s changed while it was packed", in.src)
		}
	}
	return nil
}

func writeFile(p string, b []byte) error {
	if err := stages.write(p, b); err != nil {
		return usage("staging: %v", err)
	}
	return nil
}

// sameTree reports whether two package trees hold the same files with the
// same bytes (and nothing else).
func sameTree(a, b string) (bool, error) {
	list := func(root string) (map[string]string, error) {
		out := map[string]string{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			switch {
			case d.IsDir():
				out[rel+"/"] = ""
			case d.Type().IsRegular():
				sum, _, err := digest(p)
				if err != nil {
					return err
				}
				out[rel] = sum
			default:
				out[rel] = "special"
			}
			return nil
		})
		return out, err
	}
	x, err := list(a)
	if err != nil {
		return false, usage("comparing: %v", err)
	}
	y, err := list(b)
	if err != nil {
		return false, &RefusedError{Reason: fmt.Sprintf("%s cannot be compared with the new package: %v", b, err)}
	}
	if len(x) != len(y) {
		return false, nil
	}
	for k, v := range x {
		if y[k] != v {
			return false, nil
		}
	}
	return true, nil
}

// syncDir makes a rename durable (best effort).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
