package query

import (
	"reflect"
	"strings"
)

// Results are built from the image in place: their strings alias the mapped
// bytes, and parts of them are shared with the Service's per-package caches
// and the catalog's manifests. What the Service hands its caller is
// detached first — a copy in which every string, pointer target, slice and
// map is the result's own — so that it stays valid after Close and a caller
// may change it, unless the caller asked for the results only while it holds
// the catalog (Options.ResultsAliasImages: the MCP adapter, which encodes
// each result before its handler returns).

// own detaches v (a result) unless the Service's results may alias the
// images; it passes err through.
func own[T any](s *Service, v T, err error) (T, error) {
	if err != nil || s.opts.ResultsAliasImages {
		return v, err
	}
	var out T
	detachInto(reflect.ValueOf(&out).Elem(), reflect.ValueOf(&v).Elem())
	return out, nil
}

// detachInto sets dst (settable, of src's type) to a deep copy of src
// through exported fields, pointers, interfaces, slices, arrays and maps,
// every string copied. It writes nothing reachable from src: a result
// shares values with caches that other calls read at the same time.
func detachInto(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.String:
		dst.SetString(strings.Clone(src.String()))
	case reflect.Pointer:
		if src.IsNil() {
			dst.Set(src)
			return
		}
		p := reflect.New(src.Type().Elem())
		detachInto(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Interface:
		if src.IsNil() {
			dst.Set(src)
			return
		}
		e := reflect.New(src.Elem().Type()).Elem()
		detachInto(e, src.Elem())
		dst.Set(e)
	case reflect.Struct:
		dst.Set(src) // unexported fields as they are
		t := src.Type()
		for i := range src.NumField() {
			if t.Field(i).IsExported() {
				detachInto(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			dst.Set(src)
			return
		}
		if src.Type().Elem().Kind() == reflect.Uint8 {
			dst.SetBytes(append([]byte(nil), src.Bytes()...))
			return
		}
		c := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			detachInto(c.Index(i), src.Index(i))
		}
		dst.Set(c)
	case reflect.Array:
		for i := range src.Len() {
			detachInto(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			dst.Set(src)
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		k, e := reflect.New(src.Type().Key()).Elem(), reflect.New(src.Type().Elem()).Elem()
		for it := src.MapRange(); it.Next(); {
			detachInto(k, it.Key())
			detachInto(e, it.Value())
			m.SetMapIndex(k, e)
		}
		dst.Set(m)
	default:
		dst.Set(src)
	}
}
