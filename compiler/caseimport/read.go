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
// cycles in isChildOf, dangling associations, duplicate identifiers, members
// of the wrong type, a file over MaxFileBytes, files over MaxInputBytes
// together) yields Findings, all of them, and nothing is written.
//
// The files are read as streams, one record at a time, and each record keeps
// only the members kgc carries (with a digest of every member, to tell the
// rest apart): the import's memory is a few times its input, not the input
// decoded whole (docs/import-case.md, "Limits").
package caseimport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/internal/safefile"
)

// MaxFileBytes bounds one input file (100 MiB): a larger file is a finding,
// not read.
const MaxFileBytes = 100 << 20

// MaxInputBytes bounds the whole import, every file together (256 MiB): the
// files past it are findings, not read.
const MaxInputBytes = 256 << 20

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
	s += f.Severity() + " " + f.Code + ": " + f.Message
	if f.ID != "" {
		s += " [" + f.ID + "]"
	}
	return s
}

// Severity is "warning" for the codes that do not stop an import, else
// "error".
func (f Finding) Severity() string {
	if warningCodes[f.Code] {
		return "warning"
	}
	return "error"
}

var warningCodes = map[string]bool{codeCoerced: true, codeDuplicateMerged: true}

// Finding codes.
const (
	codeUnreadable     = "case_file_unreadable"
	codeTooLarge       = "case_file_too_large"
	codeNotJSON        = "case_not_json"
	codeNotCASE        = "case_not_case"
	codeVersion        = "case_unsupported_version"
	codeMissingField   = "case_missing_field"
	codeInvalidValue   = "case_invalid_value"
	codeDuplicateID    = "case_duplicate_identifier"
	codeDangling       = "case_association_dangling"
	codeCycle          = "case_hierarchy_cycle"
	codeTooDeep        = "case_hierarchy_too_deep"
	codeNoItems        = "case_no_items"
	codeIdentityFormat = "case_identifier_invalid"
	codeProfileSize    = "case_profile_too_large"
	// Warnings: the import goes on.
	codeCoerced         = "case_value_coerced"
	codeDuplicateMerged = "case_duplicate_merged"
)

// linkURI is a CASE LinkURI: {title, identifier, uri}.
type linkURI struct {
	Title      string `json:"title"`
	Identifier string `json:"identifier"`
	URI        string `json:"uri"`
}

// field is one member of a record: its name and a digest of its value
// (compacted), to tell records apart without keeping what kgc does not carry.
type field struct {
	name string
	sum  uint64
}

// object is one decoded JSON object with where it came from. An item or an
// association keeps only its carried members (see carried), as one compact
// JSON object (kept) that build decodes once; any other object keeps raw.
// fields lists every non-null member with its digest.
type object struct {
	file, where string
	raw         map[string]json.RawMessage
	kept        []byte
	fields      []field // sorted by name
}

// members returns the object's (kept) members.
func (o object) members() map[string]json.RawMessage {
	if o.raw != nil || o.kept == nil {
		return o.raw
	}
	var m map[string]json.RawMessage
	_ = json.Unmarshal(o.kept, &m) // written by record: valid
	return m
}

// input is everything read of one CFDocument, before conversion.
type input struct {
	doc     *object
	version string
	items   []object
	assocs  []object
	defs    map[string][]object // CFDefinitions section → entries
	rubrics int
	other   map[string]int // unknown top-level members by name
	// findings of reading the document's records.
	findings []Finding
}

// inputs are the documents read, by identifier, in the order first read.
type inputs struct {
	byID  map[string]*input
	order []*input
	names map[string]string
}

// expand returns the input files: each FILE, or every *.json of a directory
// (not recursive), sorted.
func expand(paths []string) ([]string, []Finding) {
	var out []string
	var fnd []Finding
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			fnd = append(fnd, Finding{Code: codeUnreadable, File: p, Message: err.Error()})
			continue
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			fnd = append(fnd, Finding{Code: codeUnreadable, File: p, Message: err.Error()})
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
			fnd = append(fnd, Finding{Code: codeUnreadable, File: p, Message: "the directory holds no .json file"})
		}
	}
	return out, fnd
}

// open opens one input file: a regular file (a FIFO or device is refused,
// never waited on) of at most MaxFileBytes, within what is left of
// MaxInputBytes.
func open(p string, left *int64) (*os.File, *Finding) {
	f, size, err := safefile.OpenPath(p, MaxFileBytes)
	var tl *safefile.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, &Finding{Code: codeTooLarge, File: p, Message: fmt.Sprintf("%d bytes, over the %d-byte (100 MiB) limit of a file; not read", tl.Size, MaxFileBytes)}
	case errors.Is(err, safefile.ErrWrongType):
		return nil, &Finding{Code: codeUnreadable, File: p, Message: "not a regular file (a FIFO, device, directory or symbolic link); not read"}
	case err != nil:
		return nil, &Finding{Code: codeUnreadable, File: p, Message: err.Error()}
	}
	if size > *left {
		f.Close()
		return nil, &Finding{Code: codeTooLarge, File: p, Message: fmt.Sprintf("with the files before it, over the %d-byte (256 MiB) limit of one import; not read", MaxInputBytes)}
	}
	*left -= size
	return f, nil
}

