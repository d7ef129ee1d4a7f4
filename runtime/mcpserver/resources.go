package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"sort"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/kgfb"
	"github.com/kgc-project/kgc/schema/manifest"
)

// document is one resolved resource.
type document struct {
	ref            resourceRef
	kind           string // resourceKind
	representation string // deterministic_derived | raw_source
	mime           string
	data           []byte
	pkg            *catalog.Package
	sources        []obj
}

func (d *document) metadata() obj {
	m := obj{
		"canonicalUri": d.ref.String(), "resourceKind": d.kind, "representation": d.representation, "mimeType": d.mime,
		"byteLength": len(d.data), "contentSha256": ids.Sha256(d.data), "sourceArtifacts": nonNilObjs(d.sources),
	}
	if d.ref.frameworkID != "" {
		m["frameworkId"] = d.ref.frameworkID
	}
	if p := d.pkg; p != nil {
		mf := p.Manifest
		m["snapshotId"], m["graphPackageId"], m["graphType"] = mf.SnapshotID, mf.GraphPackageID, mf.GraphType
		m["profileId"], m["profileVersion"], m["profileSha256"] = mf.Profile.ProfileID, mf.Profile.ProfileVersion, mf.Profile.Sha256
	}
	return m
}

func nonNilObjs(l []obj) []obj {
	if l == nil {
		return []obj{}
	}
	return l
}

func sourceArtifact(p *catalog.Package, name string) obj {
	a, ok := p.Manifest.Artifact(name)
	if !ok {
		return nil
	}
	var size any
	if art, ok := p.Img.Artifact(name); ok {
		size = art.Size()
	}
	return obj{"graphPackageId": p.GraphPackageID(), "logicalName": name, "sha256": p.Manifest.Checksums[a.Path], "sizeBytes": size}
}

func derivedDoc(ref resourceRef, kind string, p *catalog.Package, v any, sources ...string) (*document, error) {
	b, err := canonjson.Marshal(v)
	if err != nil {
		return nil, err
	}
	d := &document{ref: ref, kind: kind, representation: "deterministic_derived", mime: "application/json", data: b, pkg: p}
	for _, name := range sources {
		if s := sourceArtifact(p, name); s != nil {
			d.sources = append(d.sources, s)
		}
	}
	return d, nil
}

func notFound(format string, args ...any) error {
	return kgerr.New(kgerr.ResourceNotFound, format, args...)
}

func denied(format string, args ...any) error {
	return kgerr.New(kgerr.ResourceAccessDenied, format, args...)
}

// fullText and standardResources are the rights gates of §3.4.
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
func (s *Server) resolve(ref resourceRef) (*document, error) {
	if ref.kind == "catalog" {
		return derivedDoc(ref, "catalog", nil, s.catalogObject())
	}
	if ref.kind == "framework" {
		f, ok := s.cat.Framework(ref.frameworkID)
		if !ok {
			return nil, kgerr.New(kgerr.FrameworkNotFound, "framework %s is not available", ref.frameworkID)
		}
		return derivedDoc(ref, "framework", nil, frameworkObject(f))
	}
	p, err := s.cat.Resolve(ref.frameworkID, ref.snapshotID, manifest.GraphAcademicStandards)
	if err != nil {
		return nil, err
	}
	switch ref.kind {
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
		return s.artifactDoc(ref, p, ref.id, "artifact")
	case "learning_progressions":
		return derivedDoc(ref, "learning_progressions", p, progressionSummary(p),
			manifest.LPSummary, manifest.LPValidation, manifest.LPUnresolved, manifest.LPProvenance)
	}
	if err := standardResources(p); err != nil {
		return nil, err
	}
	return s.recordDoc(ref, p)
}

// artifactDoc serves an artifact's exact bytes under the closed exposure policy.
func (s *Server) artifactDoc(ref resourceRef, p *catalog.Package, name, kind string) (*document, error) {
	a, ok := p.Img.Artifact(name)
	if !ok {
		return nil, notFound("the package declares no %s artifact", name)
	}
	class := a.Exposure()
	if class == kgfb.ExposureNone {
		return nil, notFound("artifact %s has no exposure contract", name)
	}
	if !manifest.Allows(p.Manifest.Rights, manifest.Exposure(class)) {
		return nil, denied("the package's rights do not allow serving %s (%s)", name, manifest.Exposure(class))
	}
	if int64(a.Size()) > s.opts.MaxResourceSourceBytes || int64(a.Size()) > s.opts.MaxResourceBytes {
		return nil, denied("artifact %s is %d bytes, over the resource size limits", name, a.Size())
	}
	if !a.Embedded() {
		return nil, notFound("artifact %s is not in the image", name)
	}
	d := &document{ref: ref, kind: kind, representation: "raw_source", mime: string(a.Mime()), data: a.BytesBytes(), pkg: p}
	d.sources = append(d.sources, sourceArtifact(p, name))
	return d, nil
}

// readResource is the SDK handler for the fixed resource and every template.
func (s *Server) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	ref, err := parseURI(uri)
	if err == nil {
		var d *document
		if d, err = s.resolve(ref); err == nil {
			if int64(len(d.data)) > s.opts.MaxResourceBytes {
				err = denied("the resource is %d bytes, over the %d-byte limit", len(d.data), s.opts.MaxResourceBytes)
			} else {
				c := &mcp.ResourceContents{URI: uri, MIMEType: d.mime, Meta: mcp.Meta(d.metadata())}
				if d.representation == "raw_source" {
					// The SDK encodes the blob after this handler (and its
					// fault guard) returns: it must not point into the mapping.
					c.Blob = bytes.Clone(d.data)
				} else {
					c.Text = string(d.data)
				}
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
			}
		}
	}
	return nil, s.resourceError(uri, err)
}

func (s *Server) resourceError(uri string, err error) error {
	var de *kgerr.Error
	if errors.As(err, &de) {
		code := int64(jsonrpc.CodeInvalidParams)
		if de.Code == kgerr.ResourceNotFound {
			code = -32002
		}
		return &jsonrpc.Error{Code: code, Message: de.Error(), Data: mustJSON(obj{"uri": uri})}
	}
	id := incident()
	s.log.Error("resource failed", "uri", uri, "incident", id, "error", err.Error())
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal_error: The server could not read the resource."}
}

func mustJSON(v any) []byte {
	b, _ := canonjson.Marshal(v)
	return b
}

func (s *Server) registerResources() {
	s.mcp.AddResource(&mcp.Resource{URI: catalogURI, Name: "catalog", Title: "Accepted framework catalog", MIMEType: "application/json",
		Description: "Every accepted framework, snapshot and package."}, s.readResource)
	for _, t := range templates {
		mime := "application/json"
		if t.name == "manifest_artifact" {
			mime = "application/octet-stream"
		}
		s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{Name: t.name, URITemplate: t.template, MIMEType: mime}, s.readResource)
	}
}

// availableResources lists the resource kinds and artifact names a package can
// actually serve under its rights.
func (s *Server) availableResources(p *catalog.Package) (kinds, artifacts []string) {
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
		kinds = append(kinds, "standard", "relationship")
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
	var a kgfb.Artifact
	for i := 0; i < p.Img.Root().ArtifactsLength(); i++ {
		p.Img.Root().Artifacts(&a, i)
		if a.Embedded() && int64(a.Size()) <= s.opts.MaxResourceBytes {
			artifacts = append(artifacts, string(a.Name()))
		}
	}
	if len(artifacts) > 0 {
		kinds = append(kinds, "artifact")
	}
	sort.Strings(kinds)
	return kinds, artifacts
}
