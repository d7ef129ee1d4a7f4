package main

import (
	"fmt"
	"strings"

	"github.com/kgc-project/kgc/runtime/prompt"
	"github.com/kgc-project/kgc/runtime/query"
)

// commonPromptErrors can answer any prompt: routing, rights, the embedded
// prompt config, the size of the message, and failures of the server.
var commonPromptErrors = []string{"ambiguous_framework", "catalog_error", "framework_not_found", "internal_error",
	"prompt_access_denied", "prompt_configuration_error", "prompt_rendering_error"}

// promptErrors are the further domain codes a prompt can answer (read from
// runtime/prompt's checkSingle and runtime/query's promptPackages).
var promptErrors = map[string][]string{
	"administrator_alignment_review": {"invalid_comparison_selection"},
	"cross_framework_comparison":     {"invalid_comparison_selection"},
	"multigrade_lesson_plan":         {"capability_unavailable"},
}

// promptErrorCodes is every domain code prompt d can answer, sorted: a focus
// mode or statement-code selectors can be capability_unavailable too.
func promptErrorCodes(d prompt.Def) []string {
	out := append(append([]string(nil), commonPromptErrors...), promptErrors[d.Name]...)
	for _, a := range d.Args {
		if (a.Name == "focus_mode" || a.Codes) && !contains(out, "capability_unavailable") {
			out = append(out, "capability_unavailable")
		}
	}
	return sortedCopy(out)
}

func sortedCopy(list []string) []string {
	m := map[string]bool{}
	for _, s := range list {
		m[s] = true
	}
	return sortedKeys(m)
}

// argType names an argument's kind as the caller writes it.
func argType(a prompt.Arg) string {
	switch a.Kind {
	case prompt.Text:
		return "text"
	case prompt.Integer:
		return "integer"
	case prompt.Boolean:
		return "boolean"
	case prompt.Choice:
		return "choice"
	case prompt.Framework:
		return "framework ID"
	case prompt.Snapshot:
		return "snapshot ID"
	case prompt.Language:
		return "language tag"
	case prompt.TextList:
		return "JSON array of strings"
	case prompt.SelectorArg:
		return "JSON selector object"
	case prompt.SelectorList:
		return "JSON array of selector objects"
	}
	return "unknown"
}

// argBounds says what an argument's value must be, in the terms of
// prompt.Arg.Parse and schema/ids.
func argBounds(a prompt.Arg) string {
	switch a.Kind {
	case prompt.Text:
		return fmt.Sprintf("%d–%d characters, not blank", a.Min, a.Max)
	case prompt.Integer:
		return fmt.Sprintf("%d–%d", a.Min, a.Max)
	case prompt.Boolean:
		return "`true` or `false`"
	case prompt.Choice:
		return "one of " + codes(a.Enum)
	case prompt.Framework:
		return "3–200 characters of lowercase kebab case"
	case prompt.Snapshot:
		return "18–280 characters: `<framework>@<version>+<12 hex>`"
	case prompt.Language:
		return "2–64 characters, such as `en` or `pt-BR`"
	case prompt.TextList:
		n := fmt.Sprintf("%d–%d items", a.Min, a.Max)
		if a.Min == 0 {
			n = fmt.Sprintf("at most %d items", a.Max)
		}
		s := fmt.Sprintf("%s, each 1–%d characters, no item repeated", n, a.ItemMax)
		if len(a.Enum) > 0 {
			s += "; each one of " + codes(a.Enum)
		}
		return s
	case prompt.SelectorArg:
		return "`identifierType` `node_id`, `case_identifier_uuid` or `case_identifier_uri` and its value (at most 512 characters)"
	case prompt.SelectorList:
		s := fmt.Sprintf("at most %d selectors, none repeated; `identifierType` `node_id`, `case_identifier_uuid`, `case_identifier_uri`", a.Max)
		if a.Codes {
			s += " or `statement_code` (where the profile has code search)"
		}
		return s + "; values at most 512 characters"
	}
	return ""
}

