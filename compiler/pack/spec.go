// Package pack turns a framework's own exports (delivery nodes and
// relationships, detailed documents, additional artifacts) and its
// interpretation profile into one deterministic pending graph package:
// <output-root>/<framework-id>/<snapshot-id>/ with the closed tree, every
// checksum, the counts and capabilities derived from the data, the profile
// bound by SHA-256, and the rights and framework metadata taken from where the
// contract says they come (docs/reference/package-format.md, docs/pack.md). The
// package is staged beside its destination, proved by the validation gate,
// and renamed into place: nothing half-written is ever visible.
package pack

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/kgc-project/kgc/internal/jsonv"
)

// Spec is one package build (the reference's PackageBuildSpec): what to pack
// and where.
type Spec struct {
	JurisdictionType string `json:"jurisdictionType"`
	Nodes            string `json:"nodes"`
	Relationships    string `json:"relationships"`
	// PublisherRelations is the publisher-asserted relations JSONL (CASE
	// associations other than isChildOf; kgc import case writes it), packed as
	// delivery/<its basename>.
	PublisherRelations string `json:"publisherRelations,omitempty"`
	ProfileID          string `json:"profileId"`
	ProfileVersion     string `json:"profileVersion"`
	VersionToken       string `json:"versionToken"`
	OutputRoot         string `json:"outputRoot"`
	// DetailedRoot is a directory whose every file is a detailed artifact;
	// DetailedArtifacts lists them one by one (at most one of the two).
	DetailedRoot      string   `json:"detailedRoot,omitempty"`
	DetailedArtifacts []string `json:"detailedArtifacts,omitempty"`
	// AdditionalArtifacts maps an artifact name to its file.
	AdditionalArtifacts map[string]string `json:"additionalArtifacts,omitempty"`
	SnapshotRelations   []Relation        `json:"snapshotRelations,omitempty"`
	// SourceDocument is the exact source document (its SHA-256 is recorded,
	// it is not packed); SourcePublicationDate is YYYY-MM-DD.
	SourceDocument        string `json:"sourceDocument,omitempty"`
	SourcePublicationDate string `json:"sourcePublicationDate,omitempty"`
	// FrameworkID is needed only when the profile binds several frameworks.
	FrameworkID string `json:"frameworkId,omitempty"`
	// CreatedAt overrides the manifest's createdAt (RFC 3339, UTC).
	CreatedAt string `json:"createdAt,omitempty"`
	// Progressions, when set, are prepared into the progression artifacts
	// (instead of giving them prepared as detailed artifacts).
	Progressions *Progressions `json:"learningProgressions,omitempty"`
}

// Relation is one snapshot relation.
type Relation struct {
	RelationType     string `json:"relationType"`
	TargetSnapshotID string `json:"targetSnapshotId"`
	Evidence         string `json:"evidence"`
}

// MaxSpecBytes bounds a spec file.
const MaxSpecBytes = 1 << 20

