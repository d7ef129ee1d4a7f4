package prompt

import (
	"github.com/kgc-project/kgc/schema/promptcfg"
)

// labels are the headings of the guidance slots; slots with the same label
// merge under one heading.
var labels = map[string]string{
	"languageGuidance": "Language", "localContextGuidance": "Local context", "outputGuidance": "Output",
	"terminologyGuidance": "Terminology", "warningGuidance": "Warnings",
	"audienceGuidance": "Audience", "exampleGuidance": "Examples", "explanationGuidance": "Explanation", "practiceGuidance": "Practice",
	"assessmentGuidance": "Assessment", "differentiationGuidance": "Differentiation", "lessonStructureGuidance": "Lesson structure",
	"pedagogyGuidance": "Pedagogy", "sectionStructureGuidance": "Section structure", "classroomManagementGuidance": "Classroom management",
	"sharedCoreGuidance": "Shared core", "evidenceGuidance": "Evidence", "sequencePresentationGuidance": "Sequence presentation",
	"supportGuidance": "Support", "coverageGuidance": "Coverage", "reviewQuestionGuidance": "Review questions",
	"evidenceMatrixGuidance": "Evidence matrix", "governanceGuidance": "Governance", "riskFramingGuidance": "Risk framing",
	"comparisonDimensionGuidance": "Comparison dimensions", "synthesisGuidance": "Synthesis", "uncertaintyGuidance": "Uncertainty",
}

// sharedOrder is the order of the shared slots after a prompt's own.
var sharedOrder = []string{"terminologyGuidance", "languageGuidance", "localContextGuidance", "warningGuidance", "outputGuidance"}

// generic is the library's own soft guidance, by slot; a prompt-specific
// entry ("<prompt>/<slot>") wins over the slot's common one.
var generic = map[string][]string{
	"terminologyGuidance": {
		"Keep the framework's own terms for grades, stages, strands and statement types, as the package context lists them.",
		"Quote statement codes and identifiers exactly; never invent a code for an uncoded item."},
	"languageGuidance": {
		"Write in the requested output language; keep quoted source text in the language it was published in.",
		"Use plain words a reader of the named grade or role can follow."},
	"localContextGuidance": {
		"Adapt examples to the local context given, without inventing local facts, prices, statistics or regulations.",
		"When no local context is given, use neutral everyday settings any classroom can reach."},
	"warningGuidance": {
		"Say plainly when the evidence is thin, missing, withheld by rights or cut short by a bound.",
		"Never present generated material as official curriculum text."},
	"outputGuidance": {
		"Cite every standard you use by node ID and, where it has one, statement code.",
		"Label each part: [SOURCE-EVIDENCE] for quoted or paraphrased package records, [GENERATED-EVIDENCE / llm_inferred] for stored generated records (learning components, progression edges), [GENERATED] for what you write."},
	"audienceGuidance": {
		"Write for the learner named by the grade or stage: short sentences, one idea at a time, encouraging tone.",
		"Assume nothing about the learner's prior attainment, home resources or access to technology."},
	"explanationGuidance": {
		"Start from what the standard asks the learner to do, then explain the idea behind it in small steps.",
		"Move from concrete objects or situations to pictures, then to symbols or formal language, where the standard allows."},
	"exampleGuidance": {
		"Use examples that stay inside the standard's scope (number ranges, text types, units) for the named grade.",
		"Label every invented scenario, number set or worked example as generated."},
	"practiceGuidance": {
		"Give the requested number of practice items, ordered from easier to harder within the standard's scope.",
		"Add a short answer or checking hint for each item; completing items does not prove mastery."},
	"student_study_support/practiceGuidance": {
		"Give exactly practice_count items at the requested difficulty: foundational simplifies representation inside the standard, extension varies context or reasoning without importing later-grade content.",
		"Add a short answer or checking hint for each item; completing items does not prove mastery."},
	"lessonStructureGuidance": {
		"Fit the lesson to lesson_duration_minutes: opening, guided work, independent work and a short closing check, with minutes for each.",
		"State the source expectation at the start of the guide, quoted from the standard."},
	"pedagogyGuidance": {
		"Choose activities that make the standard's action visible (learners do, say, draw or write something that shows it).",
		"Use the available materials given; do not require materials the teacher did not name."},
	"differentiationGuidance": {
		"Offer support for learners who need more time and a stretch for those ready for more, both inside the standard's scope.",
		"Use the learner context given; never label or rank individual learners."},
	"assessmentGuidance": {
		"Suggest quick checks of understanding tied to the standard's wording; they inform teaching, they do not certify mastery."},
	"sectionStructureGuidance": {
		"Use a learner-friendly structure: what you will learn, explanation, worked example, try it, check yourself, summary.",
		"Keep to about target_word_count words."},
	"sharedCoreGuidance": {
		"A component that supports standards in more than one requested grade is a candidate shared core; say it rests on a model's decomposition, not on curriculum-authored equivalence.",
		"Components that support only one requested grade become that grade's differentiated work."},
	"classroomManagementGuidance": {
		"Plan who works with the teacher and who works independently at each stage, with clear, short instructions per grade group."},
	"evidenceGuidance": {
		"Keep four tiers apart: source standards, generated learning components, stored generated progression edges, and your new pedagogy.",
		"A stored buildsTowards edge is generated evidence with a confidence, not an official prerequisite; relatesTo is not a sequence.",
		"Open full provenance for at most ten edges in this workflow; cite the relationship IDs you used."},
	"sequencePresentationGuidance": {
		"Present the sequence as stored builds first, then non-sequential related links, then your generated ordering choices, each labelled.",
		"Where the stored edges leave gaps, say so; do not fill them with invented prerequisites."},
	"supportGuidance": {
		"Treat observations of the learner as the caller's report; suggestions are generated pedagogy, never a diagnosis of mastery.",
		"Offer alternative next steps where the stored edges branch."},
	"coverageGuidance": {
		"Keep package totals (statistics, the LP summary) separate from the reviewed subset.",
		"Report coverage and gaps as observations about stored edges, never as curriculum omissions."},
	"reviewQuestionGuidance": {
		"Turn warnings, low-confidence edges and unresolved items into concrete review questions for a curriculum reviewer.",
		"Do not certify the package and do not assert edges across frameworks."},
	"evidenceMatrixGuidance": {
		"Lay matches out as a matrix: source standard, candidate target standards, the evidence that links them (text, code, grade, hierarchy), and its strength.",
		"Every row is a retrieval candidate; none is an official alignment."},
	"riskFramingGuidance": {
		"Name the risks of acting on the candidates: grade facets that are not equivalence, partial hierarchy context, unresolved source items."},
	"governanceGuidance": {
		"Decisions belong to the people accountable for each framework; the review informs them and cites both packages' rights and attribution."},
	"comparisonDimensionGuidance": {
		"Compare along each package's own comparison dimensions and hierarchy, not a common scale the frameworks do not share."},
	"uncertaintyGuidance": {
		"Say where a framework had no matches, could not serve the search mode, or had incomplete context; absence of matches is not absence from the curriculum."},
	"synthesisGuidance": {
		"End with a short synthesis of similarities and differences, labelled as model-inferred, with the evidence rows it rests on."},
}

