package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/runtime/prompt"
)

// TestWorkflowArgumentsAreInputErrors: every value prompts/get refuses —
// control characters, blank or white-space-only text where an argument is
// required (an optional one takes its default), bidirectional
// controls, noncharacters, labels the profile does not know — is refused by
// get_workflow_instructions as an input error naming the field, never as an
// internal error; and prompts/get refuses it too.
func TestWorkflowArgumentsAreInputErrors(t *testing.T) {
	cs, _ := client(t, images(t))
	ctx := context.Background()
	bad := []string{"\x00", "\x1b", "\x7f", "\u0085", " ", "\t", "\u2028", "\u00a0", "\u202e", "\uffff", "a\u2066b", "\ufdd0"}
	good := map[string]string{"framework_id": maths, "grade_or_stage": "GRADE ONE", "topic_or_standard": "time",
		"grades_in_room": `["GRADE ONE","GRADE TWO"]`, "identifier": `{"identifierType":"node_id","nodeId":"x"}`}
	probes := 0
	for _, d := range prompt.Defs() {
		if !d.Workflow {
			continue
		}
		for _, a := range d.Args {
			var values []string
			switch a.Kind {
			case prompt.Text:
				values = bad
			case prompt.TextList:
				for _, b := range bad {
					values = append(values, `["`+strings.ReplaceAll(strings.ReplaceAll(b, `\`, `\\`), "\x00", `\u0000`)+`"]`)
				}
				if a.Name == "statement_types" || a.Name == "local_grade_labels" {
					values = append(values, `["x"]`)
				}
			default:
				continue
			}
			for _, v := range values {
				if !a.Required && strings.TrimSpace(v) == "" {
					continue // a blank optional argument takes its default (documented)
				}
				args := map[string]string{}
				for _, x := range d.Args {
					if x.Required {
						args[x.Name] = good[x.Name]
					}
				}
				args[a.Name] = v
				probes++
				if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: d.Name, Arguments: args}); err == nil || !strings.Contains(err.Error(), "Input validation error") {
					t.Errorf("prompts/get %s %s=%q: %v", d.Name, a.Name, v, err)
				}
				txt := errorText(t, cs, "get_workflow_instructions", req(workflowRequest(&d, args)))
				if !strings.HasPrefix(txt, "Input validation error: request."+prompt.Camel(a.Name)) {
					t.Errorf("get_workflow_instructions %s %s=%q: %s", d.Name, a.Name, v, txt)
				}
			}
		}
	}
	if probes < 100 {
		t.Errorf("only %d probes", probes)
	}
}