// read reads the CFPackages of the files: every CFDocument, the packages of
// one document (split across files) merged. It returns the documents, the
// files read and the findings about the input as a whole.
func read(paths []string) ([]*input, []string, []Finding) {
	files, fnd := expand(paths)
	all := &inputs{byID: map[string]*input{}, names: map[string]string{}}
	left := int64(MaxInputBytes)
	for _, p := range files {
		f, bad := open(p, &left)
		if bad != nil {
			fnd = append(fnd, *bad)
			continue
		}
		fnd = append(fnd, all.addFile(p, f)...)
		f.Close()
	}
	if len(all.order) == 0 && len(fnd) == 0 {
		fnd = append(fnd, Finding{Code: codeNotCASE, Message: "no CFPackage given"})
	}
	return all.order, files, fnd
}

// stream decodes one file token by token.
type stream struct {
	file  string
	dec   *json.Decoder
	names map[string]string // member names, interned: every record repeats the same few
}

// syntax is the finding of a decoding error (nil when err is nil).
func (s *stream) syntax(err error) []Finding {
	var se *json.SyntaxError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &se):
		return []Finding{{Code: codeNotJSON, File: s.file, Message: fmt.Sprintf("not JSON at byte %d: %v", se.Offset, err)}}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return []Finding{{Code: codeNotJSON, File: s.file, Message: fmt.Sprintf("not JSON: it ends at byte %d inside a value", s.dec.InputOffset())}}
	}
	return []Finding{{Code: codeUnreadable, File: s.file, Message: err.Error()}}
}

