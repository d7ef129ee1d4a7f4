package query

import (
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/resource"

	"bytes"
	"context"
	"strings"
	"unicode/utf8"

	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/render"
	"github.com/kgc-project/kgc/runtime/uri"
	"github.com/kgc-project/kgc/schema/manifest"
)

// resolve reads one resource under the rights and size policies.
func (s *Service) resolve(ref uri.Ref) (*resource.Document, error) {
	if ref.Kind == "catalog" {
		return resource.Derived(ref, "catalog", nil, s.catalogObject())
	}
	if ref.Kind == "framework" {
		f, ok := s.cat.Framework(ref.FrameworkID)
		if !ok {
			return nil, kgerr.New(kgerr.FrameworkNotFound, "framework %s is not available", ref.FrameworkID)
		}
		return resource.Derived(ref, "framework", nil, record.FrameworkOf(f))
	}
	p, err := s.cat.Resolve(ref.FrameworkID, ref.SnapshotID, manifest.GraphAcademicStandards)
	if err != nil {
		return nil, err
	}
	return resource.Package(ref, p, s.limits())
}

// limits are the resource size limits of the Service's options.
func (s *Service) limits() resource.Limits {
	return resource.Limits{MaxBytes: s.opts.MaxResourceBytes, MaxSourceBytes: s.opts.MaxResourceSourceBytes}
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
	if int64(len(d.Data)) > s.opts.MaxResourceBytes {
		return nil, resource.Denied("the resource is %d bytes, over the %d-byte limit", len(d.Data), s.opts.MaxResourceBytes)
	}
	// The bytes are always a copy (the MCP adapter sends them after its
	// handler returns); the metadata is detached as every result is.
	meta, _ := own(s, d.Metadata(), nil)
	return &Resource{URI: address, MIMEType: d.MIME, Raw: d.Representation == "raw_source", Data: bytes.Clone(d.Data), Meta: meta}, nil
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
