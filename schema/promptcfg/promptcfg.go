// Package promptcfg decodes and validates framework prompt configurations
// (docs/reference/prompt-config-format.md): optional per-profile guidance overlays that append to or
// replace the soft-guidance sections of the prompt library.
package promptcfg

import (
	"strings"
	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/manifest"
)

// FileName is the prompt config's file name beside its profile version.
const FileName = "prompts.json"

// Limits of a prompt config (docs/reference/prompt-config-format.md#fields).
const (
	MaxBytes               = 65536
	maxInstructionChars    = 1000
	maxBlockInstructions   = 20
	maxSharedInstructions  = 40
	maxOverlayInstructions = 60
)

// sharedSections are the shared guidance blocks.
var sharedSections = []string{"languageGuidance", "localContextGuidance", "outputGuidance", "terminologyGuidance", "warningGuidance"}

// overlaySections maps each prompt overlay key to its section keys (schema 1.1).
var overlaySections = map[string][]string{
	"studentStudySupport":                 {"audienceGuidance", "exampleGuidance", "explanationGuidance", "practiceGuidance"},
	"teacherGuideDraft":                   {"assessmentGuidance", "differentiationGuidance", "lessonStructureGuidance", "pedagogyGuidance"},
	"studentHandbookSection":              {"audienceGuidance", "exampleGuidance", "explanationGuidance", "sectionStructureGuidance"},
	"multigradeLessonPlan":                {"classroomManagementGuidance", "differentiationGuidance", "sharedCoreGuidance"},
	"learningProgressionTeachingSequence": {"evidenceGuidance", "pedagogyGuidance", "sequencePresentationGuidance"},
	"learningProgressionSupportPlan":      {"evidenceGuidance", "practiceGuidance", "supportGuidance"},
	"learningProgressionCurriculumReview": {"coverageGuidance", "evidenceGuidance", "reviewQuestionGuidance"},
	"administratorAlignmentReview":        {"evidenceMatrixGuidance", "governanceGuidance", "riskFramingGuidance", "reviewQuestionGuidance"},
	"crossFrameworkComparison":            {"comparisonDimensionGuidance", "synthesisGuidance", "terminologyGuidance", "uncertaintyGuidance"},
}

// legacyOverlays are overlays of schema 1.0 for prompts that no longer exist; they
// are accepted and ignored.
var legacyOverlays = map[string][]string{
	"inferredProgressionHypothesis": {"counterEvidenceGuidance", "evidenceGuidance", "inferenceGuidance", "sequencePresentationGuidance"},
}

// supportedSchemaVersions lists the accepted promptConfigSchemaVersion values.
var supportedSchemaVersions = []string{"1.0", "1.1"}

// Block is one guidance block.
type Block struct {
	Mode         string   `json:"mode"`
	Instructions []string `json:"instructions"`
}

// Config is a decoded prompt configuration.
type Config struct {
	ID             string                      `json:"promptConfigId"`
	Version        string                      `json:"promptConfigVersion"`
	SchemaVersion  string                      `json:"promptConfigSchemaVersion"`
	ProfileID      string                      `json:"profileId"`
	ProfileVersion string                      `json:"profileVersion"`
	FrameworkIDs   []string                    `json:"frameworkIds"`
	Shared         map[string]Block            `json:"shared"`
	Prompts        map[string]map[string]Block `json:"prompts"`
	// Sha256 is `sha256:<hex>` of the exact file bytes.
	Sha256 string `json:"sha256"`
}

