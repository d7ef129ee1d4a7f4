// Package query answers questions about curriculum standards over compiled
// .kgimg images, in Go, without any protocol: which frameworks are served,
// a standard and its place in the hierarchy, search by words or by code,
// learning components, learning progressions and evidence. kgmcp serves the
// same answers over MCP (runtime/mcpserver is only that adapter); the tools
// are described in docs/reference/tools.md.
//
// Open the images, then ask:
//
//	svc, err := query.Open([]string{"build"}, query.Options{})
//	if err != nil { … }
//	defer svc.Close()
//	page, err := svc.SearchStandards(ctx, query.NewStandardSearchRequest("fractions", "my-framework"))
//	for _, hit := range page.Page.Hits {
//		fmt.Println(hit.Node.Code(), hit.Node.Statement())
//	}
//
// Every tool has a typed method taking a request and returning a typed
// result: build requests with their constructors (NewStandardSearchRequest,
// NewCodeSearchRequest, NewStandardRequest, NewContextRequest, …), which fill
// every bound with its default, then change what you need. A request that
// breaks its rules is refused with an *InputError; a domain refusal (an
// unknown framework, a withheld text) is a *kgerr.Error with its code. Call
// runs any tool by name with JSON arguments, as an MCP host would.
//
// A Service is safe for concurrent use, and nothing it returns points into
// the mapped images: results stay valid after Close.
package query
