package pack

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/internal/safefile"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/manifest"
)

// detailedNames maps the detailed documents' basenames to their logical
// names (docs/reference/package-format.md#detailed-artifacts).
var detailedNames = map[string]string{
	"as_entity_provenance.json":             manifest.EntityProvenance,
	"as_kg_bundle.json":                     manifest.AcademicStandardsBundle,
	"as_lc_kg_bundle.json":                  manifest.LearningComponentsBundle,
	"as_lc_validation_report.json":          manifest.ValidationReport,
	"as_relationships_has_child.jsonl":      manifest.RelationshipsHasChild,
	"as_standards_framework.json":           manifest.StandardsFramework,
	"as_standards_framework_items.jsonl":    manifest.StandardsFrameworkItems,
	"as_unresolved_items.json":              manifest.UnresolvedItems,
	"lc_dedup_groups.json":                  manifest.LearningComponentDedupGroups,
	"lc_entity_provenance.json":             manifest.LearningComponentProvenance,
	"lc_generation_summary.json":            manifest.LearningComponentSummary,
	"lp_relationship_provenance.json":       manifest.LPProvenance,
	"lp_relationship_provenance_index.json": manifest.LPProvenanceIndex,
	"lp_normalization_receipt.json":         manifest.LPNormalization,
	"lp_relationships_builds_towards.jsonl": manifest.LPBuildsTowards,
	"lp_relationships_relates_to.jsonl":     manifest.LPRelatesTo,
	"lp_final_claims.json":                  manifest.LPFinalClaims,
	"lp_generation_summary.json":            manifest.LPSummary,
	"lp_unresolved_items.json":              manifest.LPUnresolved,
	"lp_validation_report.json":             manifest.LPValidation,
}

// detailedBasenames lists the basenames a detailed document may have, sorted.
func detailedBasenames() []string {
	out := make([]string, 0, len(detailedNames))
	for b := range detailedNames {
		out = append(out, b)
	}
	sort.Strings(out)
	return out
}

// shardOf recognises a provenance shard's basename
// (lp_relationship_provenance_shard_NN.json): shards given with the detailed
// documents go where the contract puts them, additional/, under their
// logical names.
func shardOf(base string) (int, bool) {
	for k := 0; k < manifest.ShardCount; k++ {
		if "additional/"+base == manifest.ShardPath(k) {
			return k, true
		}
	}
	return 0, false
}

// maxInputBytes bounds one input file (the gate's ceiling for the largest
// artifacts, detailed documents, is 256 MiB; delivery files are streamed and
// bounded by this).
const maxInputBytes = 4 << 30

// input is one file to pack: where it comes from, where it goes in the
// package, its logical name and digest.
type input struct {
	name       string // logical name
	additional bool
	src        string // file on disk
	path       string // package-relative path
	sum        string // sha256:<hex>
	size       int64
	data       []byte // the bytes, for an artifact pack generated (src is empty)
	// from is the user's file a generated artifact repeats (the provenance
	// or final claims as given), and lines, for a JSONL file pack assembled,
	// where each of its lines came from: the names a refusal's findings use.
	from  string
	lines []lineRef
}

// inputs resolves the spec's files into package artifacts and hashes them.
// Every problem is reported, not just the first. A file over the gate's
// ceiling for its artifact is not hashed: it is returned as a file_too_large
// finding instead (the package is refused before anything is copied).
func (s *Spec) inputs() ([]input, []finding.Finding, error) {
	var oversize []finding.Finding
	var in []input
	var errs []string
	add := func(name string, additional bool, src, dir string) {
		in = append(in, input{name: name, additional: additional, src: src, path: path.Join(dir, filepath.Base(src))})
	}
	add(manifest.Nodes, false, s.Nodes, "delivery")
	add(manifest.Relationships, false, s.Relationships, "delivery")
	if s.PublisherRelations != "" {
		add(manifest.PublisherRelations, false, s.PublisherRelations, "delivery")
	}
	detailed := s.DetailedArtifacts
	if s.DetailedRoot != "" {
		entries, err := os.ReadDir(s.DetailedRoot)
		if err != nil {
			errs = append(errs, fmt.Sprintf("detailed root: %v", err))
		}
		for _, e := range entries {
			if !e.Type().IsRegular() {
				errs = append(errs, fmt.Sprintf("detailed root %s: %s is not a regular file", s.DetailedRoot, e.Name()))
				continue
			}
			detailed = append(detailed, filepath.Join(s.DetailedRoot, e.Name()))
		}
	}
	for _, d := range detailed {
		if k, ok := shardOf(filepath.Base(d)); ok {
			add(manifest.ShardName(k), true, d, "additional")
			continue
		}
		name, ok := detailedNames[filepath.Base(d)]
		if !ok {
			errs = append(errs, fmt.Sprintf("detailed artifact %s: unknown basename (one of %s; other files go in as --additional-artifact NAME=PATH)", d, strings.Join(detailedBasenames(), ", ")))
			continue
		}
		add(name, false, d, "detailed")
	}
	names := make([]string, 0, len(s.AdditionalArtifacts))
	for n := range s.AdditionalArtifacts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if manifest.IsBuiltin(n) {
			errs = append(errs, fmt.Sprintf("additional artifact %s: a built-in artifact name (give it as a detailed artifact)", n))
			continue
		}
		add(n, true, s.AdditionalArtifacts[n], "additional")
	}
	seenName, seenPath := map[string]string{}, map[string]string{}
	for i := range in {
		f := &in[i]
		if prev, dup := seenName[f.name]; dup {
			errs = append(errs, fmt.Sprintf("%s and %s are both %s", prev, f.src, f.name))
		}
		seenName[f.name] = f.src
		if prev, dup := seenPath[strings.ToLower(f.path)]; dup {
			errs = append(errs, fmt.Sprintf("%s and %s would both be %s in the package", prev, f.src, f.path))
		}
		seenPath[strings.ToLower(f.path)] = f.src
		size, err := sizeOf(f.src)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		if tl, over := overCeiling(f.name, f.src, size); over {
			oversize = append(oversize, tl)
			continue
		}
		sum, size, err := digest(f.src)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		f.sum, f.size = sum, size
	}
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	sort.Slice(in, func(i, j int) bool { return in[i].path < in[j].path })
	return in, oversize, nil
}

// openInput opens an input file: a regular file (no symlink as the last
// element, no FIFO or device), at most maxInputBytes.
func openInput(p string) (*os.File, error) {
	f, _, err := safefile.OpenPath(p, maxInputBytes)
	return f, err
}

// digest hashes an input file.
func digest(p string) (string, int64, error) {
	f, err := openInput(p)
	if err != nil {
		return "", 0, fmt.Errorf("input %s: %w", p, err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, fmt.Errorf("input %s: %w", p, err)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), n, nil
}