// argCompletion says where completion/complete draws an argument's values.
func argCompletion(a prompt.Arg) string {
	switch a.Complete {
	case prompt.CompleteFramework:
		if a.Kind == prompt.Framework {
			return "served framework IDs"
		}
	case prompt.CompleteSnapshot:
		if a.Kind == prompt.Snapshot {
			return "snapshots of " + code(a.FrameworkArg)
		}
	case prompt.CompleteGrade:
		if a.Kind == prompt.Text {
			return "grade labels of " + code(a.FrameworkArg)
		}
	case prompt.CompleteLanguage:
		return "catalog and common languages"
	case prompt.CompleteChoice:
		return "its values"
	}
	return "—"
}

// promptExample is the first successful prompts/get transcript of a prompt.
func promptExample(trs []*transcript, name string) *transcript {
	for _, tr := range trs {
		if tr.method == "prompts/get" && tr.name == name && tr.ok() && len(tr.res.Result.Messages) > 0 {
			return tr
		}
	}
	return nil
}

func promptsPage(trs []*transcript) ([]byte, error) {
	p := newPage("Prompts")
	defs := prompt.Defs()
	p.para("kgmcp serves %d prompts, all at prompt library version `%s`. A prompt never calls a model and never runs a query: it "+
		"renders one user message that tells the host which tool calls to make (with the exact requests), what the package's rights "+
		"require, and how to label what it writes. This page is generated from the prompt table of `runtime/prompt` (`prompt.Defs`) and "+
		"from the golden transcripts in `%s`.", len(defs), prompt.Version, transcriptDir)

	p.line("## Getting a prompt")
	p.line("")
	p.line("- `prompts/get` takes the prompt's `name` and `arguments`, an object of strings (MCP prompt arguments are strings). Lists " +
		"and selectors are JSON written into the string: `\"grades_in_room\": \"[\\\"GRADE ONE\\\",\\\"GRADE TWO\\\"]\"`.")
	p.line("- An unknown argument or a missing required one is an input error. A blank optional argument counts as absent and takes " +
		"its default. Text is counted in characters (Unicode code points); it must not be blank and must not hold control characters " +
		"(other than tab and line breaks), bidirectional controls or noncharacters. List items are compared after normalisation " +
		"(case and spacing), so `\"Grade One\"` repeats `\"GRADE ONE\"`.")
	p.line("- The items of `local_grade_labels`, `normalized_grades` and `statement_types` must also be values (or aliases) of the " +
		"package's interpretation profile ([profile-format.md](profile-format.md)), and `normalized_statement_types` items `Standard` or " +
		"`Standard Grouping`; anything else is an input error naming the argument.")
	p.line("- The answer is one message (`role: user`) and `_meta`: `promptVersion`, `promptConfig` (the identity and SHA-256 of the " +
		"package's prompt config, and whether an overlay was applied) and `metadata` (the package identity, `generatedContent: true`, " +
		"`epistemicStatus: llm_inferred`; for a multi-framework prompt, one context per framework).")
	p.line(fmt.Sprintf("- A rendered message is at most %d KiB (`prompt_rendering_error` beyond). A package whose rights do not allow "+
		"generated derivatives renders no prompt (`prompt_access_denied`).", prompt.MaxRenderedBytes>>10))
	p.line("- The guidance sections of each prompt come from the package's prompt config, when the package has one " +
		"([prompt-config-format.md](prompt-config-format.md)); the prompt's own text always stays.")
	p.line("- Errors are JSON-RPC errors -32602 whose message is the error text (`Input validation error: <argument>: <what>` or " +
		"`<code>: <message>`); see [errors.md](errors.md).")
	p.line(fmt.Sprintf("- `completion/complete` offers values for the arguments whose *completion* column says so (at most %d, "+
		"those starting with the typed text first); JSON arguments get none.", query.MaxCompletions))
	p.line("- The prompts marked *workflow* are also offered by the tool `get_workflow_instructions`, for hosts without prompts: the " +
		"same arguments in camelCase (`framework_id` → `frameworkId`) with lists and selectors as real JSON, answering the same message " +
		"bytes ([tools.md](tools.md#get_workflow_instructions)).")
	p.line("")

	var rows [][]string
	for _, d := range defs {
		scope, wf := "one framework", "yes"
		if d.Multi {
			scope = "several frameworks"
		}
		if !d.Workflow {
			wf = "no"
		}
		rows = append(rows, []string{"[" + code(d.Name) + "](" + anchor(d.Name) + ")", d.Title, scope, wf})
	}
	p.table([]string{"prompt", "title", "over", "workflow"}, rows)

	for _, d := range defs {
		if err := promptSection(p, d, trs); err != nil {
			return nil, fmt.Errorf("prompt %s: %w", d.Name, err)
		}
	}
	return p.Bytes(), nil
}

