package query

import (
	"github.com/kgc-project/kgc/runtime/progression"
	"github.com/kgc-project/kgc/runtime/record"

	"bytes"
	"context"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/render"
	"github.com/kgc-project/kgc/runtime/uri"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/manifest"
)

// document is one resolved resource.
type document struct {
	ref            uri.Ref
	kind           string // resourceKind
	representation string // deterministic_derived | raw_source
	mime           string
	data           []byte
	pkg            *catalog.Package
	sources        []SourceArtifact
}

// ResourceMetadata identifies a resource read (docs/reference/resources.md#reading-rules): its address,
// kind and representation, its bytes' length and SHA-256, the package it
// belongs to (where it belongs to one) and the artifacts it comes from.
type ResourceMetadata struct {
	ByteLength      int              `json:"byteLength"`
	CanonicalURI    string           `json:"canonicalUri"`
	ContentSha256   string           `json:"contentSha256"`
	FrameworkID     string           `json:"frameworkId,omitempty"`
	GraphPackageID  string           `json:"graphPackageId,omitempty"`
	GraphType       string           `json:"graphType,omitempty"`
	MimeType        string           `json:"mimeType"`
	ProfileID       string           `json:"profileId,omitempty"`
	ProfileSha256   string           `json:"profileSha256,omitempty"`
	ProfileVersion  string           `json:"profileVersion,omitempty"`
	Representation  string           `json:"representation" enum:"deterministic_derived,raw_source"`
	ResourceKind    string           `json:"resourceKind"`
	SnapshotID      string           `json:"snapshotId,omitempty"`
	SourceArtifacts []SourceArtifact `json:"sourceArtifacts"`
}

// SourceArtifact is an artifact a resource was derived or read from.
type SourceArtifact struct {
	GraphPackageID string  `json:"graphPackageId"`
	LogicalName    string  `json:"logicalName"`
	Sha256         string  `json:"sha256"`
	SizeBytes      *uint64 `json:"sizeBytes"`
}

func (d *document) metadata() ResourceMetadata {
	m := ResourceMetadata{
		CanonicalURI: d.ref.String(), ResourceKind: d.kind, Representation: d.representation, MimeType: d.mime,
		ByteLength: len(d.data), ContentSha256: ids.Sha256(d.data), SourceArtifacts: d.sources, FrameworkID: d.ref.FrameworkID,
	}
	if m.SourceArtifacts == nil {
		m.SourceArtifacts = []SourceArtifact{}
	}
	if p := d.pkg; p != nil {
		mf := p.Manifest
		m.SnapshotID, m.GraphPackageID, m.GraphType = mf.SnapshotID, mf.GraphPackageID, mf.GraphType
		m.ProfileID, m.ProfileVersion, m.ProfileSha256 = mf.Profile.ProfileID, mf.Profile.ProfileVersion, mf.Profile.Sha256
	}
	return m
}

func sourceArtifact(p *catalog.Package, name string) (SourceArtifact, bool) {
	a, ok := p.Manifest.Artifact(name)
	if !ok {
		return SourceArtifact{}, false
	}
	out := SourceArtifact{GraphPackageID: p.GraphPackageID(), LogicalName: name, Sha256: p.Manifest.Checksums[a.Path]}
	if art, ok := p.Img.Artifact(name); ok {
		size := art.Size()
		out.SizeBytes = &size
	}
	return out, true
}

func derivedDoc(ref uri.Ref, kind string, p *catalog.Package, v any, sources ...string) (*document, error) {
	b, err := canonjson.Marshal(v)
	if err != nil {
		return nil, err
	}
	d := &document{ref: ref, kind: kind, representation: "deterministic_derived", mime: "application/json", data: b, pkg: p}
	for _, name := range sources {
		if s, ok := sourceArtifact(p, name); ok {
			d.sources = append(d.sources, s)
		}
	}
	return d, nil
}

func notFound(format string, args ...any) *kgerr.Error {
	return kgerr.New(kgerr.ResourceNotFound, format, args...)
}

