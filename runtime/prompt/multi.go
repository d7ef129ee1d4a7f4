package prompt

import (
	"strings"
)

// renderMulti renders a multi-framework prompt (administrator_alignment_review,
// cross_framework_comparison): generic guidance once
// under SHARED GUIDANCE, each framework's section carrying only its identity,
// rights, disclosures, context and what its config adds or replaces.
func renderMulti(d *Def, v Values, pkgs []*Package) (*renderer, error) {
	r := &renderer{}
	meta := MultiMetadata{EpistemicStatus: "llm_inferred", GeneratedContent: true, PromptVersion: Version}
	r.line("# %s", d.Title)
	ids := make([]string, len(pkgs))
	for i, p := range pkgs {
		ids[i] = p.SnapshotID
	}
	r.line("Prompt %s %s over %s. What you write is generated content (epistemic status llm_inferred); each package's records are the only evidence, and nothing is merged across packages.", d.Name, Version, strings.Join(ids, ", "))
	r.line("")
	if d.Name == "administrator_alignment_review" {
		r.line("Prepare an alignment review for an administrator between source %s and target %s on %q: an evidence matrix of candidate matches, the risks of acting on them and review questions. Similarity is candidate evidence, never an official alignment.",
			pkgs[0].FrameworkID, pkgs[1].FrameworkID, v.Str("topic_or_query"))
	} else {
		r.line("Compare how %d frameworks treat %q, side by side, from independent package-local evidence. Matches are retrieval candidates; comparative conclusions are model-inferred.", len(pkgs), v.Str("topic_or_query"))
	}
	r.heading("REQUEST")
	r.json(v)
	r.heading("FRAMEWORKS")
	for i, p := range pkgs {
		slots, applied := guidance(d, p.Config, false)
		ci := configIdentity(p, applied)
		meta.Contexts = append(meta.Contexts, Context{Attribution: p.Rights.AttributionStatement, FrameworkID: p.FrameworkID, GraphPackageID: p.GraphPackageID,
			ProfileID: p.ProfileID, ProfileSha256: p.ProfileSha256, ProfileVersion: p.ProfileVersion, PromptConfig: ci, Rights: p.Rights,
			SnapshotID: p.SnapshotID, SourceMetadata: p.SourceMetadata})
		r.line("### %d. %s", i+1, p.FrameworkID)
		r.line("PACKAGE")
		r.json(identity(p))
		r.line("RIGHTS AND ATTRIBUTION")
		r.writeRights(p)
		if ds := disclosures(p); len(ds) > 0 {
			r.line("REQUIRED DISCLOSURES")
			for _, s := range ds {
				r.bullet("%s", s)
			}
		}
		r.line("PROMPT CONFIGURATION")
		r.writeConfig(p, applied)
		r.line("ACCEPTED PACKAGE CONTEXT")
		r.b.Write(packageContext(p))
		r.b.WriteByte('\n')
		if len(slots) > 0 {
			r.line("FRAMEWORK GUIDANCE (what this framework's config adds or replaces)")
			for _, s := range slots {
				r.line("%s:", s.label)
				for _, l := range s.lines {
					r.bullet("%s", l)
				}
			}
		}
	}
	r.meta = meta
	r.heading("REQUIRED DISCLOSURES")
	for _, s := range multiDisclosures(d) {
		r.bullet("%s", s)
	}
	r.heading("STEPS")
	r.line("Call the tools in order; each template is one line in the tool's exact request shape.")
	compare := map[string]any{"mode": v.Str("search_mode"), "query": v.Str("topic_or_query"),
		"includeContextPaths": v.Bool("include_context_paths"), "maxMatchesPerFramework": v.Int("matches_per_framework")}
	if v.Str("search_mode") == "text" {
		compare["match"] = map[string]any{"matchMode": "tokens", "operator": "any"}
	}
	fws := make([]string, len(pkgs))
	for i, p := range pkgs {
		fws[i] = p.FrameworkID
	}
	compare["frameworkIds"], compare["snapshotIds"] = fws, ids
	if l := v.List("local_grade_labels"); len(l) > 0 {
		compare["localGradeLabels"] = l
	}
	if l := v.List("normalized_grades"); len(l) > 0 {
		compare["normalizedGrades"] = l
	}
	r.stepf("Retrieve each framework's evidence independently (each section keeps its own ranking, warnings, bound and cursor):")
	r.call("compare_framework_evidence", compare)
	if d.Name == "administrator_alignment_review" {
		for i, arg := range []string{"source_grade_or_stage", "target_grade_or_stage"} {
			if g := v.Str(arg); g != "" {
				r.stepf("Narrow the %s side to %q with a package-local search:", strings.TrimSuffix(arg, "_grade_or_stage"), g)
				search := map[string]any{"snapshotIds": []string{ids[i]}, "mode": v.Str("search_mode"), "query": v.Str("topic_or_query"),
					"limit": v.Int("matches_per_framework"), "localGradeLabels": []string{g}}
				if m, ok := compare["match"]; ok {
					search["match"] = m
				}
				r.call("search_standards", search)
			}
		}
	}
	r.stepf("Optionally, compare learning components per framework (only where a package has them); components of different packages were generated independently, possibly with different instructions, deduplication scopes and pipeline versions, so say so beside any comparison of them, and label them %s:", labelGenerated)
	r.call("search_learning_components", map[string]any{"snapshotIds": []string{"{snapshotId}"}, "mode": "learning_component_text",
		"query": v.Str("topic_or_query"), "match": map[string]any{"matchMode": "tokens", "operator": "any"}, "limit": 10})
	r.stepf("Write the %s following the shared guidance and output rules below.", strings.ToLower(d.Title))
	r.heading("SHARED GUIDANCE")
	shared, _ := guidance(d, nil, true)
	r.writeGuidance(shared)
	r.heading("OUTPUT")
	lang := v.Str("output_language")
	if lang == "" {
		lang = "the caller's language"
	}
	r.bullet("Language: %s.", lang)
	r.bullet("Keep every framework's evidence in its own rows or columns, cited with its snapshot ID and node IDs; %s for package records, %s for generated records, %s for your synthesis.", labelSource, labelGenerated, labelNew)
	r.bullet("Reproduce each package's attribution statement, and keep each package's rights and provenance with its own rows.")
	if lc := v.Str("local_context"); lc != "" {
		r.bullet("Local context given by the caller (adapt to it; it is not evidence): %s", lc)
	}
	return r, nil
}

// multiDisclosures are the fixed disclosures of the multi-framework prompts.
func multiDisclosures(d *Def) []string {
	out := []string{
		"Normalized grades are retrieval facets, not international grade equivalence.",
		"Similar text, codes, grades or hierarchy positions are not official equivalence between frameworks; matches are exploratory retrieval evidence.",
		"Comparative conclusions are model-inferred (llm_inferred).",
		"Rights, attribution and provenance stay with each package.",
	}
	if d.Name == "administrator_alignment_review" {
		out = append(out, "No alignment is official until the accountable people of both frameworks adopt it; this review only prepares their decision.")
	}
	return out
}
