// Package caseimport turns a 1EdTech CASE CFPackage (CASE v1.0 or v1.1: the
// Competencies and Academic Standards Exchange form most standards frameworks
// are published in) into what `kgc pack` reads: delivery exports (nodes and
// relationships JSONL), a starter interpretation profile derived from the
// package and a pack spec (docs/import-case.md).
//
// The CASE identifiers become the nodes' identity (identifier,
// caseIdentifierUUID = the CFItem's identifier, caseIdentifierURI = its uri);
// isChildOf associations become the hasChild hierarchy, ordered by the
// association's sequenceNumber, then the item's listEnumeration and
// humanCodingScheme. No other association is carried over (a publisher's
// precedes or isRelatedTo is never made a progression edge): the Report counts
// every association type and every field left behind. Bad input (not CASE,
// cycles in isChildOf, dangling associations, duplicate identifiers, a file
// over MaxFileBytes) yields Findings, all of them, and nothing is written.
package caseimport

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// MaxFileBytes bounds one input file (100 MiB): a larger file is a finding,
// not read.
const MaxFileBytes = 100 << 20

// Finding is one problem with the input.
type Finding struct {
	Code    string `json:"code"`
	File    string `json:"file,omitempty"`
	Where   string `json:"where,omitempty"` // e.g. CFItems[3]
	ID      string `json:"id,omitempty"`    // the CASE identifier concerned
	Message string `json:"message"`
}

func (f Finding) String() string {
	s := ""
	if f.File != "" {
		s = f.File + ": "
	}
	if f.Where != "" {
		s += f.Where + ": "
	}
	s += "error " + f.Code + ": " + f.Message
	if f.ID != "" {
		s += " [" + f.ID + "]"
	}
	return s
}

// Finding codes.
const (
	CodeUnreadable     = "case_file_unreadable"
	CodeTooLarge       = "case_file_too_large"
	CodeNotJSON        = "case_not_json"
	CodeNotCASE        = "case_not_case"
	CodeVersion        = "case_unsupported_version"
	CodeMultipleDocs   = "case_multiple_documents"
	CodeMissingField   = "case_missing_field"
	CodeInvalidValue   = "case_invalid_value"
	CodeDuplicateID    = "case_duplicate_identifier"
	CodeDangling       = "case_association_dangling"
	CodeCycle          = "case_hierarchy_cycle"
	CodeNoItems        = "case_no_items"
	CodeIdentityFormat = "case_identifier_invalid"
)

// Link is a CASE LinkURI: {title, identifier, uri}.
type Link struct {
	Title      string `json:"title"`
	Identifier string `json:"identifier"`
	URI        string `json:"uri"`
}

// object is one decoded JSON object with where it came from.
type object struct {
	file, where string
	raw         map[string]json.RawMessage
}

// input is everything read from the files, before conversion.
type input struct {
	files   []string
	doc     *object
	version string
	items   []object
	assocs  []object
	defs    map[string][]object // CFDefinitions section → entries
	rubrics int
	other   map[string]int // unknown top-level members by name
}

// expand returns the input files: each FILE, or every *.json of a directory
// (not recursive), sorted.
func expand(paths []string) ([]string, []Finding) {
	var out []string
	var fnd []Finding
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			fnd = append(fnd, Finding{Code: CodeUnreadable, File: p, Message: err.Error()})
			continue
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			fnd = append(fnd, Finding{Code: CodeUnreadable, File: p, Message: err.Error()})
			continue
		}
		n := 0
		for _, e := range ents {
			if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".json") {
				out = append(out, filepath.Join(p, e.Name()))
				n++
			}
		}
		if n == 0 {
			fnd = append(fnd, Finding{Code: CodeUnreadable, File: p, Message: "the directory holds no .json file"})
		}
	}
	return out, fnd
}

// readFile reads one file, refusing anything but a regular file of at most
// MaxFileBytes.
func readFile(p string) ([]byte, *Finding) {
	f, err := os.Open(p)
	if err != nil {
		return nil, &Finding{Code: CodeUnreadable, File: p, Message: err.Error()}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &Finding{Code: CodeUnreadable, File: p, Message: err.Error()}
	}
	if !st.Mode().IsRegular() {
		return nil, &Finding{Code: CodeUnreadable, File: p, Message: "not a regular file"}
	}
	if st.Size() > MaxFileBytes {
		return nil, &Finding{Code: CodeTooLarge, File: p, Message: fmt.Sprintf("%d bytes, over the %d-byte (100 MiB) limit; not read", st.Size(), MaxFileBytes)}
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, &Finding{Code: CodeUnreadable, File: p, Message: err.Error()}
	}
	if len(b) > MaxFileBytes {
		return nil, &Finding{Code: CodeTooLarge, File: p, Message: fmt.Sprintf("over the %d-byte (100 MiB) limit; not read", MaxFileBytes)}
	}
	return b, nil
}

// read reads and merges the CFPackages of the files: exactly one CFDocument
// (the same one may be repeated across files that split one package).
func read(paths []string) (*input, []Finding) {
	files, fnd := expand(paths)
	in := &input{files: files, defs: map[string][]object{}, other: map[string]int{}}
	for _, p := range files {
		b, f := readFile(p)
		if f != nil {
			fnd = append(fnd, *f)
			continue
		}
		fnd = append(fnd, in.add(p, b)...)
	}
	if in.doc == nil && len(fnd) == 0 {
		fnd = append(fnd, Finding{Code: CodeNotCASE, Message: "no CFPackage given"})
	}
	return in, fnd
}

