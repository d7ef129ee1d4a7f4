// Package catalog opens a set of .kgimg images and answers which package a
// request is about: frameworks and their snapshots, exact routing by
// frameworkId + snapshotId, and unique-current routing by frameworkId alone
// (docs/reference/errors.md#ambiguous_framework). Nothing is merged across packages.
package catalog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/schema/lpsummary"
	"github.com/kgc-project/kgc/schema/manifest"
)

// Package is one accepted package: its image, the manifest it embeds (copied
// out of its compiled form once at start) and its compiled profile (read in
// place; see Profile).
type Package struct {
	Img      *kgimg.Image
	Manifest *manifest.Manifest
	profile  packageProfile
	// Progressions is the stored learning-progression summary (nil when the
	// package has none), copied out once at start.
	Progressions *lpsummary.Summary
	// Path is the image file.
	Path string

	withdrawn atomic.Pointer[error] // set once the image is found modified in place, or failing its verification
	ready     sync.Once
	log       *slog.Logger
	verified  *verifyHook // shared by the packages opened together
}

// verifyHook is what a Loading's packages call after their first-use
// verification (Loading.ObserveVerification); empty until it is set.
type verifyHook struct {
	fn atomic.Pointer[func(time.Duration, error)]
}

// Ready verifies, the first time it is called, what opening the catalog left
// unverified of p's image (a format 3 image: everything but its header and
// catalog part, then its stored text; kgimg.Image.Ready and CheckText), and
// withdraws p when that fails (catalog_error, as for an image modified in
// place). It returns p's withdrawal, or nil: a package is served only once
// Ready has answered nil. It costs nothing after the first call, and nothing
// for an image verified whole at open.
func (p *Package) Ready() error {
	p.ready.Do(func() {
		if !p.Img.Lazy() {
			return
		}
		start := time.Now()
		err := p.Img.Ready()
		if err == nil {
			err = p.Img.CheckText()
		}
		if p.verified != nil {
			if fn := p.verified.fn.Load(); fn != nil {
				(*fn)(time.Since(start), err)
			}
		}
		if err != nil {
			var e error = kgerr.New(kgerr.CatalogError, "the image of %s failed its verification on first use (%v); the package is withdrawn", p.SnapshotID(), err).
				WithHint("run kgc verify on the image, rebuild it with kgc build, then send kgmcp SIGHUP")
			if p.withdrawn.CompareAndSwap(nil, &e) && p.log != nil {
				p.log.Error("image failed its verification on first use; package withdrawn", "path", p.Path, "snapshotId", p.SnapshotID(), "error", err.Error())
			}
		}
	})
	return p.Withdrawn()
}

// Withdrawn returns why the package is no longer served (its image file was
// modified in place after it was verified, or it failed the verification
// Ready runs on first use), or nil.
func (p *Package) Withdrawn() error {
	if e := p.withdrawn.Load(); e != nil {
		return *e
	}
	return nil
}

// FrameworkID etc. are shorthands for the package identity.
func (p *Package) FrameworkID() string { return p.Manifest.FrameworkID }

// SnapshotID returns the snapshot ID.
func (p *Package) SnapshotID() string { return p.Manifest.SnapshotID }

// GraphPackageID returns the graph package ID.
func (p *Package) GraphPackageID() string { return p.Manifest.GraphPackageID }

// Snapshot groups the packages of one snapshot (today one academic_standards
// package each), ordered by (graphType, packageRevision, graphPackageId).
type Snapshot struct {
	FrameworkID string
	SnapshotID  string
	Packages    []*Package
}

// Primary returns the snapshot's package of graph type t.
func (s *Snapshot) Primary(t string) *Package {
	for _, p := range s.Packages {
		if p.Manifest.GraphType == t {
			return p
		}
	}
	return nil
}

// IsCurrent reports the snapshot's source isCurrent flag.
func (s *Snapshot) IsCurrent() bool { return s.Packages[0].Manifest.Framework.IsCurrent }

// Framework is one framework family with its snapshots ordered by snapshot ID.
type Framework struct {
	ID        string
	Snapshots []*Snapshot
}

