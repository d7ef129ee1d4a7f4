// Package gate is the package validation gate (docs/validation.md). Run takes one
// package directory through every stage in order (safe discovery, manifest, exact
// tree, profile binding, artifact checksums, detailed reports, delivery decoding,
// graph semantics and topology, learning components, learning progressions,
// reconciliation, prompt configs) and reports every problem as a finding. A check
// that needs an artifact the package lacks (missing, or with a wrong checksum) is
// skipped, so an incomplete package gets exactly the findings its missing files
// cause.
//
// The gate only reads: it never writes into the package, the profile root or
// anywhere else.
package gate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
	"github.com/kgc-project/kgc/schema/promptcfg"
)

// Options configure a gate run.
type Options struct {
	// ProfileRoot holds <profileId>/<profileVersion>/profile.json.
	ProfileRoot string
	// MaxFindings is how many findings the result keeps (the first in gate
	// order); the rest are only counted. Zero means finding.DefaultKeep.
	MaxFindings int
	// PromptRoot holds <profileId>/<profileVersion>/prompts.json; empty means
	// ProfileRoot. A missing prompt root is allowed (no prompt configs).
	PromptRoot string
	// Provisional says the manifest's counts and its observed capabilities
	// (textSearch, multiParent, hasUnresolvedRelationships) are placeholders
	// the caller derives from Result.Observed: the gate records Observed but
	// does not compare them. `kgc pack` runs the gate so over the package it
	// stages, then writes what was observed and runs the gate again in full;
	// every other check runs as always.
	Provisional bool
}

// RefusedError is the error of a command that needs a valid package and was
// given one with error findings: Result holds them all.
type RefusedError struct {
	Dir    string
	Result *Result
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("package %s does not pass the validation gate (%d error(s))", e.Dir, e.Result.Findings.Errors())
}

// Result is the outcome of one gate run: the findings and, as far as decoding got,
// the decoded package (which `kgc build` compiles when there are no errors).
type Result struct {
	// Dir is the package directory as given.
	Dir      string
	Findings finding.List

	ManifestBytes []byte
	Manifest      *manifest.Manifest

	ProfilePath  string // relative to the profile root
	ProfileBytes []byte
	Profile      *profile.Profile
	Compiled     *profile.Compiled

	PromptPath  string // relative to the prompt root; empty when there is none
	PromptBytes []byte
	Prompts     *promptcfg.Config

	Nodes         []*delivery.Node
	Relationships []*delivery.Relationship
	// NodeIndex returns the position in Nodes of the first node with an ID
	// (the decoder's table of node IDs; nil when Nodes were not decoded).
	NodeIndex func(id string) (int, bool)
	// Sources and Targets hold the position in Nodes of each relationship's
	// endpoints (-1: no node has the ID), once the graph checks have run.
	Sources, Targets []int32
	// PublisherRelations are the publisher-asserted relations (CASE
	// associations other than isChildOf), in file order.
	PublisherRelations []*delivery.PublisherRelation

	// ArtifactSizes is the size in bytes of each artifact file whose
	// checksum the gate verified, by path: what it hashed.
	ArtifactSizes map[string]int64

	// EntityProvenance maps node IDs to their detailed-provenance entry
	// (canonical JSON) from entityProvenance and learningComponentProvenance.
	EntityProvenance map[string][]byte

	// Provenance maps each progression relationship ID to its provenance record's
	// canonical JSON, as accepted from the shards.
	Provenance map[string][]byte

	// ProgressionReports holds the canonical JSON of the learning-progression
	// summary, validation and unresolved reports, by logical name, when present.
	ProgressionReports map[string][]byte

	// Observed holds the counts and facts the gate derived from the decoded
	// graph, which the manifest's counts and capabilities must equal (nil when
	// the graph could not be decoded). `kgc pack` writes them.
	Observed *Observed
}

// Observed are the manifest counts and graph facts derived from a package's
// content (the manifest's counts and capabilities,
// docs/reference/package-format.md#manifest-package_manifestjson).
type Observed struct {
	Counts manifest.Counts
	// TextItems is how many standards items have a description (textSearch
	// needs one).
	TextItems int64
}

// Valid reports whether the package passed: no error-severity finding.
func (r *Result) Valid() bool { return r.Findings.Errors() == 0 }

// ErrNotPackage is returned when the path given is not a directory.
var ErrNotPackage = errors.New("not a package directory")