// Decode decodes and validates prompt-config bytes. profileFrameworks is the
// bound profile's frameworkIds tuple, which the config must repeat exactly.
func Decode(data []byte, path, profileID, profileVersion string, profileFrameworks []string) (*Config, []finding.Finding) {
	var is jsonv.Issues
	var extra []finding.Finding
	add := func(code finding.Code, field, format string, args ...any) {
		extra = append(extra, finding.New(code, format, args...).In(field))
	}
	done := func() []finding.Finding {
		out := finding.FromIssues(is.List, finding.StagePrompts, "promptConfig", path)
		for _, f := range extra {
			out = append(out, f.At("promptConfig", path).WithStage(finding.StagePrompts))
		}
		return out
	}
	if len(data) > MaxBytes {
		add(finding.PromptConfigTooLarge, "", "the prompt config is %d bytes; the limit is %d", len(data), MaxBytes)
		return nil, done()
	}
	v := manifest.ParseDocument(data, &is)
	if v == nil {
		return nil, done()
	}
	o := jsonv.AsObj(v, "", &is)
	if !o.Valid() {
		return nil, done()
	}
	c := &Config{Shared: map[string]Block{}, Prompts: map[string]map[string]Block{}, Sha256: ids.Sha256(data)}
	c.ID, _ = o.Str("promptConfigId", true)
	if why := ids.CheckPromptConfigID(c.ID); c.ID != "" && why != "" {
		o.Invalid("promptConfigId", "promptConfigId: %s", why)
	}
	c.Version, _ = o.Str("promptConfigVersion", true)
	if why := ids.CheckVersion(c.Version); c.Version != "" && why != "" {
		o.Invalid("promptConfigVersion", "promptConfigVersion: %s", why)
	}
	c.SchemaVersion, _ = o.Str("promptConfigSchemaVersion", true)
	supported := false
	for _, s := range supportedSchemaVersions {
		supported = supported || s == c.SchemaVersion
	}
	if c.SchemaVersion != "" && !supported {
		add(finding.PromptConfigVersion, "promptConfigSchemaVersion", "promptConfigSchemaVersion %q is not supported (supported: %s)", c.SchemaVersion, strings.Join(supportedSchemaVersions, ", "))
	}
	c.ProfileID, _ = o.Str("profileId", true)
	c.ProfileVersion, _ = o.Str("profileVersion", true)
	if c.ProfileID != "" && c.ProfileID != profileID || c.ProfileVersion != "" && c.ProfileVersion != profileVersion {
		add(finding.PromptConfigIdentity, "profileId", "the config names profile %s/%s but sits beside profile %s/%s", c.ProfileID, c.ProfileVersion, profileID, profileVersion)
	}
	c.FrameworkIDs, _ = o.Strs("frameworkIds", true)
	if len(c.FrameworkIDs) < 1 || len(c.FrameworkIDs) > 64 {
		o.Invalid("frameworkIds", "frameworkIds must have 1–64 values")
	}
	if strings.Join(c.FrameworkIDs, "\x00") != strings.Join(profileFrameworks, "\x00") {
		add(finding.PromptConfigIdentity, "frameworkIds", "frameworkIds %v must equal the profile's %v", c.FrameworkIDs, profileFrameworks)
	}
	total := 0
	shared := o.Object("shared", false)
	sharedCount := 0
	readBlocks(shared, sharedSections, c.Shared, &sharedCount, add)
	shared.Done()
	if sharedCount > maxSharedInstructions {
		add(finding.PromptConfigTooLarge, "shared", "shared guidance has %d instructions; the limit is %d", sharedCount, maxSharedInstructions)
	}
	total += sharedCount
	prompts := o.Object("prompts", false)
	if prompts.Valid() {
		for _, m := range prompts.V.Obj {
			sections, ok := overlaySections[m.Key]
			legacy := false
			if !ok && c.SchemaVersion == "1.0" {
				sections, legacy = legacyOverlays[m.Key]
			}
			if sections == nil {
				continue // reported by Done
			}
			po := prompts.Object(m.Key, false)
			blocks := map[string]Block{}
			n := 0
			readBlocks(po, sections, blocks, &n, add)
			po.Done()
			if n > maxOverlayInstructions {
				add(finding.PromptConfigTooLarge, "prompts."+m.Key, "overlay %s has %d instructions; the limit is %d", m.Key, n, maxOverlayInstructions)
			}
			total += n
			if !legacy {
				c.Prompts[m.Key] = blocks
			}
		}
		prompts.Done()
	}
	o.Done()
	if total == 0 && is.Len() == 0 {
		add(finding.PromptConfigEmpty, "", "the prompt config has no instruction in shared or prompts")
	}
	return c, done()
}

func readBlocks(o *jsonv.Obj, sections []string, into map[string]Block, count *int, add func(finding.Code, string, string, ...any)) {
	if !o.Valid() {
		return
	}
	for _, key := range sections {
		bo := o.Object(key, false)
		if !bo.Valid() {
			continue
		}
		b := Block{Mode: "append"}
		if m, ok := bo.Str("mode", false); ok {
			if m != "append" && m != "replace" {
				bo.Invalid("mode", "%s must be append or replace", jsonv.Join(bo.Path, "mode"))
			}
			b.Mode = m
		}
		b.Instructions, _ = bo.Strs("instructions", true)
		if len(b.Instructions) < 1 || len(b.Instructions) > maxBlockInstructions {
			bo.Invalid("instructions", "%s must have 1–%d instructions", jsonv.Join(bo.Path, "instructions"), maxBlockInstructions)
		}
		seen := map[string]bool{}
		for _, in := range b.Instructions {
			if strings.TrimSpace(in) == "" || utf8.RuneCountInString(in) > maxInstructionChars {
				bo.Invalid("instructions", "%s: each instruction must be 1–%d characters and not blank", jsonv.Join(bo.Path, "instructions"), maxInstructionChars)
			}
			if seen[in] {
				add(finding.PromptConfigDuplicate, jsonv.Join(bo.Path, "instructions"), "%s repeats an instruction", jsonv.Join(bo.Path, "instructions"))
			}
			seen[in] = true
		}
		bo.Done()
		*count += len(b.Instructions)
		into[key] = b
	}
}
