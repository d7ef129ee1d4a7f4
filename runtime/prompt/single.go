package prompt

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/schema/profile"
)

// The output labels every workflow asks for.
const (
	labelSource    = "[SOURCE-EVIDENCE]"
	labelGenerated = "[GENERATED-EVIDENCE / llm_inferred]"
	labelNew       = "[GENERATED]"
)

func unavailable(p *Package, what, hint string) error {
	return kgerr.New(kgerr.CapabilityUnavailable, "%s %s", p.SnapshotID, what).WithHint("%s", hint)
}

// checkSingle applies the package-dependent rules of a single-framework
// prompt: capabilities it needs and profile values it names.
func checkSingle(d *Def, v Values, p *Package) error {
	prof := p.Profile
	if d.Name == "multigrade_lesson_plan" && !p.HasComponents {
		return unavailable(p, "has no learning components, which a multigrade lesson plan needs (there is no single-grade fallback)",
			"use teacher_guide_draft for each grade, or a package with learning components")
	}
	codes := prof.CodeSearchPolicy.Availability != "none" && prof.CodeSearchPolicy.Availability != ""
	if v.Str("focus_mode") == "statement_code" && !codes {
		return unavailable(p, "has no searchable statement codes, so focus_mode statement_code cannot resolve",
			"use focus_mode topic, or a node_id / CASE selector")
	}
	for _, sel := range selectors(v["standard_identifiers"]) {
		if sel["identifierType"] == "statement_code" && !codes {
			return unavailable(p, "has no searchable statement codes, so statement_code selectors cannot resolve",
				"select the standards by node_id or CASE identifier")
		}
	}
	if _, unknown := gradeLabels(prof, v.List("local_grade_labels")); len(unknown) > 0 {
		return argErr("local_grade_labels", "%q is not a local grade label (or alias) of %s", unknown[0], p.FrameworkID)
	}
	grades := prof.NormalizedGrades()
	for _, g := range v.List("normalized_grades") {
		if !containsFold(grades, g) {
			return argErr("normalized_grades", "%q is not a normalized grade of %s (it has %s)", g, p.FrameworkID, strings.Join(grades, ", "))
		}
	}
	for _, t := range v.List("statement_types") {
		if !knownStatementType(prof, t) {
			return argErr("statement_types", "%q is not a statement type (or alias) of %s", t, p.FrameworkID)
		}
	}
	for _, t := range v.List("normalized_statement_types") {
		if t != "Standard" && t != "Standard Grouping" {
			return argErr("normalized_statement_types", "%q is not a normalized statement type (Standard, Standard Grouping)", t)
		}
	}
	return nil
}

