package promptcfg

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/corpus"
	"github.com/kgc-project/kgc/schema/finding"
)

func TestCorpusPromptConfigs(t *testing.T) {
	dir := filepath.Join(corpus.Dir(), "prompts/nigeria-nerdc-mathematics-primary-1-3")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("SKIP: needs the real corpus at %s", dir)
	}
	for _, v := range []string{"1.0", "2.0"} {
		b, err := os.ReadFile(filepath.Join(dir, v, FileName))
		if err != nil {
			t.Fatal(err)
		}
		c, fs := Decode(b, v, "nigeria-nerdc-mathematics-primary-1-3", v, []string{"nigeria-nerdc-mathematics-primary-1-3"})
		if c == nil || len(fs) != 0 {
			t.Errorf("%s: %v", v, fs)
		}
		if len(c.Shared) != 5 || len(c.Prompts) != 3 || !strings.HasPrefix(c.Sha256, "sha256:") {
			t.Errorf("%s: shared %d prompts %d", v, len(c.Shared), len(c.Prompts))
		}
	}
}

func shipped(t *testing.T) (map[string]any, string) {
	ps, _ := filepath.Glob("../../profiles/kgc-sample-english-grades-1-2/1.0/prompts.json")
	if len(ps) != 1 {
		t.Fatal("shipped prompt config not found")
	}
	b, _ := os.ReadFile(ps[0])
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc, "kgc-sample-english-grades-1-2"
}

func TestPromptConfigProblems(t *testing.T) {
	cases := []struct {
		name string
		edit func(d map[string]any)
		want finding.Code
	}{
		{"identity", func(d map[string]any) { d["profileVersion"] = "9.9" }, finding.PromptConfigIdentity},
		{"frameworks", func(d map[string]any) { d["frameworkIds"] = []any{"other-framework"} }, finding.PromptConfigIdentity},
		{"schema", func(d map[string]any) { d["promptConfigSchemaVersion"] = "3.0" }, finding.PromptConfigVersion},
		{"duplicate instruction", func(d map[string]any) {
			b := d["shared"].(map[string]any)["outputGuidance"].(map[string]any)
			b["instructions"] = []any{"same", "same"}
		}, finding.PromptConfigDuplicate},
		{"empty", func(d map[string]any) { d["shared"] = map[string]any{}; d["prompts"] = map[string]any{} }, finding.PromptConfigEmpty},
		{"unknown overlay", func(d map[string]any) {
			d["prompts"].(map[string]any)["inferredProgressionHypothesis"] = map[string]any{}
		}, finding.SchemaUnknown},
		{"bad mode", func(d map[string]any) {
			d["shared"].(map[string]any)["outputGuidance"].(map[string]any)["mode"] = "prepend"
		}, finding.SchemaInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, id := shipped(t)
			c.edit(doc)
			b, _ := json.Marshal(doc)
			_, fs := Decode(b, "x", id, "1.0", []string{id})
			found := false
			for _, f := range fs {
				found = found || f.Code == c.want
			}
			if !found {
				t.Errorf("want %s, got %v", c.want, fs)
			}
		})
	}
	big := make([]byte, MaxBytes+1)
	if _, fs := Decode(big, "x", "a", "1.0", nil); len(fs) != 1 || fs[0].Code != finding.PromptConfigTooLarge {
		t.Errorf("oversized: %v", fs)
	}
}
