package query

import (
	"encoding/json"
	"fmt"
	"regexp"
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
	pattern     *regexp.Regexp
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
}

// hasProperty reports whether the schema, or one of its OneOf branches, has a
// property of that name.
func (s *Schema) hasProperty(name string) bool {
	if _, ok := s.Properties[name]; ok {
		return true
	}
	for _, b := range s.OneOf {
		if b.hasProperty(name) {
			return true
		}
	}
	return false
}

// MarshalJSON writes standard JSON Schema.
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
	if s.Properties != nil {
		m["properties"] = s.Properties
		m["additionalProperties"] = false
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
	if s.MinLength > 0 {
		m["minLength"] = s.MinLength
	}
	if s.MaxLength > 0 {
		m["maxLength"] = s.MaxLength
	}
	if s.Pattern != "" {
		m["pattern"] = s.Pattern
	}
	if s.Items != nil {
		m["items"] = s.Items
	}
	if s.MinItems > 0 {
		m["minItems"] = s.MinItems
	}
	if s.MaxItems > 0 {
		m["maxItems"] = s.MaxItems
	}
	if s.UniqueItems {
		m["uniqueItems"] = true
	}
	if len(s.OneOf) > 0 {
		hoistCommon(m, s.OneOf, s.Discriminator)
	}
	if len(s.AnyOf) > 0 {
		m["anyOf"] = s.AnyOf
	}
	if s.Default != nil {
		m["default"] = s.Default
	}
	return json.Marshal(m)
}

// hoistCommon publishes alternatives compactly: the properties every branch
// declares identically are written once at the top (with the properties all
// branches require), each branch keeps only its own, and
// unevaluatedProperties refuses anything neither declares (JSON Schema
// 2020-12). Validation here uses the branches as built; this changes only
// what tools/list carries.
func hoistCommon(m map[string]any, alts []*Schema, discriminator string) {
	published := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	common := map[string]*Schema{}
	for name, p := range alts[0].Properties {
		if name == discriminator {
			continue
		}
		same := true
		for _, alt := range alts[1:] {
			if q, ok := alt.Properties[name]; !ok || published(q) != published(p) {
				same = false
				break
			}
		}
		if same {
			common[name] = p
		}
	}
	if len(common) == 0 {
		m["oneOf"] = alts
		return
	}
	var required []string
	for _, name := range alts[0].Required {
		if _, ok := common[name]; !ok {
			continue
		}
		all := true
		for _, alt := range alts[1:] {
			all = all && contains(alt.Required, name)
		}
		if all {
			required = append(required, name)
		}
	}
	branches := make([]map[string]any, len(alts))
	for i, alt := range alts {
		props := map[string]*Schema{}
		for name, p := range alt.Properties {
			if _, ok := common[name]; !ok {
				props[name] = p
			}
		}
		var req []string
		for _, name := range alt.Required {
			if !contains(required, name) {
				req = append(req, name)
			}
		}
		b := map[string]any{"properties": props}
		if len(req) > 0 {
			b["required"] = req
		}
		branches[i] = b
	}
	m["properties"], m["oneOf"], m["unevaluatedProperties"] = common, branches, false
	if len(required) > 0 {
		m["required"] = required
	}
}

func has(types []string, t string) bool {
	for _, x := range types {
		if x == t {
			return true
		}
	}
	return false
}

// InputError is an input-validation failure.
// InputError is a request that breaks its schema (or a rule the schema cannot
// say, such as "frameworkId or snapshotId"): "Input validation error: <path>:
// <what>".
type InputError struct{ path, msg string }

func (e *InputError) Error() string {
	p := e.path
	if p == "" {
		p = "arguments"
	}
	return fmt.Sprintf("Input validation error: %s: %s", p, e.msg)
}

func fail(path, format string, args ...any) error {
	return &InputError{path: path, msg: fmt.Sprintf(format, args...)}
}

