package kgimg

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/kgimg/kgfb"
)

// TestDescriptionsMatchSchema parses kgimg/kgimg.fbs and checks that the
// verifier's table descriptions list the same tables, fields, order, types and
// required markers.
func TestDescriptionsMatchSchema(t *testing.T) {
	src, err := os.ReadFile("kgimg.fbs")
	if err != nil {
		t.Fatal(err)
	}
	enums := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^enum (\w+)`).FindAllStringSubmatch(string(src), -1) {
		enums[m[1]] = true
	}
	scalars := map[string]int{"bool": 1, "ubyte": 1, "byte": 1, "int16": 2, "uint16": 2, "int32": 4, "uint32": 4, "float": 4, "int64": 8, "uint64": 8, "double": 8}
	tableRe := regexp.MustCompile(`(?ms)^table (\w+) \{(.*?)^\}`)
	fieldRe := regexp.MustCompile(`(?m)^\s*(\w+):\s*(\[?\w+\]?)([^;]*);`)
	descs := map[string]*tableDesc{}
	for _, d := range allTables {
		descs[d.name] = d
	}
	found := 0
	for _, tm := range tableRe.FindAllStringSubmatch(string(src), -1) {
		name := tm[1]
		d, ok := descs[name]
		if !ok {
			t.Errorf("table %s has no verifier description", name)
			continue
		}
		found++
		var body []string
		for _, line := range strings.Split(tm[2], "\n") {
			if i := strings.Index(line, "//"); i >= 0 {
				line = line[:i]
			}
			body = append(body, line)
		}
		fields := fieldRe.FindAllStringSubmatch(strings.Join(body, "\n"), -1)
		if len(fields) != len(d.fields) {
			t.Errorf("table %s: schema has %d fields, description %d", name, len(fields), len(d.fields))
			continue
		}
		for i, fm := range fields {
			f := d.fields[i]
			typ, req := fm[2], strings.Contains(fm[3], "required")
			if fm[1] != f.name || req != f.required {
				t.Errorf("%s field %d: schema %s (required %v), description %s (required %v)", name, i, fm[1], req, f.name, f.required)
			}
			var ok bool
			switch {
			case strings.Contains(fm[3], "deprecated"):
				ok = f.kind == kDeprecated
			case typ == "string":
				ok = f.kind == kString
			case typ == "[string]":
				ok = f.kind == kStrings
			case strings.HasPrefix(typ, "["):
				inner := strings.Trim(typ, "[]")
				if size, scalar := scalars[inner]; scalar {
					ok = f.kind == kBytes && f.size == size
				} else {
					ok = f.kind == kTables && f.table.name == inner
				}
			case enums[typ]:
				ok = f.kind == kEnum
			default:
				if size, scalar := scalars[typ]; scalar {
					ok = f.kind == kScalar && f.size == size
				} else {
					ok = f.kind == kTable && f.table.name == typ
				}
			}
			if !ok {
				t.Errorf("%s.%s: schema type %s does not match the description", name, f.name, typ)
			}
		}
	}
	if found != len(allTables) {
		t.Errorf("schema has %d described tables, descriptions list %d", found, len(allTables))
	}
}

// TestEnumNames: the image's enumerations spell their values as the format's
// generated enumerations do (kgc inspect prints them), and name a value
// outside them the same way.
func TestEnumNames(t *testing.T) {
	for v := 0; v < 8; v++ {
		for _, c := range [][2]string{
			{NodeKind(v).String(), kgfb.NodeKind(v).String()},
			{RelLabel(v).String(), kgfb.RelLabel(v).String()},
			{Direction(v).String(), kgfb.Direction(v).String()},
			{FacetKind(v).String(), kgfb.FacetKind(v).String()},
			{ProfileKeyKind(v).String(), kgfb.ProfileKeyKind(v).String()},
		} {
			if c[0] != c[1] {
				t.Errorf("value %d: %q, format %q", v, c[0], c[1])
			}
		}
	}
}