func promptSection(p *page, d prompt.Def, trs []*transcript) error {
	p.linef("## %s", d.Name)
	p.line("")
	p.para("**%s.** %s", d.Title, d.Description)
	p.line("### Arguments")
	p.line("")
	var rows [][]string
	for _, a := range d.Args {
		req, def := "no", "—"
		if a.Required {
			req = "yes"
		}
		if a.Default != "" {
			def = code(a.Default)
		}
		rows = append(rows, []string{code(a.Name), argType(a), req, def, argBounds(a), argCompletion(a), a.Description})
	}
	p.table([]string{"argument", "type", "required", "default", "bounds", "completion", "description"}, rows)
	p.para("Guidance sections, in rendering order, from the prompt config's overlay %s: %s.", code(d.Overlay), codes(d.Sections))

	p.line("### Errors")
	p.line("")
	var links []string
	for _, c := range promptErrorCodes(d) {
		links = append(links, "["+code(c)+"](errors.md#"+c+")")
	}
	p.para("Besides [%s](errors.md#input-validation-error): %s.", inputValidation, strings.Join(links, ", "))
	var seen []*transcript
	for _, tr := range trs {
		if tr.method == "prompts/get" && tr.name == d.Name && tr.errorText() != "" {
			seen = append(seen, tr)
		}
	}
	if len(seen) > 0 {
		p.para("In the golden transcripts:")
		for _, tr := range seen {
			p.linef("- [%s](../../%s/%s): %s", tr.file, transcriptDir, tr.file, code(cutText(tr.errorText(), 240)))
		}
		p.line("")
	}

	p.line("### Example")
	p.line("")
	tr := promptExample(trs, d.Name)
	if tr == nil {
		p.para("No golden transcript renders this prompt yet.")
		return nil
	}
	if tr.comment != "" {
		p.para("From [%s](../../%s/%s): %s Arguments:", tr.file, transcriptDir, tr.file, strings.TrimSpace(tr.comment))
	} else {
		p.para("From [%s](../../%s/%s). Arguments:", tr.file, transcriptDir, tr.file)
	}
	p.fence("json", compactJSON(tr.args))
	msg := tr.res.Result.Messages[0].Content.Text
	intro, outline, steps := messageParts(msg)
	p.para("The message opens with:")
	p.fence("markdown", intro)
	p.para("Its sections: %s. The `STEPS` section, the tool calls the host is asked to make (lines cut at %d characters):",
		strings.Join(outline, ", "), maxMessageLine)
	p.fence("markdown", steps)
	return nil
}

// maxMessageLine is where an example message's long lines are cut.
const maxMessageLine = 400

// messageParts splits a rendered message for the page: the lines before its
// first section, the section titles, and the STEPS section.
func messageParts(msg string) (intro string, outline []string, steps string) {
	var head, body []string
	in, seen := false, false
	for _, l := range strings.Split(strings.TrimRight(msg, "\n"), "\n") {
		if strings.HasPrefix(l, "## ") {
			seen = true
			title := strings.TrimPrefix(l, "## ")
			outline = append(outline, code(title))
			in = title == "STEPS"
		}
		switch {
		case !seen:
			head = append(head, cutText(l, maxMessageLine))
		case in:
			body = append(body, cutText(l, maxMessageLine))
		}
	}
	return strings.TrimSpace(strings.Join(head, "\n")), outline, strings.Join(body, "\n")
}