func denied(format string, args ...any) error {
	return kgerr.New(kgerr.ResourceAccessDenied, format, args...)
}

// fullText and standardResources are the rights gates of
// docs/reference/resources.md#reading-rules.
func fullText(p *catalog.Package) error {
	r := p.Manifest.Rights
	if !r.Reviewed() || !r.AllowFullText {
		return denied("the package's rights do not allow full-text resources (review %s, allowFullText %t)", r.ReviewStatus, r.AllowFullText)
	}
	return nil
}

func standardResources(p *catalog.Package) error {
	if err := fullText(p); err != nil {
		return err
	}
	if !p.Manifest.Rights.AllowStandardResources {
		return denied("the package's rights do not allow standard resources")
	}
	return nil
}

// resolve reads one resource under the rights and size policies.
func (s *Service) resolve(ref uri.Ref) (*document, error) {
	if ref.Kind == "catalog" {
		return derivedDoc(ref, "catalog", nil, s.catalogObject())
	}
	if ref.Kind == "framework" {
		f, ok := s.cat.Framework(ref.FrameworkID)
		if !ok {
			return nil, kgerr.New(kgerr.FrameworkNotFound, "framework %s is not available", ref.FrameworkID)
		}
		return derivedDoc(ref, "framework", nil, record.FrameworkOf(f))
	}
	p, err := s.cat.Resolve(ref.FrameworkID, ref.SnapshotID, manifest.GraphAcademicStandards)
	if err != nil {
		return nil, err
	}
	switch ref.Kind {
	case "package_manifest":
		return &document{ref: ref, kind: "manifest", representation: "raw_source", mime: "application/json", data: p.Img.ManifestJSON(), pkg: p}, nil
	case "interpretation_profile":
		return &document{ref: ref, kind: "interpretation_profile", representation: "raw_source", mime: "application/json", data: p.Img.ProfileJSON(), pkg: p}, nil
	case "validation_report":
		return s.artifactDoc(ref, p, manifest.ValidationReport, "validation")
	case "unresolved_items":
		if err := fullText(p); err != nil {
			return nil, err
		}
		return s.artifactDoc(ref, p, manifest.UnresolvedItems, "unresolved")
	case "manifest_artifact":
		return s.artifactDoc(ref, p, ref.ID, "artifact")
	case "learning_progressions":
		return derivedDoc(ref, "learning_progressions", p, progression.Summary(p),
			manifest.LPSummary, manifest.LPValidation, manifest.LPUnresolved, manifest.LPProvenance)
	}
	if err := standardResources(p); err != nil {
		return nil, err
	}
	if ref.Kind == "standard_diagram" {
		return diagramDoc(ref, p)
	}
	return s.recordDoc(ref, p)
}

// artifactDoc serves an artifact's exact bytes under the closed exposure policy.
func (s *Service) artifactDoc(ref uri.Ref, p *catalog.Package, name, kind string) (*document, error) {
	a, ok := p.Img.Artifact(name)
	if !ok {
		return nil, notFound("the package declares no %s artifact", name)
	}
	class := a.Exposure()
	if class == manifest.ExposeNone {
		return nil, notFound("artifact %s has no exposure contract", name)
	}
	if !manifest.Allows(p.Manifest.Rights, class) {
		return nil, denied("the package's rights do not allow serving %s (%s)", name, class)
	}
	if int64(a.Size()) > s.opts.MaxResourceSourceBytes || int64(a.Size()) > s.opts.MaxResourceBytes {
		return nil, denied("artifact %s is %d bytes, over the resource size limits", name, a.Size())
	}
	if !a.Embedded() {
		return nil, notFound("artifact %s is not in the image", name)
	}
	d := &document{ref: ref, kind: kind, representation: "raw_source", mime: strings.Clone(a.Mime()), data: a.Bytes(), pkg: p}
	if s, ok := sourceArtifact(p, name); ok {
		d.sources = append(d.sources, s)
	}
	return d, nil
}

