// Package prompt is the prompt library of the kgmcp surface
// (docs/reference/prompts.md): the nine prompts, their arguments and limits, and the rendering of one
// user message from accepted package facts and the package's optional
// framework-local guidance overlays (docs/reference/prompt-config-format.md).
// It never calls a model and never
// runs the evidence queries itself: a rendered message tells the host which
// tool calls to make, with single-line request templates, and how to label
// what it writes. It knows nothing of MCP, the catalog or the images: the
// caller (runtime/query) resolves the packages and hands their facts in.
//
// A template is a partial request, as runtime/query's request constructors
// take one: the fields the workflow sets (a default it wants the host to see
// included), placeholders such as {nodeId} where the host fills in a value.
// The request types live above this package, so templates are spelled here
// as JSON values; runtime/query's TestPromptTemplates answers every template
// of every prompt through its tool, which holds them to those types.
package prompt

// Version is the prompt library version every prompt is registered at.
const Version = "1.5.0"

// MaxRenderedBytes bounds a rendered message (the reference's
// MAX_RENDERED_PROMPT_BYTES); a larger one is prompt_rendering_error.
const MaxRenderedBytes = 64 << 10

// Kind is an argument's value type. MCP prompt arguments are strings; complex
// values are JSON strings.
type Kind int

// Argument kinds.
const (
	Text         Kind = iota // free text, non-whitespace
	Integer                  // a decimal integer in [Min, Max]
	Boolean                  // true or false
	Choice                   // one of Enum
	Framework                // a framework ID
	Snapshot                 // a snapshot ID
	Language                 // a language tag
	TextList                 // a JSON array of distinct strings
	SelectorArg              // a JSON standard-identifier selector object
	SelectorList             // a JSON array of selector objects
)

// Completion names what an argument's completions are drawn from.
type Completion string

// Completion sources.
const (
	CompleteNone      Completion = ""
	CompleteFramework Completion = "framework"
	CompleteSnapshot  Completion = "snapshot"
	CompleteGrade     Completion = "grade"
	CompleteLanguage  Completion = "language"
	CompleteChoice    Completion = "choice"
)

// Arg is one prompt argument.
type Arg struct {
	Name        string // snake_case, as MCP prompts take it
	Description string
	Required    bool
	Kind        Kind
	// Min and Max bound a Text's characters, an Integer's value or a list's
	// items; ItemMax bounds each item's characters.
	Min, Max, ItemMax int
	// Enum lists a Choice's values, or a TextList's allowed items.
	Enum []string
	// Default is the value a blank or absent optional argument takes ("" for
	// none).
	Default string
	// Codes allows statement_code selectors (curriculum review only).
	Codes bool
	// FrameworkArg names the argument whose framework a snapshot, grade or
	// label argument belongs to (for completion).
	FrameworkArg string
	Complete     Completion
}

// Def is one prompt.
type Def struct {
	Name, Title, Description string
	// Overlay is the prompt config's overlay key; Sections its guidance slots
	// in rendering order.
	Overlay  string
	Sections []string
	// Workflow reports whether get_workflow_instructions offers it.
	Workflow bool
	// Multi marks the multi-framework prompts.
	Multi bool
	Args  []Arg
}

// Arg returns the argument named name.
func (d *Def) Arg(name string) (*Arg, bool) {
	for i := range d.Args {
		if d.Args[i].Name == name {
			return &d.Args[i], true
		}
	}
	return nil, false
}

// Focus modes of topic_or_standard.
var focusModes = []string{"topic", "statement_code", "node_id", "case_identifier_uuid", "case_identifier_uri"}

func framework(name string, required bool, desc string) Arg {
	return Arg{Name: name, Required: required, Kind: Framework, Description: desc, Complete: CompleteFramework}
}

func snapshot(name, frameworkArg string) Arg {
	return Arg{Name: name, Kind: Snapshot, FrameworkArg: frameworkArg, Complete: CompleteSnapshot,
		Description: "pin this snapshot of the framework (default: its unique current snapshot)"}
}

func text(name string, required bool, min, max int, desc string) Arg {
	return Arg{Name: name, Required: required, Kind: Text, Min: min, Max: max, Description: desc}
}

func integer(name string, min, max int, def, desc string) Arg {
	return Arg{Name: name, Kind: Integer, Min: min, Max: max, Default: def, Description: desc}
}

func choice(name, def, desc string, values ...string) Arg {
	return Arg{Name: name, Kind: Choice, Enum: values, Default: def, Description: desc, Complete: CompleteChoice}
}

// list is a JSON-array argument: required when it needs items (min > 0),
// else empty by default.
func list(name string, min, max int, frameworkArg string, complete Completion, desc string) Arg {
	a := Arg{Name: name, Kind: TextList, Min: min, Max: max, ItemMax: 128, FrameworkArg: frameworkArg, Complete: complete, Description: desc,
		Required: min > 0}
	if min == 0 {
		a.Default = "[]"
	}
	return a
}