// skip skips the rest of a value whose opening delimiter was read (depth 1),
// or nothing (depth 0).
func (s *stream) skip(depth int) error {
	for depth > 0 {
		t, err := s.dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

// addFile reads one file: a CFPackage, or a JSON array of them (a bulk
// export). Its findings are about the input as a whole; those about one
// document's records go to that document.
func (all *inputs) addFile(p string, f io.Reader) []Finding {
	s := &stream{file: p, dec: json.NewDecoder(bufio.NewReaderSize(io.LimitReader(f, MaxFileBytes+1), 64<<10)), names: all.names}
	t, err := s.dec.Token()
	if err != nil {
		return s.syntax(err)
	}
	var fnd []Finding
	switch t {
	case json.Delim('{'):
		pk := &pkg{defs: map[string][]object{}, other: map[string]int{}}
		f, err := pk.object(s, "")
		if err != nil {
			return append(fnd, s.syntax(err)...)
		}
		fnd = append(fnd, all.merge(p, pk, f)...)
	case json.Delim('['):
		if !s.dec.More() {
			return []Finding{{Code: codeNotCASE, File: p, Message: "an empty array: no CFPackage"}}
		}
		for i := 0; s.dec.More(); i++ {
			t, err := s.dec.Token()
			if err != nil {
				return append(fnd, s.syntax(err)...)
			}
			if t != json.Delim('{') {
				fnd = append(fnd, Finding{Code: codeNotCASE, File: p, Where: fmt.Sprintf("[%d]", i), Message: "not a JSON object (a bulk export is an array of CFPackages)"})
				if err := s.skip(depthOf(t)); err != nil {
					return append(fnd, s.syntax(err)...)
				}
				continue
			}
			pk := &pkg{defs: map[string][]object{}, other: map[string]int{}}
			f, err := pk.object(s, fmt.Sprintf("[%d].", i))
			if err != nil {
				return append(fnd, s.syntax(err)...)
			}
			fnd = append(fnd, all.merge(p, pk, f)...)
		}
		if _, err := s.dec.Token(); err != nil { // ']'
			return append(fnd, s.syntax(err)...)
		}
	default:
		return []Finding{{Code: codeNotCASE, File: p, Message: "not a JSON object (a CFPackage is an object with CFDocument, CFItems and CFAssociations; a bulk export an array of them)"}}
	}
	if _, err := s.dec.Token(); err != io.EOF {
		return append(fnd, Finding{Code: codeNotJSON, File: p, Message: fmt.Sprintf("more data after the CFPackage, at byte %d", s.dec.InputOffset())})
	}
	return fnd
}

// pkg is what one CFPackage object holds.
type pkg struct {
	doc     *object
	items   []object
	assocs  []object
	defs    map[string][]object
	rubrics int
	other   map[string]int
}

// object reads the members of a CFPackage object whose '{' was read, up to
// and including its '}'. prefix names where it is ("", "[3]." in a bulk
// export; "CFPackage." is added inside the wrapper).
func (pk *pkg) object(s *stream, prefix string) ([]Finding, error) {
	var fnd []Finding
	for s.dec.More() {
		t, err := s.dec.Token()
		if err != nil {
			return fnd, err
		}
		key, _ := t.(string)
		switch key {
		case "CFPackage":
			t, err := s.dec.Token()
			if err != nil {
				return fnd, err
			}
			if t != json.Delim('{') {
				fnd = append(fnd, Finding{Code: codeNotCASE, File: s.file, Where: prefix + "CFPackage", Message: "CFPackage is not a JSON object"})
				if err := s.skip(depthOf(t)); err != nil {
					return fnd, err
				}
				continue
			}
			f, err := pk.object(s, prefix+"CFPackage.")
			fnd = append(fnd, f...)
			if err != nil {
				return fnd, err
			}
		case "CFDocument":
			var raw json.RawMessage
			if err := s.dec.Decode(&raw); err != nil {
				return fnd, err
			}
			o, ok := record(s.file, prefix+"CFDocument", "CFDocument", raw, s.names)
			if !ok {
				fnd = append(fnd, Finding{Code: codeNotCASE, File: s.file, Where: prefix + "CFDocument", Message: "CFDocument is not a JSON object"})
				continue
			}
			pk.doc = &o
		case "CFItems", "CFAssociations":
			list, f, err := s.records(prefix+key, key)
			fnd = append(fnd, f...)
			if err != nil {
				return fnd, err
			}
			if key == "CFItems" {
				pk.items = append(pk.items, list...)
			} else {
				pk.assocs = append(pk.assocs, list...)
			}
		case "CFDefinitions":
			var raw json.RawMessage
			if err := s.dec.Decode(&raw); err != nil {
				return fnd, err
			}
			fnd = append(fnd, pk.definitions(s.file, prefix, raw, s.names)...)
		case "CFRubrics":
			n, err := s.count()
			if err != nil {
				return fnd, err
			}
			pk.rubrics += n
		default:
			var discard json.RawMessage
			if err := s.dec.Decode(&discard); err != nil {
				return fnd, err
			}
			pk.other[key]++
		}
	}
	_, err := s.dec.Token() // '}'
	return fnd, err
}

// depthOf is 1 for an opening delimiter (a value to skip the rest of), else 0.
func depthOf(t json.Token) int {
	if t == json.Delim('{') || t == json.Delim('[') {
		return 1
	}
	return 0
}

// records reads an array of objects (null: none) one element at a time.
func (s *stream) records(where, sec string) ([]object, []Finding, error) {
	t, err := s.dec.Token()
	if err != nil || t == nil {
		return nil, nil, err
	}
	if t != json.Delim('[') {
		return nil, []Finding{{Code: codeInvalidValue, File: s.file, Where: where, Message: sec + " is not an array"}}, s.skip(depthOf(t))
	}
	var out []object
	var fnd []Finding
	for i := 0; s.dec.More(); i++ {
		var raw json.RawMessage
		if err := s.dec.Decode(&raw); err != nil {
			return out, fnd, err
		}
		at := fmt.Sprintf("%s[%d]", where, i)
		o, ok := record(s.file, at, sec, raw, s.names)
		if !ok {
			fnd = append(fnd, Finding{Code: codeInvalidValue, File: s.file, Where: at, Message: "not a JSON object"})
			continue
		}
		out = append(out, o)
	}
	_, err = s.dec.Token() // ']'
	return out, fnd, err
}

// count counts the elements of an array (anything else: 0), decoding none.
func (s *stream) count() (int, error) {
	t, err := s.dec.Token()
	if err != nil || t != json.Delim('[') {
		if err == nil {
			err = s.skip(depthOf(t))
		}
		return 0, err
	}
	n := 0
	for s.dec.More() {
		var discard json.RawMessage
		if err := s.dec.Decode(&discard); err != nil {
			return n, err
		}
		n++
	}
	_, err = s.dec.Token()
	return n, err
}

// record decodes one object: for items and associations only the members
// kgc carries are kept (the document, one object, is kept whole); every
// member's digest is. names interns the member names.
func record(file, where, sec string, raw json.RawMessage, names map[string]string) (object, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return object{}, false
	}
	o := object{file: file, where: where, raw: m, fields: make([]field, 0, len(m))}
	keep := carried[sec]
	if sec == "CFDocument" {
		keep = nil
	}
	var buf bytes.Buffer
	for k, v := range m {
		if string(v) == "null" {
			continue
		}
		buf.Reset()
		if json.Compact(&buf, v) != nil {
			buf.Write(v)
		}
		h := fnv.New64a()
		h.Write(buf.Bytes())
		o.fields = append(o.fields, field{name: intern(names, k), sum: h.Sum64()})
		if keep != nil && !keep[k] {
			delete(m, k)
		}
	}
	sort.Slice(o.fields, func(i, j int) bool { return o.fields[i].name < o.fields[j].name })
	if keep != nil {
		o.kept, _ = json.Marshal(m) // the carried members only, compact
		o.raw = nil
	}
	return o, true
}

// intern returns the copy of s in names (adding it while names is small).
func intern(names map[string]string, s string) string {
	if n, ok := names[s]; ok {
		return n
	}
	if len(names) < 4096 {
		names[s] = s
	}
	return s
}

// definitions reads CFDefinitions: an object of sections, each an array.
func (pk *pkg) definitions(file, prefix string, raw json.RawMessage, names map[string]string) []Finding {
	if string(raw) == "null" {
		return nil
	}
	var defs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &defs); err != nil {
		return []Finding{{Code: codeInvalidValue, File: file, Where: prefix + "CFDefinitions", Message: "CFDefinitions is not a JSON object"}}
	}
	var fnd []Finding
	for _, k := range sortedKeys(defs) {
		if k == "extensions" {
			pk.defs[k] = append(pk.defs[k], object{})
			continue
		}
		list, f := objects(file, prefix+"CFDefinitions."+k, "CFDefinitions."+k, defs[k], names)
		fnd = append(fnd, f...)
		pk.defs[k] = append(pk.defs[k], list...)
	}
	return fnd
}

