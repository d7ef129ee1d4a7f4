package query

import (
	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/runtime/complete"
	"github.com/kgc-project/kgc/runtime/prompt"
)

// MaxCompletions bounds the values of one completion answer (the MCP limit).
const MaxCompletions = complete.MaxCompletions

// Completion is the answer to a completion request: at most MaxCompletions
// values, how many matched in all, and whether more exist.
type Completion = complete.Completion

// CompletePromptArgument completes one argument of a prompt from the
// catalog (runtime/complete: framework and snapshot IDs, grade and stage
// labels, languages, fixed choices; those starting with what was typed
// first).
func (s *Service) CompletePromptArgument(promptName, argName, typed string, given map[string]string) (*Completion, error) {
	d, ok := prompt.Lookup(promptName)
	if !ok {
		return nil, ErrUnknownPrompt
	}
	a, ok := d.Arg(argName)
	if !ok {
		return nil, jsonschema.Fail(argName, "%s takes no argument of that name", promptName)
	}
	return own(s, complete.PromptArgument(s.cat, a, typed, given), nil)
}

// CompleteResourceArgument completes a resource template's framework_id or
// snapshot_id (of the framework_id given so far).
func (s *Service) CompleteResourceArgument(argName, typed string, given map[string]string) *Completion {
	c, _ := own(s, complete.ResourceArgument(s.cat, argName, typed, given), nil)
	return c
}