var (
	argFramework  = framework("framework_id", true, "the framework to work from")
	argSnapshot   = snapshot("snapshot_id", "framework_id")
	argGrade      = Arg{Name: "grade_or_stage", Required: true, Kind: Text, Min: 1, Max: 128, FrameworkArg: "framework_id", Complete: CompleteGrade, Description: "the local grade or stage label, as the framework writes it"}
	argTopic      = text("topic_or_standard", true, 1, 512, "a topic, or the standard's code or identifier (see focus_mode)")
	argFocus      = choice("focus_mode", "topic", "how to read topic_or_standard", focusModes...)
	argLocal      = text("local_context", false, 1, 4000, "the classroom or community context to adapt to")
	argMaterials  = text("available_materials", false, 1, 2000, "materials the teacher has")
	argLearners   = text("learner_context", false, 1, 2000, "what the teacher knows of the learners")
	argLanguage   = Arg{Name: "output_language", Kind: Language, Complete: CompleteLanguage, Description: "language tag of the output (default: the framework's language)"}
	argDuration   = integer("lesson_duration_minutes", 10, 240, "45", "lesson length in minutes")
	argLocalGrade = list("local_grade_labels", 0, 32, "framework_id", CompleteGrade, `JSON array of the framework's local grade labels, e.g. ["PRIMARY ONE"]`)
	argNormGrade  = list("normalized_grades", 0, 32, "framework_id", CompleteNone, `JSON array of normalized grades, e.g. ["1"]`)
	argMatches    = integer("matches_per_framework", 1, 10, "5", "matches kept per framework")
	argPaths      = Arg{Name: "include_context_paths", Kind: Boolean, Default: "true", Enum: []string{"true", "false"}, Complete: CompleteChoice, Description: "attach hierarchy paths to matches (true or false)"}
	argMode       = choice("search_mode", "text", "how to search topic_or_query", "text", "code_exact", "code_prefix")
	argQuery      = text("topic_or_query", true, 1, 512, "the topic, words or code to compare")
)

