package canonjson

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// encoderFunc appends the canonical encoding of v (of the type it was built
// for) to b.
type encoderFunc func(b []byte, v reflect.Value) ([]byte, error)

// encoders caches one encoder per type: struct fields are resolved (JSON
// names, omitempty, embedded structs flattened) and sorted once, so a typed
// value is encoded in one pass with no intermediate document.
var encoders sync.Map // reflect.Type → encoderFunc

var (
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	marshalerType  = reflect.TypeFor[json.Marshaler]()
	textMarshaler  = reflect.TypeFor[encoding.TextMarshaler]()
)

// appendTyped encodes any value that is not one of Marshal's fast-path types.
func appendTyped(b []byte, v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	return encoderOf(rv.Type())(b, rv)
}

func encoderOf(t reflect.Type) encoderFunc {
	if e, ok := encoders.Load(t); ok {
		return e.(encoderFunc)
	}
	// A recursive type refers to itself while being built: hand out an
	// indirection that finds the finished encoder.
	var (
		wg sync.WaitGroup
		f  encoderFunc
	)
	wg.Add(1)
	e, loaded := encoders.LoadOrStore(t, encoderFunc(func(b []byte, v reflect.Value) ([]byte, error) {
		wg.Wait()
		return f(b, v)
	}))
	if loaded {
		return e.(encoderFunc)
	}
	f = newEncoder(t)
	wg.Done()
	encoders.Store(t, f)
	return f
}

func newEncoder(t reflect.Type) encoderFunc {
	if t == rawMessageType {
		return func(b []byte, v reflect.Value) ([]byte, error) { return appendAny(b, json.RawMessage(v.Bytes())) }
	}
	if t.Implements(marshalerType) || t.Implements(textMarshaler) {
		return func(b []byte, v reflect.Value) ([]byte, error) { return appendReflected(b, v.Interface()) }
	}
	switch t.Kind() {
	case reflect.String:
		return func(b []byte, v reflect.Value) ([]byte, error) { return appendValidString(b, v.String()), nil }
	case reflect.Bool:
		return func(b []byte, v reflect.Value) ([]byte, error) { return strconv.AppendBool(b, v.Bool()), nil }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(b []byte, v reflect.Value) ([]byte, error) { return strconv.AppendInt(b, v.Int(), 10), nil }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return func(b []byte, v reflect.Value) ([]byte, error) { return strconv.AppendUint(b, v.Uint(), 10), nil }
	case reflect.Float32, reflect.Float64:
		return func(b []byte, v reflect.Value) ([]byte, error) { return appendFloat(b, v.Float()) }
	case reflect.Interface:
		return func(b []byte, v reflect.Value) ([]byte, error) {
			if v.IsNil() {
				return append(b, "null"...), nil
			}
			return appendAny(b, v.Elem().Interface())
		}
	case reflect.Pointer:
		elem := encoderOf(t.Elem())
		return func(b []byte, v reflect.Value) ([]byte, error) {
			if v.IsNil() {
				return append(b, "null"...), nil
			}
			return elem(b, v.Elem())
		}
	case reflect.Slice, reflect.Array:
		elem := encoderOf(t.Elem())
		isSlice := t.Kind() == reflect.Slice
		return func(b []byte, v reflect.Value) ([]byte, error) {
			if isSlice && v.IsNil() {
				return append(b, "null"...), nil
			}
			var err error
			b = append(b, '[')
			for i := 0; i < v.Len(); i++ {
				if i > 0 {
					b = append(b, ',')
				}
				if b, err = elem(b, v.Index(i)); err != nil {
					return nil, err
				}
			}
			return append(b, ']'), nil
		}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			break
		}
		elem := encoderOf(t.Elem())
		return func(b []byte, v reflect.Value) ([]byte, error) {
			if v.IsNil() {
				return append(b, "null"...), nil
			}
			// Keys sort as written: invalid UTF-8 replaced first.
			type member struct {
				key string
				val reflect.Value
			}
			members := make([]member, 0, v.Len())
			for it := v.MapRange(); it.Next(); {
				members = append(members, member{validUTF8(it.Key().String()), it.Value()})
			}
			slices.SortFunc(members, func(a, b member) int { return strings.Compare(a.key, b.key) })
			var err error
			b = append(b, '{')
			for i, m := range members {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(appendString(b, m.key), ':')
				if b, err = elem(b, m.val); err != nil {
					return nil, err
				}
			}
			return append(b, '}'), nil
		}
	case reflect.Struct:
		return structEncoder(t)
	}
	// Anything else (maps with non-string keys, channels…) goes the long way,
	// which reports what encoding/json cannot encode.
	return func(b []byte, v reflect.Value) ([]byte, error) { return appendReflected(b, v.Interface()) }
}

// field is one JSON member of a struct type.
type field struct {
	name      string
	key       []byte // the encoded name and colon
	index     []int  // reflect field path (embedded structs flattened)
	omitEmpty bool
	enc       encoderFunc
}

func structEncoder(t reflect.Type) encoderFunc {
	fields := structFields(t, nil)
	slices.SortFunc(fields, func(a, b field) int { return strings.Compare(a.name, b.name) })
	for i := range fields {
		fields[i].key = append(appendValidString(nil, fields[i].name), ':')
		fields[i].enc = encoderOf(fieldType(t, fields[i].index))
	}
	return func(b []byte, v reflect.Value) ([]byte, error) {
		b = append(b, '{')
		first := true
		for i := range fields {
			f := &fields[i]
			fv, ok := fieldByIndex(v, f.index)
			if !ok {
				continue // the field of a nil embedded pointer: absent
			}
			if f.omitEmpty && isEmptyValue(fv) {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, f.key...)
			var err error
			if b, err = f.enc(b, fv); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
}

// fieldByIndex is v.FieldByIndex through embedded pointers, reporting false
// at a nil one (without FieldByIndexErr's allocated error).
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// fieldType is the type of the field at index, through embedded pointers.
func fieldType(t reflect.Type, index []int) reflect.Type {
	for _, i := range index {
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		t = t.Field(i).Type
	}
	return t
}

// isEmptyValue is encoding/json's omitempty test.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.Array, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// structFields lists the JSON members of t as encoding/json does for the
// shapes this module uses: exported fields, `json:"name,omitempty"` and
// `json:"-"`, untagged embedded structs and struct pointers flattened (the
// outer field wins a name clash; a nil embedded pointer's fields are absent).
func structFields(t reflect.Type, prefix []int) []field {
	var out []field
	seen := map[string]bool{}
	var embedded []reflect.StructField
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if sf.Anonymous && name == "" && (sf.Type.Kind() == reflect.Struct ||
			sf.Type.Kind() == reflect.Pointer && sf.Type.Elem().Kind() == reflect.Struct) {
			embedded = append(embedded, sf)
			continue
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		seen[name] = true
		out = append(out, field{name: name, index: append(slices.Clone(prefix), i), omitEmpty: opts == "omitempty"})
	}
	for _, sf := range embedded {
		et := sf.Type
		if et.Kind() == reflect.Pointer {
			et = et.Elem()
		}
		for _, f := range structFields(et, append(slices.Clone(prefix), sf.Index...)) {
			if !seen[f.name] {
				seen[f.name] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// validUTF8 replaces each invalid byte of s with U+FFFD, as appendValidString
// writes it.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\ufffd")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
