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
)

// registerPrompts registers the nine prompts of the query layer, in order.
func (s *Server) registerPrompts() {
	for _, d := range s.q.Prompts() {
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
	r, err := s.q.GetPrompt(ctx, name, args)
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
