package jsonv

import (
	"fmt"
	"math"
	"strconv"
)

// Generic issue codes reported by Parse results and the Obj reader (each is
// also a finding.Code, which is what callers match). Schema decoders add their
// own semantic codes on top of these; CodeSyntax and CodeInvalidUTF8 are
// exported for decoders that find those problems before parsing.
const (
	CodeSyntax       = "json_syntax"
	CodeInvalidUTF8  = "json_invalid_utf8"
	codeDuplicateKey = "json_duplicate_key"
	codeUnknownField = "schema_unknown_field"
	codeMissingField = "schema_missing_field"
	codeWrongType    = "schema_wrong_type"
	codeInvalidValue = "schema_invalid_value"
)

// Issue is one problem found while decoding a document: a stable code, the JSON
// path it is about (empty for the document), its byte offset, and a message.
type Issue struct {
	Code    string
	Path    string
	Off     int
	Message string
}

// Issues collects problems in the order they are found.
type Issues struct {
	List []Issue
}

// Add records one problem.
func (is *Issues) Add(code, path string, off int, format string, args ...any) {
	is.List = append(is.List, Issue{Code: code, Path: path, Off: off, Message: fmt.Sprintf(format, args...)})
}

// Len reports how many problems were recorded.
func (is *Issues) Len() int { return len(is.List) }

// FromParse converts parse errors into issues.
func (is *Issues) FromParse(errs []*Error) {
	for _, e := range errs {
		code := CodeSyntax
		switch e.Kind {
		case InvalidUTF8:
			code = CodeInvalidUTF8
		case DuplicateKey:
			code = codeDuplicateKey
		}
		is.Add(code, "", e.Off, "%s", e.Msg)
	}
}

// Join builds a child path.
func Join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Index builds an element path.
func Index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// Obj reads the members of one JSON object, recording every problem in Issues.
// Each accessor marks its member as known; Done reports the members nobody asked
// for. A nil or non-object value gives an Obj whose accessors report nothing and
// return zero values (the type problem is reported once, by whoever made it).
type Obj struct {
	V    *Value
	Path string
	Is   *Issues
	used []bool
	idx  map[string]int // first member of each key, for large objects
}

// indexFrom is the member count from which Field looks keys up in a map
// instead of scanning: a reader that asks for every member of an object (a
// manifest's 200,000 checksums) must not be quadratic.
const indexFrom = 16

// AsObj returns a reader over v, reporting a type problem if v is not an object.
func AsObj(v *Value, path string, is *Issues) *Obj {
	if v == nil {
		return &Obj{Path: path, Is: is}
	}
	if v.Kind != Object {
		is.Add(codeWrongType, path, v.Off, "%s must be an object, not %s", describe(path), v.Kind)
		return &Obj{Path: path, Is: is}
	}
	return &Obj{V: v, Path: path, Is: is, used: make([]bool, len(v.Obj))}
}

func describe(path string) string {
	if path == "" {
		return "the document"
	}
	return path
}

// Valid reports whether the reader is over a real object.
func (o *Obj) Valid() bool { return o.V != nil }

// Off returns the object's offset (0 when invalid).
func (o *Obj) Off() int {
	if o.V == nil {
		return 0
	}
	return o.V.Off
}

// Field returns the member named key and marks it known. When required and
// missing, a problem is recorded.
func (o *Obj) Field(key string, required bool) *Value {
	if o.V == nil {
		return nil
	}
	if i := o.find(key); i >= 0 {
		o.used[i] = true
		return o.V.Obj[i].Val
	}
	if required {
		o.Is.Add(codeMissingField, Join(o.Path, key), o.V.Off, "%s is required", Join(o.Path, key))
	}
	return nil
}

// find returns the index of the first member named key, or -1.
func (o *Obj) find(key string) int {
	if len(o.V.Obj) < indexFrom {
		for i := range o.V.Obj {
			if o.V.Obj[i].Key == key {
				return i
			}
		}
		return -1
	}
	if o.idx == nil {
		o.idx = make(map[string]int, len(o.V.Obj))
		for i := len(o.V.Obj) - 1; i >= 0; i-- {
			o.idx[o.V.Obj[i].Key] = i
		}
	}
	if i, ok := o.idx[key]; ok {
		return i
	}
	return -1
}

// Has reports whether the member exists, without marking it.
func (o *Obj) Has(key string) bool {
	return o.V != nil && o.find(key) >= 0
}

