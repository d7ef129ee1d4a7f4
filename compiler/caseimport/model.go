package caseimport

import (
	"encoding/json"
	"math"

	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/internal/digraph"
	"github.com/kgc-project/kgc/schema/ids"
)

// item is one CFItem as kgc carries it.
type item struct {
	id, uri, statement, code, itemType, listEnum, lang string
	levels                                             []string
	file, where                                        string
	fields                                             []field // every member's digest, to tell a repeat from a clash
	typ                                                string  // the statement type it gets
	depth                                              int     // 1 = directly under the document (min over parents)
	parents                                            []*edge
	hasKids                                            bool
}

// edge is one hasChild relationship (parent "" is the framework root).
type edge struct {
	id, parent, child string
	seq               int64
	hasSeq            bool
	fallback          bool
}

// model is the framework read from a CFPackage, checked.
type model struct {
	in         *input
	docID      string
	docURI     string
	title      string
	items      []*item
	byID       map[string]*item
	edges      []*edge
	kids       map[string][]*edge // parent ("" = root) → child edges
	rep        *Document
	byURI      map[string]string
	lowerIDs   map[string]string
	seenEdge   map[[2]string]bool
	assocIDs   map[string]object             // by identifier: the first association
	pubs       []*delivery.PublisherRelation // the publisher relations carried, in input order
	seenPub    map[delivery.PublisherKey]bool
	externalEP int
}

// checkIdentity is why s cannot be an identifier, URI or title of the
// package format (ids.CheckOpaque, whose checks the gate applies too), or
// "" when it can; an empty s passes (a missing value is reported, or
// allowed, where it is read).
func checkIdentity(s string, max int) string {
	if s == "" {
		return ""
	}
	return ids.CheckOpaque(s, max)
}

// carried fields, by section: everything else present is counted in the
// report as not carried over.
var carried = map[string]map[string]bool{
	"CFDocument":     set("identifier", "uri", "title", "creator", "publisher", "subject", "language", "adoptionStatus", "licenseURI", "version", "caseVersion"),
	"CFItems":        set("identifier", "uri", "fullStatement", "humanCodingScheme", "CFItemType", "educationLevel", "educationalLevel", "language", "listEnumeration"),
	"CFAssociations": set("identifier", "associationType", "originNodeURI", "destinationNodeURI", "sequenceNumber"),
}

func set(s ...string) map[string]bool {
	m := map[string]bool{}
	for _, v := range s {
		m[v] = true
	}
	return m
}

func (m *model) countFields(sec string, o object) {
	for _, f := range o.fields {
		if !carried[sec][f.name] {
			m.rep.NotCarriedFields[sec+"."+f.name]++
		}
	}
}

