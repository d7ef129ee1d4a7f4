// Package pkggen writes graph packages, their interpretation profiles and prompt
// configs from a small specification: the sample packages that ship with the
// project, the fixtures tests mutate, and the synthetic packages of any size the
// benchmarks use. Everything it writes is deterministic and passes the gate.
package pkggen

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Spec describes one package to generate.
type Spec struct {
	FrameworkID  string
	VersionToken string
	Name         string
	Subject      string
	Jurisdiction string
	Authority    string
	// GradeLabels are the local grade labels; normalized grades are "1", "2", …
	// in order unless GradeNumbers is set.
	GradeLabels  []string
	GradeNumbers []string
	Strands      int // per grade
	Standards    int // per strand
	Indicators   int // per standard
	// Codes gives standards and indicators statement codes ("<prefix><g>.<s>.<k>[.<i>]").
	Codes      bool
	CodePrefix string
	// RepeatCodes numbers every strand 1 in the codes, so each code is shared by
	// the same position in every strand of a grade (as real frameworks reuse
	// codes).
	RepeatCodes bool
	// Unresolved attaches this many indicators to the root with an unresolved
	// root fallback instead of their real parent.
	Unresolved int
	// Components adds one learning component per indicator (every fifth also
	// supports the next indicator).
	Components bool
	// Progressions adds buildsTowards edges between the same position in
	// consecutive grades and relatesTo edges between sibling indicators, with the
	// full provenance evidence (64 shards, index, reports).
	Progressions bool
	// Builds, when set, replaces the generated buildsTowards edges: each pair
	// (a, b) adds an edge from the a-th to the b-th indicator in generation order
	// (grade, strand, standard, indicator). The pairs must form a DAG.
	Builds [][2]int
	// ProgressionStrands, when positive, limits the generated progressions to the
	// first strands of each grade (a sparse progression graph over a large
	// package).
	ProgressionStrands int
	// AllowBulk grants bulk-resource rights (whole artifacts may be served).
	AllowBulk bool
	// Derivatives is the rights' allowGeneratedDerivatives ("" means allowed).
	Derivatives string
	// DenyStandardResources withholds the standard-level resources.
	DenyStandardResources bool
	// DenyFullText withholds full text (allowFullText false), with it the
	// standard-level resources.
	DenyFullText bool
	// NoPromptConfig writes no prompt config beside the profile.
	NoPromptConfig bool
	// Compact writes minimal provenance records and no entity provenance (for
	// very large synthetic packages).
	Compact bool
	// Publisher adds publisher-asserted relations (publisher_relations.jsonl,
	// as kgc import case writes the CASE associations other than isChildOf):
	// each indicator precedes the next of its standard (sequenceNumber its
	// position), and, with AlignTo, each standard is an exactMatchOf the
	// standard at the same position of AlignTo's framework, an end outside the
	// package given by its CASE identifier and URI.
	Publisher bool
	AlignTo   *Spec
	// Topics and Verbs feed the generated statement text.
	Topics []string
	Verbs  []string
}

// Written reports what Write produced.
type Written struct {
	PackageDir  string // <root>/<framework>/<snapshot>
	SnapshotID  string
	ProfilePath string
	PromptPath  string
}

// uuidFor returns a deterministic name-based UUID (version 5 layout over
// SHA-256) for a name.
func uuidFor(name string) string {
	sum := sha256.Sum256([]byte("kgc-pkggen:" + name))
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x50
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

func hexOf(name string) string {
	sum := sha256.Sum256([]byte("kgc-pkggen-hash:" + name))
	return hex.EncodeToString(sum[:])
}

// Write generates the package under packagesRoot/<framework>/<snapshot>/ and its
// profile and prompt config under profilesRoot. An existing snapshot directory of
// the same name is replaced.
func Write(spec Spec, packagesRoot, profilesRoot string) (*Written, error) {
	g := newGraph(spec)
	profileBytes, err := writeProfile(spec, profilesRoot)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(packagesRoot, ".pkggen-")
	if err != nil {
		return nil, fmt.Errorf("pkggen: %w", err)
	}
	defer os.RemoveAll(tmp)
	files, err := writeArtifacts(spec, g, tmp)
	if err != nil {
		return nil, err
	}
	snapshot, err := writeManifest(spec, g, tmp, files, profileBytes)
	if err != nil {
		return nil, err
	}
	fwDir := filepath.Join(packagesRoot, spec.FrameworkID)
	if err := os.MkdirAll(fwDir, 0o755); err != nil {
		return nil, fmt.Errorf("pkggen: %w", err)
	}
	final := filepath.Join(fwDir, snapshot)
	if err := os.RemoveAll(final); err != nil {
		return nil, fmt.Errorf("pkggen: %w", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return nil, fmt.Errorf("pkggen: %w", err)
	}
	w := &Written{PackageDir: final, SnapshotID: snapshot,
		ProfilePath: filepath.Join(profilesRoot, spec.FrameworkID, "1.0", "profile.json")}
	if !spec.Compact {
		w.PromptPath = filepath.Join(profilesRoot, spec.FrameworkID, "1.0", "prompts.json")
	}
	return w, nil
}

// artifactFile is one written artifact.
type artifactFile struct {
	name string
	path string
	sum  string // sha256:<hex>
}

func sortFiles(files []artifactFile) {
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
}