func selectors(v any) []Selector {
	switch t := v.(type) {
	case Selector:
		return []Selector{t}
	case []Selector:
		return t
	}
	return nil
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func knownStatementType(p *profile.Profile, t string) bool {
	for _, st := range p.StatementTypes {
		if containsFold(append([]string{st.SourceStatementType}, st.Aliases...), t) {
			return true
		}
	}
	return false
}

// tasks is each single-framework prompt's task paragraph.
func task(d *Def, v Values, p *Package) string {
	topic := fmt.Sprintf("%q (focus_mode %s)", v.Str("topic_or_standard"), v.Str("focus_mode"))
	switch d.Name {
	case "student_study_support":
		return fmt.Sprintf("Prepare study support for one learner in %q on %s: a short explanation, worked examples and %d practice items at %s difficulty, grounded only in the records the steps below retrieve from %s.",
			v.Str("grade_or_stage"), topic, v.Int("practice_count"), v.Str("difficulty"), p.Name)
	case "teacher_guide_draft":
		return fmt.Sprintf("Draft a teacher guide for a %d-minute lesson in %q on %s, grounded only in the records the steps below retrieve from %s.",
			v.Int("lesson_duration_minutes"), v.Str("grade_or_stage"), topic, p.Name)
	case "student_handbook_section":
		return fmt.Sprintf("Write a student handbook section of about %d words for %q on %s, grounded only in the records the steps below retrieve from %s.",
			v.Int("target_word_count"), v.Str("grade_or_stage"), topic, p.Name)
	case "multigrade_lesson_plan":
		return fmt.Sprintf("Plan one %d-minute lesson for a room holding %s on %s: a shared core where the package's learning components support standards in more than one of these grades, and differentiated work per grade, from %s.",
			v.Int("lesson_duration_minutes"), strings.Join(quoted(v.List("grades_in_room")), ", "), topic, p.Name)
	case "learning_progression_teaching_sequence":
		if !p.HasProgressions {
			return fmt.Sprintf("Build a teaching sequence around %s from the standards of %s. It stores no learning progressions, so the sequence is your own ordering of the retrieved standards, labelled as such.", topic, p.Name)
		}
		return fmt.Sprintf("Build a teaching sequence around %s from the stored learning-progression edges of %s, keeping stored evidence and your own ordering choices apart.", topic, p.Name)
	case "learning_progression_support_plan":
		from := "from the stored progressions upstream of it and around it"
		if !p.HasProgressions {
			from = "from its place in the hierarchy and its learning components (the package stores no learning progressions)"
		}
		return fmt.Sprintf("Prepare review, practice and next-step options for the standard selected by %s %s in %s. Observations about a learner are the caller's report; you do not diagnose mastery.",
			string(encode(v["identifier"])), from, p.Name)
	default:
		if !p.HasProgressions {
			return fmt.Sprintf("Report to a curriculum reviewer that %s stores no learning progressions to review, with its package totals; never assert curriculum omissions, certification or edges across frameworks.", p.Name)
		}
		return fmt.Sprintf("Review the stored learning progressions of %s for a curriculum reviewer: coverage, warnings and review questions over the selected subset, with the package totals kept apart. Never assert curriculum omissions, certification or edges across frameworks.", p.Name)
	}
}

func quoted(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// renderSingle renders a single-framework prompt over its pinned package.
func renderSingle(d *Def, v Values, p *Package) (*renderer, error) {
	if err := checkSingle(d, v, p); err != nil {
		return nil, err
	}
	slots, applied := guidance(d, p.Config, true)
	r := &renderer{config: configIdentity(p, applied)}
	meta := Metadata{EpistemicStatus: "llm_inferred", FrameworkID: p.FrameworkID, GeneratedContent: true, GraphPackageID: p.GraphPackageID,
		ProfileID: p.ProfileID, ProfileVersion: p.ProfileVersion, PromptVersion: Version, SnapshotID: p.SnapshotID}
	if c := r.config; c != nil {
		meta.PromptConfigID, meta.PromptConfigVersion, meta.PromptConfigSha256 = &c.PromptConfigID, &c.PromptConfigVersion, &c.PromptConfigSha256
	}
	r.meta = meta

	r.line("# %s", d.Title)
	r.line("Prompt %s %s over %s (snapshot %s). What you write is generated content (epistemic status llm_inferred); the package's records are the only evidence.", d.Name, Version, p.FrameworkID, p.SnapshotID)
	r.line("")
	r.line("%s", task(d, v, p))
	r.heading("REQUEST")
	r.json(v)
	r.heading("PACKAGE")
	r.json(identity(p))
	r.heading("RIGHTS AND ATTRIBUTION")
	r.writeRights(p)
	r.heading("REQUIRED DISCLOSURES")
	for _, s := range append(disclosures(p), workflowDisclosures(d, p)...) {
		r.bullet("%s", s)
	}
	r.heading("PROMPT CONFIGURATION")
	r.writeConfig(p, applied)
	r.heading("ACCEPTED PACKAGE CONTEXT")
	r.b.Write(packageContext(p))
	r.b.WriteByte('\n')
	r.heading("EVIDENCE LINKS")
	r.writeLinks(p)
	r.heading("STEPS")
	r.line("Call the tools in order. Every template is one line in the tool's exact request shape; replace {nodeId} and {relationshipId} with values from earlier results and keep frameworkId and snapshotId as given, so every call reads this one pinned package.")
	route := map[string]any{"frameworkId": p.FrameworkID, "snapshotId": p.SnapshotID}
	switch {
	case strings.HasPrefix(d.Name, "learning_progression_"):
		lpSteps(r, d, v, p, route)
	case d.Name == "multigrade_lesson_plan":
		multigradeSteps(r, v, p, route)
	default:
		generationSteps(r, d, v, p, route)
	}
	r.heading("GUIDANCE")
	r.writeGuidance(slots)
	r.heading("OUTPUT")
	writeOutput(r, d, v, p)
	return r, nil
}

// workflowDisclosures are the fixed disclosures of a workflow.
func workflowDisclosures(d *Def, p *Package) []string {
	out := []string{"This output is generated (llm_inferred) from the package's records; it is not official curriculum material and does not prove any learner's mastery."}
	if p.HasComponents {
		out = append(out, "Learning components are the package's generated decomposition of standards ("+labelGenerated+"), not curriculum-authored sub-skills.")
	}
	if p.HasProgressions {
		out = append(out, "Stored buildsTowards/relatesTo edges are generated judgments with confidences ("+labelGenerated+"), not official prerequisites or sequences; hasChild is structure, not progression.")
	} else if strings.HasPrefix(d.Name, "learning_progression_") {
		out = append(out, "Stored learning-progression capability unavailable: this package ("+p.SnapshotID+") declares no stored progressions, so this "+
			"output rests on the standards, their hierarchy and any learning components only; every ordering or dependency in it is "+
			labelInferred+", not stored evidence. list_frameworks shows which snapshots carry progressions (includedGraphTypes).")
	}
	return out
}

// focusSteps resolves topic_or_standard to standards: a first search page or
// an exact lookup.
func focusSteps(r *renderer, v Values, p *Package, route map[string]any, grades []string, limit int) {
	focusStepsKeeping(r, v, p, route, grades, limit, "keep at most 3 that fit")
}

// focusStepsKeeping is focusSteps saying how many hits to keep.
func focusStepsKeeping(r *renderer, v Values, p *Package, route map[string]any, grades []string, limit int, keep string) {
	q := v.Str("topic_or_standard")
	search := map[string]any{"snapshotIds": []string{p.SnapshotID}, "limit": limit}
	if len(grades) > 0 {
		search["localGradeLabels"] = grades
	}
	switch mode := v.Str("focus_mode"); mode {
	case "topic":
		search["mode"], search["query"] = "text", q
		search["match"] = map[string]any{"matchMode": "stems", "operator": "any"}
		search["includeGroupings"] = true
		r.stepf("Find the standards for the topic, any form of its words, topics included (one page of %d hits; %s; a hit marked (grouping) is a topic whose standards are its children, listed by get_standard_context with includeDescendants; if the result lists calls that find more, try them; if nothing fits, say so and stop rather than writing from general knowledge):", limit, keep)
		r.call("search_standards", search)
	case "statement_code":
		search["mode"], search["query"] = "code_exact", q
		r.stepf("Look the statement code up exactly (codes can repeat: if several standards share it, treat each separately or ask which one is meant):")
		r.call("search_standards", search)
	default:
		key := selectorKeys[mode]
		r.stepf("Read the selected standard:")
		r.call("get_standard", with(route, "identifier", map[string]any{"identifierType": mode, key: q}))
	}
}

func with(route map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, x := range route {
		out[k] = x
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

var nodeSelector = map[string]any{"identifierType": "node_id", "nodeId": "{nodeId}"}

// componentStep asks for a standard's learning components, or says there are
// none.
func componentStep(r *renderer, p *Package, route map[string]any, extra string) {
	if !p.HasComponents {
		r.stepf("This package has no learning components: do not call get_learning_components_for_standard and do not invent a decomposition into sub-skills; work from the standard's own text.")
		return
	}
	r.stepf("Read the learning components of each retained standard%s. Use them as the package's generated decomposition instead of inventing sub-skills: label each %s with its supportConfidence, and flag a component that also supports a standard in another grade:", extra, labelGenerated)
	r.call("get_learning_components_for_standard", with(route, "identifier", nodeSelector))
}

// generationSteps are the steps of the three single-grade generation
// workflows.
func generationSteps(r *renderer, d *Def, v Values, p *Package, route map[string]any) {
	grades, _ := gradeLabels(p.Profile, []string{v.Str("grade_or_stage")})
	if len(grades) == 0 && v.Str("focus_mode") == "topic" {
		r.line("Note: %q is not a local grade label of this framework, so the search below has no grade filter; check each hit's facets.resolvedLocalGradeLabels against the grade named.", v.Str("grade_or_stage"))
	}
	focusSteps(r, v, p, route, grades, 10)
	r.stepf("Read the hierarchy context of each retained standard or topic (a topic's standards are its descendants); name where it sits from its root path and quote its description exactly %s:", labelSource)
	r.call("get_standard_context", with(route, "nodeId", "{nodeId}", "includeDescendants", true, "childDepth", 2))
	componentStep(r, p, route, "")
	if p.HasProgressions {
		r.stepf("Optional, for at most 3 standards: read their stored progression edges one link kind at a time (one page of 25 each), and open full provenance (provenanceUri) for at most 10 edges you rely on. If the evidence is sparse or unavailable, keep the output useful without it:")
		for _, k := range connectionKinds {
			r.call("get_standard_progressions", with(route, "identifier", nodeSelector, "connectionKind", k, "limit", 25))
		}
	} else {
		r.stepf("Stored learning progressions: none in this package. Do not infer prerequisites or sequences.")
	}
	r.stepf("Write the %s following the guidance and output rules below.", strings.ToLower(d.Title))
}

// multigradeSteps are the steps of multigrade_lesson_plan. The grades the
// framework knows are searched at once (one call: each hit names its
// grade); a grade it does not know gets a search of its own, unfiltered.
func multigradeSteps(r *renderer, v Values, p *Package, route map[string]any) {
	vg := Values{"topic_or_standard": v.Str("topic_or_standard"), "focus_mode": v.Str("focus_mode")}
	if vg["focus_mode"] != "topic" && vg["focus_mode"] != "statement_code" {
		vg["focus_mode"] = "topic"
		vg["topic_or_standard"] = "{key words of the selected standard}"
	}
	var known, unknown []string
	for _, g := range v.List("grades_in_room") {
		labels, _ := gradeLabels(p.Profile, []string{g})
		if len(labels) == 0 {
			unknown = append(unknown, g)
		}
		for _, l := range labels {
			if !slices.Contains(known, l) {
				known = append(known, l)
			}
		}
	}
	if len(known) > 0 {
		r.line("For %s, in one search (each hit names its grade):", strings.Join(quoted(known), ", "))
		focusStepsKeeping(r, vg, p, route, known, min(25, 10*len(known)), "keep at most 3 per grade")
	}
	for _, g := range unknown {
		r.line("Note: %q is not a local grade label of this framework; its search has no grade filter, so check each hit's facets.resolvedLocalGradeLabels.", g)
		r.line("For %q:", g)
		focusSteps(r, vg, p, route, nil, 10)
	}
	componentStep(r, p, route, " (every requested grade)")
	r.stepf("Compare supportedStandards across the grades: a component supporting standards in more than one requested grade is a candidate shared core; single-grade components are differentiated work. The shared core rests on a model's decomposition, not on curriculum-authored equivalence.")
	r.stepf("Write the lesson plan following the guidance and output rules below.")
}

// writeOutput writes the output rules.
func writeOutput(r *renderer, d *Def, v Values, p *Package) {
	lang := v.Str("output_language")
	if lang == "" {
		lang = strings.Join(p.Profile.LanguagePolicy.Languages, ", ")
	}
	r.bullet("Language: %s.", lang)
	r.bullet("Label every part: %s for package records (quoted or paraphrased, with node ID and code), %s for stored generated records, %s for everything you add.", labelSource, labelGenerated, labelNew)
	r.bullet("Cite the package once: %s, snapshot %s, with the attribution statement above.", p.Name, p.SnapshotID)
	r.bullet("State the required disclosures above in the output, in your own words where the language differs.")
	if lc := v.Str("local_context"); lc != "" {
		r.bullet("Local context given by the caller (adapt to it; it is not evidence): %s", lc)
	}
	if m := v.Str("available_materials"); m != "" {
		r.bullet("Available materials: %s", m)
	}
	if l := v.Str("learner_context"); l != "" {
		r.bullet("Learner context (the caller's report): %s", l)
	}
	if strings.HasPrefix(d.Name, "learning_progression_") {
		if !p.HasProgressions {
			r.bullet("Label every ordering or dependency you propose %s: the package stores no progression to back it.", labelInferred)
		}
		r.bullet("Keep visible every bound, warning, truncation, empty or partial result and rights denial the tools report.")
	}
}
