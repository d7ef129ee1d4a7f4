package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
)

// TestPromptArgumentsAreChecked sends bad prompt arguments: each is refused
// with its code, and blank optional arguments take their defaults.
func TestPromptArgumentsAreChecked(t *testing.T) {
	cs, _ := client(t, images(t))
	ctx := context.Background()
	node := pkggen.NodeID(pkggen.Shipped()[1], 1, 1, 1, 1)
	base := map[string]string{"framework_id": maths, "grade_or_stage": "GRADE ONE", "topic_or_standard": "counting"}
	with := func(kv ...string) map[string]string {
		out := map[string]string{}
		for k, v := range base {
			out[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == "<absent>" {
				delete(out, kv[i])
			} else {
				out[kv[i]] = kv[i+1]
			}
		}
		return out
	}
	for _, c := range []struct {
		name string
		args map[string]string
		want string
	}{
		{"student_study_support", with("framework_id", "<absent>"), "Input validation error: framework_id: is required"},
		{"student_study_support", with("bogus", "1"), "Input validation error: bogus: "},
		{"student_study_support", with("practice_count", "11"), "Input validation error: practice_count: must be between 1 and 10"},
		{"student_study_support", with("practice_count", "five"), "Input validation error: practice_count: must be a whole number"},
		{"student_study_support", with("difficulty", "hard"), "Input validation error: difficulty: must be one of on_level, foundational, extension"},
		{"student_study_support", with("output_language", "english!"), "Input validation error: output_language: "},
		{"student_study_support", with("topic_or_standard", strings.Repeat("x", 513)), "Input validation error: topic_or_standard: must have 1 to 512 characters"},
		{"student_study_support", with("framework_id", "kgc-missing"), "framework_not_found: "},
		{"student_study_support", with("snapshot_id", "kgc-sample-english-grades-1-2@2026+7890a91a44f0"), "framework_not_found: "},
		{"teacher_guide_draft", with("focus_mode", "statement_code", "framework_id", english), "capability_unavailable: "},
		{"multigrade_lesson_plan", with("grade_or_stage", "<absent>", "grades_in_room", "GRADE ONE, GRADE TWO"), "Input validation error: grades_in_room: must be a JSON array"},
		{"multigrade_lesson_plan", with("grade_or_stage", "<absent>", "grades_in_room", `["GRADE ONE"]`), "Input validation error: grades_in_room: must have 2 to 8 values"},
		{"multigrade_lesson_plan", with("grade_or_stage", "<absent>", "grades_in_room", `["GRADE ONE","grade one"]`), "Input validation error: grades_in_room[1]: "},
		{"multigrade_lesson_plan", with("grade_or_stage", "<absent>", "grades_in_room", `["GRADE ONE","GRADE TWO"]`, "framework_id", english), "capability_unavailable: "},
		{"learning_progression_support_plan", map[string]string{"framework_id": maths, "identifier": `{"identifierType":"statement_code","statementCode":"M1.1"}`},
			"Input validation error: identifier: takes no statement_code selector"},
		{"learning_progression_support_plan", map[string]string{"framework_id": maths, "identifier": `{"identifierType":"node_id","nodeId":"x","extra":1}`},
			"Input validation error: identifier: must hold exactly"},
		{"learning_progression_teaching_sequence", map[string]string{"framework_id": maths, "topic_or_standard": "time", "local_grade_labels": `["GRADE NINE"]`},
			"Input validation error: local_grade_labels: \"GRADE NINE\" is not a local grade label"},
		{"learning_progression_curriculum_review", map[string]string{"framework_id": maths, "normalized_grades": `["12"]`},
			"Input validation error: normalized_grades: \"12\" is not a normalized grade"},
		{"learning_progression_curriculum_review", map[string]string{"framework_id": maths, "relationship_types": `["buildsTowards","precedes"]`},
			"Input validation error: relationship_types[1]: must be one of buildsTowards, relatesTo"},
		{"administrator_alignment_review", map[string]string{"source_framework_id": maths, "target_framework_id": maths, "topic_or_query": "time"},
			"invalid_comparison_selection: "},
		{"cross_framework_comparison", map[string]string{"framework_ids": `["` + maths + `","` + english + `"]`, "topic_or_query": "time",
			"snapshot_ids": `["kgc-sample-mathematics-grades-1-3@2026+e2a8ceb6a0e6","kgc-sample-mathematics-grades-1-3@2026+000000000000"]`}, "framework_not_found: "},
	} {
		_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: c.name, Arguments: c.args})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: %v, want %q", c.name, c.args, err, c.want)
		}
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "no_such_prompt"}); err == nil {
		t.Error("an unknown prompt rendered")
	}
	// Blank optional arguments take their defaults.
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "student_study_support", Arguments: with("practice_count", "  ", "difficulty", "")})
	if err != nil || !strings.Contains(res.Messages[0].Content.(*mcp.TextContent).Text, `"difficulty":"on_level"`) ||
		!strings.Contains(res.Messages[0].Content.(*mcp.TextContent).Text, `"practice_count":5`) {
		t.Errorf("blank optional arguments: %v", err)
	}
	// A selector by node ID renders an exact lookup.
	res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "learning_progression_support_plan",
		Arguments: map[string]string{"framework_id": maths, "identifier": `{"identifierType":"node_id","nodeId":"` + node + `"}`}})
	if err != nil || !strings.Contains(res.Messages[0].Content.(*mcp.TextContent).Text, node) {
		t.Errorf("support plan: %v", err)
	}
	if out, _ := call(t, cs, "get_capabilities", map[string]any{}); fmt.Sprint(out["promptNames"]) != fmt.Sprint([]any{"student_study_support", "teacher_guide_draft",
		"student_handbook_section", "multigrade_lesson_plan", "learning_progression_teaching_sequence", "learning_progression_support_plan",
		"learning_progression_curriculum_review", "administrator_alignment_review", "cross_framework_comparison"}) {
		t.Errorf("promptNames %v", out["promptNames"])
	}

}

