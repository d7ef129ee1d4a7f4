package resource

import (
	"sort"
	"strings"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/diagram"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/progression"
	"github.com/kgc-project/kgc/runtime/render"
	"github.com/kgc-project/kgc/runtime/uri"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/manifest"
)

// diagramDoc is the standard_diagram resource: the Mermaid form of
// StandardDiagram, under the standard resources' rights gate (checked by the
// caller), so its text is always allowed.
func diagramDoc(ref uri.Ref, p *catalog.Package) (*Document, error) {
	pic, err := diagram.Standard(p, ref.ID)
	if err != nil {
		return nil, err
	}
	d := &Document{Ref: ref, Kind: "standard_diagram", Representation: "deterministic_derived", MIME: render.MermaidMIME,
		Data: render.MermaidBytes(pic), Pkg: p}
	for _, name := range []string{"nodes", "relationships"} {
		if s, ok := sourceArtifact(p, name); ok {
			d.Sources = append(d.Sources, s)
		}
	}
	return d, nil
}

// Document is one resolved resource.
type Document struct {
	Ref            uri.Ref
	Kind           string // resourceKind
	Representation string // deterministic_derived | raw_source
	MIME           string
	Data           []byte
	Pkg            *catalog.Package
	Sources        []SourceArtifact
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

func (d *Document) Metadata() ResourceMetadata {
	m := ResourceMetadata{
		CanonicalURI: d.Ref.String(), ResourceKind: d.Kind, Representation: d.Representation, MimeType: d.MIME,
		ByteLength: len(d.Data), ContentSha256: ids.Sha256(d.Data), SourceArtifacts: d.Sources, FrameworkID: d.Ref.FrameworkID,
	}
	if m.SourceArtifacts == nil {
		m.SourceArtifacts = []SourceArtifact{}
	}
	if p := d.Pkg; p != nil {
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

func Derived(ref uri.Ref, kind string, p *catalog.Package, v any, sources ...string) (*Document, error) {
	b, err := canonjson.Marshal(v)
	if err != nil {
		return nil, err
	}
	d := &Document{Ref: ref, Kind: kind, Representation: "deterministic_derived", MIME: "application/json", Data: b, Pkg: p}
	for _, name := range sources {
		if s, ok := sourceArtifact(p, name); ok {
			d.Sources = append(d.Sources, s)
		}
	}
	return d, nil
}

func notFound(format string, args ...any) *kgerr.Error {
	return kgerr.New(kgerr.ResourceNotFound, format, args...)
}

func Denied(format string, args ...any) error {
	return kgerr.New(kgerr.ResourceAccessDenied, format, args...)
}

// fullText and standardResources are the rights gates of
// docs/reference/resources.md#reading-rules.
func fullText(p *catalog.Package) error {
	r := p.Manifest.Rights
	if !r.Reviewed() || !r.AllowFullText {
		return Denied("the package's rights do not allow full-text resources (review %s, allowFullText %t)", r.ReviewStatus, r.AllowFullText)
	}
	return nil
}

func StandardResources(p *catalog.Package) error {
	if err := fullText(p); err != nil {
		return err
	}
	if !p.Manifest.Rights.AllowStandardResources {
		return Denied("the package's rights do not allow standard resources")
	}
	return nil
}

// Limits bound what a resource serves: its bytes, and an artifact's
// source bytes.
type Limits struct{ MaxBytes, MaxSourceBytes int64 }

// Package resolves a resource of one package.
func Package(ref uri.Ref, p *catalog.Package, lim Limits) (*Document, error) {
	switch ref.Kind {
	case "package_manifest":
		return &Document{Ref: ref, Kind: "manifest", Representation: "raw_source", MIME: "application/json", Data: p.Img.ManifestJSON(), Pkg: p}, nil
	case "interpretation_profile":
		return &Document{Ref: ref, Kind: "interpretation_profile", Representation: "raw_source", MIME: "application/json", Data: p.Img.ProfileJSON(), Pkg: p}, nil
	case "validation_report":
		return artifactDoc(lim, ref, p, manifest.ValidationReport, "validation")
	case "unresolved_items":
		if err := fullText(p); err != nil {
			return nil, err
		}
		return artifactDoc(lim, ref, p, manifest.UnresolvedItems, "unresolved")
	case "manifest_artifact":
		return artifactDoc(lim, ref, p, ref.ID, "artifact")
	case "learning_progressions":
		return Derived(ref, "learning_progressions", p, progression.Summary(p),
			manifest.LPSummary, manifest.LPValidation, manifest.LPUnresolved, manifest.LPProvenance)
	}
	if err := StandardResources(p); err != nil {
		return nil, err
	}
	if ref.Kind == "standard_diagram" {
		return diagramDoc(ref, p)
	}
	return recordDoc(ref, p)
}

// artifactDoc serves an artifact's exact bytes under the closed exposure policy.
func artifactDoc(lim Limits, ref uri.Ref, p *catalog.Package, name, kind string) (*Document, error) {
	a, ok := p.Img.Artifact(name)
	if !ok {
		return nil, notFound("the package declares no %s artifact", name)
	}
	class := a.Exposure()
	if class == manifest.ExposeNone {
		return nil, notFound("artifact %s has no exposure contract", name)
	}
	if !manifest.Allows(p.Manifest.Rights, class) {
		return nil, Denied("the package's rights do not allow serving %s (%s)", name, class)
	}
	if int64(a.Size()) > lim.MaxSourceBytes || int64(a.Size()) > lim.MaxBytes {
		return nil, Denied("artifact %s is %d bytes, over the resource size limits", name, a.Size())
	}
	if !a.Embedded() {
		return nil, notFound("artifact %s is not in the image", name)
	}
	d := &Document{Ref: ref, Kind: kind, Representation: "raw_source", MIME: strings.Clone(a.Mime()), Data: a.Bytes(), Pkg: p}
	if src, ok := sourceArtifact(p, name); ok {
		d.Sources = append(d.Sources, src)
	}
	return d, nil
}

// Available lists the resource kinds and artifact names a package can
// actually serve under its rights.
func Available(p *catalog.Package, lim Limits) (kinds, artifacts []string) {
	kinds = []string{"catalog", "framework", "interpretation_profile", "learning_progressions", "manifest"}
	if _, ok := p.Img.Artifact(manifest.ValidationReport); ok {
		kinds = append(kinds, "validation")
	}
	if fullText(p) == nil {
		if _, ok := p.Img.Artifact(manifest.UnresolvedItems); ok {
			kinds = append(kinds, "unresolved")
		}
	}
	if StandardResources(p) == nil {
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
		if a.Embedded() && int64(a.Size()) <= lim.MaxBytes {
			artifacts = append(artifacts, strings.Clone(a.Name()))
		}
	}
	if len(artifacts) > 0 {
		kinds = append(kinds, "artifact")
	}
	sort.Strings(kinds)
	return kinds, artifacts
}