// build checks the input and builds the model; any finding means no output.
func build(in *input, rep *Document) (*model, []Finding) {
	m := &model{in: in, rep: rep, byID: map[string]*item{}, kids: map[string][]*edge{}, byURI: map[string]string{},
		lowerIDs: map[string]string{}, seenEdge: map[[2]string]bool{}, assocIDs: map[string]object{}, seenPub: map[delivery.PublisherKey]bool{}}
	var fnd []Finding
	add := func(o object, code, id, format string, a ...any) {
		fnd = append(fnd, Finding{Code: code, File: o.file, Where: o.where, ID: id, Message: fmt.Sprintf(format, a...)})
	}
	d := *in.doc
	m.docID, m.docURI, m.title = str(d.raw, "identifier"), str(d.raw, "uri"), str(d.raw, "title")
	for _, k := range []string{"identifier", "uri", "title"} {
		if str(d.raw, k) == "" {
			add(d, codeMissingField, m.docID, "the CFDocument has no %s", k)
		}
	}
	fnd = append(fnd, checkDocument(d, m.docID)...)
	m.countFields("CFDocument", d)
	if m.docID != "" {
		m.index(m.docID, m.docURI)
	}
	for _, o := range in.items {
		it := &item{file: o.file, where: o.where}
		raw := o.members()
		var ok [6]bool
		it.id, ok[0] = strOK(raw, "identifier")
		it.uri, ok[1] = strOK(raw, "uri")
		it.statement, ok[2] = strOK(raw, "fullStatement")
		it.code, ok[3] = strOK(raw, "humanCodingScheme")
		it.itemType, ok[4] = strOK(raw, "CFItemType")
		it.listEnum, ok[5] = strOK(raw, "listEnumeration")
		var okLang bool
		it.lang, okLang = strOK(raw, "language")
		if !okLang {
			add(o, codeInvalidValue, it.id, "language is not a string")
		}
		for i, k := range []string{"identifier", "uri", "fullStatement", "humanCodingScheme", "CFItemType", "listEnumeration"} {
			if !ok[i] {
				add(o, codeInvalidValue, it.id, "%s is not a string", k)
			}
		}
		lv, okLv := strs(raw, "educationLevel")
		if _, old := raw["educationLevel"]; !old {
			lv, okLv = strs(raw, "educationalLevel") // early OpenSALT exports
		}
		if !okLv {
			add(o, codeInvalidValue, it.id, "educationLevel is neither a string nor an array of strings")
		}
		it.levels = lv
		for _, f := range []struct{ k, v string }{{"identifier", it.id}, {"uri", it.uri}, {"fullStatement", it.statement}} {
			if f.v == "" {
				add(o, codeMissingField, it.id, "the CFItem has no %s (CASE requires it)", f.k)
			}
		}
		if it.id == "" {
			continue
		}
		if prev, dup := m.byID[it.id]; dup {
			if diff := diffFields(prev.fields, o.fields); len(diff) > 0 {
				add(o, codeDuplicateID, it.id, "identifier %s is also the CFItem at %s %s, which differs in %s", it.id, prev.file, prev.where, strings.Join(diff, ", "))
			} else {
				m.warn(Finding{Code: codeDuplicateMerged, File: o.file, Where: o.where, ID: it.id,
					Message: fmt.Sprintf("the same CFItem as at %s %s, member for member: kept once", prev.file, prev.where)})
				rep.Items.Duplicates++
			}
			continue
		}
		it.fields = o.fields
		if why := checkIdentity(it.id, ids.MaxNodeID); why != "" {
			add(o, codeIdentityFormat, it.id, "identifier: %s", why)
		}
		if why := checkIdentity(it.uri, ids.MaxCaseURI); why != "" {
			add(o, codeIdentityFormat, it.id, "uri: %s", why)
		}
		if it.id == m.docID {
			add(o, codeDuplicateID, it.id, "identifier %s is also the CFDocument's", it.id)
			continue
		}
		if other, dup := m.byURI[it.uri]; dup && it.uri != "" {
			add(o, codeDuplicateID, it.id, "uri %s is also the uri of %s", it.uri, other)
		}
		m.byID[it.id] = it
		m.items = append(m.items, it)
		m.index(it.id, it.uri)
		m.countFields("CFItems", o)
	}
	rep.Items.Read = len(in.items)
	if len(in.items) == 0 {
		fnd = append(fnd, Finding{Code: codeNoItems, File: d.file, Where: "CFItems", ID: m.docID, Message: "the package has no CFItems: nothing to import"})
	}
	for _, o := range in.assocs {
		fnd = append(fnd, m.association(o)...)
	}
	rep.Associations.Read = len(in.assocs)
	fnd = append(fnd, m.cycles()...)
	return m, fnd
}

// documentStrings are the CFDocument members kgc reads as strings.
var documentStrings = []string{"identifier", "uri", "title", "creator", "publisher", "version", "adoptionStatus", "language", "lastChangeDateTime"}