// merge adds one package (read with findings fnd about its records) to the
// input of its CFDocument: the first package of a document fixes its version;
// the packages of one document split across files are merged.
func (all *inputs) merge(p string, pk *pkg, fnd []Finding) []Finding {
	if pk.doc == nil {
		return append(fnd, Finding{Code: codeNotCASE, File: p, Message: "no CFDocument: not a CASE CFPackage (expected an object with CFDocument, CFItems and CFAssociations, or {\"CFPackage\": …})"})
	}
	doc := pk.doc.raw
	id := str(doc, "identifier")
	in := all.byID[id]
	if in == nil {
		in = &input{doc: pk.doc, version: "1.0", defs: map[string][]object{}, other: map[string]int{}}
		all.byID[id] = in
		all.order = append(all.order, in)
		v, ok := strOK(doc, "caseVersion")
		switch {
		case !ok:
			fnd = append(fnd, Finding{Code: codeInvalidValue, File: p, Where: pk.doc.where + ".caseVersion", Message: fmt.Sprintf("caseVersion must be a string (\"1.0\" or \"1.1\"), not %s", clipRaw(doc["caseVersion"]))})
		case v != "" && v != "1.0" && v != "1.1":
			fnd = append(fnd, Finding{Code: codeVersion, File: p, Where: pk.doc.where + ".caseVersion", Message: fmt.Sprintf("CASE version %q; kgc imports CASE 1.0 and 1.1", v)})
		case v != "":
			in.version = v
		}
	}
	in.findings = append(in.findings, fnd...)
	in.items = append(in.items, pk.items...)
	in.assocs = append(in.assocs, pk.assocs...)
	for k, v := range pk.defs {
		in.defs[k] = append(in.defs[k], v...)
	}
	in.rubrics += pk.rubrics
	for k, v := range pk.other {
		in.other[k] += v
	}
	return nil
}

// clipRaw shows a JSON value in a message, cut at 60 bytes.
func clipRaw(r json.RawMessage) string {
	s := string(r)
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// objects decodes an array of JSON objects (null or absent: none).
func objects(p, where, sec string, raw json.RawMessage, names map[string]string) ([]object, []Finding) {
	if raw == nil || string(raw) == "null" {
		return nil, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, []Finding{{Code: codeInvalidValue, File: p, Where: where, Message: sec + " is not an array"}}
	}
	var out []object
	var fnd []Finding
	for i, r := range list {
		at := fmt.Sprintf("%s[%d]", where, i)
		o, ok := record(p, at, sec, r, names)
		if !ok {
			fnd = append(fnd, Finding{Code: codeInvalidValue, File: p, Where: at, Message: "not a JSON object"})
			continue
		}
		out = append(out, o)
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
func link(m map[string]json.RawMessage, k string) (linkURI, bool) {
	var l linkURI
	r, ok := m[k]
	if !ok || string(r) == "null" {
		return l, true
	}
	if json.Unmarshal(r, &l.URI) == nil {
		return l, true
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(r, &obj); err != nil || obj == nil {
		return l, false
	}
	var okT, okI, okU bool
	l.Title, okT = strOK(obj, "title")
	l.Identifier, okI = strOK(obj, "identifier")
	l.URI, okU = strOK(obj, "uri")
	return l, okT && okI && okU
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
