package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/runtime/query"
)

// tools returns the served tools, in registration order.
func tools() []query.Tool { return query.Tools() }

// toolErrorCodes is every domain code a tool can answer, sorted.
func toolErrorCodes(name string) []string {
	out := append(append([]string(nil), commonToolErrors...), toolErrors[name]...)
	sort.Strings(out)
	return out
}

// toolExample picks the transcript that shows a tool: the one named after it,
// or its entry in exampleFile.
func toolExample(trs []*transcript, name string) *transcript {
	want := strings.ReplaceAll(name, "_", "-") + ".txtar"
	if f, ok := exampleFile[name]; ok {
		want = f
	}
	for _, tr := range trs {
		if tr.file == want && tr.method == "tools/call" && tr.name == name && tr.ok() {
			return tr
		}
	}
	return nil
}

// toolErrorsSeen are the error transcripts of a tool.
func toolErrorsSeen(trs []*transcript, name string) []*transcript {
	var out []*transcript
	for _, tr := range trs {
		if tr.method == "tools/call" && tr.name == name && tr.errorText() != "" {
			out = append(out, tr)
		}
	}
	return out
}

func toolsPage(trs []*transcript) ([]byte, error) {
	p := newPage("Tools")
	ts := tools()
	p.para("kgmcp serves %d tools. Every one is read-only and idempotent, and answers from the verified images only. This page is generated "+
		"from the tool table of `runtime/query` (names, titles, descriptions and the validating request schemas), from the Go type of each "+
		"result (`query.OutputSchema`), and from the golden transcripts in `%s`, which `cmd/kgmcp`'s tests replay byte for byte.", len(ts), transcriptDir)
	p.line("## Calling a tool")
	p.line("")
	p.line("- Arguments are one object holding `request`: `{\"request\": {...}}`. Where every field of the request is optional, absent " +
		"arguments (or `{}`) are the empty request, defaults and all. `compare_framework_evidence` also takes the request's fields as the " +
		"arguments themselves; every other tool refuses that form with an input error that shows the wrapped call.")
	p.line("- Validation is strict and happens before the handler runs: unknown and repeated fields, wrong JSON types (an integer must be " +
		"an integer literal: no fraction, no exponent, no string), values outside their bounds, enum or pattern, and repeated list items " +
		"are refused with `Input validation error: <path>: <what>` (see [errors.md](errors.md#input-validation-error)). Lengths count " +
		"characters (Unicode code points), not bytes.")
	p.line("- The tables below list the *validating* schema. The schema published in `tools/list` is derived from it but lighter: patterns, " +
		"a minimum length of 1, \"no repeated item\", an empty list's default and list bounds of 32 or more are enforced without being " +
		"published; identifier fields publish only their type; fields marked *not published* are accepted but left out; and discriminated " +
		"alternatives (`oneOf` by `mode`, `identifierType`, `matchMode`, `workflowName`) are published flattened into one object whose " +
		"descriptions say which alternative takes which field. The server still validates against the exact alternatives, as listed here.")
	p.line("- A result is returned twice: as `structuredContent` (the complete typed result, described under *Result*) and as a text block. " +
		"The text is either readable text written for the model (`runtime/textview`) or the canonical JSON of the result; each tool's " +
		"example says which. Results that cite records add `resource_link` blocks for clients of protocol 2025-06-18 or later.")
	p.line("- Every result is held to 1 MiB of envelope (the JSON counted twice: text and structured copy). Lists are cut before the element " +
		"that would break it and the cut is marked (`truncationReason: \"byte_limit\"`); a result with nothing left to cut is `result_too_large` " +
		"(the progression tools: `progression_result_too_large`).")
	p.line("- Domain errors come back as a tool result with `isError: true` whose text is `<code>: <message>` or `<code>: <message>. Next " +
		"action: <hint>.`; every code is explained in [errors.md](errors.md).")
	p.line("")
	var rows [][]string
	for _, t := range ts {
		rows = append(rows, []string{"[" + code(t.Name) + "](" + anchor(t.Name) + ")", t.Title})
	}
	p.table([]string{"tool", "title"}, rows)
	for _, t := range ts {
		if err := toolSection(p, t, trs); err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
	}
	return p.Bytes(), nil
}

