package prompt

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/termsafe"
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/schema/ids"
)

// ArgError is an argument that breaks its prompt's contract: "Input
// validation error: <argument>: <what>".
type ArgError struct{ Arg, Msg string }

func (e *ArgError) Error() string {
	if e.Arg == "" {
		return "Input validation error: " + e.Msg
	}
	return "Input validation error: " + e.Arg + ": " + e.Msg
}

func argErr(arg, format string, a ...any) error {
	return &ArgError{Arg: arg, Msg: fmt.Sprintf(format, a...)}
}

// Selector is a standard-identifier selector:
// {"identifierType": "node_id", "nodeId": "…"} and the like.
type Selector map[string]string

// selectorKeys maps each identifier type to the member holding its value.
var selectorKeys = map[string]string{
	"node_id": "nodeId", "case_identifier_uuid": "caseIdentifierUuid", "case_identifier_uri": "caseIdentifierUri", "statement_code": "statementCode",
}

// Values are a prompt's validated arguments, defaults filled: string, int,
// bool, []string, Selector or []Selector by kind; an optional argument with
// no value and no default is absent.
type Values map[string]any

// Str returns a string argument ("" when absent).
func (v Values) Str(name string) string { s, _ := v[name].(string); return s }

// Int returns an integer argument.
func (v Values) Int(name string) int { n, _ := v[name].(int); return n }

// Bool returns a boolean argument.
func (v Values) Bool(name string) bool { b, _ := v[name].(bool); return b }

// List returns a list argument.
func (v Values) List(name string) []string { l, _ := v[name].([]string); return l }

// Parse validates a prompt's string arguments (MCP prompt arguments are
// strings; lists and selectors are JSON) and fills the defaults. A blank
// optional argument takes its default.
func (d *Def) Parse(raw map[string]string) (Values, error) {
	names := make([]string, 0, len(raw))
	for k := range raw {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if _, ok := d.Arg(k); !ok {
			return nil, argErr(k, "%s takes no argument of that name", d.Name)
		}
	}
	out := Values{}
	for _, a := range d.Args {
		s, given := raw[a.Name]
		if given && strings.TrimSpace(s) == "" && !a.Required {
			given = false
		}
		if !given {
			if a.Required {
				return nil, argErr(a.Name, "is required")
			}
			if a.Default == "" {
				continue
			}
			s = a.Default
		}
		v, err := a.parse(s)
		if err != nil {
			return nil, err
		}
		out[a.Name] = v
	}
	return out, nil
}

func (a *Arg) parse(s string) (any, error) {
	switch a.Kind {
	case Text:
		return s, checkText(a.Name, s, a.Min, a.Max)
	case Integer:
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return nil, argErr(a.Name, "must be a whole number")
		}
		if n < a.Min || n > a.Max {
			return nil, argErr(a.Name, "must be between %d and %d", a.Min, a.Max)
		}
		return n, nil
	case Boolean:
		switch strings.TrimSpace(s) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, argErr(a.Name, "must be true or false")
	case Choice:
		for _, e := range a.Enum {
			if s == e {
				return s, nil
			}
		}
		return nil, argErr(a.Name, "must be one of %s", strings.Join(a.Enum, ", "))
	case Framework:
		return s, idErr(a.Name, ids.CheckFramework(s))
	case Snapshot:
		return s, idErr(a.Name, ids.CheckSnapshot(s))
	case Language:
		return s, idErr(a.Name, ids.CheckLanguage(s))
	case TextList:
		return parseList(a, s)
	case SelectorArg:
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil || m == nil {
			return nil, argErr(a.Name, `must be a JSON object such as {"identifierType":"node_id","nodeId":"…"}`)
		}
		return parseSelector(a, a.Name, m)
	case SelectorList:
		var list []any
		if err := json.Unmarshal([]byte(s), &list); err != nil || list == nil {
			return nil, argErr(a.Name, "must be a JSON array of selector objects")
		}
		if len(list) > a.Max {
			return nil, argErr(a.Name, "has %d selectors; at most %d are allowed", len(list), a.Max)
		}
		out := make([]Selector, 0, len(list))
		seen := map[string]bool{}
		for i, item := range list {
			m, ok := item.(map[string]any)
			path := fmt.Sprintf("%s[%d]", a.Name, i)
			if !ok {
				return nil, argErr(path, "must be a selector object")
			}
			sel, err := parseSelector(a, path, m)
			if err != nil {
				return nil, err
			}
			key := sel["identifierType"] + "\x00" + sel[selectorKeys[sel["identifierType"]]]
			if seen[key] {
				return nil, argErr(path, "repeats another selector")
			}
			seen[key] = true
			out = append(out, sel)
		}
		return out, nil
	}
	return nil, argErr(a.Name, "has an unknown kind")
}