// Catalog is the set of accepted packages.
type Catalog struct {
	Frameworks []*Framework // ordered by framework ID
	Packages   []*Package   // ordered by (frameworkId, snapshotId, graphType, packageRevision, graphPackageId)
	byID       map[string]*Framework
	bySnapshot map[string]*Snapshot
	// Refused lists the images that were skipped (quarantine policy).
	Refused []Refusal
	log     *slog.Logger
	shared  bool // a Subset: its images belong to another catalog
	// publishers are the packages whose manifests declare publisher
	// relations, in catalog order (ServedPublishers).
	publishers []*Package
}

// Refusal records an image that could not be accepted.
type Refusal struct {
	Path string
	Err  error
}

// Policy says what to do with an image that cannot be accepted.
type Policy string

// Invalid-image policies.
const (
	PolicyFail       Policy = "fail"
	PolicyQuarantine Policy = "quarantine"
)

// ErrNoImages is returned when no acceptable image was found.
var ErrNoImages = errors.New("catalog: no acceptable image")

// Paths expands the arguments (image files or directories holding *.kgimg) into
// image paths, sorted.
func Paths(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("catalog: %w", err)
		}
		if !fi.IsDir() {
			out = append(out, a)
			continue
		}
		matches, err := filepath.Glob(filepath.Join(a, "*.kgimg"))
		if err != nil {
			return nil, fmt.Errorf("catalog: %w", err)
		}
		out = append(out, matches...)
	}
	sort.Strings(out)
	return out, nil
}

// Open opens and verifies every image and builds the catalog. Under PolicyFail
// the first image that cannot be accepted stops it; under PolicyQuarantine it is
// logged and skipped. No acceptable image at all is ErrNoImages.
func Open(paths []string, policy Policy, log *slog.Logger) (*Catalog, error) {
	return OpenContext(context.Background(), paths, policy, log)
}

// OpenContext is Open that stops when ctx ends (returning its error, with
// every image opened so far closed).
func OpenContext(ctx context.Context, paths []string, policy Policy, log *slog.Logger) (*Catalog, error) {
	return openContext(ctx, paths, policy, log, nil)
}

func openContext(ctx context.Context, paths []string, policy Policy, log *slog.Logger, hook *verifyHook) (*Catalog, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Catalog{byID: map[string]*Framework{}, bySnapshot: map[string]*Snapshot{}, log: log}
	opened := openAll(ctx, paths, log, hook)
	if err := ctx.Err(); err != nil {
		for _, o := range opened {
			if o.pkg != nil {
				o.pkg.Img.Close()
			}
		}
		return nil, fmt.Errorf("catalog: %w", err)
	}
	seen := map[string]string{}
	for i, p := range paths {
		pkg, err := opened[i].pkg, opened[i].err
		if err == nil {
			if prev, dup := seen[pkg.GraphPackageID()]; dup {
				pkg.Img.Close()
				err = fmt.Errorf("%w: graph package %s is also served by %s", errDuplicate, pkg.GraphPackageID(), prev)
			} else {
				seen[pkg.GraphPackageID()] = p
			}
		}
		if err != nil {
			if policy != PolicyQuarantine {
				c.Close()
				for _, o := range opened[i+1:] {
					if o.pkg != nil {
						o.pkg.Img.Close()
					}
				}
				return nil, fmt.Errorf("catalog: %s: %w", p, err)
			}
			log.Warn("image quarantined", "path", p, "error", err.Error())
			c.Refused = append(c.Refused, Refusal{Path: p, Err: err})
			continue
		}
		c.add(pkg)
	}
	if len(c.Packages) == 0 {
		return nil, ErrNoImages
	}
	c.sort()
	for _, a := range c.Ambiguities() {
		log.Warn(a) // told once, before any request, not by every unpinned call
	}
	return c, nil
}

var errDuplicate = errors.New("duplicate package")

type opening struct {
	pkg *Package
	err error
}

