package jsonschema

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/runtime/kgerr"
)

// Schema is the subset of JSON Schema the tool inputs use. The same value is
// published in tools/list and enforced by validate, so the advertised contract
// and the checks cannot drift apart. Integers must be integer literals (no
// fraction, no exponent), booleans JSON booleans; unknown fields are rejected.
type Schema struct {
	Types       []string
	Description string
	Properties  map[string]*Schema
	Required    []string
	Enum        []string
	Const       string
	Minimum     *int64
	Maximum     *int64
	MinLength   int
	MaxLength   int
	Pattern     string
	Items       *Schema
	MinItems    int
	MaxItems    int
	UniqueItems bool
	OneOf       []*Schema
	// AnyOf is published only: the top-level alternatives of a tool that
	// takes its request wrapped or flat (Call wraps the flat form).
	AnyOf []*Schema
	// Discriminator names the member whose const picks a OneOf branch.
	Discriminator string
	// UnknownCode, when set, is the domain error code of a discriminator value
	// no branch accepts (e.g. unsupported_search_mode) instead of an input error.
	UnknownCode string
	Default     any
	// Terse publishes only the type and description (identifiers copied
	// from results: their bounds are enforced, not advertised).
	Terse bool
	// Hidden leaves a property out of the published schema (it stays
	// accepted and validated): knobs no caller needs to see, such as the
	// graph type every package is routed by, or a flag that must stay at
	// its default. An object with a hidden property is published without
	// additionalProperties false, so that a client checking arguments
	// against it accepts them too.
	Hidden bool
}

func Terse(s *Schema) *Schema  { s.Terse = true; return s }
func Hidden(s *Schema) *Schema { s.Hidden = true; return s }

// HasProperty reports whether the schema, or one of its OneOf branches, has a
// property of that name.
func (s *Schema) HasProperty(name string) bool {
	if _, ok := s.Properties[name]; ok {
		return true
	}
	for _, b := range s.OneOf {
		if b.HasProperty(name) {
			return true
		}
	}
	return false
}

// absentNotNull is an optional property as published: where null only means
// "absent" (validate still takes it), the plain type, which strict clients
// (the inspector's strict mode) do not warn about.
func absentNotNull(p *Schema) *Schema {
	if len(p.Types) < 2 || !slices.Contains(p.Types, "null") {
		return p
	}
	c := *p
	c.Types = slices.DeleteFunc(slices.Clone(p.Types), func(t string) bool { return t == "null" })
	return &c
}

// MarshalJSON writes the JSON Schema tools/list publishes: what a client
// needs to build a call. The checks that only refuse what no careful caller
// writes — patterns, a minimum length of 1, unique items — are enforced by
// validate and left out, as is an empty list's default: the tool list is
// read by a model before its first call, every byte of it on every
// conversation.
func (s *Schema) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	switch len(s.Types) {
	case 0:
	case 1:
		m["type"] = s.Types[0]
	default:
		m["type"] = s.Types
	}
	if s.Description != "" {
		m["description"] = s.Description
	}
	if s.Terse {
		return json.Marshal(m)
	}
	if s.Properties != nil {
		shown := make(map[string]*Schema, len(s.Properties))
		for name, p := range s.Properties {
			if !p.Hidden {
				shown[name] = p
				if !slices.Contains(s.Required, name) {
					shown[name] = absentNotNull(p)
				}
			}
		}
		m["properties"] = shown
		if len(shown) == len(s.Properties) {
			m["additionalProperties"] = false
		}
		if len(s.Required) > 0 {
			m["required"] = s.Required
		}
	}
	if len(s.Enum) > 0 {
		m["enum"] = s.Enum
	}
	if s.Const != "" {
		m["const"] = s.Const
	}
	if s.Minimum != nil {
		m["minimum"] = *s.Minimum
	}
	if s.Maximum != nil {
		m["maximum"] = *s.Maximum
	}
	if s.MinLength > 1 {
		m["minLength"] = s.MinLength
	}
	if s.MaxLength > 0 {
		m["maxLength"] = s.MaxLength
	}

	if s.Items != nil {
		m["items"] = s.Items
	}
	if s.MinItems > 0 {
		m["minItems"] = s.MinItems
	}
	if s.MaxItems > 0 && s.MaxItems < 32 {
		m["maxItems"] = s.MaxItems // the filters' 32 and 64 are bounds no caller meets
	}

	if len(s.OneOf) > 0 {
		flatten(m, s.OneOf, s.Discriminator)
	}
	if len(s.AnyOf) > 0 {
		m["anyOf"] = s.AnyOf
	}
	if s.Default != nil && !emptyList(s.Default) {
		m["default"] = s.Default // an empty list is every filter's default: left implied
	}
	return json.Marshal(m)
}

