package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/query"
	"github.com/kgc-project/kgc/runtime/uri"
)

// readResource is the SDK handler for the fixed resource and every template.
// The SDK encodes the result after this handler (and its fault guard)
// returns: query.Resource's bytes are a copy, never the mapping.
func (s *Server) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	r, err := s.query(ctx).ReadResource(ctx, uri)
	if err != nil {
		return nil, s.resourceError(uri, err)
	}
	// The SDK takes _meta as a map: the typed metadata, as JSON.
	var meta mcp.Meta
	if b, err := canonjson.Marshal(r.Meta); err == nil {
		json.Unmarshal(b, &meta)
	}
	c := &mcp.ResourceContents{URI: uri, MIMEType: r.MIMEType, Meta: meta}
	if r.IsText() {
		c.Text = string(r.Data)
	} else {
		c.Blob = r.Data
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
}

// canonicalURIs lets resources/read accept any spelling of an exact address:
// the SDK matches URIs against the templates, which accept only the
// percent-encoded spelling, so a URI with `@` or `+` left raw would be "not
// found". The request is answered under its canonical URI and the contents
// carry back the URI the client sent.
func canonicalURIs(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r, ok := req.(*mcp.ReadResourceRequest)
		if method != "resources/read" || !ok || r.Params == nil {
			return next(ctx, method, req)
		}
		sent := r.Params.URI
		canonical, ok := uri.Canonical(sent)
		if !ok || canonical == sent {
			return next(ctx, method, req)
		}
		params := *r.Params
		params.URI = canonical
		res, err := next(ctx, method, &mcp.ReadResourceRequest{Session: r.Session, Params: &params, Extra: r.Extra})
		if rr, ok := res.(*mcp.ReadResourceResult); ok && err == nil {
			for _, c := range rr.Contents {
				if c.URI == canonical {
					c.URI = sent
				}
			}
		}
		return res, err
	}
}

// Resource-not-found codes: -32002 is what the specifications up to
// 2025-11-25 name; later ones (SEP-2164) use -32602, Invalid Params.
const (
	codeNotFoundLegacy = -32002
	lastLegacyNotFound = "2025-11-25"
)

// notFoundCodes gives every resource-not-found answer of resources/read the
// one code the request's protocol version names (the SDK's own, for an
// address no template matches, and kgc's, for a record a template's address
// does not hold, alike).
func notFoundCodes(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		var je *jsonrpc.Error
		if method != "resources/read" || !errors.As(err, &je) {
			return res, err
		}
		if je.Code == codeNotFoundLegacy || je.Code == jsonrpc.CodeInvalidParams && je.Message == "Resource not found" { // the SDK's ResourceNotFoundError
			c := *je
			c.Code = codeNotFoundLegacy
			if protocolOf(req) > lastLegacyNotFound {
				c.Code = jsonrpc.CodeInvalidParams
			}
			return res, &c
		}
		return res, err
	}
}

// protocolOf returns the protocol version a request speaks: the one its own
// _meta carries (2026-07-28 and later), else its session's (from initialize,
// or the Mcp-Protocol-Version header of a stateless HTTP request); "" when
// neither says, which a transport reads as 2025-03-26.
func protocolOf(req mcp.Request) string {
	if r, ok := req.(interface{ ProtocolVersion() string }); ok {
		return r.ProtocolVersion()
	}
	return ""
}

func (s *Server) resourceError(uri string, err error) error {
	var de *kgerr.Error
	if errors.As(err, &de) {
		code := int64(jsonrpc.CodeInvalidParams)
		if strings.HasSuffix(de.Code, "_not_found") { // the resource, its record or its route is not there
			code = codeNotFoundLegacy // notFoundCodes sets the request's
		}
		data, _ := canonjson.Marshal(map[string]any{"uri": uri})
		return &jsonrpc.Error{Code: code, Message: de.Error(), Data: data}
	}
	id := incident()
	s.log.Error("resource failed", "uri", uri, "incident", id, "error", err.Error())
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal_error: The server could not read the resource."}
}

func (s *Server) registerResources() {
	s.mcp.AddResource(&mcp.Resource{URI: uri.Catalog, Name: "catalog", Title: "Accepted framework catalog", MIMEType: "application/json",
		Description: "Every accepted framework, snapshot and package."}, s.readResource)
	for _, t := range query.ResourceTemplates() {
		s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{Name: t.Name, Title: t.Title, Description: t.Description, URITemplate: t.URITemplate, MIMEType: t.MIMEType}, s.readResource)
	}
}
