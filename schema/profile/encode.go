package profile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
)

// Encode writes p as a profile file (docs/reference/profile-format.md):
// JSON indented by two spaces, members in the order of the Profile type,
// HTML characters left as they are, and a final newline. Lists are always
// written, empty as [] (the format requires them; Decode reads [] as nil),
// and unbounded parent counts (MaxCount -1) as null. For every profile
// Decode accepts, Decode(Encode(p)) is p again.
func Encode(p *Profile) ([]byte, error) {
	c := *p
	emptyLists(reflect.ValueOf(&c).Elem())
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&c); err != nil {
		return nil, fmt.Errorf("profile: encode %s: %w", p.ProfileID, err)
	}
	return b.Bytes(), nil
}

// emptyLists replaces every nil slice reachable from v (a settable struct)
// with an empty one, copying the slices it changes so that the caller's
// profile is left as it was.
func emptyLists(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				emptyLists(v.Field(i))
			}
		}
	case reflect.Pointer:
		if !v.IsNil() && v.Elem().Kind() == reflect.Struct {
			c := reflect.New(v.Elem().Type())
			c.Elem().Set(v.Elem())
			emptyLists(c.Elem())
			v.Set(c)
		}
	case reflect.Slice:
		if v.IsNil() {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			return
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(c, v)
		for i := range c.Len() {
			emptyLists(c.Index(i))
		}
		v.Set(c)
	}
}

// MarshalJSON writes an allowed parent as the profile file states it: a
// MaxCount of -1 (unbounded) is null.
func (a AllowedParent) MarshalJSON() ([]byte, error) {
	var maxCount *int64
	if a.MaxCount >= 0 {
		maxCount = &a.MaxCount
	}
	return json.Marshal(struct {
		ParentStatementType string `json:"parentStatementType"`
		MinCount            int64  `json:"minCount"`
		MaxCount            *int64 `json:"maxCount"`
	}{a.ParentStatementType, a.MinCount, maxCount})
}