// checkDocument refuses CFDocument members of the wrong type (a number for
// a string, an object for the subjects, a licenseURI that is not a LinkURI)
// instead of reading them as absent.
func checkDocument(d object, id string) []Finding {
	var fnd []Finding
	bad := func(k, want string) {
		fnd = append(fnd, Finding{Code: codeInvalidValue, File: d.file, Where: d.where + "." + k, ID: id,
			Message: fmt.Sprintf("%s must be %s, not %s", k, want, clipRaw(d.raw[k]))})
	}
	for _, k := range documentStrings {
		if _, ok := strOK(d.raw, k); !ok {
			bad(k, "a string")
		}
	}
	if _, ok := strs(d.raw, "subject"); !ok {
		bad("subject", "a string or an array of strings")
	}
	if _, ok := link(d.raw, "licenseURI"); !ok {
		bad("licenseURI", "a LinkURI {title, identifier, uri}")
	}
	return fnd
}

func (m *model) index(id, uri string) {
	low := strings.ToLower(id)
	if prev, ok := m.lowerIDs[low]; ok && prev != id {
		m.lowerIDs[low] = "" // two identifiers equal but for case: only exact lookups find them
	} else if !ok {
		m.lowerIDs[low] = id
	}
	if uri != "" {
		if _, dup := m.byURI[uri]; !dup {
			m.byURI[uri] = id
		}
	}
}

// known reports whether id is the document's or an item's identifier.
func (m *model) known(id string) bool { return id != "" && (id == m.docID || m.byID[id] != nil) }

// resolve finds the node a LinkURI names: by identifier, by uri, or by the
// last segment of the uri, each exactly first, then ignoring case where that
// names one identifier only (CASE UUIDs are written in either case). Two
// identifiers that differ only by case are each found exactly, never one
// for the other. "" when it is outside the package.
func (m *model) resolve(l linkURI) string {
	seg := ""
	if i := strings.LastIndex(strings.TrimRight(l.URI, "/"), "/"); i >= 0 && l.URI != "" {
		seg = strings.TrimSuffix(strings.TrimRight(l.URI, "/")[i+1:], ".json")
	}
	cands := []string{l.Identifier, m.byURI[l.URI], seg}
	for _, c := range cands {
		if m.known(c) {
			return c
		}
	}
	for _, c := range cands {
		if id := m.lowerIDs[strings.ToLower(c)]; c != "" && id != "" {
			return id
		}
	}
	return ""
}

