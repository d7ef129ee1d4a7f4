package serve

import (
	"bytes"
	"fmt"

	sjson "github.com/segmentio/encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// Params the SDK cannot decode. When a call's params do not decode into the
// method's params type, go-sdk v1.8.0 answers -32602 with a message that
// quotes the params twice escaped ("unmarshaling %q into a %T"): a 0.9 MB
// request got a 3.6 MB answer. kgmcp decodes them first, exactly as the SDK
// does (segmentio/encoding/json, field names matched case-sensitively, at
// most 1,000 levels of nesting), and answers a refusal itself, naming the
// problem without quoting the params (docs/reliability.md).

// paramsOf returns a new value of the params type the SDK decodes a method's
// params into, or nil for methods whose params are not checked here.
func paramsOf(method string) any {
	switch method {
	case "initialize":
		return new(mcp.InitializeParams)
	case "tools/call":
		return new(mcp.CallToolParamsRaw)
	case "tools/list":
		return new(mcp.ListToolsParams)
	case "prompts/get":
		return new(mcp.GetPromptParams)
	case "prompts/list":
		return new(mcp.ListPromptsParams)
	case "resources/read":
		return new(mcp.ReadResourceParams)
	case "resources/list":
		return new(mcp.ListResourcesParams)
	case "resources/templates/list":
		return new(mcp.ListResourceTemplatesParams)
	case "resources/subscribe":
		return new(mcp.SubscribeParams)
	case "resources/unsubscribe":
		return new(mcp.UnsubscribeParams)
	case "completion/complete":
		return new(mcp.CompleteParams)
	case "logging/setLevel":
		//lint:ignore SA1019 logging is deprecated from protocol 2026-07-28 but served to the clients of earlier versions
		return new(mcp.SetLoggingLevelParams)
	}
	return nil
}

// maxParamsDepth is the SDK's nesting limit for params.
const maxParamsDepth = 1000

// checkDecodable returns the -32602 error for params the SDK could not
// decode for method, or nil.
func checkDecodable(method string, params []byte) *jsonrpc.Error {
	p := paramsOf(method)
	if p == nil || len(params) == 0 || bytes.Equal(params, []byte("null")) {
		return nil
	}
	problem := ""
	if depth(params) > maxParamsDepth {
		problem = fmt.Sprintf("nested deeper than %d levels", maxParamsDepth)
	} else {
		dec := sjson.NewDecoder(bytes.NewReader(params))
		dec.DontMatchCaseInsensitiveStructFields()
		if err := dec.Decode(p); err != nil {
			problem = err.Error()
		}
	}
	if problem == "" {
		return nil
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: mcpserver.ClipMessage(fmt.Sprintf("invalid params: %s: %s (the params are not quoted back)", method, problem))}
}

// depth is the deepest nesting of objects and arrays in data (valid JSON),
// counted as the SDK counts it.
func depth(data []byte) int {
	d, deepest := 0, 0
	inString, escaped := false, false
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			d++
			deepest = max(deepest, d)
		case '}', ']':
			if d > 0 {
				d--
			}
		}
	}
	return deepest
}