func idErr(name, why string) error {
	if why == "" {
		return nil
	}
	return argErr(name, "%s", why)
}

// checkText applies the text rules: min–max characters, not blank, no
// control characters but tab and line breaks.
func checkText(name, s string, min, max int) error {
	if !utf8.ValidString(s) {
		return argErr(name, "must be UTF-8")
	}
	n := utf8.RuneCountInString(s)
	if n < min || n > max {
		return argErr(name, "must have %d to %d characters (has %d)", min, max, n)
	}
	if strings.TrimSpace(s) == "" {
		return argErr(name, "must not be blank")
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r' {
			return argErr(name, "must not contain control characters")
		}
		if termsafe.BidiControl(r) || nonCharacter(r) {
			return argErr(name, "must not contain bidirectional controls (U+%04X) or noncharacters", r)
		}
	}
	return nil
}

// nonCharacter reports Unicode's noncharacters (U+FDD0–U+FDEF and the last
// two code points of every plane), which no text interchanges.
func nonCharacter(r rune) bool {
	return 0xFDD0 <= r && r <= 0xFDEF || r&0xFFFE == 0xFFFE
}

func parseList(a *Arg, s string) ([]string, error) {
	var list []string
	if err := json.Unmarshal([]byte(s), &list); err != nil || list == nil {
		return nil, argErr(a.Name, `must be a JSON array of strings, e.g. ["a","b"]`)
	}
	if len(list) < a.Min || len(list) > a.Max {
		return nil, argErr(a.Name, "must have %d to %d values (has %d)", a.Min, a.Max, len(list))
	}
	seen := map[string]bool{}
	for i, v := range list {
		path := fmt.Sprintf("%s[%d]", a.Name, i)
		if err := checkText(path, v, 1, a.ItemMax); err != nil {
			return nil, err
		}
		if len(a.Enum) > 0 && !slices.Contains(a.Enum, v) {
			return nil, argErr(path, "must be one of %s", strings.Join(a.Enum, ", "))
		}
		k := textnorm.Facet(v)
		if seen[k] {
			return nil, argErr(path, "%q repeats another value", v)
		}
		seen[k] = true
	}
	return list, nil
}

func parseSelector(a *Arg, path string, m map[string]any) (Selector, error) {
	t, _ := m["identifierType"].(string)
	key, ok := selectorKeys[t]
	if !ok || t == "statement_code" && !a.Codes {
		allowed := "node_id, case_identifier_uuid, case_identifier_uri"
		if a.Codes {
			allowed += ", statement_code"
		} else if t == "statement_code" {
			return nil, argErr(path, "takes no statement_code selector; resolve the code with search_standards and pass its node_id")
		}
		return nil, argErr(path, "identifierType must be one of %s", allowed)
	}
	if len(m) != 2 {
		return nil, argErr(path, `must hold exactly "identifierType" and %q`, key)
	}
	v, ok := m[key].(string)
	if !ok {
		return nil, argErr(path, "%s must be a string", key)
	}
	max := a.Max
	if a.Kind == SelectorList || max == 0 {
		max = 512
	}
	if why := ids.CheckOpaque(v, max); why != "" {
		return nil, argErr(path+"."+key, "%s", why)
	}
	return Selector{"identifierType": t, key: v}, nil
}

// Camel returns the camelCase spelling of a snake_case argument name, as
// get_workflow_instructions takes it (framework_id → frameworkId).
func Camel(name string) string {
	parts := strings.Split(name, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}