// association checks one CFAssociation and carries an isChildOf.
func (m *model) association(o object) []Finding {
	var fnd []Finding
	add := func(code, id, format string, a ...any) {
		fnd = append(fnd, Finding{Code: code, File: o.file, Where: o.where, ID: id, Message: fmt.Sprintf(format, a...)})
	}
	raw := o.members()
	id, okID := strOK(raw, "identifier")
	typ, okType := strOK(raw, "associationType")
	origin, ok1 := link(raw, "originNodeURI")
	dest, ok2 := link(raw, "destinationNodeURI")
	seq, hasSeq, seqWarn, okSeq := sequence(raw["sequenceNumber"])
	for _, c := range []struct {
		ok   bool
		what string
	}{{okID, "identifier must be a string"}, {okType, "associationType must be a string"},
		{ok1 && ok2, "originNodeURI and destinationNodeURI must be LinkURI objects {title, identifier, uri} of strings"},
		{okSeq, "sequenceNumber must be an integer, not " + clipRaw(raw["sequenceNumber"])}} {
		if !c.ok {
			add(codeInvalidValue, id, "%s", c.what)
		}
	}
	if len(fnd) > 0 {
		return fnd
	}
	if seqWarn {
		m.warn(Finding{Code: codeCoerced, File: o.file, Where: o.where + ".sequenceNumber", ID: id,
			Message: fmt.Sprintf("sequenceNumber %s is a string; read as the integer %d (CASE: an integer)", raw["sequenceNumber"], seq)})
	}
	for k, v := range map[string]string{"identifier": id, "associationType": typ} {
		if v == "" {
			add(codeMissingField, id, "the CFAssociation has no %s", k)
		}
	}
	if origin == (linkURI{}) || dest == (linkURI{}) {
		add(codeMissingField, id, "the CFAssociation needs both originNodeURI and destinationNodeURI")
	}
	if len(fnd) > 0 {
		return fnd
	}
	if prev, dup := m.assocIDs[id]; dup {
		if diff := diffFields(prev.fields, o.fields); len(diff) > 0 {
			add(codeDuplicateID, id, "association identifier %s is also the CFAssociation at %s %s, which differs in %s", id, prev.file, prev.where, strings.Join(diff, ", "))
		} else {
			m.warn(Finding{Code: codeDuplicateMerged, File: o.file, Where: o.where, ID: id,
				Message: fmt.Sprintf("the same CFAssociation as at %s %s, member for member: kept once", prev.file, prev.where)})
			m.rep.Associations.Duplicates++
		}
		return fnd
	}
	m.assocIDs[id] = o
	from, to := m.resolve(origin), m.resolve(dest)
	if typ != "isChildOf" {
		if from == "" && to == "" {
			add(codeDangling, id, "%s association: neither end (%s, %s) is the CFDocument or a CFItem of this package", typ, linkName(origin), linkName(dest))
			return fnd
		}
		if from == "" || to == "" {
			m.externalEP++
		}
		if _, known := delivery.PublisherRelationType(typ); !known {
			m.rep.NotCarriedAssociations[typ]++ // an extension type
			m.rep.Associations.NotCarried++
			return fnd
		}
		r := &delivery.PublisherRelation{ID: id, Type: typ, Origin: m.end(from, origin), Destination: m.end(to, dest)}
		for _, e := range []delivery.RelationEnd{r.Origin, r.Destination} {
			if e.External() && e.URI == "" && e.Identifier == "" {
				add(codeMissingField, id, "%s association: an end outside the package gives neither a uri nor an identifier (%s)", typ, linkName(linkURI{Title: e.Title}))
				return fnd
			}
		}
		if hasSeq {
			r.Sequence = &seq
		}
		if why := checkIdentity(id, ids.MaxNodeID); why != "" {
			add(codeIdentityFormat, id, "association identifier: %s", why)
			return fnd
		}
		key := r.Key()
		if m.seenPub[key] {
			m.rep.NotCarriedAssociations[typ+" (repeated pair, kept once)"]++
			m.rep.Associations.NotCarried++
			return fnd
		}
		m.seenPub[key] = true
		m.pubs = append(m.pubs, r)
		m.countFields("CFAssociations", o)
		m.rep.CarriedAssociations[typ]++
		m.rep.Associations.Carried++
		m.rep.Associations.Publisher++
		return fnd
	}
	switch {
	case from == "" || m.byID[from] == nil:
		add(codeDangling, id, "isChildOf: the origin %s is not a CFItem of this package", linkName(origin))
	case to == "":
		add(codeDangling, id, "isChildOf: the destination %s is neither the CFDocument nor a CFItem of this package", linkName(dest))
	}
	if len(fnd) > 0 {
		return fnd
	}
	if to == m.docID {
		to = ""
	}
	m.countFields("CFAssociations", o)
	key := [2]string{to, from}
	if m.seenEdge[key] {
		m.rep.NotCarriedAssociations["isChildOf (repeated pair, kept once)"]++
		m.rep.Associations.NotCarried++
		return fnd
	}
	m.seenEdge[key] = true
	e := &edge{id: id, parent: to, child: from, seq: seq, hasSeq: hasSeq}
	if why := checkIdentity(id, ids.MaxNodeID); why != "" {
		add(codeIdentityFormat, id, "association identifier: %s", why)
	}
	m.edges = append(m.edges, e)
	m.byID[from].parents = append(m.byID[from].parents, e)
	m.rep.Associations.Carried++
	m.rep.CarriedAssociations["isChildOf"]++
	return fnd
}