// Defs returns the nine prompts, in the contract's order.
func Defs() []Def {
	return []Def{
		{Name: "student_study_support", Title: "Student study support",
			Description: "Study support for one learner on one standard or topic: explanation, examples and practice grounded in the accepted package.",
			Overlay:     "studentStudySupport", Sections: []string{"audienceGuidance", "explanationGuidance", "exampleGuidance", "practiceGuidance"}, Workflow: true,
			Args: []Arg{argFramework, argGrade, argTopic,
				choice("difficulty", "on_level", "pitch of the practice", "on_level", "foundational", "extension"),
				argFocus, argLocal, argLanguage, integer("practice_count", 1, 10, "5", "number of practice items"), argSnapshot}},
		{Name: "teacher_guide_draft", Title: "Teacher guide draft",
			Description: "A teacher guide draft for one standard or topic: lesson structure, pedagogy, differentiation and assessment, grounded in the accepted package.",
			Overlay:     "teacherGuideDraft", Sections: []string{"lessonStructureGuidance", "pedagogyGuidance", "differentiationGuidance", "assessmentGuidance"}, Workflow: true,
			Args: []Arg{argFramework, argGrade, argTopic, argMaterials, argFocus, argLearners, argDuration, argLocal, argLanguage, argSnapshot}},
		{Name: "student_handbook_section", Title: "Student handbook section",
			Description: "A student handbook section for one standard or topic, grounded in the accepted package.",
			Overlay:     "studentHandbookSection", Sections: []string{"audienceGuidance", "sectionStructureGuidance", "explanationGuidance", "exampleGuidance"}, Workflow: true,
			Args: []Arg{argFramework, argGrade, argTopic, argFocus, argLocal, argLanguage, argSnapshot,
				integer("target_word_count", 150, 1500, "500", "approximate length in words")}},
		{Name: "multigrade_lesson_plan", Title: "Multigrade lesson plan (experimental)",
			Description: "One lesson for a room of several grades: a shared core from learning components that support standards in more than one grade, and differentiated work per grade.",
			Overlay:     "multigradeLessonPlan", Sections: []string{"sharedCoreGuidance", "differentiationGuidance", "classroomManagementGuidance"}, Workflow: true,
			Args: []Arg{argFramework, list("grades_in_room", 2, 8, "framework_id", CompleteGrade, `JSON array of 2–8 distinct local grade labels, e.g. ["PRIMARY ONE","PRIMARY TWO"]`),
				argTopic, argFocus, argLearners, argDuration, argLocal, argLanguage, argSnapshot}},
		{Name: "learning_progression_teaching_sequence", Title: "Teaching sequence from stored progressions",
			Description: "A teaching sequence built on the package's stored buildsTowards/relatesTo edges around a topic or standard.",
			Overlay:     "learningProgressionTeachingSequence", Sections: []string{"evidenceGuidance", "sequencePresentationGuidance", "pedagogyGuidance"}, Workflow: true,
			Args: []Arg{argFramework, argTopic, argFocus, argLocalGrade, argNormGrade, argSnapshot, argLocal, argLanguage}},
		{Name: "learning_progression_support_plan", Title: "Support plan from stored progressions",
			Description: "Review, practice and next-step options for one standard from the stored progressions upstream and around it.",
			Overlay:     "learningProgressionSupportPlan", Sections: []string{"evidenceGuidance", "supportGuidance", "practiceGuidance"}, Workflow: true,
			Args: []Arg{argFramework, {Name: "identifier", Required: true, Kind: SelectorArg, Max: 512,
				Description: `JSON selector of the standard: {"identifierType":"node_id","nodeId":"…"}, case_identifier_uuid or case_identifier_uri (resolve codes with search first)`},
				argSnapshot, argLocal, argLanguage}},
		{Name: "learning_progression_curriculum_review", Title: "Curriculum review of stored progressions",
			Description: "A coverage and review-question report over the package's stored progressions, for a reviewer.",
			Overlay:     "learningProgressionCurriculumReview", Sections: []string{"evidenceGuidance", "coverageGuidance", "reviewQuestionGuidance"}, Workflow: true,
			Args: []Arg{argFramework, {Name: "standard_identifiers", Kind: SelectorList, Max: 20, Codes: true, Default: "[]",
				Description: `JSON array of up to 20 selectors (node_id, case_identifier_uuid, case_identifier_uri, or statement_code where the profile allows)`},
				argLocalGrade, argNormGrade,
				list("statement_types", 0, 32, "framework_id", CompleteNone, "JSON array of source statement types"),
				list("normalized_statement_types", 0, 32, "", CompleteNone, `JSON array of normalized statement types ("Standard", "Standard Grouping")`),
				{Name: "relationship_types", Kind: TextList, Max: 2, ItemMax: 32, Enum: []string{"buildsTowards", "relatesTo"}, Default: "[]",
					Description: `JSON array of the link types to review, "buildsTowards" and/or "relatesTo" (default: both, each read separately)`},
				choice("endpoint_scope", "either", "which edge endpoint the filters apply to", "either", "both", "source", "target"),
				argSnapshot, argLanguage, argLocal}},
		{Name: "administrator_alignment_review", Title: "Administrator alignment review",
			Description: "Candidate alignment evidence between a source and a target framework for an administrator: an evidence matrix, risks and review questions, never an official alignment.",
			Overlay:     "administratorAlignmentReview", Sections: []string{"evidenceMatrixGuidance", "riskFramingGuidance", "governanceGuidance", "reviewQuestionGuidance"}, Multi: true,
			Args: []Arg{framework("source_framework_id", true, "the framework to align from"), framework("target_framework_id", true, "the framework to align to"), argQuery,
				argPaths, argLocal, argMatches, argLanguage, argMode,
				{Name: "source_grade_or_stage", Kind: Text, Min: 1, Max: 128, FrameworkArg: "source_framework_id", Complete: CompleteGrade, Description: "limit the source to this local grade or stage"},
				snapshot("source_snapshot_id", "source_framework_id"),
				{Name: "target_grade_or_stage", Kind: Text, Min: 1, Max: 128, FrameworkArg: "target_framework_id", Complete: CompleteGrade, Description: "limit the target to this local grade or stage"},
				snapshot("target_snapshot_id", "target_framework_id")}},
		{Name: "cross_framework_comparison", Title: "Cross-framework comparison",
			Description: "A side-by-side comparison of how 2–8 frameworks treat a topic, from independent package-local evidence.",
			Overlay:     "crossFrameworkComparison", Sections: []string{"comparisonDimensionGuidance", "terminologyGuidance", "uncertaintyGuidance", "synthesisGuidance"}, Multi: true,
			Args: []Arg{list("framework_ids", 2, 8, "", CompleteFramework, `JSON array of 2–8 distinct framework IDs`), argQuery,
				argPaths, argLocal, list("local_grade_labels", 0, 64, "", CompleteGrade, `JSON array of local grade labels`), argMatches,
				list("normalized_grades", 0, 64, "", CompleteNone, `JSON array of normalized grades`), argLanguage, argMode,
				{Name: "snapshot_ids", Kind: TextList, Max: 8, ItemMax: 280, Complete: CompleteSnapshot, Default: "[]", Description: "JSON array of snapshot IDs to pin, at most one per framework"}}},
	}
}

// Lookup returns the prompt named name.
func Lookup(name string) (*Def, bool) {
	for _, d := range Defs() {
		if d.Name == name {
			return &d, true
		}
	}
	return nil, false
}