// slot is one guidance heading with its instructions.
type slot struct {
	label string
	lines []string
}

// guidance merges the library's generic guidance for a prompt's slots with a
// framework config's shared blocks and the prompt's overlay (append adds,
// replace substitutes), merging slots that share a label. withGeneric false
// renders only what the config adds or replaces (framework sections of a
// multi-framework prompt).
func guidance(d *Def, cfg *promptcfg.Config, withGeneric bool) (slots []slot, applied bool) {
	keys := append(append([]string{}, d.Sections...), sharedOrder...)
	byLabel := map[string]int{}
	for i, key := range keys {
		var lines []string
		if withGeneric {
			lines = generic[d.Name+"/"+key]
			if lines == nil {
				lines = generic[key]
			}
		}
		var block *promptcfg.Block
		if cfg != nil {
			if i < len(d.Sections) {
				if b, ok := cfg.Prompts[d.Overlay][key]; ok {
					block = &b
				}
			} else if b, ok := cfg.Shared[key]; ok {
				block = &b
			}
		}
		if block != nil && len(block.Instructions) > 0 {
			applied = true
			if block.Mode == "replace" {
				lines = nil
				if !withGeneric {
					lines = []string{"(replaces the shared guidance of this slot for this framework)"}
				}
			}
			lines = append(append([]string{}, lines...), block.Instructions...)
		}
		if len(lines) == 0 {
			continue
		}
		label := labels[key]
		if j, ok := byLabel[label]; ok {
			for _, l := range lines {
				if !containsLine(slots[j].lines, l) {
					slots[j].lines = append(slots[j].lines, l)
				}
			}
			continue
		}
		byLabel[label] = len(slots)
		slots = append(slots, slot{label: label, lines: lines})
	}
	return slots, applied
}

func containsLine(lines []string, l string) bool {
	for _, x := range lines {
		if x == l {
			return true
		}
	}
	return false
}
