package jsonschema

import (
	"sort"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonv"
)

// WithDefaults returns v (valid against s) with every absent property that
// has a default filled in, recursively (through the branch a discriminator
// picks). The schema is the one place defaults are written: handlers decode
// a complete request and never supply a default of their own.
func (s *Schema) WithDefaults(v *jsonv.Value) *jsonv.Value {
	if v == nil || v.Kind != jsonv.Object {
		return v
	}
	if len(s.OneOf) > 0 {
		if d := v.Get(s.Discriminator); d != nil {
			for _, alt := range s.OneOf {
				if alt.Properties[s.Discriminator].Const == d.Str {
					return alt.WithDefaults(v)
				}
			}
		}
		return v
	}
	out := &jsonv.Value{Kind: jsonv.Object, Off: v.Off, Obj: make([]jsonv.Member, 0, len(s.Properties))}
	for _, m := range v.Obj {
		if p := s.Properties[m.Key]; p != nil {
			m.Val = p.WithDefaults(m.Val)
		}
		out.Obj = append(out.Obj, m)
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := s.Properties[name]
		if p.Default == nil || v.Get(name) != nil {
			continue
		}
		b, err := canonjson.Marshal(p.Default)
		if err != nil {
			continue
		}
		if dv, errs := jsonv.Parse(b); dv != nil && len(errs) == 0 {
			out.Obj = append(out.Obj, jsonv.Member{Key: name, Val: dv})
		}
	}
	return out
}

// DefaultsFor returns the top-level defaults of the request req (through the
// branch its discriminator picks): what a continuation may leave out.
func (s *Schema) DefaultsFor(req map[string]any) map[string]any {
	if len(s.OneOf) > 0 {
		d, _ := req[s.Discriminator].(string)
		for _, alt := range s.OneOf {
			if alt.Properties[s.Discriminator].Const == d {
				return alt.DefaultsFor(req)
			}
		}
		return nil
	}
	out := map[string]any{}
	for name, p := range s.Properties {
		if p.Default != nil {
			out[name] = p.Default
		}
	}
	return out
}
