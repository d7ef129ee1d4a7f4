package query

import (
	"reflect"
	"strings"
)

// Results are built from the image in place: their strings alias the mapped
// bytes. What the Service hands its caller is detached first — every string
// reachable from it copied — so that it stays valid after Close, unless the
// caller asked for the results only while it holds the catalog
// (Options.ResultsAliasImages: the MCP adapter, which encodes each result
// before its handler returns).

// own detaches v (a result) unless the Service's results may alias the
// images; it passes err through.
func own[T any](s *Service, v T, err error) (T, error) {
	if err == nil && !s.opts.ResultsAliasImages {
		detach(reflect.ValueOf(&v).Elem())
	}
	return v, err
}

// detach replaces every string reachable from v through exported fields,
// pointers, interfaces, slices, arrays and maps with a copy. v must be
// settable; values behind pointers and slices are changed in place (they
// are the result's own), interface and map values are rebuilt.
func detach(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() && v.Len() > 0 {
			v.SetString(strings.Clone(v.String()))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			detach(v.Elem())
		}
	case reflect.Interface:
		if v.IsNil() || !v.CanSet() {
			return
		}
		e := v.Elem()
		c := reflect.New(e.Type()).Elem()
		c.Set(e)
		detach(c)
		v.Set(c)
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				detach(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			if v.CanSet() && !v.IsNil() {
				v.SetBytes(append([]byte(nil), v.Bytes()...))
			}
			return
		}
		for i := range v.Len() {
			detach(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() || !v.CanSet() {
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			k := reflect.New(v.Type().Key()).Elem()
			k.Set(it.Key())
			detach(k)
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(it.Value())
			detach(e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	}
}