// Done records every member that no accessor asked for.
func (o *Obj) Done() {
	if o.V == nil {
		return
	}
	used := map[string]bool{}
	for i, m := range o.V.Obj {
		if o.used[i] {
			used[m.Key] = true
		}
	}
	for i, m := range o.V.Obj {
		if !o.used[i] && !used[m.Key] {
			o.Is.Add(codeUnknownField, Join(o.Path, m.Key), m.KeyOff, "%s is not a known field", Join(o.Path, m.Key))
		}
	}
}

func (o *Obj) wrong(key string, v *Value, want string) {
	o.Is.Add(codeWrongType, Join(o.Path, key), v.Off, "%s must be %s, not %s", Join(o.Path, key), want, v.Kind)
}

// Str reads a required (or optional) string; ok is false when absent or wrong.
func (o *Obj) Str(key string, required bool) (string, bool) {
	v := o.Field(key, required)
	if v == nil {
		return "", false
	}
	if v.Kind != String {
		o.wrong(key, v, "a string")
		return "", false
	}
	return v.Str, true
}

// NullStr reads a string that may be null. present is false when the member is
// absent; isNull when it is JSON null.
func (o *Obj) NullStr(key string, required bool) (s string, present, isNull bool) {
	v := o.Field(key, required)
	if v == nil {
		return "", false, false
	}
	switch v.Kind {
	case Null:
		return "", true, true
	case String:
		return v.Str, true, false
	}
	o.wrong(key, v, "a string or null")
	return "", true, false
}

// Bool reads a strict JSON boolean.
func (o *Obj) Bool(key string, required bool) (bool, bool) {
	v := o.Field(key, required)
	if v == nil {
		return false, false
	}
	if v.Kind != Bool {
		o.wrong(key, v, "a boolean")
		return false, false
	}
	return v.Bool, true
}

// Int reads a strict JSON integer (no fraction, no exponent) within int64.
func (o *Obj) Int(key string, required bool) (int64, bool) {
	v := o.Field(key, required)
	if v == nil {
		return 0, false
	}
	n, ok := IntOf(v)
	if !ok {
		o.wrong(key, v, "an integer")
		return 0, false
	}
	return n, true
}

// NullInt reads an integer that may be null.
func (o *Obj) NullInt(key string, required bool) (n int64, present, isNull bool) {
	v := o.Field(key, required)
	if v == nil {
		return 0, false, false
	}
	if v.Kind == Null {
		return 0, true, true
	}
	n, ok := IntOf(v)
	if !ok {
		o.wrong(key, v, "an integer or null")
		return 0, true, false
	}
	return n, true, false
}

// Float reads a finite JSON number.
func (o *Obj) Float(key string, required bool) (float64, bool) {
	v := o.Field(key, required)
	if v == nil {
		return 0, false
	}
	f, ok := floatOf(v)
	if !ok {
		o.wrong(key, v, "a number")
		return 0, false
	}
	return f, true
}

// Arr reads an array; ok is false when absent or not an array.
func (o *Obj) Arr(key string, required bool) ([]*Value, bool) {
	v := o.Field(key, required)
	if v == nil {
		return nil, false
	}
	if v.Kind != Array {
		o.wrong(key, v, "an array")
		return nil, false
	}
	return v.Arr, true
}

// Strs reads an array of strings, reporting each non-string element.
func (o *Obj) Strs(key string, required bool) ([]string, bool) {
	arr, ok := o.Arr(key, required)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(arr))
	good := true
	for i, el := range arr {
		if el.Kind != String {
			o.Is.Add(codeWrongType, Index(Join(o.Path, key), i), el.Off, "%s must be a string, not %s", Index(Join(o.Path, key), i), el.Kind)
			good = false
			continue
		}
		out = append(out, el.Str)
	}
	return out, good
}

// Object reads a nested object member.
func (o *Obj) Object(key string, required bool) *Obj {
	v := o.Field(key, required)
	return AsObj(v, Join(o.Path, key), o.Is)
}

// Invalid records a value problem on member key.
func (o *Obj) Invalid(key string, format string, args ...any) {
	off := o.Off()
	if v := o.V.Get(key); v != nil {
		off = v.Off
	}
	o.Is.Add(codeInvalidValue, Join(o.Path, key), off, format, args...)
}

// IntOf returns the integer value of an integer literal.
func IntOf(v *Value) (int64, bool) {
	if v == nil || v.Kind != Number {
		return 0, false
	}
	for i := 0; i < len(v.Str); i++ {
		if c := v.Str[i]; c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(v.Str, 10, 64)
	return n, err == nil
}

// floatOf returns the value of a number literal if it is finite.
func floatOf(v *Value) (float64, bool) {
	if v == nil || v.Kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.Str, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}