// DecodeSpecs decodes a spec file holding one spec (an object) or several
// (an array of them, as kgc import case writes for an input of several
// CFDocuments), each as DecodeSpec does.
func DecodeSpecs(data []byte, base string) ([]*Spec, error) {
	if len(data) > MaxSpecBytes {
		return nil, fmt.Errorf("spec: %d bytes, over the %d-byte limit", len(data), MaxSpecBytes)
	}
	v, errs := jsonv.Parse(data)
	if len(errs) > 0 {
		return nil, fmt.Errorf("spec: %v", errs[0])
	}
	if v.Kind != jsonv.Array {
		s, err := DecodeSpec(data, base)
		if err != nil {
			return nil, err
		}
		return []*Spec{s}, nil
	}
	if len(v.Arr) == 0 {
		return nil, errors.New("spec: an empty array")
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	out := make([]*Spec, 0, len(raw))
	for i, r := range raw {
		s, err := DecodeSpec(r, base)
		if err != nil {
			return nil, fmt.Errorf("spec [%d]: %w", i, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// DecodeSpec decodes a spec strictly: one JSON object, no duplicate or
// unknown keys, exact types. Relative paths are resolved against base (the
// spec file's directory).
func DecodeSpec(data []byte, base string) (*Spec, error) {
	if len(data) > MaxSpecBytes {
		return nil, fmt.Errorf("spec: %d bytes, over the %d-byte limit", len(data), MaxSpecBytes)
	}
	v, errs := jsonv.Parse(data)
	if len(errs) > 0 {
		return nil, fmt.Errorf("spec: %v", errs[0])
	}
	if v.Kind != jsonv.Object {
		return nil, errors.New("spec: not a JSON object (nor an array of them)")
	}
	known := map[string]bool{}
	for _, k := range []string{"jurisdictionType", "nodes", "relationships", "publisherRelations", "profileId", "profileVersion", "versionToken", "outputRoot",
		"detailedRoot", "detailedArtifacts", "additionalArtifacts", "snapshotRelations", "sourceDocument", "sourcePublicationDate",
		"frameworkId", "createdAt", "learningProgressions"} {
		known[k] = true
	}
	var bad []string
	for _, m := range v.Obj {
		if !known[m.Key] {
			bad = append(bad, m.Key)
		}
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("spec: unknown field(s) %s", strings.Join(bad, ", "))
	}
	var s Spec
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	for _, p := range []*string{&s.Nodes, &s.Relationships, &s.PublisherRelations, &s.OutputRoot, &s.DetailedRoot, &s.SourceDocument} {
		*p = resolve(base, *p)
	}
	for i := range s.DetailedArtifacts {
		s.DetailedArtifacts[i] = resolve(base, s.DetailedArtifacts[i])
	}
	for k, p := range s.AdditionalArtifacts {
		s.AdditionalArtifacts[k] = resolve(base, p)
	}
	if lp := s.Progressions; lp != nil {
		for _, p := range []*string{&lp.BuildsTowards, &lp.RelatesTo, &lp.Provenance, &lp.FinalClaims} {
			*p = resolve(base, *p)
		}
	}
	return &s, nil
}

func resolve(base, p string) string {
	if p == "" || filepath.IsAbs(p) || base == "" {
		return p
	}
	return filepath.Join(base, p)
}

var (
	versionTokenRe = regexp.MustCompile(`^[a-z0-9]+(?:[._-][a-z0-9]+)*$`)
	dateRe         = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	nameRe         = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)
)

// Check reports every problem with the spec itself (missing required fields,
// malformed values), before any file is read.
func (s *Spec) Check() error {
	var errs []error
	req := func(field, v string) {
		if strings.TrimSpace(v) == "" {
			errs = append(errs, fmt.Errorf("%s is required", field))
		}
	}
	req("jurisdictionType", s.JurisdictionType)
	req("nodes", s.Nodes)
	req("relationships", s.Relationships)
	req("profileId", s.ProfileID)
	req("profileVersion", s.ProfileVersion)
	req("versionToken", s.VersionToken)
	req("outputRoot", s.OutputRoot)
	if s.VersionToken != "" && (!versionTokenRe.MatchString(s.VersionToken) || len(s.VersionToken) > 96) {
		errs = append(errs, fmt.Errorf("versionToken %q is not a version token (lowercase letters and digits, separated by . _ -; at most 96)", s.VersionToken))
	}
	if s.DetailedRoot != "" && len(s.DetailedArtifacts) > 0 {
		errs = append(errs, errors.New("detailedRoot and detailedArtifacts are mutually exclusive"))
	}
	if s.SourcePublicationDate != "" && !dateRe.MatchString(s.SourcePublicationDate) {
		errs = append(errs, fmt.Errorf("sourcePublicationDate %q is not YYYY-MM-DD", s.SourcePublicationDate))
	}
	for name := range s.AdditionalArtifacts {
		if !nameRe.MatchString(name) {
			errs = append(errs, fmt.Errorf("additional artifact name %q is not an artifact name", name))
		}
	}
	for i, r := range s.SnapshotRelations {
		if r.RelationType == "" || r.TargetSnapshotID == "" {
			errs = append(errs, fmt.Errorf("snapshotRelations[%d] needs relationType and targetSnapshotId", i))
		}
	}
	if lp := s.Progressions; lp != nil && (lp.BuildsTowards == "" || lp.RelatesTo == "" || lp.Provenance == "") {
		errs = append(errs, errors.New("learningProgressions needs buildsTowards, relatesTo and provenance"))
	}
	return errors.Join(errs...)
}
