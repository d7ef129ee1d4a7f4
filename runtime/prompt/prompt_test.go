package prompt

import (
	"strings"
	"testing"

	"github.com/kgc-project/kgc/schema/promptcfg"
)

func TestCamel(t *testing.T) {
	for in, want := range map[string]string{"framework_id": "frameworkId", "lesson_duration_minutes": "lessonDurationMinutes", "identifier": "identifier"} {
		if got := Camel(in); got != want {
			t.Errorf("Camel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseFillsDefaults(t *testing.T) {
	d, _ := Lookup("learning_progression_curriculum_review")
	v, err := d.Parse(map[string]string{"framework_id": "kgc-x", "endpoint_scope": " ", "statement_types": ""})
	if err != nil {
		t.Fatal(err)
	}
	if v.Str("endpoint_scope") != "either" || v.List("statement_types") == nil || len(v.List("statement_types")) != 0 {
		t.Errorf("defaults: %#v", v)
	}
	if _, ok := v["snapshot_id"]; ok {
		t.Error("an absent optional argument without a default has a value")
	}
	if _, err := d.Parse(map[string]string{}); err == nil || err.Error() != "Input validation error: framework_id: is required" {
		t.Errorf("missing required: %v", err)
	}
}

func slotsOf(slots []slot) map[string]string {
	out := map[string]string{}
	for _, s := range slots {
		out[s.label] = strings.Join(s.lines, "|")
	}
	return out
}

// TestGuidanceMerge: append adds after the generic lines, replace substitutes
// them, slots sharing a label merge, and without generic guidance only the
// config's contribution is rendered (replace noted as such).
func TestGuidanceMerge(t *testing.T) {
	d, _ := Lookup("cross_framework_comparison")
	cfg := &promptcfg.Config{
		Shared: map[string]promptcfg.Block{
			"languageGuidance":    {Mode: "replace", Instructions: []string{"L1"}},
			"terminologyGuidance": {Mode: "append", Instructions: []string{"T-shared"}},
		},
		Prompts: map[string]map[string]promptcfg.Block{
			"crossFrameworkComparison": {"terminologyGuidance": {Mode: "append", Instructions: []string{"T-overlay"}}},
		},
	}
	slots, applied := guidance(d, cfg, true)
	got := slotsOf(slots)
	if !applied || got["Language"] != "L1" {
		t.Errorf("replace: %q", got["Language"])
	}
	term := strings.Split(got["Terminology"], "|")
	if len(term) != len(generic["terminologyGuidance"])+2 || !strings.Contains(got["Terminology"], "T-overlay") || !strings.HasSuffix(got["Terminology"], "T-shared") {
		t.Errorf("merged terminology: %q", got["Terminology"])
	}
	count := 0
	for _, s := range slots {
		if s.label == "Terminology" {
			count++
		}
	}
	if count != 1 {
		t.Errorf("%d Terminology headings", count)
	}
	only, _ := guidance(d, cfg, false)
	got = slotsOf(only)
	if len(only) != 2 || !strings.HasPrefix(got["Language"], "(replaces") || got["Terminology"] != "T-overlay|T-shared" {
		t.Errorf("config-only guidance: %v", got)
	}
	if _, applied := guidance(d, nil, true); applied {
		t.Error("no config, yet applied")
	}
}