// validate checks v against s.
func (s *Schema) validate(v *jsonv.Value, path string) error {
	if len(s.OneOf) > 0 {
		return s.validateOneOf(v, path)
	}
	switch v.Kind {
	case jsonv.Null:
		if !has(s.Types, "null") {
			return fail(path, "must not be null")
		}
		return nil
	case jsonv.Bool:
		if !has(s.Types, "boolean") {
			return fail(path, "must be %s, not a boolean", strings.Join(s.Types, " or "))
		}
		return nil
	case jsonv.Number:
		if has(s.Types, "integer") {
			n, ok := jsonv.IntOf(v)
			if !ok {
				return fail(path, "must be an integer (not %s)", v.Str)
			}
			if s.Minimum != nil && n < *s.Minimum || s.Maximum != nil && n > *s.Maximum {
				return fail(path, "must be between %s and %s, not %d", bound(s.Minimum), bound(s.Maximum), n)
			}
			return nil
		}
		return fail(path, "must be %s, not a number", strings.Join(s.Types, " or "))
	case jsonv.String:
		if !has(s.Types, "string") {
			return fail(path, "must be %s, not a string", strings.Join(s.Types, " or "))
		}
		n := utf8.RuneCountInString(v.Str)
		if s.MinLength > 0 && n < s.MinLength || s.MaxLength > 0 && n > s.MaxLength {
			return fail(path, "must be %d to %d characters long", s.MinLength, s.MaxLength)
		}
		if len(s.Enum) > 0 {
			ok := false
			for _, e := range s.Enum {
				ok = ok || e == v.Str
			}
			if !ok {
				return fail(path, "must be one of %s", strings.Join(s.Enum, ", "))
			}
		}
		if s.Const != "" && v.Str != s.Const {
			return fail(path, "must be %q", s.Const)
		}
		if s.pattern != nil && !s.pattern.MatchString(v.Str) {
			return fail(path, "does not match %s", s.Pattern)
		}
		return nil
	case jsonv.Array:
		if !has(s.Types, "array") {
			return fail(path, "must be %s, not an array", strings.Join(s.Types, " or "))
		}
		if len(v.Arr) < s.MinItems || s.MaxItems > 0 && len(v.Arr) > s.MaxItems {
			return fail(path, "must have %d to %d items", s.MinItems, s.MaxItems)
		}
		seen := map[string]bool{}
		for i, el := range v.Arr {
			if err := s.Items.validate(el, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
			if s.UniqueItems {
				key := canonicalKey(el)
				if seen[key] {
					return fail(fmt.Sprintf("%s[%d]", path, i), "repeats an earlier item")
				}
				seen[key] = true
			}
		}
		return nil
	default:
		if !has(s.Types, "object") {
			return fail(path, "must be %s, not an object", strings.Join(s.Types, " or "))
		}
		keys := map[string]bool{}
		for _, m := range v.Obj {
			if keys[m.Key] {
				return fail(join(path, m.Key), "is repeated")
			}
			keys[m.Key] = true
			ps, ok := s.Properties[m.Key]
			if !ok {
				return fail(join(path, m.Key), "is not a known field (unexpected additional property)")
			}
			if err := ps.validate(m.Val, join(path, m.Key)); err != nil {
				return err
			}
		}
		for _, r := range s.Required {
			if !keys[r] {
				return fail(join(path, r), "is required")
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
		return fail(path, "must be an object")
	}
	d := v.Get(s.Discriminator)
	if d == nil || d.Kind != jsonv.String {
		return fail(join(path, s.Discriminator), "is required and must be a string")
	}
	var names []string
	for _, alt := range s.OneOf {
		c := alt.Properties[s.Discriminator].Const
		if c == d.Str {
			return alt.validate(v, path)
		}
		names = append(names, c)
	}
	sort.Strings(names)
	if s.UnknownCode != "" {
		return kgerr.New(s.UnknownCode, "%s %q is not supported; supported: %s", s.Discriminator, d.Str, strings.Join(names, ", "))
	}
	return fail(join(path, s.Discriminator), "%s is not one of %s", clipQuote(d.Str), strings.Join(names, ", "))
}

// maxEchoChars bounds how much of a caller's value an error message quotes.
const maxEchoChars = 200

// clipQuote quotes a caller's value for an error message, cut to
// maxEchoChars characters (and marked as cut).
func clipQuote(s string) string {
	n := 0
	for i := range s {
		if n == maxEchoChars {
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

// patterns holds each schema pattern compiled once per process: the same
// few identifier patterns recur in every tool's schema, and every Service
// would otherwise compile them again (a Regexp is safe for concurrent use).
var patterns sync.Map // string → *regexp.Regexp

func compiledPattern(p string) *regexp.Regexp {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	re, _ := patterns.LoadOrStore(p, regexp.MustCompile(p))
	return re.(*regexp.Regexp)
}

// compile prepares patterns recursively (call once at registration).
func (s *Schema) compile() *Schema {
	if s.Pattern != "" && s.pattern == nil {
		s.pattern = compiledPattern(s.Pattern)
	}
	for _, p := range s.Properties {
		p.compile()
	}
	if s.Items != nil {
		s.Items.compile()
	}
	for _, a := range s.OneOf {
		a.compile()
	}
	return s
}

// Schema builders.

func i64(n int64) *int64 { return &n }

func object(props map[string]*Schema, required ...string) *Schema {
	return &Schema{Types: []string{"object"}, Properties: props, Required: required}
}

func str(min, max int, desc string) *Schema {
	return &Schema{Types: []string{"string"}, MinLength: min, MaxLength: max, Description: desc}
}

func nullable(s *Schema) *Schema {
	c := *s
	c.Types = append(append([]string(nil), s.Types...), "null")
	if len(c.OneOf) > 0 {
		c.Types = []string{"object", "null"}
	}
	return &c
}

func integer(min, max, def int64, desc string) *Schema {
	return &Schema{Types: []string{"integer"}, Minimum: i64(min), Maximum: i64(max), Default: def, Description: desc}
}

func boolean(def bool, desc string) *Schema {
	return &Schema{Types: []string{"boolean"}, Default: def, Description: desc}
}

func enum(desc string, values ...string) *Schema {
	return &Schema{Types: []string{"string"}, Enum: values, Description: desc}
}

func array(items *Schema, max int, desc string) *Schema {
	return &Schema{Types: []string{"array"}, Items: items, MaxItems: max, UniqueItems: true, Description: desc, Default: []any{}}
}

func pattern(s *Schema, p string) *Schema { s.Pattern = p; return s }

// decode unmarshals a validated request into its typed struct.
func decode[T any](raw json.RawMessage) (*T, error) {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fail("request", "%v", err)
	}
	return &v, nil
}