// add merges one file's CFPackage.
func (in *input) add(p string, b []byte) []Finding {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return []Finding{{Code: CodeNotJSON, File: p, Message: fmt.Sprintf("not JSON at byte %d: %v", se.Offset, err)}}
		}
		return []Finding{{Code: CodeNotCASE, File: p, Message: "not a JSON object (a CFPackage is an object with CFDocument, CFItems and CFAssociations)"}}
	}
	if wrapped, ok := top["CFPackage"]; ok && top["CFDocument"] == nil {
		top = nil
		if err := json.Unmarshal(wrapped, &top); err != nil || top == nil {
			return []Finding{{Code: CodeNotCASE, File: p, Where: "CFPackage", Message: "CFPackage is not a JSON object"}}
		}
	}
	if top["CFDocument"] == nil {
		return []Finding{{Code: CodeNotCASE, File: p, Message: "no CFDocument: not a CASE CFPackage (expected an object with CFDocument, CFItems and CFAssociations, or {\"CFPackage\": …})"}}
	}
	var fnd []Finding
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(top["CFDocument"], &doc); err != nil || doc == nil {
		return []Finding{{Code: CodeNotCASE, File: p, Where: "CFDocument", Message: "CFDocument is not a JSON object"}}
	}
	d := object{file: p, where: "CFDocument", raw: doc}
	id := str(doc, "identifier")
	switch {
	case in.doc == nil:
		in.doc = &d
		in.version = "1.0"
		if v := str(doc, "caseVersion"); v != "" {
			if v != "1.0" && v != "1.1" {
				fnd = append(fnd, Finding{Code: CodeVersion, File: p, Where: "CFDocument.caseVersion", Message: fmt.Sprintf("CASE version %q; kgc imports CASE 1.0 and 1.1", v)})
			}
			in.version = v
		}
	case str(in.doc.raw, "identifier") != id:
		fnd = append(fnd, Finding{Code: CodeMultipleDocs, File: p, ID: id, Message: fmt.Sprintf("a second CFDocument (%q, the first is %q in %s): import one framework at a time", id, str(in.doc.raw, "identifier"), in.doc.file)})
		return fnd
	}
	for _, sec := range []string{"CFItems", "CFAssociations"} {
		list, f := objects(p, sec, top[sec])
		fnd = append(fnd, f...)
		if sec == "CFItems" {
			in.items = append(in.items, list...)
		} else {
			in.assocs = append(in.assocs, list...)
		}
	}
	if raw := top["CFDefinitions"]; raw != nil && string(raw) != "null" {
		var defs map[string]json.RawMessage
		if err := json.Unmarshal(raw, &defs); err != nil {
			fnd = append(fnd, Finding{Code: CodeInvalidValue, File: p, Where: "CFDefinitions", Message: "CFDefinitions is not a JSON object"})
		}
		for k, v := range defs {
			list, f := objects(p, "CFDefinitions."+k, v)
			if k == "extensions" {
				list, f = []object{{}}, nil
			}
			fnd = append(fnd, f...)
			in.defs[k] = append(in.defs[k], list...)
		}
	}
	for k, v := range top {
		switch k {
		case "CFDocument", "CFItems", "CFAssociations", "CFDefinitions":
		case "CFRubrics":
			var n []json.RawMessage
			_ = json.Unmarshal(v, &n)
			in.rubrics += len(n)
		default:
			in.other[k]++
		}
	}
	return fnd
}

// objects decodes an array of JSON objects (null or absent: none).
func objects(p, sec string, raw json.RawMessage) ([]object, []Finding) {
	if raw == nil || string(raw) == "null" {
		return nil, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, []Finding{{Code: CodeInvalidValue, File: p, Where: sec, Message: sec + " is not an array"}}
	}
	var out []object
	var fnd []Finding
	for i, r := range list {
		var m map[string]json.RawMessage
		where := fmt.Sprintf("%s[%d]", sec, i)
		if err := json.Unmarshal(r, &m); err != nil || m == nil {
			fnd = append(fnd, Finding{Code: CodeInvalidValue, File: p, Where: where, Message: "not a JSON object"})
			continue
		}
		out = append(out, object{file: p, where: where, raw: m})
	}
	return out, fnd
}

// str returns a string member ("" when absent, null or not a string).
func str(m map[string]json.RawMessage, k string) string {
	var s string
	if r, ok := m[k]; ok {
		_ = json.Unmarshal(r, &s)
	}
	return strings.TrimSpace(s)
}

// strOK is str that also says whether a present member had the wrong type.
func strOK(m map[string]json.RawMessage, k string) (string, bool) {
	r, ok := m[k]
	if !ok || string(r) == "null" {
		return "", true
	}
	var s string
	if err := json.Unmarshal(r, &s); err != nil {
		return "", false
	}
	return strings.TrimSpace(s), true
}

// strs reads a member that is an array of strings or one string.
func strs(m map[string]json.RawMessage, k string) ([]string, bool) {
	r, ok := m[k]
	if !ok || string(r) == "null" {
		return nil, true
	}
	var one string
	if json.Unmarshal(r, &one) == nil {
		if one = strings.TrimSpace(one); one == "" {
			return nil, true
		}
		return []string{one}, true
	}
	var many []string
	if err := json.Unmarshal(r, &many); err != nil {
		return nil, false
	}
	var out []string
	for _, s := range many {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out, true
}

// link reads a LinkURI member; a bare string is taken as its uri.
func link(m map[string]json.RawMessage, k string) (Link, bool) {
	var l Link
	r, ok := m[k]
	if !ok || string(r) == "null" {
		return l, true
	}
	if json.Unmarshal(r, &l.URI) == nil {
		return l, true
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(r, &obj); err != nil {
		return l, false
	}
	l.Title, l.Identifier, l.URI = str(obj, "title"), str(obj, "identifier"), str(obj, "uri")
	return l, true
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