// flatten publishes discriminated alternatives as one object schema:
// clients build their forms and argument checks from the top-level
// properties, and many read no oneOf at all. The discriminator becomes an
// enum of the branches' values; every other property is written once (the
// first branch's form, in branch order), a property only some branches
// take says which, and only what every branch requires is required. The
// server still validates against the exact branches (validateOneOf); this
// changes only what tools/list carries.
func flatten(m map[string]any, alts []*Schema, discriminator string) {
	props := map[string]any{}
	var values []string
	in := map[string][]string{}         // property → the branch values that take it
	requiredIn := map[string][]string{} // property → the branch values that require it
	for _, alt := range alts {
		value := alt.Properties[discriminator].Const
		values = append(values, value)
		for name := range alt.Properties {
			in[name] = append(in[name], value)
		}
		for _, name := range alt.Required {
			requiredIn[name] = append(requiredIn[name], value)
		}
	}
	// With many branches, one line per branch in the object's description
	// says what each takes (required ones starred) instead of a note on
	// every property.
	byBranch := len(alts) > 4
	var branchLines []string
	for _, alt := range alts {
		if !byBranch {
			break
		}
		var names []string
		for name := range alt.Properties {
			if name == discriminator {
				continue
			}
			if slices.Contains(alt.Required, name) {
				name += "*"
			}
			names = append(names, name)
		}
		sort.Strings(names)
		branchLines = append(branchLines, alt.Properties[discriminator].Const+": "+strings.Join(names, ", "))
	}
	if byBranch {
		m["description"] = strings.TrimSpace(fmt.Sprint(m["description"]) + ". Fields by " + discriminator + " (* required): " +
			strings.Join(branchLines, "; "))
	}
	for _, alt := range alts {
		for name, p := range alt.Properties {
			if _, done := props[name]; done || name == discriminator {
				continue
			}
			r := requiredIn[name]
			c := *p
			if len(r) == 0 {
				c = *absentNotNull(p)
			}
			if byBranch {
				props[name] = &c
				continue
			}
			var notes []string
			switch {
			case len(in[name]) < len(alts) && len(r) == len(in[name]):
				notes = append(notes, "required with "+which(discriminator, in[name], values))
			case len(in[name]) < len(alts):
				notes = append(notes, "only with "+which(discriminator, in[name], values))
				if len(r) > 0 {
					notes = append(notes, "required with "+which(discriminator, r, values))
				}
			case len(r) > 0 && len(r) < len(alts):
				notes = append(notes, "required with "+which(discriminator, r, values))
			}
			if len(notes) > 0 {
				c.Description = strings.TrimSpace(c.Description + " (" + strings.Join(notes, "; ") + ")")
			}
			props[name] = &c
		}
	}
	disc := &Schema{Types: []string{"string"}, Enum: values, Description: alts[0].Properties[discriminator].Description}
	if pairs, ok := oneFieldEach(alts, discriminator); ok {
		// A selector: each value names the one field to set (said once,
		// on the discriminator).
		for name, p := range props {
			c := *p.(*Schema)
			c.Description = ""
			props[name] = &c
		}
		disc.Description = strings.TrimSpace(disc.Description + " " + pairs)
		if camelPairs(alts, discriminator) { // the rule says it in fewer words
			disc.Description = "with the field of that name in camelCase (node_id: nodeId)"
		}
	}
	props[discriminator] = disc
	var required []string
	for name, r := range requiredIn {
		if len(r) == len(alts) {
			required = append(required, name)
		}
	}
	sort.Strings(required)
	m["properties"], m["additionalProperties"] = props, false
	if len(required) > 0 {
		m["required"] = required
	}
}

// oneFieldEach reports whether every branch has exactly one property besides
// the discriminator, and lists value→field pairs.
func oneFieldEach(alts []*Schema, discriminator string) (string, bool) {
	var pairs []string
	for _, alt := range alts {
		if len(alt.Properties) != 2 {
			return "", false
		}
		for name := range alt.Properties {
			if name != discriminator {
				pairs = append(pairs, alt.Properties[discriminator].Const+"→"+name)
			}
		}
	}
	return strings.Join(pairs, ", "), true
}

