package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/runtime/query"
)

// fieldHead is the header of a request-field table.
var fieldHead = []string{"field", "type", "required", "default", "constraints", "description"}

// fieldRows lists the fields of an object schema (the validating schema,
// query.Schema), nested objects and discriminated alternatives included, as
// table rows. prefix is the path of the object.
func fieldRows(prefix string, s *query.Schema) [][]string {
	var rows [][]string
	for _, name := range sortedKeys(s.Properties) {
		req := "no"
		if contains(s.Required, name) {
			req = "yes"
		}
		rows = append(rows, propRows(join(prefix, name), s.Properties[name], req)...)
	}
	return rows
}

// propRows is the row of one property and the rows of what it contains.
func propRows(path string, p *query.Schema, req string) [][]string {
	desc := p.Description
	if p.Hidden {
		desc = strings.TrimSpace("(not published in tools/list, still accepted) " + desc)
	}
	rows := [][]string{{code(path), typeOf(p), req, defaultOf(p), constraints(p), desc}}
	switch {
	case len(p.OneOf) > 0:
		rows = append(rows, branchRows(path, p)...)
	case p.Properties != nil:
		rows = append(rows, fieldRows(path, p)...)
	case p.Items != nil && len(p.Items.OneOf) > 0:
		rows = append(rows, branchRows(path+"[]", p.Items)...)
	case p.Items != nil && p.Items.Properties != nil:
		rows = append(rows, fieldRows(path+"[]", p.Items)...)
	}
	return rows
}

// branchRows lists the discriminator and the fields of discriminated
// alternatives, merged: a field every branch takes in the same form is one
// row; a field only some branches take (or take differently) says which.
func branchRows(prefix string, s *query.Schema) [][]string {
	disc := s.Discriminator
	values := branchValues(s)
	discRow := []string{code(join(prefix, disc)), "string", "yes", "—", "one of " + codes(values), discDescription(s)}
	type variant struct {
		row      [][]string
		in, reqd []string
	}
	byName := map[string][]*variant{}
	for _, alt := range s.OneOf {
		v := alt.Properties[disc].Const
		for name, p := range alt.Properties {
			if name == disc {
				continue
			}
			r := propRows(join(prefix, name), p, "")
			sig := fmt.Sprint(r)
			var found *variant
			for _, x := range byName[name] {
				if fmt.Sprint(x.row) == sig {
					found = x
				}
			}
			if found == nil {
				found = &variant{row: r}
				byName[name] = append(byName[name], found)
			}
			found.in = append(found.in, v)
			if contains(alt.Required, name) {
				found.reqd = append(found.reqd, v)
			}
		}
	}
	rows := [][]string{discRow}
	for _, name := range sortedKeys(byName) {
		for _, x := range byName[name] {
			r := append([]string(nil), x.row[0]...)
			switch {
			case len(x.reqd) == len(values):
				r[2] = "yes"
			case len(x.reqd) > 0:
				r[2] = "with " + which(disc, x.reqd)
			default:
				r[2] = "no"
			}
			if len(x.in) < len(values) {
				r[5] = strings.TrimSpace("(" + which(disc, x.in) + " only) " + r[5])
			}
			rows = append(rows, r)
			rows = append(rows, x.row[1:]...)
		}
	}
	return rows
}

func branchValues(s *query.Schema) []string {
	var out []string
	for _, alt := range s.OneOf {
		out = append(out, alt.Properties[s.Discriminator].Const)
	}
	return out
}

func discDescription(s *query.Schema) string {
	d := s.OneOf[0].Properties[s.Discriminator].Description
	if s.UnknownCode != "" {
		d = strings.TrimSpace(d + " (another value is the domain error " + code(s.UnknownCode) + ", not an input error)")
	}
	return d
}

// which names branches by their discriminator values.
func which(disc string, values []string) string {
	return disc + " " + strings.Join(quoteAll(values), " or ")
}

func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = code(s)
	}
	return out
}

// typeOf names a schema's JSON type.
func typeOf(s *query.Schema) string {
	if len(s.OneOf) > 0 {
		t := "object (by " + code(s.Discriminator) + ")"
		if contains(s.Types, "null") {
			t += " or null"
		}
		return t
	}
	var parts []string
	for _, t := range s.Types {
		if t == "array" && s.Items != nil {
			parts = append(parts, "array of "+typeOf(s.Items))
			continue
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return "any"
	}
	return strings.Join(parts, " or ")
}

// defaultOf is the JSON of a schema's default ("—" for none).
func defaultOf(s *query.Schema) string {
	if s.Default == nil {
		return "—"
	}
	b, err := json.Marshal(s.Default)
	if err != nil {
		return fmt.Sprint(s.Default)
	}
	return code(string(b))
}

// constraints lists the checks a value must pass.
func constraints(s *query.Schema) string {
	var out []string
	if s.Const != "" {
		out = append(out, "must be "+code(s.Const))
	}
	if len(s.Enum) > 0 && len(s.OneOf) == 0 {
		out = append(out, "one of "+codes(s.Enum))
	}
	switch {
	case s.Minimum != nil && s.Maximum != nil:
		out = append(out, fmt.Sprintf("%d–%d", *s.Minimum, *s.Maximum))
	case s.Minimum != nil:
		out = append(out, fmt.Sprintf("at least %d", *s.Minimum))
	case s.Maximum != nil:
		out = append(out, fmt.Sprintf("at most %d", *s.Maximum))
	}
	switch {
	case s.MaxLength > 0 && s.MinLength > 0:
		out = append(out, fmt.Sprintf("%d–%d characters", s.MinLength, s.MaxLength))
	case s.MaxLength > 0:
		out = append(out, fmt.Sprintf("at most %d characters", s.MaxLength))
	case s.MinLength > 0:
		out = append(out, fmt.Sprintf("at least %d characters", s.MinLength))
	}
	if s.Pattern != "" {
		out = append(out, "pattern "+code(s.Pattern))
	}
	if contains(s.Types, "array") {
		switch {
		case s.MaxItems > 0 && s.MinItems > 0:
			out = append(out, fmt.Sprintf("%d–%d items", s.MinItems, s.MaxItems))
		case s.MaxItems > 0:
			out = append(out, fmt.Sprintf("at most %d items", s.MaxItems))
		case s.MinItems > 0:
			out = append(out, fmt.Sprintf("at least %d items", s.MinItems))
		}
		if s.UniqueItems {
			out = append(out, "no repeated item")
		}
		if s.Items != nil && len(s.Items.OneOf) == 0 && s.Items.Properties == nil {
			if c := constraints(s.Items); c != "" {
				out = append(out, "each item: "+c)
			}
		}
	}
	return strings.Join(out, "; ")
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
