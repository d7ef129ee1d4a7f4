package canonjson

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kgc-project/kgc/internal/jsonv"
)

// ValueOf and Decode move typed Go values to and from parsed documents
// without writing or reading JSON text: a request that is validated and
// completed as a document (runtime/query) crosses to its Go type once.

// ValueOf returns x as the document Marshal would encode, as jsonv.Parse
// would read it back: objects' members in canonical (sorted) order, numbers
// as Marshal writes them, invalid UTF-8 replaced.
func ValueOf(x any) (*jsonv.Value, error) {
	if x == nil {
		return &jsonv.Value{Kind: jsonv.Null}, nil
	}
	return valueOf(reflect.ValueOf(x))
}

func valueOf(v reflect.Value) (*jsonv.Value, error) {
	t := v.Type()
	if t == rawMessageType || t.Implements(marshalerType) || t.Implements(textMarshaler) {
		b, err := Marshal(v.Interface())
		if err != nil {
			return nil, err
		}
		doc, errs := jsonv.Parse(b)
		if len(errs) > 0 {
			return nil, fmt.Errorf("canonjson: %s does not encode to JSON: %v", t, errs[0])
		}
		return doc, nil
	}
	switch t.Kind() {
	case reflect.String:
		return &jsonv.Value{Kind: jsonv.String, Str: validUTF8(v.String())}, nil
	case reflect.Bool:
		return &jsonv.Value{Kind: jsonv.Bool, Bool: v.Bool()}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &jsonv.Value{Kind: jsonv.Number, Str: strconv.FormatInt(v.Int(), 10)}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &jsonv.Value{Kind: jsonv.Number, Str: strconv.FormatUint(v.Uint(), 10)}, nil
	case reflect.Float32, reflect.Float64:
		b, err := appendFloat(nil, v.Float())
		if err != nil {
			return nil, err
		}
		return &jsonv.Value{Kind: jsonv.Number, Str: string(b)}, nil
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return &jsonv.Value{Kind: jsonv.Null}, nil
		}
		return valueOf(v.Elem())
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && v.IsNil() {
			return &jsonv.Value{Kind: jsonv.Null}, nil
		}
		out := &jsonv.Value{Kind: jsonv.Array, Arr: make([]*jsonv.Value, v.Len())}
		for i := range v.Len() {
			el, err := valueOf(v.Index(i))
			if err != nil {
				return nil, err
			}
			out.Arr[i] = el
		}
		return out, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			break
		}
		if v.IsNil() {
			return &jsonv.Value{Kind: jsonv.Null}, nil
		}
		out := &jsonv.Value{Kind: jsonv.Object, Obj: make([]jsonv.Member, 0, v.Len())}
		for it := v.MapRange(); it.Next(); {
			el, err := valueOf(it.Value())
			if err != nil {
				return nil, err
			}
			out.Obj = append(out.Obj, jsonv.Member{Key: validUTF8(it.Key().String()), Val: el})
		}
		slices.SortFunc(out.Obj, func(a, b jsonv.Member) int { return strings.Compare(a.Key, b.Key) })
		return out, nil
	case reflect.Struct:
		fields := sortedFields(t)
		out := &jsonv.Value{Kind: jsonv.Object, Obj: make([]jsonv.Member, 0, len(fields))}
		for i := range fields {
			f := &fields[i]
			fv, ok := fieldByIndex(v, f.index)
			if !ok || f.omitEmpty && isEmptyValue(fv) {
				continue
			}
			el, err := valueOf(fv)
			if err != nil {
				return nil, err
			}
			out.Obj = append(out.Obj, jsonv.Member{Key: f.name, Val: el})
		}
		return out, nil
	}
	return nil, fmt.Errorf("canonjson: cannot encode a %s", t)
}

// fieldTables caches each struct type's members, sorted by name.
var fieldTables sync.Map // reflect.Type → []field

func sortedFields(t reflect.Type) []field {
	if f, ok := fieldTables.Load(t); ok {
		return f.([]field)
	}
	fields := structFields(t, nil)
	slices.SortFunc(fields, func(a, b field) int { return strings.Compare(a.name, b.name) })
	fieldTables.Store(t, fields)
	return fields
}

// Decode sets the value out points to from doc, as json.Unmarshal would from
// doc's encoding: members its type does not name are skipped, null leaves a
// non-pointer as it is, a number goes into any numeric kind that holds it,
// an interface{} or map[string]any gets the document's plain form (string,
// float64, bool, []any, map[string]any, nil).
func Decode(doc *jsonv.Value, out any) error {
	rv := reflect.ValueOf(out)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("canonjson: Decode needs a non-nil pointer, not %T", out)
	}
	return decodeValue(doc, rv.Elem(), "")
}

