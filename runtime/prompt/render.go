package prompt

import (
	"fmt"
	"strings"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/schema/profile"
	"github.com/kgc-project/kgc/schema/promptcfg"
	"github.com/kgc-project/kgc/schema/rights"
)

// Package is what a prompt knows of one accepted package: its identity,
// rights, profile, what it carries, the resource addresses of its evidence and
// its framework-local prompt config (nil when it has none).
type Package struct {
	FrameworkID, SnapshotID, GraphPackageID, GraphType string
	Name                                               string
	ProfileID, ProfileVersion, ProfileSha256           string
	ManifestSha256                                     string
	Rights                                             rights.Policy
	Profile                                            *profile.Profile
	// SourceMetadata is the package's source metadata as the tools return it.
	SourceMetadata any
	// HasComponents, HasProgressions: the package carries learning components,
	// stored learning progressions.
	HasComponents, HasProgressions bool
	Links                          Links
	Config                         *promptcfg.Config
}

// Links are the evidence addresses of a package a workflow may read: exact
// URIs ("" when the package cannot serve that resource) and per-record
// patterns holding a literal {nodeId}.
type Links struct {
	Manifest, Profile, Validation, Unresolved, Progressions string
	Standard, StandardProvenance, StandardComponents        string
	Component, ComponentProvenance                          string
	// RelationshipProvenance is the per-edge provenance pattern, with a
	// literal {relationshipId}.
	RelationshipProvenance string
}

// ConfigIdentity identifies the prompt config a render used.
type ConfigIdentity struct {
	OverlayApplied      bool   `json:"overlayApplied"`
	PromptConfigID      string `json:"promptConfigId"`
	PromptConfigSha256  string `json:"promptConfigSha256"`
	PromptConfigVersion string `json:"promptConfigVersion"`
}

// Metadata describes a single-framework render (_meta.metadata,
// docs/reference/prompts.md#getting-a-prompt).
type Metadata struct {
	EpistemicStatus     string  `json:"epistemicStatus" enum:"llm_inferred"`
	FrameworkID         string  `json:"framework_id"`
	GeneratedContent    bool    `json:"generatedContent"`
	GraphPackageID      string  `json:"graphPackageId"`
	ProfileID           string  `json:"profileId"`
	ProfileVersion      string  `json:"profileVersion"`
	PromptConfigID      *string `json:"promptConfigId"`
	PromptConfigSha256  *string `json:"promptConfigSha256"`
	PromptConfigVersion *string `json:"promptConfigVersion"`
	PromptVersion       string  `json:"promptVersion"`
	SnapshotID          string  `json:"snapshot_id"`
}

// Context is one package of a multi-framework render.
type Context struct {
	Attribution    string          `json:"attributionStatement"`
	FrameworkID    string          `json:"frameworkId"`
	GraphPackageID string          `json:"graphPackageId"`
	ProfileID      string          `json:"profileId"`
	ProfileSha256  string          `json:"profileSha256"`
	ProfileVersion string          `json:"profileVersion"`
	PromptConfig   *ConfigIdentity `json:"promptConfig"`
	Rights         rights.Policy   `json:"rights"`
	SnapshotID     string          `json:"snapshotId"`
	SourceMetadata any             `json:"sourceMetadata"`
}

// RenderMetadata is a render's metadata: a Metadata (one framework) or a
// MultiMetadata (several).
type RenderMetadata interface{ renderMetadata() }

func (Metadata) renderMetadata()      {}
func (MultiMetadata) renderMetadata() {}

// MultiMetadata describes a multi-framework render.
type MultiMetadata struct {
	Contexts         []Context `json:"contexts"`
	EpistemicStatus  string    `json:"epistemicStatus" enum:"llm_inferred"`
	GeneratedContent bool      `json:"generatedContent"`
	PromptVersion    string    `json:"promptVersion"`
}

// Rendered is a rendered prompt: the one user message and what it was
// rendered from.
type Rendered struct {
	Description   string          `json:"-"`
	Message       string          `json:"message"`
	Metadata      RenderMetadata  `json:"metadata"`
	PromptConfig  *ConfigIdentity `json:"promptConfig"`
	PromptName    string          `json:"promptName"`
	PromptVersion string          `json:"promptVersion"`
}

func accessDenied(p *Package) error {
	return kgerr.New(kgerr.PromptAccessDenied, "the rights of %s do not allow generated derivatives (allowGeneratedDerivatives: %s)",
		p.SnapshotID, p.Rights.AllowGeneratedDerivatives).
		WithHint("use the retrieval tools and resources, which do not generate derivative content")
}

