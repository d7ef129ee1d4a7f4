package main

import (
	"fmt"
	"strings"
)

// resultHead is the header of a result-field table.
var resultHead = []string{"field", "type", "present"}

// resultRows lists the top-level fields of a tool's output schema
// (query.OutputSchema of its result type) and, for a field holding an object
// or a list of objects, that object's own fields.
func resultRows(schema map[string]any) [][]string {
	defs, _ := schema["$defs"].(map[string]any)
	var rows [][]string
	for _, f := range objectFields(schema) {
		rows = append(rows, []string{code(f.name), outType(f.schema), presence(f.required)})
		refs, list := refsOf(f.schema)
		prefix := f.name + "."
		if list {
			prefix = f.name + "[]."
		}
		for _, def := range refs {
			sub, _ := defs[def].(map[string]any)
			for _, g := range objectFields(sub) {
				present := presence(g.required)
				if len(refs) > 1 {
					present += " (as " + def + ")"
				}
				rows = append(rows, []string{code(prefix + g.name), outType(g.schema), present})
			}
		}
	}
	return rows
}

type outField struct {
	name     string
	schema   map[string]any
	required bool
}

func objectFields(obj map[string]any) []outField {
	props, _ := obj["properties"].(map[string]any)
	var req []string
	if r, ok := obj["required"].([]string); ok {
		req = r
	}
	var out []outField
	for _, name := range sortedKeys(props) {
		s, _ := props[name].(map[string]any)
		out = append(out, outField{name: name, schema: s, required: contains(req, name)})
	}
	return out
}

func presence(required bool) string {
	if required {
		return "always"
	}
	return "when set"
}

// refsOf returns the $defs names an object field refers to (directly, beside
// null, or as alternatives) and whether the field is a list of them.
func refsOf(s map[string]any) ([]string, bool) {
	if r, ok := s["$ref"].(string); ok {
		return []string{strings.TrimPrefix(r, "#/$defs/")}, false
	}
	if alts, ok := s["anyOf"].([]any); ok {
		var out []string
		for _, a := range alts {
			if m, ok := a.(map[string]any); ok {
				if r, ok := m["$ref"].(string); ok {
					out = append(out, strings.TrimPrefix(r, "#/$defs/"))
				}
			}
		}
		return out, false
	}
	if items, ok := s["items"].(map[string]any); ok {
		if r, ok := items["$ref"].(string); ok {
			return []string{strings.TrimPrefix(r, "#/$defs/")}, true
		}
	}
	return nil, false
}

// outType names the type of an output-schema node.
func outType(s map[string]any) string {
	if len(s) == 0 {
		return "any JSON value"
	}
	if r, ok := s["$ref"].(string); ok {
		return "object " + strings.TrimPrefix(r, "#/$defs/")
	}
	if alts, ok := s["anyOf"].([]any); ok {
		var parts []string
		for _, a := range alts {
			m, _ := a.(map[string]any)
			parts = append(parts, outType(m))
		}
		return strings.Join(parts, " or ")
	}
	var types []string
	switch t := s["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			types = append(types, fmt.Sprint(x))
		}
	}
	for i, t := range types {
		switch t {
		case "array":
			if items, ok := s["items"].(map[string]any); ok {
				types[i] = "array of " + outType(items)
			}
		case "object":
			if v, ok := s["additionalProperties"].(map[string]any); ok {
				types[i] = "object of " + outType(v) + " values"
			}
		}
	}
	out := strings.Join(types, " or ")
	if enum, ok := s["enum"].([]any); ok {
		var vals []string
		for _, v := range enum {
			vals = append(vals, fmt.Sprint(v))
		}
		out += ": " + codes(vals)
	}
	return out
}