func toolSection(p *page, t query.Tool, trs []*transcript) error {
	p.linef("## %s", t.Name)
	p.line("")
	p.para("**%s.** %s", t.Title, t.Description)
	switch {
	case t.Request == nil:
		p.para("Arguments: none (`{}`); an unknown argument is an input error.")
	case t.RequestRequired && t.Flat:
		p.para("Arguments: `{\"request\": {...}}` (required), or the request's fields as the arguments themselves.")
	case t.RequestRequired:
		p.para("Arguments: `{\"request\": {...}}`; `request` is required.")
	default:
		p.para("Arguments: `{\"request\": {...}}`; `request` may be left out (it is then the empty request).")
	}
	if t.Request != nil {
		p.line("### Request")
		p.line("")
		requestTables(p, t.Request)
	}
	p.line("### Result")
	p.line("")
	p.para("`structuredContent` fields (a field *when set* is left out when empty; a type `X or null` may be `null`):")
	p.table(resultHead, resultRows(query.OutputSchema(t.ResultType())))
	p.line("### Errors")
	p.line("")
	var links []string
	for _, c := range toolErrorCodes(t.Name) {
		links = append(links, "["+code(c)+"](errors.md#"+c+")")
	}
	p.para("Besides [%s](errors.md#input-validation-error): %s.", inputValidation, strings.Join(links, ", "))
	if seen := toolErrorsSeen(trs, t.Name); len(seen) > 0 {
		p.para("In the golden transcripts:")
		for _, tr := range seen {
			p.linef("- [%s](../../%s/%s): %s", tr.file, transcriptDir, tr.file, code(cutText(tr.errorText(), 240)))
		}
		p.line("")
	}
	p.line("### Example")
	p.line("")
	tr := toolExample(trs, t.Name)
	if tr == nil {
		return fmt.Errorf("no successful sample transcript (name it %s.txtar or list it in exampleFile)", strings.ReplaceAll(t.Name, "_", "-"))
	}
	p.para("From [%s](../../%s/%s). Arguments:", tr.file, transcriptDir, tr.file)
	p.fence("json", compactJSON(tr.args))
	if tr.text != "" {
		p.para("The text block (readable text, exactly as the model reads it; long answers cut here):")
		p.fence("text", cutLines(strings.TrimRight(tr.text, "\n"), 40))
		return nil
	}
	p.para("The text block is the result's canonical JSON; trimmed here (strings cut at %d characters, lists to their first item, depth %d):", maxString, maxDepth)
	j, err := trimmedJSON([]byte(tr.firstText()), 80)
	if err != nil {
		return fmt.Errorf("%s: the text block is not JSON: %w", tr.file, err)
	}
	p.fence("json", j)
	return nil
}

// requestTables writes the fields of a request: one table, or for a request
// of many alternatives, one table per alternative.
func requestTables(p *page, s *query.Schema) {
	if len(s.OneOf) <= 4 {
		rows := fieldRows("", s)
		if len(s.OneOf) > 0 {
			rows = branchRows("", s)
		}
		p.table(fieldHead, rows)
		return
	}
	p.para("`%s` picks one of %d alternatives; each takes its own fields:", s.Discriminator, len(s.OneOf))
	for _, alt := range s.OneOf {
		v := alt.Properties[s.Discriminator].Const
		p.para("**%s `%s`**", s.Discriminator, v)
		c := *alt
		c.Properties = map[string]*query.Schema{}
		for k, x := range alt.Properties {
			if k != s.Discriminator {
				c.Properties[k] = x
			}
		}
		p.table(fieldHead, fieldRows("", &c))
	}
}

// cutText shortens one line of text.
func cutText(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