// end is a relation end: the node id resolved (the document's for the
// CFDocument), else the reference as CASE gives it.
func (m *model) end(resolved string, l linkURI) delivery.RelationEnd {
	if resolved != "" {
		return delivery.RelationEnd{NodeID: resolved}
	}
	clean := func(s string, max int) string {
		if checkIdentity(s, max) != "" {
			return ""
		}
		return s
	}
	return delivery.RelationEnd{URI: clean(l.URI, ids.MaxCaseURI), Identifier: clean(l.Identifier, ids.MaxNodeID), Title: clean(l.Title, ids.MaxCaseURI)}
}

// diffFields names the members two records do not share with the same
// value (compared compacted), in name order.
func diffFields(a, b []field) []string {
	var out []string
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i].name < b[j].name):
			out = append(out, a[i].name)
			i++
		case i == len(a) || b[j].name < a[i].name:
			out = append(out, b[j].name)
			j++
		default:
			if a[i].sum != b[j].sum {
				out = append(out, a[i].name)
			}
			i, j = i+1, j+1
		}
	}
	return out
}

// sequence reads a sequenceNumber: an integer (a JSON number without a
// fraction), absent or null (has false); a string holding an integer, as
// some real exports write it, is read with a warning (coerced). ok is false
// for anything else.
func sequence(r json.RawMessage) (seq int64, has, coerced, ok bool) {
	if r == nil || string(r) == "null" {
		return 0, false, false, true
	}
	var n json.Number
	if r[0] != '"' && json.Unmarshal(r, &n) == nil { // (json.Number also takes "1")
		if i, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
			return i, true, false, true
		}
		if f, err := n.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<63 { // e.g. 2.0
			return int64(f), true, false, true
		}
		return 0, false, false, false
	}
	var s string
	if json.Unmarshal(r, &s) == nil {
		if i, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
			return i, true, true, true
		}
	}
	return 0, false, false, false
}

// warn records a warning: the import goes on, the report says what was
// read differently from how it was written.
func (m *model) warn(f Finding) { m.rep.Warnings = append(m.rep.Warnings, f) }

func linkName(l linkURI) string {
	switch {
	case l.Identifier != "" && l.URI != "":
		return l.Identifier + " (" + l.URI + ")"
	case l.Identifier != "":
		return l.Identifier
	}
	return l.URI
}

// cycles reports every cycle of isChildOf among the items (one finding per
// strongly connected component, or per self-association).
func (m *model) cycles() []Finding {
	idx := map[string]int{}
	for i, it := range m.items {
		idx[it.id] = i
	}
	adj := make([][]int, len(m.items))
	var fnd []Finding
	for _, e := range m.edges {
		if e.parent == "" {
			continue
		}
		if e.parent == e.child {
			it := m.byID[e.child]
			fnd = append(fnd, Finding{Code: codeCycle, File: it.file, Where: it.where, ID: e.child, Message: fmt.Sprintf("isChildOf %s makes the item its own parent", e.id)})
			continue
		}
		adj[idx[e.child]] = append(adj[idx[e.child]], idx[e.parent])
	}
	for _, comp := range digraph.StronglyConnected(adj) {
		if len(comp) < 2 {
			continue
		}
		ids := make([]string, len(comp))
		for i, n := range comp {
			ids[i] = m.items[n].id
		}
		sort.Strings(ids)
		shown := ids
		if len(shown) > 6 {
			shown = append(shown[:6:6], "…")
		}
		fnd = append(fnd, Finding{Code: codeCycle, File: m.items[comp[0]].file, ID: ids[0],
			Message: fmt.Sprintf("isChildOf associations form a cycle through %d items: %s", len(ids), strings.Join(shown, ", "))})
	}
	return fnd
}
