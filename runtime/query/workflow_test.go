package query

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/prompt"
)

// TestWorkflowInstructionsTyped: the typed WorkflowInstructions, given a
// workflow's arguments as GetPrompt takes them, answers exactly what the tool
// answers for the same request as JSON, for every workflow; and it refuses
// what the tool refuses, with the argument named.
func TestWorkflowInstructionsTyped(t *testing.T) {
	t.Parallel()
	svc := New(imgtest.Catalog(t, imgtest.Images(t, nil, nil)), Options{})
	ctx := context.Background()
	const fw, node = "kgc-sample-mathematics-grades-1-3", "e4c56a5e-8e04-5198-bd96-db37083d400d"
	selector := `{"identifierType":"node_id","nodeId":"` + node + `"}`
	values := map[string]string{
		"framework_id": fw, "grade_or_stage": "Grade 1", "topic_or_standard": "counting",
		"grades_in_room": `["Grade 1","Grade 2"]`, "identifier": selector, "standard_identifiers": "[" + selector + "]",
		"practice_count": "3", "local_context": `A "quoted" context`,
	}
	workflows := 0
	for _, d := range prompt.Defs() {
		if !d.Workflow {
			continue
		}
		workflows++
		args, request := map[string]string{}, map[string]any{"workflowName": d.Name}
		for _, a := range d.Args {
			v, ok := values[a.Name]
			if !ok {
				continue
			}
			args[a.Name] = v
			var x any = v
			if strings.HasPrefix(v, "[") || strings.HasPrefix(v, "{") || a.Kind == prompt.Integer {
				if err := json.Unmarshal([]byte(v), &x); err != nil {
					t.Fatal(err)
				}
			}
			request[prompt.Camel(a.Name)] = x
		}
		typed, err := svc.WorkflowInstructions(ctx, WorkflowRequest{WorkflowName: d.Name, Arguments: args})
		if err != nil {
			t.Errorf("%s: %v", d.Name, err)
			continue
		}
		raw, _ := json.Marshal(map[string]any{"request": request})
		byName, err := svc.Call(ctx, "get_workflow_instructions", raw)
		if a, b := encodeResult(t, typed, nil), encodeResult(t, byName, err); a != b {
			t.Errorf("%s: typed and by-name answers differ:\n%.300s\n%.300s", d.Name, a, b)
		}
		if !strings.Contains(typed.Rendered.Message, `A "quoted" context`) {
			t.Errorf("%s: the local context is not rendered", d.Name)
		}
	}
	if workflows < 7 {
		t.Fatalf("only %d workflows", workflows)
	}

	for _, c := range []struct {
		req  WorkflowRequest
		want string
	}{
		{WorkflowRequest{WorkflowName: "no_such_workflow"}, "request.workflowName"},
		{WorkflowRequest{WorkflowName: "student_study_support", Arguments: map[string]string{"framework_id": fw, "made_up": "x"}}, `no argument "made_up"`},
		{WorkflowRequest{WorkflowName: "student_study_support", Arguments: map[string]string{"framework_id": fw, "grade_or_stage": "Grade 1",
			"topic_or_standard": "counting", "practice_count": "three"}}, "request.practiceCount"},
		{WorkflowRequest{WorkflowName: "student_study_support", Arguments: map[string]string{"framework_id": fw}}, "request"},
		{WorkflowRequest{WorkflowName: "student_study_support", Arguments: map[string]string{"framework_id": fw, "grade_or_stage": "Grade 1",
			"topic_or_standard": "counting", "practice_count": "500"}}, "request.practiceCount"},
	} {
		_, err := svc.WorkflowInstructions(ctx, c.req)
		var ie *InputError
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error naming %s", c.req, err, c.want)
		} else if !errors.As(err, &ie) {
			t.Errorf("%+v: %v is not an input error", c.req, err)
		}
	}
}