// Run validates the package in dir. It returns an error only when the gate could
// not run at all (the path is missing or unreadable, the profile root is
// missing); everything wrong with the package itself is a finding.
func Run(dir string, opts Options) (*Result, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, fmt.Errorf("package %s: %w", dir, err)
	}
	if fi.Mode()&os.ModeSymlink == 0 && !fi.IsDir() {
		return nil, fmt.Errorf("package %s: %w", dir, ErrNotPackage)
	}
	if opts.ProfileRoot == "" {
		return nil, errors.New("no profile root given")
	}
	if st, err := os.Stat(opts.ProfileRoot); err != nil {
		return nil, fmt.Errorf("profile root %s: %w", opts.ProfileRoot, err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("profile root %s: not a directory", opts.ProfileRoot)
	}
	if opts.PromptRoot == "" {
		opts.PromptRoot = opts.ProfileRoot
	}
	s := &state{res: &Result{Dir: dir, Findings: finding.List{Keep: opts.MaxFindings}, ArtifactSizes: map[string]int64{}}, opts: opts, dir: filepath.Clean(dir), usable: map[string]bool{}, splitLines: map[string][][32]byte{}}
	if err := s.run(); err != nil {
		return nil, err
	}
	return s.res, nil
}

// state carries one run.
type state struct {
	res  *Result
	opts Options
	dir  string
	// root is the package opened as an os.Root (nil when the package is a
	// symlink or could not be opened safely).
	root *os.Root
	// files and dirs list every regular file and directory in the tree,
	// package-relative.
	files map[string]bool
	dirs  map[string]bool
	// usable marks artifacts that exist with a matching checksum; checks that
	// need an artifact run only when it is usable.
	usable map[string]bool
	// invalidPaths marks declared paths that failed path validation.
	invalidPaths map[string]bool
	// docs holds decoded detailed JSON artifacts by logical name.
	docs map[string]*doc
	// ps parses the detailed documents, one part at a time where it can
	// (scan.go), into memory it reuses.
	ps jsonv.Parser
	// splitLines holds the line hashes of the split progression files.
	splitLines map[string][][32]byte
	// evidence holds the progression provenance read from the shards.
	evidence *lpEvidence
	// treeTooLarge is set once the walk stopped at MaxTreeEntries.
	treeTooLarge bool
	// relPrefixBytes is the byte length of the AS/LC part of the
	// relationships file (before the first progression record).
	relPrefixBytes int64
	// findings, when set, is where this copy of the state reports (see
	// alongside); nil reports to the result.
	findings *finding.List
	// lineHashes are the digests of the progression records' lines, by
	// position in the relationships (delivery.Result.LineHashes).
	lineHashes map[int][32]byte
}

// add reports findings: to the result, or to the list of a check that runs
// beside others (alongside).
func (s *state) add(fs ...finding.Finding) {
	if s.findings != nil {
		s.findings.Add(fs...)
		return
	}
	s.res.Findings.Add(fs...)
}

// oneByOne makes alongside run its checks one after the other on the state
// itself (the tests compare the two).
var oneByOne bool

// alongside runs checks one after the other at once, each on its own
// copy of the state with a findings list of its own, and then adds their
// findings to the result in the order of the checks: the findings (kept
// and counted) of running them in that order one after the other. The
// checks must not write what another reads: each writes only to its own
// parts of the graph and the result.
func (s *state) alongside(checks ...func(s *state)) {
	if oneByOne {
		for _, check := range checks {
			check(s)
		}
		return
	}
	lists := make([]finding.List, len(checks))
	var wg sync.WaitGroup
	for i, check := range checks {
		c := *s
		lists[i].Keep = s.res.Findings.Keep
		c.findings = &lists[i]
		wg.Add(1)
		go func() {
			defer wg.Done()
			check(&c)
		}()
	}
	wg.Wait()
	for i := range lists {
		s.res.Findings.Merge(&lists[i])
	}
}

func (s *state) run() error {
	defer func() {
		if s.root != nil {
			s.root.Close()
		}
	}()
	if !s.discover() {
		return nil
	}
	if err := s.walk(); err != nil {
		return err
	}
	if !s.readManifest() {
		return nil
	}
	s.checkTree()
	if err := s.bindProfile(); err != nil {
		return err
	}
	if err := s.checkArtifacts(); err != nil {
		return err
	}
	// The delivery files are decoded while the detailed documents are read.
	decoding, err := s.startDelivery()
	if err != nil {
		return err
	}
	if err := s.readDocuments(); err != nil {
		decoding.wg.Wait()
		return err
	}
	s.checkReport()
	if err := decoding.finish(s); err != nil {
		return err
	}
	g := s.checkGraph()
	if g != nil {
		// The hierarchy is checked beside the other checks of the decoded
		// graph (it only reads the graph and reports).
		var lp *claimTally
		s.alongside(func(s *state) { s.checkHierarchy(g) }, func(s *state) {
			s.checkComponents(g)
			s.checkDetailed(g)
			s.checkPublisherRelations(g)
			lp = s.checkProgressions(g)
		})
		s.reconcile(g, lp)
	}
	return s.loadPrompts()
}

// need reports whether every named artifact is usable.
func (s *state) need(names ...string) bool {
	for _, n := range names {
		if !s.usable[n] {
			return false
		}
	}
	return true
}
