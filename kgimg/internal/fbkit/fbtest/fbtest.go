// Package fbtest helps the round-trip tests of the compiled forms.
package fbtest

import "reflect"

// SetLists makes every empty slice and map reachable through exported fields
// of v nil (empty=false) or non-nil and empty (empty=true), so a round trip
// can prove that presence is kept field by field.
func SetLists(v reflect.Value, empty bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			SetLists(v.Elem(), empty)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				SetLists(v.Field(i), empty)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			if empty {
				v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			} else {
				v.Set(reflect.Zero(v.Type()))
			}
		}
		for i := range v.Len() {
			SetLists(v.Index(i), empty)
		}
	case reflect.Map:
		if v.Len() == 0 {
			if empty {
				v.Set(reflect.MakeMap(v.Type()))
			} else {
				v.Set(reflect.Zero(v.Type()))
			}
		}
	}
}