func decodeValue(doc *jsonv.Value, v reflect.Value, at string) error {
	if doc == nil || doc.Kind == jsonv.Null {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
			v.SetZero()
		}
		return nil
	}
	t := v.Type()
	if t == rawMessageType {
		v.SetBytes(Encode(doc))
		return nil
	}
	mismatch := func() error {
		return fmt.Errorf("canonjson: %s: cannot decode a JSON %s into a %s", orTop(at), doc.Kind, t)
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return decodeValue(doc, v.Elem(), at)
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return mismatch()
		}
		if plain := Plain(doc); plain != nil {
			v.Set(reflect.ValueOf(plain))
		} else {
			v.SetZero()
		}
		return nil
	case reflect.String:
		if doc.Kind != jsonv.String {
			return mismatch()
		}
		v.SetString(doc.Str)
	case reflect.Bool:
		if doc.Kind != jsonv.Bool {
			return mismatch()
		}
		v.SetBool(doc.Bool)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if doc.Kind != jsonv.Number {
			return mismatch()
		}
		n, err := strconv.ParseInt(doc.Str, 10, t.Bits())
		if err != nil {
			return fmt.Errorf("canonjson: %s: %s is not an integer of a %s", orTop(at), doc.Str, t)
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if doc.Kind != jsonv.Number {
			return mismatch()
		}
		n, err := strconv.ParseUint(doc.Str, 10, t.Bits())
		if err != nil {
			return fmt.Errorf("canonjson: %s: %s is not an integer of a %s", orTop(at), doc.Str, t)
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		if doc.Kind != jsonv.Number {
			return mismatch()
		}
		f, err := strconv.ParseFloat(doc.Str, t.Bits())
		if err != nil {
			return fmt.Errorf("canonjson: %s: %s is not a number of a %s", orTop(at), doc.Str, t)
		}
		v.SetFloat(f)
	case reflect.Slice:
		if doc.Kind != jsonv.Array {
			return mismatch()
		}
		s := reflect.MakeSlice(t, len(doc.Arr), len(doc.Arr))
		for i, el := range doc.Arr {
			if err := decodeValue(el, s.Index(i), at+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Map:
		if doc.Kind != jsonv.Object || t.Key().Kind() != reflect.String {
			return mismatch()
		}
		m := reflect.MakeMapWithSize(t, len(doc.Obj))
		for _, member := range doc.Obj {
			el := reflect.New(t.Elem()).Elem()
			if err := decodeValue(member.Val, el, at+"."+member.Key); err != nil {
				return err
			}
			m.SetMapIndex(reflect.ValueOf(member.Key).Convert(t.Key()), el)
		}
		v.Set(m)
	case reflect.Struct:
		if doc.Kind != jsonv.Object {
			return mismatch()
		}
		fields := sortedFields(t)
		for _, member := range doc.Obj {
			i, ok := slices.BinarySearchFunc(fields, member.Key, func(f field, k string) int { return strings.Compare(f.name, k) })
			if !ok {
				continue
			}
			fv, err := settableField(v, fields[i].index)
			if err != nil {
				return err
			}
			if err := decodeValue(member.Val, fv, at+"."+member.Key); err != nil {
				return err
			}
		}
	default:
		return mismatch()
	}
	return nil
}

// settableField is the field at index, allocating nil embedded pointers on
// the way as json.Unmarshal does.
func settableField(v reflect.Value, index []int) (reflect.Value, error) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return reflect.Value{}, fmt.Errorf("canonjson: cannot set an embedded pointer of %s", v.Type())
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, nil
}

// Plain returns a document as json.Unmarshal into an any gives it: string,
// float64, bool, []any, map[string]any, or nil for null.
func Plain(doc *jsonv.Value) any {
	switch doc.Kind {
	case jsonv.String:
		return doc.Str
	case jsonv.Bool:
		return doc.Bool
	case jsonv.Number:
		f, _ := strconv.ParseFloat(doc.Str, 64)
		return f
	case jsonv.Array:
		out := make([]any, len(doc.Arr))
		for i, el := range doc.Arr {
			out[i] = Plain(el)
		}
		return out
	case jsonv.Object:
		out := make(map[string]any, len(doc.Obj))
		for _, m := range doc.Obj {
			if _, dup := out[m.Key]; !dup { // the first of a repeated key, as Get reads it
				out[m.Key] = Plain(m.Val)
			}
		}
		return out
	}
	return nil
}

func orTop(at string) string {
	if at == "" {
		return "the document"
	}
	return strings.TrimPrefix(at, ".")
}