// Render renders prompt d with validated arguments v over its packages (one
// for a single-framework prompt; for a multi-framework one, in argument
// order). Errors are *kgerr.Error (prompt_access_denied,
// capability_unavailable, prompt_rendering_error) or *ArgError for values the
// package's profile does not know.
func Render(d *Def, v Values, pkgs []*Package) (*Rendered, error) {
	for _, p := range pkgs {
		if p.Rights.AllowGeneratedDerivatives != rights.DerivativesAllowed {
			return nil, accessDenied(p)
		}
	}
	var r *renderer
	var err error
	if d.Multi {
		r, err = renderMulti(d, v, pkgs)
	} else {
		r, err = renderSingle(d, v, pkgs[0])
	}
	if err != nil {
		return nil, err
	}
	msg := r.b.String()
	if len(msg) > MaxRenderedBytes {
		return nil, kgerr.New(kgerr.PromptRenderingError, "the rendered %s prompt is %d bytes, over the %d-byte limit", d.Name, len(msg), MaxRenderedBytes).
			WithHint("shorten the caller context (local_context, learner_context, available_materials) or the framework's prompt config")
	}
	out := &Rendered{Description: d.Description, Message: msg, PromptName: d.Name, PromptVersion: Version, Metadata: r.meta, PromptConfig: r.config}
	return out, nil
}

// renderer writes one message.
type renderer struct {
	b      strings.Builder
	meta   RenderMetadata
	config *ConfigIdentity
	step   int
}

func (r *renderer) heading(title string) { fmt.Fprintf(&r.b, "\n## %s\n", title) }
func (r *renderer) line(format string, a ...any) {
	fmt.Fprintf(&r.b, format, a...)
	r.b.WriteByte('\n')
}
func (r *renderer) bullet(format string, a ...any) { r.line("- "+format, a...) }

// json writes v as one compact canonical JSON line.
func (r *renderer) json(v any) { r.b.Write(encode(v)); r.b.WriteByte('\n') }

func encode(v any) []byte {
	b, err := canonjson.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("prompt: encoding %T: %v", v, err)) // only library-built values are encoded
	}
	return b
}

// stepf opens the next numbered step.
func (r *renderer) stepf(format string, a ...any) {
	r.step++
	r.line("%d. "+format, append([]any{r.step}, a...)...)
}

// call writes a tool-call template: the tool name and its arguments as one
// compact line in the tool's schema shape.
func (r *renderer) call(tool string, request map[string]any) {
	r.b.WriteString("   `" + tool + "` ")
	r.b.Write(encode(map[string]any{"request": request}))
	r.b.WriteByte('\n')
}

func configIdentity(p *Package, applied bool) *ConfigIdentity {
	if p.Config == nil {
		return nil
	}
	return &ConfigIdentity{OverlayApplied: applied, PromptConfigID: p.Config.ID, PromptConfigSha256: p.Config.Sha256, PromptConfigVersion: p.Config.Version}
}

func identity(p *Package) map[string]any {
	return map[string]any{"frameworkId": p.FrameworkID, "snapshotId": p.SnapshotID, "graphPackageId": p.GraphPackageID, "graphType": p.GraphType,
		"name": p.Name, "profileId": p.ProfileID, "profileVersion": p.ProfileVersion, "profileSha256": p.ProfileSha256, "manifestSha256": p.ManifestSha256}
}

// writeRights writes a package's rights and the attribution the output must
// carry.
func (r *renderer) writeRights(p *Package) {
	pol := p.Rights
	license := pol.SourceLicense
	if pol.LicenseURI != nil {
		license += " (" + *pol.LicenseURI + ")"
	}
	r.bullet("Source license: %s; review status: %s.", license, pol.ReviewStatus)
	r.bullet("Attribution, to reproduce verbatim in the output: %s", pol.AttributionStatement)
	r.bullet("Generated derivatives: %s. Full text: %t. Standard resources: %t.", pol.AllowGeneratedDerivatives, pol.AllowFullText, pol.AllowStandardResources)
}

// disclosures are the profile's required disclosures and those of its known
// source anomalies, once each.
func disclosures(p *Package) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, d := range p.Profile.RequiredDisclosures {
		add(d)
	}
	for _, a := range p.Profile.KnownSourceAnomalies {
		add(a.RequiredDisclosure)
	}
	return out
}

func (r *renderer) writeConfig(p *Package, applied bool) {
	if p.Config == nil {
		r.line("None: this framework has no prompt config; the library's generic guidance applies.")
		return
	}
	c := p.Config
	state := "no instruction of it applies to this prompt"
	if applied {
		state = "its guidance is merged below"
	}
	r.line("%s %s (%s, sha256 %s): %s. It can only add to or replace soft guidance; rights, attribution, evidence status, identifiers, tools and required disclosures are not configurable.",
		c.ID, c.Version, "promptConfigSchemaVersion "+c.SchemaVersion, strings.TrimPrefix(c.Sha256, "sha256:"), state)
}