// camelPairs reports whether each branch's one field is its discriminator
// value in camelCase (node_id: nodeId), so that the rule says it all.
func camelPairs(alts []*Schema, discriminator string) bool {
	for _, alt := range alts {
		v := alt.Properties[discriminator].Const
		var b strings.Builder
		up := false
		for _, r := range v {
			switch {
			case r == '_':
				up = true
			case up:
				b.WriteString(strings.ToUpper(string(r)))
				up = false
			default:
				b.WriteRune(r)
			}
		}
		if _, ok := alt.Properties[b.String()]; !ok {
			return false
		}
	}
	return true
}

// which names the branches in by their discriminator values, or the ones
// out of all not in it when that is shorter.
func which(discriminator string, in, all []string) string {
	var out []string
	for _, v := range all {
		if !slices.Contains(in, v) {
			out = append(out, v)
		}
	}
	if len(out) < len(in) {
		return discriminator + " other than " + strings.Join(out, ", ")
	}
	return discriminator + " " + strings.Join(in, " or ")
}

func emptyList(v any) bool {
	switch x := v.(type) {
	case []string:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}

func has(types []string, t string) bool {
	for _, x := range types {
		if x == t {
			return true
		}
	}
	return false
}

// InputError is a request that breaks its schema (or a rule the schema cannot
// say, such as "frameworkId or snapshotId"): "Input validation error: <path>:
// <what>".
type InputError struct{ path, msg string }

func (e *InputError) Error() string {
	p := e.path
	if p == "" {
		p = "arguments"
	}
	if len(p) > MaxEchoChars {
		// A path holds the caller's own keys: an unknown field may be long.
		p = clipQuote(p)
	}
	return fmt.Sprintf("Input validation error: %s: %s", p, e.msg)
}

func Fail(path, format string, args ...any) error {
	return &InputError{path: path, msg: fmt.Sprintf(format, args...)}
}

// Validate checks v against s.
func (s *Schema) Validate(v *jsonv.Value, path string) error {
	if len(s.OneOf) > 0 {
		return s.validateOneOf(v, path)
	}
	switch v.Kind {
	case jsonv.Null:
		if !has(s.Types, "null") {
			return Fail(path, "must not be null")
		}
		return nil
	case jsonv.Bool:
		if !has(s.Types, "boolean") {
			return Fail(path, "must be %s, not a boolean", strings.Join(s.Types, " or "))
		}
		return nil
	case jsonv.Number:
		if has(s.Types, "integer") {
			n, ok := jsonv.IntOf(v)
			if !ok {
				return Fail(path, "must be an integer (not %s)", v.Str)
			}
			if s.Minimum != nil && n < *s.Minimum || s.Maximum != nil && n > *s.Maximum {
				return Fail(path, "must be between %s and %s, not %d", bound(s.Minimum), bound(s.Maximum), n)
			}
			return nil
		}
		return Fail(path, "must be %s, not a number", strings.Join(s.Types, " or "))
	case jsonv.String:
		if !has(s.Types, "string") {
			return Fail(path, "must be %s, not a string", strings.Join(s.Types, " or "))
		}
		n := utf8.RuneCountInString(v.Str)
		if s.MinLength > 0 && n < s.MinLength || s.MaxLength > 0 && n > s.MaxLength {
			return Fail(path, "must be %d to %d characters long", s.MinLength, s.MaxLength)
		}
		if len(s.Enum) > 0 {
			ok := false
			for _, e := range s.Enum {
				ok = ok || e == v.Str
			}
			if !ok {
				return Fail(path, "must be one of %s", strings.Join(s.Enum, ", "))
			}
		}
		if s.Const != "" && v.Str != s.Const {
			return Fail(path, "must be %q", s.Const)
		}
		if s.Pattern != "" && !compiledPattern(s.Pattern).MatchString(v.Str) {
			return Fail(path, "does not match %s", s.Pattern)
		}
		return nil
	case jsonv.Array:
		if !has(s.Types, "array") {
			return Fail(path, "must be %s, not an array", strings.Join(s.Types, " or "))
		}
		if len(v.Arr) < s.MinItems || s.MaxItems > 0 && len(v.Arr) > s.MaxItems {
			return Fail(path, "must have %d to %d items", s.MinItems, s.MaxItems)
		}
		seen := map[string]bool{}
		for i, el := range v.Arr {
			if err := s.Items.Validate(el, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
			if s.UniqueItems {
				key := canonicalKey(el)
				if seen[key] {
					return Fail(fmt.Sprintf("%s[%d]", path, i), "repeats an earlier item")
				}
				seen[key] = true
			}
		}
		return nil
	default:
		if !has(s.Types, "object") {
			return Fail(path, "must be %s, not an object", strings.Join(s.Types, " or "))
		}
		keys := map[string]bool{}
		for _, m := range v.Obj {
			if keys[m.Key] {
				return Fail(join(path, m.Key), "is repeated")
			}
			keys[m.Key] = true
			ps, ok := s.Properties[m.Key]
			if !ok {
				return Fail(join(path, m.Key), "is not a known field (unexpected additional property)")
			}
			if err := ps.Validate(m.Val, join(path, m.Key)); err != nil {
				return err
			}
		}
		for _, r := range s.Required {
			if !keys[r] {
				return Fail(join(path, r), "is required")
			}
		}
		return nil
	}
}

func (s *Schema) validateOneOf(v *jsonv.Value, path string) error {
	if v.Kind == jsonv.Null && has(s.Types, "null") {
		return nil
	}
	if v.Kind != jsonv.Object {
		return Fail(path, "must be an object")
	}
	d := v.Get(s.Discriminator)
	if d == nil || d.Kind != jsonv.String {
		return Fail(join(path, s.Discriminator), "is required and must be a string")
	}
	var names []string
	for _, alt := range s.OneOf {
		c := alt.Properties[s.Discriminator].Const
		if c == d.Str {
			return alt.Validate(v, path)
		}
		names = append(names, c)
	}
	sort.Strings(names)
	if s.UnknownCode != "" {
		return kgerr.New(s.UnknownCode, "%s %q is not supported; supported: %s", s.Discriminator, d.Str, strings.Join(names, ", "))
	}
	return Fail(join(path, s.Discriminator), "%s is not one of %s", clipQuote(d.Str), strings.Join(names, ", "))
}

// MaxEchoChars bounds how much of a caller's value an error message quotes.
const MaxEchoChars = 200

// clipQuote quotes a caller's value for an error message, cut to
// maxEchoChars characters (and marked as cut).
func clipQuote(s string) string {
	n := 0
	for i := range s {
		if n == MaxEchoChars {
			return fmt.Sprintf("%q… (cut at %d of %d bytes)", s[:i], i, len(s))
		}
		n++
	}
	return fmt.Sprintf("%q", s)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func bound(p *int64) string {
	if p == nil {
		return "unbounded"
	}
	return fmt.Sprint(*p)
}

func canonicalKey(v *jsonv.Value) string {
	b, _ := json.Marshal(toAny(v))
	return string(b)
}

func toAny(v *jsonv.Value) any {
	switch v.Kind {
	case jsonv.Null:
		return nil
	case jsonv.Bool:
		return v.Bool
	case jsonv.Number:
		return json.Number(v.Str)
	case jsonv.String:
		return v.Str
	case jsonv.Array:
		out := make([]any, len(v.Arr))
		for i, el := range v.Arr {
			out[i] = toAny(el)
		}
		return out
	}
	out := map[string]any{}
	for _, m := range v.Obj {
		out[m.Key] = toAny(m.Val)
	}
	return out
}

// patterns holds each schema pattern compiled once per process, on its
// first use: the same few identifier patterns recur in every tool's schema,
// and a schema built for one call (the typed API's) finds them compiled (a
// Regexp is safe for concurrent use).
var patterns sync.Map // string → *regexp.Regexp

func compiledPattern(p string) *regexp.Regexp {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	re, _ := patterns.LoadOrStore(p, regexp.MustCompile(p))
	return re.(*regexp.Regexp)
}

// Schema builders.

func i64(n int64) *int64 { return &n }

func Object(props map[string]*Schema, required ...string) *Schema {
	return &Schema{Types: []string{"object"}, Properties: props, Required: required}
}

func String(min, max int, desc string) *Schema {
	return &Schema{Types: []string{"string"}, MinLength: min, MaxLength: max, Description: desc}
}

func Nullable(s *Schema) *Schema {
	c := *s
	c.Types = append(append([]string(nil), s.Types...), "null")
	if len(c.OneOf) > 0 {
		c.Types = []string{"object", "null"}
	}
	return &c
}

func Integer(min, max, def int64, desc string) *Schema {
	return &Schema{Types: []string{"integer"}, Minimum: i64(min), Maximum: i64(max), Default: def, Description: desc}
}

func Boolean(def bool, desc string) *Schema {
	return &Schema{Types: []string{"boolean"}, Default: def, Description: desc}
}

func Enum(desc string, values ...string) *Schema {
	return &Schema{Types: []string{"string"}, Enum: values, Description: desc}
}

func Array(items *Schema, max int, desc string) *Schema {
	return &Schema{Types: []string{"array"}, Items: items, MaxItems: max, UniqueItems: true, Description: desc, Default: []any{}}
}

func Pattern(s *Schema, p string) *Schema { s.Pattern = p; return s }