// availableResources lists the resource kinds and artifact names a package can
// actually serve under its rights.
func (s *Service) availableResources(p *catalog.Package) (kinds, artifacts []string) {
	kinds = []string{"catalog", "framework", "interpretation_profile", "learning_progressions", "manifest"}
	if _, ok := p.Img.Artifact(manifest.ValidationReport); ok {
		kinds = append(kinds, "validation")
	}
	if fullText(p) == nil {
		if _, ok := p.Img.Artifact(manifest.UnresolvedItems); ok {
			kinds = append(kinds, "unresolved")
		}
	}
	if standardResources(p) == nil {
		kinds = append(kinds, "standard", "standard_diagram", "relationship")
		if p.Manifest.Capabilities.HasDetailedProvenance {
			kinds = append(kinds, "standard_provenance")
		}
		if p.Manifest.Includes(manifest.GraphLearningComponents) {
			kinds = append(kinds, "learning_component", "learning_component_provenance", "standard_learning_components")
		}
		if p.Manifest.Includes(manifest.GraphLearningProgressions) {
			kinds = append(kinds, "relationship_provenance")
		}
	}
	artifacts = []string{}
	for a := range p.Img.Artifacts() {
		if a.Embedded() && int64(a.Size()) <= s.opts.MaxResourceBytes {
			artifacts = append(artifacts, strings.Clone(a.Name()))
		}
	}
	if len(artifacts) > 0 {
		kinds = append(kinds, "artifact")
	}
	sort.Strings(kinds)
	return kinds, artifacts
}

// Resource is one resource read: its address, media type, bytes (a copy: it
// does not point into an image), whether they are the raw source bytes (a
// blob) or a derived document (text), and its metadata (docs/reference/resources.md#reading-rules).
type Resource struct {
	URI      string
	MIMEType string
	Raw      bool
	Data     []byte
	Meta     ResourceMetadata
}

// IsText reports whether the resource is text (JSON, NDJSON or text/*, in
// valid UTF-8), to be sent as text content; anything else is a blob. Raw
// JSON artifacts are text too: their exact bytes are the text.
func (r *Resource) IsText() bool {
	switch {
	case r.MIMEType == "application/json", r.MIMEType == "application/x-ndjson", strings.HasPrefix(r.MIMEType, "text/"):
		return utf8.Valid(r.Data)
	}
	return false
}

// ReadResource reads the resource at address under the rights and size policies.
// Errors are *kgerr.Error (resource_not_found, resource_access_denied, …),
// ctx's error when it has ended, or internal failures.
func (s *Service) ReadResource(ctx context.Context, address string) (*Resource, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ref, err := uri.Parse(address)
	if err != nil {
		return nil, err
	}
	d, err := s.resolve(ref)
	if err != nil {
		return nil, err
	}
	if int64(len(d.data)) > s.opts.MaxResourceBytes {
		return nil, denied("the resource is %d bytes, over the %d-byte limit", len(d.data), s.opts.MaxResourceBytes)
	}
	// The bytes are always a copy (the MCP adapter sends them after its
	// handler returns); the metadata is detached as every result is.
	meta, _ := own(s, d.metadata(), nil)
	return &Resource{URI: address, MIMEType: d.mime, Raw: d.representation == "raw_source", Data: bytes.Clone(d.data), Meta: meta}, nil
}

// ResourceTemplate is one resource template of the surface
// (docs/reference/resources.md#templates).
type ResourceTemplate struct{ Name, URITemplate, MIMEType, Title, Description string }

// ResourceTemplates returns the 15 templates, in the contract's order.
func ResourceTemplates() []ResourceTemplate {
	out := make([]ResourceTemplate, len(uri.Templates))
	for i, t := range uri.Templates {
		mime := "application/json"
		switch t.Name {
		case "manifest_artifact":
			mime = "application/octet-stream"
		case "standard_diagram":
			mime = render.MermaidMIME
		}
		out[i] = ResourceTemplate{Name: t.Name, URITemplate: t.URI, MIMEType: mime, Title: t.Title, Description: t.Description}
	}
	return out
}