// openAll opens every image, two workers per CPU: opening an image is
// independent of every other, a catalog's start-up is their sum, and about
// a third of an image's opening is system calls (open, stat, read, map),
// which a second worker overlaps (10,000 small images: 0.32-0.35 s with one
// worker per CPU, 0.29 s with two, in process). Results keep the order of paths, so what Open accepts and
// refuses does not depend on scheduling. Once ctx ends no image is started.
func openAll(ctx context.Context, paths []string, log *slog.Logger, hook *verifyHook) []opening {
	out := make([]opening, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(2*runtime.GOMAXPROCS(0), len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i].pkg, out[i].err = openPackage(paths[i], log, hook)
			}
		}()
	}
	for i := range paths {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

func openPackage(path string, log *slog.Logger, hook *verifyHook) (*Package, error) {
	p := &Package{Path: path, log: log, verified: hook}
	img, err := kgimg.OpenLazy(path, p.readVerified)
	if err != nil {
		return nil, err
	}
	p.Img = img
	return p, nil
}

// readVerified copies out of the verified image (kgimg.OpenWith) what the
// catalog needs at once: the manifest and the progression summary (present
// exactly when the manifest says hasLearningProgressions: Open checks it).
// They are read from the bytes Open verified, so a catalog's start reads
// none of its mappings.
func (p *Package) readVerified(img *kgimg.Image) error {
	m := img.CompiledManifest()
	lp, err := img.ProgressionSummary()
	if err != nil {
		return err
	}
	p.Manifest, p.Progressions = m, lp
	return nil
}

func (c *Catalog) add(p *Package) {
	f := c.byID[p.FrameworkID()]
	if f == nil {
		f = &Framework{ID: p.FrameworkID()}
		c.byID[f.ID] = f
		c.Frameworks = append(c.Frameworks, f)
	}
	s := c.bySnapshot[p.SnapshotID()]
	if s == nil {
		s = &Snapshot{FrameworkID: f.ID, SnapshotID: p.SnapshotID()}
		c.bySnapshot[s.SnapshotID] = s
		f.Snapshots = append(f.Snapshots, s)
	}
	s.Packages = append(s.Packages, p)
	c.Packages = append(c.Packages, p)
}

func (c *Catalog) sort() {
	sort.Slice(c.Frameworks, func(i, j int) bool { return c.Frameworks[i].ID < c.Frameworks[j].ID })
	for _, f := range c.Frameworks {
		sort.Slice(f.Snapshots, func(i, j int) bool { return f.Snapshots[i].SnapshotID < f.Snapshots[j].SnapshotID })
		for _, s := range f.Snapshots {
			sort.Slice(s.Packages, func(i, j int) bool { return packageLess(s.Packages[i], s.Packages[j]) })
		}
	}
	sort.Slice(c.Packages, func(i, j int) bool {
		a, b := c.Packages[i], c.Packages[j]
		if a.FrameworkID() != b.FrameworkID() {
			return a.FrameworkID() < b.FrameworkID()
		}
		if a.SnapshotID() != b.SnapshotID() {
			return a.SnapshotID() < b.SnapshotID()
		}
		return packageLess(a, b)
	})
	c.publishers = nil
	for _, p := range c.Packages {
		if _, ok := p.Manifest.Artifact(manifest.PublisherRelations); ok {
			c.publishers = append(c.publishers, p)
		}
	}
}

func packageLess(a, b *Package) bool {
	ma, mb := a.Manifest, b.Manifest
	if ma.GraphType != mb.GraphType {
		return ma.GraphType < mb.GraphType
	}
	if ma.PackageRevision != mb.PackageRevision {
		return ma.PackageRevision < mb.PackageRevision
	}
	return ma.GraphPackageID < mb.GraphPackageID
}

// Close closes every image (nothing for a Subset, whose images its catalog
// owns).
func (c *Catalog) Close() {
	if c.shared {
		return
	}
	for _, p := range c.Packages {
		p.Img.Close()
	}
}

// Framework returns a framework family.
func (c *Catalog) Framework(id string) (*Framework, bool) {
	f, ok := c.byID[id]
	return f, ok
}

// Snapshot returns a snapshot by ID.
func (c *Catalog) Snapshot(id string) (*Snapshot, bool) {
	s, ok := c.bySnapshot[id]
	return s, ok
}

// ResolveSnapshot routes a request: frameworkId + snapshotId name that
// exact snapshot; frameworkId alone names the family's single current snapshot
// (otherwise ambiguous_framework); snapshotId alone names that snapshot.
//
// A snapshot with a withdrawn package (see Check) is catalog_error.
func (c *Catalog) ResolveSnapshot(frameworkID, snapshotID string) (*Snapshot, error) {
	s, err := c.resolveSnapshot(frameworkID, snapshotID)
	if err != nil {
		return nil, err
	}
	if err := s.withdrawn(); err != nil {
		return nil, err
	}
	return s, nil
}

func (c *Catalog) resolveSnapshot(frameworkID, snapshotID string) (*Snapshot, error) {
	if snapshotID != "" {
		s, ok := c.bySnapshot[snapshotID]
		if !ok || frameworkID != "" && s.FrameworkID != frameworkID {
			return nil, kgerr.New(kgerr.FrameworkNotFound, "snapshot %s is not available%s", snapshotID, forFramework(frameworkID)).
				WithHint("call list_frameworks to see the accepted snapshots")
		}
		return s, nil
	}
	if frameworkID == "" {
		return nil, kgerr.New(kgerr.FrameworkNotFound, "a frameworkId or snapshotId is required")
	}
	f, ok := c.byID[frameworkID]
	if !ok {
		return nil, kgerr.New(kgerr.FrameworkNotFound, "framework %s is not available", frameworkID).
			WithHint("call list_frameworks to see the accepted frameworks")
	}
	var current []*Snapshot
	for _, s := range f.Snapshots {
		if s.IsCurrent() {
			current = append(current, s)
		}
	}
	if len(current) != 1 {
		ids := make([]string, len(current))
		for i, s := range current {
			ids[i] = describe(s)
		}
		return nil, kgerr.New(kgerr.AmbiguousFramework, "framework %s has %d current snapshots (%s); no unique current snapshot", frameworkID, len(current), strings.Join(ids, "; ")).
			WithHint("pass snapshotId to choose one")
	}
	return current[0], nil
}

// Ambiguities says, for each framework without exactly one current
// snapshot, why a call naming only its frameworkId will be refused
// (ambiguous_framework or framework_not_found), in framework order: an
// operator is told at start rather than by every unpinned call.
func (c *Catalog) Ambiguities() []string {
	var out []string
	for _, f := range c.Frameworks {
		var current []string
		for _, s := range f.Snapshots {
			if s.IsCurrent() {
				current = append(current, describe(s))
			}
		}
		switch len(current) {
		case 1:
		case 0:
			out = append(out, fmt.Sprintf("framework %s has no current snapshot: calls must pass snapshotId", f.ID))
		default:
			out = append(out, fmt.Sprintf("framework %s has %d current snapshots (%s): calls naming only frameworkId are refused with ambiguous_framework; pass snapshotId, or serve one of them",
				f.ID, len(current), strings.Join(current, "; ")))
		}
	}
	return out
}

// describe names a snapshot with what tells it apart from another snapshot
// of its framework: what its packages contain and their counts.
func describe(s *Snapshot) string {
	var types []string
	var items, comps, edges int64
	version := ""
	for _, p := range s.Packages {
		m := p.Manifest
		for _, t := range m.IncludedGraphTypes {
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
		items += m.Counts.ItemNodes
		comps += m.Counts.LearningComponentNodes
		edges += m.Counts.BuildsTowardsRelationships + m.Counts.RelatesToRelationships
		version = m.Framework.SourceVersion
	}
	sort.Strings(types)
	return fmt.Sprintf("%s: %s, %d standards, %d learning components, %d progression edges, source version %s",
		s.SnapshotID, strings.Join(types, "+"), items, comps, edges, version)
}

func forFramework(id string) string {
	if id == "" {
		return ""
	}
	return " for framework " + id
}

// Resolve routes a request to one package of a graph type.
func (c *Catalog) Resolve(frameworkID, snapshotID, graphType string) (*Package, error) {
	s, err := c.ResolveSnapshot(frameworkID, snapshotID)
	if err != nil {
		return nil, err
	}
	if graphType == "" {
		graphType = manifest.GraphAcademicStandards
	}
	p := s.Primary(graphType)
	if p == nil {
		return nil, kgerr.New(kgerr.FrameworkNotFound, "snapshot %s has no %s package", s.SnapshotID, graphType)
	}
	return p, nil
}
