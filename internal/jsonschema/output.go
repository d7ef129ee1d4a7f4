package jsonschema

import (
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Output returns the JSON Schema (2020-12) of a result type, generated
// from the Go type itself so that what a tool advertises cannot drift from
// what it returns: objects with their properties (required unless omitempty,
// no others allowed), nullability from pointers, nil-able slices and maps,
// arrays with their items, closed string values (an `enum:"a,b"` tag), the
// alternatives of an interface-typed field (alternatives lists the concrete
// types each holds) and fixed-length arrays (tuples: the types encoded as
// JSON arrays by their MarshalJSON, with the schemas of their items).
// Every named struct is defined once under $defs and referenced, which keeps
// tools/list compact.
func Output(t reflect.Type, alternatives map[reflect.Type][]reflect.Type, tuples map[reflect.Type][]map[string]any) map[string]any {
	g := &schemaGen{defs: map[string]any{}, alternatives: alternatives, tuples: tuples}
	for t.Kind() == reflect.Pointer {
		t = t.Elem() // a result is never null
	}
	root := g.schema(t)
	if ref, ok := root["$ref"].(string); ok && len(g.defs) > 0 {
		// The root object itself rather than a reference to it: MCP hosts
		// expect an object schema at the top.
		name := strings.TrimPrefix(ref, "#/$defs/")
		root = g.defs[name].(map[string]any)
		delete(g.defs, name)
		root = cloneMap(root)
	}
	if len(g.defs) > 0 {
		root["$defs"] = g.defs
	}
	return root
}

type schemaGen struct {
	defs         map[string]any
	alternatives map[reflect.Type][]reflect.Type
	tuples       map[reflect.Type][]map[string]any
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

func (g *schemaGen) schema(t reflect.Type) map[string]any {
	if t == rawMessage {
		return map[string]any{}
	}
	if items, ok := g.tuples[t]; ok {
		prefix := make([]any, len(items))
		for i, it := range items {
			prefix[i] = it
		}
		return map[string]any{"type": "array", "prefixItems": prefix, "minItems": len(items), "maxItems": len(items)}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return orNull(g.schema(t.Elem()))
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return map[string]any{"type": "integer"}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer", "minimum": 0}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return orNull(map[string]any{"type": "array", "items": g.schema(t.Elem())})
	case reflect.Map:
		out := map[string]any{"type": "object"}
		if t.Elem().Kind() != reflect.Interface {
			out["additionalProperties"] = g.schema(t.Elem())
		}
		return orNull(out)
	case reflect.Interface:
		alts := g.alternatives[t]
		if len(alts) == 0 {
			return map[string]any{} // any JSON value
		}
		alt := make([]any, len(alts))
		for i, a := range alts {
			alt[i] = g.schema(a)
		}
		return map[string]any{"anyOf": alt}
	case reflect.Struct:
		name := defName(t)
		if _, ok := g.defs[name]; !ok {
			g.defs[name] = nil // reserve: a recursive type refers to itself
			g.defs[name] = g.object(t)
		}
		return map[string]any{"$ref": "#/$defs/" + name}
	}
	return map[string]any{}
}

// object is the schema of a struct type, fields resolved as canonjson
// encodes them.
func (g *schemaGen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	var required []string
	g.fields(t, props, &required, true, map[string]bool{})
	sort.Strings(required)
	out := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}

func (g *schemaGen) fields(t reflect.Type, props map[string]any, required *[]string, mandatory bool, seen map[string]bool) {
	var embedded []reflect.StructField
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if sf.Anonymous && name == "" {
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
		props[name] = g.schema(sf.Type)
		if values := sf.Tag.Get("enum"); values != "" {
			// A closed set of values (`enum:"a,b"` on a string field).
			enum := []any{}
			for _, v := range strings.Split(values, ",") {
				enum = append(enum, v)
			}
			if sf.Type.Kind() == reflect.Pointer {
				enum = append(enum, nil) // a nil pointer encodes as null
			}
			props[name] = cloneMap(props[name].(map[string]any))
			props[name].(map[string]any)["enum"] = enum
		}
		if mandatory && opts != "omitempty" {
			*required = append(*required, name)
		}
	}
	for _, sf := range embedded {
		et, must := sf.Type, mandatory
		if et.Kind() == reflect.Pointer {
			et, must = et.Elem(), false // a nil embedded pointer's fields are absent
		}
		sub := map[string]any{}
		var subReq []string
		g.fields(et, sub, &subReq, must, map[string]bool{})
		for k, v := range sub {
			if !seen[k] {
				seen[k] = true
				props[k] = v
			}
		}
		for _, k := range subReq {
			if !slices.Contains(*required, k) {
				*required = append(*required, k)
			}
		}
	}
}

// orNull adds null to a schema's types (or offers it beside a reference).
func orNull(s map[string]any) map[string]any {
	switch t := s["type"].(type) {
	case string:
		out := cloneMap(s)
		out["type"] = []any{t, "null"}
		return out
	case []any:
		return s
	}
	if _, ok := s["$ref"]; ok {
		return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
	}
	return s // any value, null included
}

var defChars = regexp.MustCompile(`[^A-Za-z0-9_]+`)

// defName names a struct type in $defs: its Go name, generic arguments
// reduced to their own names.
func defName(t reflect.Type) string {
	name := t.Name()
	if i := strings.IndexByte(name, '['); i >= 0 {
		args := strings.Split(strings.TrimSuffix(name[i+1:], "]"), ",")
		for j, a := range args {
			args[j] = a[strings.LastIndexByte(a, '.')+1:]
		}
		name = name[:i] + "_" + strings.Join(args, "_")
	}
	return defChars.ReplaceAllString(name, "_")
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
