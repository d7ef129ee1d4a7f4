package mcpserver_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestArgumentCompletion completes prompt and resource-template arguments
// from the catalog: ranked (prefix matches first), narrowed by the arguments
// given so far, and empty for JSON-valued arguments.
func TestArgumentCompletion(t *testing.T) {
	cs, _ := client(t, images(t))
	ctx := context.Background()
	ask := func(ref *mcp.CompleteReference, arg, value string, given map[string]string) (*mcp.CompleteResult, error) {
		p := &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}}
		if given != nil {
			p.Context = &mcp.CompleteContext{Arguments: given}
		}
		return cs.Complete(ctx, p)
	}
	prompt := func(name string) *mcp.CompleteReference {
		return &mcp.CompleteReference{Type: "ref/prompt", Name: name}
	}
	snapEnglish := "kgc-sample-english-grades-1-2@2026+7890a91a44f0"
	for _, c := range []struct {
		ref   *mcp.CompleteReference
		arg   string
		value string
		given map[string]string
		want  string
	}{
		{prompt("teacher_guide_draft"), "framework_id", "", nil, fmt.Sprint([]string{english, maths})},
		{prompt("teacher_guide_draft"), "framework_id", "KGC-SAMPLE-M", nil, fmt.Sprint([]string{maths})},
		{prompt("teacher_guide_draft"), "framework_id", "english", nil, fmt.Sprint([]string{english})},
		{prompt("teacher_guide_draft"), "snapshot_id", "", map[string]string{"framework_id": english}, fmt.Sprint([]string{snapEnglish})},
		{prompt("teacher_guide_draft"), "grade_or_stage", "grade t", map[string]string{"framework_id": maths}, fmt.Sprint([]string{"GRADE THREE", "GRADE TWO"})},
		{prompt("teacher_guide_draft"), "grade_or_stage", "two", nil, fmt.Sprint([]string{"GRADE TWO"})},
		{prompt("student_study_support"), "difficulty", "", nil, fmt.Sprint([]string{"on_level", "foundational", "extension"})},
		{prompt("student_study_support"), "output_language", "e", nil, fmt.Sprint([]string{"en", "es"})},
		{prompt("multigrade_lesson_plan"), "grades_in_room", "", nil, fmt.Sprint([]string{})},
		{prompt("administrator_alignment_review"), "target_snapshot_id", "", map[string]string{"target_framework_id": english}, fmt.Sprint([]string{snapEnglish})},
		{&mcp.CompleteReference{Type: "ref/resource", URI: "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/manifest"}, "snapshot_id", "kgc",
			map[string]string{"framework_id": english}, fmt.Sprint([]string{snapEnglish})},
	} {
		res, err := ask(c.ref, c.arg, c.value, c.given)
		if err != nil {
			t.Errorf("%s %s %q: %v", c.ref.Name, c.arg, c.value, err)
			continue
		}
		if got := fmt.Sprint(res.Completion.Values); got != c.want || res.Completion.HasMore {
			t.Errorf("%s %s %q: %s (hasMore %v), want %s", c.ref.Name, c.arg, c.value, got, res.Completion.HasMore, c.want)
		}
	}
	if _, err := ask(prompt("no_such_prompt"), "framework_id", "", nil); err == nil {
		t.Error("completion for an unknown prompt answered")
	}
	if _, err := ask(prompt("teacher_guide_draft"), "bogus", "", nil); err == nil {
		t.Error("completion for an unknown argument answered")
	}
}
