package mcpserver

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/prompt"
	"github.com/kgc-project/kgc/runtime/query"
)

// registerPrompts registers the nine prompts of the query layer, in order.
func (s *Server) registerPrompts() {
	for _, d := range query.Prompts() {
		args := make([]*mcp.PromptArgument, len(d.Args))
		for i, a := range d.Args {
			desc := a.Description
			if a.Default != "" {
				desc += " (default " + a.Default + ")"
			}
			args[i] = &mcp.PromptArgument{Name: a.Name, Description: desc, Required: a.Required}
		}
		name := d.Name
		s.mcp.AddPrompt(&mcp.Prompt{Name: d.Name, Title: d.Title, Description: d.Description, Arguments: args},
			func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return s.getPrompt(ctx, name, req.Params.Arguments)
			})
	}
}

// getPrompt renders one prompt: the one user message, and in _meta the
// render's metadata (prompt version, prompt-config identity, package
// identity).
func (s *Server) getPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	r, err := s.query(ctx).GetPrompt(ctx, name, args)
	if err != nil {
		return nil, s.promptError(name, err)
	}
	var meta mcp.Meta
	if b, err := canonjson.Marshal(map[string]any{"metadata": r.Metadata, "promptConfig": r.PromptConfig, "promptVersion": r.PromptVersion}); err == nil {
		json.Unmarshal(b, &meta)
	}
	return &mcp.GetPromptResult{Description: r.Description, Meta: meta,
		Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: r.Message}}}}, nil
}

// promptError maps a render failure: bad arguments and domain errors are
// invalid params with their text; anything else is internal_error.
func (s *Server) promptError(name string, err error) error {
	var ae *prompt.ArgError
	var de *kgerr.Error
	if errors.As(err, &ae) || errors.As(err, &de) {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
	}
	id := incident()
	s.log.Error("prompt failed", "prompt", name, "incident", id, "error", err.Error())
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal_error: The server could not render the prompt."}
}

// complete answers completion/complete for prompt arguments and for the
// framework_id and snapshot_id of resource templates.
func (s *Server) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	if p == nil || p.Ref == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Input validation error: ref is required"}
	}
	var given map[string]string
	if p.Context != nil {
		given = p.Context.Arguments
	}
	var c *query.Completion
	switch p.Ref.Type {
	case "ref/prompt":
		var err error
		if c, err = s.query(ctx).CompletePromptArgument(p.Ref.Name, p.Argument.Name, p.Argument.Value, given); err != nil {
			msg := err.Error()
			if errors.Is(err, query.ErrUnknownPrompt) {
				msg = "Input validation error: unknown prompt " + p.Ref.Name
			}
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
		}
	case "ref/resource":
		c = s.query(ctx).CompleteResourceArgument(p.Argument.Name, p.Argument.Value, given)
	default:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Input validation error: ref.type must be ref/prompt or ref/resource"}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: c.Values, Total: c.Total, HasMore: c.HasMore}}, nil
}