// verboseImages builds one maths package whose prompt config carries the
// given number of 990-character instructions in its shared blocks and in the
// teacher-guide overlay.
func verboseImages(t *testing.T, shared, overlay int) string {
	t.Helper()
	spec := pkggen.Shipped()[1]
	spec.FrameworkID = "kgc-verbose-mathematics"
	f := pkgtest.Write(t, spec)
	path := filepath.Join(f.Profiles, spec.FrameworkID, "1.0", "prompts.json")
	var cfg map[string]any
	raw, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(raw, &cfg) != nil {
		t.Fatal(err)
	}
	line := func(slot string, i int) string {
		return fmt.Sprintf("%s %d: %s", slot, i, strings.Repeat("Keep the learner's own words. ", 40))[:990]
	}
	blocks := func(slots []string, n int) map[string]any {
		out := map[string]any{}
		for i := 0; i < n; i++ {
			slot := slots[i%len(slots)]
			b, _ := out[slot].(map[string]any)
			if b == nil {
				b = map[string]any{"mode": "append", "instructions": []any{}}
				out[slot] = b
			}
			b["instructions"] = append(b["instructions"].([]any), line(slot, i))
		}
		return out
	}
	cfg["shared"] = blocks([]string{"languageGuidance", "localContextGuidance", "outputGuidance", "terminologyGuidance", "warningGuidance"}, shared)
	cfg["prompts"] = map[string]any{"teacherGuideDraft": blocks([]string{"assessmentGuidance", "differentiationGuidance", "lessonStructureGuidance", "pedagogyGuidance"}, overlay)}
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	data, _ := imgtest.Build(t, f.Dir, f.Profiles, "")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "verbose.kgimg"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestOversizedRendersAreRefused checks the two size limits with real
// (gate-accepted) prompt configs: a workflow whose envelope would pass
// 100,000 characters is workflow_instructions_too_large while its native
// prompt renders; a render over 64 KiB is prompt_rendering_error, and other
// prompts of the same package still render.
func TestOversizedRendersAreRefused(t *testing.T) {
	ctx := context.Background()
	args := map[string]string{"framework_id": "kgc-verbose-mathematics", "grade_or_stage": "GRADE ONE", "topic_or_standard": "counting"}
	cs, _ := client(t, verboseImages(t, 40, 0))
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "teacher_guide_draft", Arguments: args}); err != nil {
		t.Fatalf("native prompt: %v", err)
	}
	_, res := call(t, cs, "get_workflow_instructions", req(map[string]any{"workflowName": "teacher_guide_draft",
		"frameworkId": "kgc-verbose-mathematics", "gradeOrStage": "GRADE ONE", "topicOrStandard": "counting"}))
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(text, "workflow_instructions_too_large: ") {
		t.Errorf("workflow: %.200s", text)
	}
	cs, _ = client(t, verboseImages(t, 40, 20))
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "teacher_guide_draft", Arguments: args}); err == nil || !strings.Contains(err.Error(), "prompt_rendering_error: ") {
		t.Errorf("over 64 KiB: %v", err)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "student_study_support", Arguments: args}); err != nil {
		t.Errorf("another prompt of the package: %v", err)
	}
}
