package mcpserver

import (
	"context"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/runtime/explorer"
)

// The explorer is offered as an MCP App (the MCP Apps extension,
// io.modelcontextprotocol/ui) to the clients that declare the extension in
// their initialize request with its media type: for them tools/list links
// the tools where a picture helps to the App's ui:// resource, and
// resources/list and resources/read serve it. Every other client, and every
// stateless HTTP request (which carries no initialize), gets exactly the
// answers it got before: the resource is not registered with the SDK.

// appsExtension is the extension's identifier.
const appsExtension = "io.modelcontextprotocol/ui"

// appTools are the tools whose results the App shows: a standard's place,
// its publisher relations, a progression walk from it.
var appTools = []string{"get_standard_context", "get_publisher_relations", "traverse_learning_progressions"}

// wantsApps reports whether the session's client declared the MCP Apps
// extension with the App's media type.
func wantsApps(req mcp.Request) bool {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return false
	}
	ip := ss.InitializeParams()
	if ip == nil || ip.Capabilities == nil {
		return false
	}
	ext, ok := ip.Capabilities.Extensions[appsExtension].(map[string]any)
	if !ok {
		return false
	}
	types, _ := ext["mimeTypes"].([]any)
	return slices.Contains(types, any(explorer.AppMIMEType))
}

// apps is the receiving middleware that offers the App (see above).
func apps(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !wantsApps(req) {
			return next(ctx, method, req)
		}
		if method == "resources/read" {
			if p, ok := req.GetParams().(*mcp.ReadResourceParams); ok && p.URI == explorer.AppURI {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: explorer.AppURI, MIMEType: explorer.AppMIMEType,
					Text: string(explorer.AppHTML())}}}, nil
			}
		}
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.ListToolsResult:
			for i, t := range r.Tools {
				if slices.Contains(appTools, t.Name) {
					c := *t
					c.Meta = mcp.Meta{"ui": map[string]any{"resourceUri": explorer.AppURI}}
					r.Tools[i] = &c
				}
			}
		case *mcp.ListResourcesResult:
			if p, ok := req.GetParams().(*mcp.ListResourcesParams); ok && (p == nil || p.Cursor == "") {
				r.Resources = append(r.Resources, &mcp.Resource{URI: explorer.AppURI, Name: "explorer", Title: "kgc explorer",
					Description: "The standard explorer as an MCP App: a standard's place, children, publisher relations, learning components and generated progressions, each clickable.",
					MIMEType:    explorer.AppMIMEType})
			}
		}
		return res, err
	}
}