// packageContext is the ACCEPTED PACKAGE CONTEXT: only the profile facts the
// workflows read, empty values omitted.
func packageContext(p *Package) []byte {
	prof := p.Profile
	var grades []any
	for _, g := range prof.GradeMappings {
		grades = append(grades, map[string]any{"localLabel": g.LocalLabel, "aliases": g.Aliases, "normalizedGrades": g.NormalizedGrades})
	}
	var stages []any
	for _, s := range prof.EducationStageMappings {
		stages = append(stages, map[string]any{"localLabel": s.LocalLabel, "normalizedStage": s.NormalizedStage})
	}
	var types []any
	for _, t := range prof.StatementTypes {
		types = append(types, map[string]any{"sourceStatementType": t.SourceStatementType, "normalizedStatementType": t.NormalizedStatementType,
			"description": t.Description, "codeType": t.CodeType})
	}
	var anomalies []any
	for _, a := range prof.KnownSourceAnomalies {
		anomalies = append(anomalies, map[string]any{"anomalyId": a.AnomalyID, "description": a.Description})
	}
	cs := prof.CodeSearchPolicy
	return compact(map[string]any{
		"codeSearchPolicy": map[string]any{"availability": cs.Availability, "allowPrefixSearch": cs.AllowPrefixSearch,
			"prefixDelimiters": cs.PrefixDelimiters, "codesAreUniqueIdentifiers": cs.CodesAreUniqueIdentifiers, "canonicalizationNotes": cs.CanonicalizationNotes},
		"gradeMappings":          grades,
		"educationStageMappings": stages,
		"hierarchy":              prof.Hierarchy,
		"knownSourceAnomalies":   anomalies,
		"languagePolicy":         prof.LanguagePolicy,
		"subjects":               map[string]any{"localSubject": prof.LocalSubject, "normalizedSubjects": prof.NormalizedSubjects},
		"sourceMetadata":         p.SourceMetadata,
		"sourceRoleCapabilities": prof.SourceRoleCapabilities,
		"statementTypes":         types,
	})
}

// compact drops empty values (null, "", false, empty arrays and objects)
// from a JSON-shaped value, recursively, and returns its canonical encoding.
func compact(v any) []byte {
	b, err := canonjson.Marshal(v)
	if err != nil {
		return []byte("{}")
	}
	x, _ := jsonv.Parse(b)
	var walk func(*jsonv.Value) *jsonv.Value
	walk = func(v *jsonv.Value) *jsonv.Value {
		switch v.Kind {
		case jsonv.Null:
			return nil
		case jsonv.String:
			if v.Str == "" {
				return nil
			}
		case jsonv.Bool:
			if !v.Bool {
				return nil
			}
		case jsonv.Object:
			out := &jsonv.Value{Kind: jsonv.Object}
			for _, m := range v.Obj {
				if w := walk(m.Val); w != nil {
					out.Obj = append(out.Obj, jsonv.Member{Key: m.Key, Val: w})
				}
			}
			if len(out.Obj) == 0 {
				return nil
			}
			return out
		case jsonv.Array:
			out := &jsonv.Value{Kind: jsonv.Array}
			for _, e := range v.Arr {
				if w := walk(e); w != nil {
					out.Arr = append(out.Arr, w)
				}
			}
			if len(out.Arr) == 0 {
				return nil
			}
			return out
		}
		return v
	}
	if c := walk(x); c != nil {
		return canonjson.Encode(c)
	}
	return []byte("{}")
}

func (r *renderer) writeLinks(p *Package) {
	l := p.Links
	for _, e := range []struct{ what, uri string }{
		{"Package manifest", l.Manifest}, {"Interpretation profile", l.Profile}, {"Validation report", l.Validation},
		{"Unresolved items", l.Unresolved}, {"Learning-progression summary", l.Progressions},
		{"Standard", l.Standard}, {"Standard provenance", l.StandardProvenance}, {"Standard's learning components", l.StandardComponents},
		{"Learning component", l.Component}, {"Learning-component provenance", l.ComponentProvenance},
		{"Progression edge provenance", l.RelationshipProvenance},
	} {
		if e.uri != "" {
			r.bullet("%s: %s", e.what, e.uri)
		}
	}
	r.line("Replace {nodeId} or {relationshipId} with an ID from a tool result (tool results also carry these URIs ready-made). Read with resources/read, or with read_evidence {\"request\":{\"uri\":\"…\"}} where the host cannot read resources (it returns the document in pieces: continue with its page.nextRequest). A resource the rights withhold is refused; report that instead of guessing its content.")
}

func (r *renderer) writeGuidance(slots []slot) {
	for _, s := range slots {
		r.line("### %s", s.label)
		for _, l := range s.lines {
			r.bullet("%s", l)
		}
	}
}

// gradeLabels resolves local grade labels (or aliases) through a profile:
// the canonical labels, and the values it does not know.
func gradeLabels(p *profile.Profile, values []string) (known, unknown []string) {
	for _, v := range values {
		k := textnorm.Facet(v)
		found := ""
		for _, g := range p.GradeMappings {
			for _, n := range append([]string{g.LocalLabel}, g.Aliases...) {
				if textnorm.Facet(n) == k {
					found = g.LocalLabel
				}
			}
		}
		if found == "" {
			unknown = append(unknown, v)
		} else {
			known = append(known, found)
		}
	}
	return known, unknown
}
