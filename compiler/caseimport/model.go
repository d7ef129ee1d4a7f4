package caseimport

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// item is one CFItem as kgc carries it.
type item struct {
	id, uri, statement, code, itemType, listEnum, lang string
	levels                                             []string
	file, where                                        string
	typ                                                string // the statement type it gets
	depth                                              int    // 1 = directly under the document (min over parents)
	parents                                            []*edge
	hasKids                                            bool
}

// edge is one hasChild relationship (parent "" is the framework root).
type edge struct {
	id, parent, child string
	seq               float64
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
	rep        *Report
	byURI      map[string]string
	lowerIDs   map[string]string
	seenEdge   map[[2]string]bool
	assocIDs   map[string]string
	externalEP int
}

// Identity limits of the package format (docs/reference/package-format.md).
const (
	maxIDLen  = 1024
	maxURILen = 2048
)

var controlRe = regexp.MustCompile(`[\x00-\x1f\x7f]`)

func checkIdentity(s string, max int) string {
	switch {
	case len(s) > max:
		return fmt.Sprintf("%d characters, over the package format's %d", len(s), max)
	case controlRe.MatchString(s):
		return "contains a control character"
	}
	return ""
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

func (m *model) countFields(sec string, raw map[string]json.RawMessage) {
	for k, v := range raw {
		if !carried[sec][k] && string(v) != "null" {
			m.rep.NotCarriedFields[sec+"."+k]++
		}
	}
}

// build checks the input and builds the model; any finding means no output.
func build(in *input, rep *Report) (*model, []Finding) {
	m := &model{in: in, rep: rep, byID: map[string]*item{}, kids: map[string][]*edge{}, byURI: map[string]string{},
		lowerIDs: map[string]string{}, seenEdge: map[[2]string]bool{}, assocIDs: map[string]string{}}
	var fnd []Finding
	add := func(o object, code, id, format string, a ...any) {
		fnd = append(fnd, Finding{Code: code, File: o.file, Where: o.where, ID: id, Message: fmt.Sprintf(format, a...)})
	}
	d := *in.doc
	m.docID, m.docURI, m.title = str(d.raw, "identifier"), str(d.raw, "uri"), str(d.raw, "title")
	for k, v := range map[string]string{"identifier": m.docID, "uri": m.docURI, "title": m.title} {
		if v == "" {
			add(d, CodeMissingField, m.docID, "the CFDocument has no %s", k)
		}
	}
	m.countFields("CFDocument", d.raw)
	if m.docID != "" {
		m.index(m.docID, m.docURI)
	}
	for _, o := range in.items {
		it := &item{file: o.file, where: o.where}
		var ok [6]bool
		it.id, ok[0] = strOK(o.raw, "identifier")
		it.uri, ok[1] = strOK(o.raw, "uri")
		it.statement, ok[2] = strOK(o.raw, "fullStatement")
		it.code, ok[3] = strOK(o.raw, "humanCodingScheme")
		it.itemType, ok[4] = strOK(o.raw, "CFItemType")
		it.listEnum, ok[5] = strOK(o.raw, "listEnumeration")
		it.lang = str(o.raw, "language")
		for i, k := range []string{"identifier", "uri", "fullStatement", "humanCodingScheme", "CFItemType", "listEnumeration"} {
			if !ok[i] {
				add(o, CodeInvalidValue, it.id, "%s is not a string", k)
			}
		}
		lv, okLv := strs(o.raw, "educationLevel")
		if _, old := o.raw["educationLevel"]; !old {
			lv, okLv = strs(o.raw, "educationalLevel") // early OpenSALT exports
		}
		if !okLv {
			add(o, CodeInvalidValue, it.id, "educationLevel is neither a string nor an array of strings")
		}
		it.levels = lv
		for k, v := range map[string]string{"identifier": it.id, "uri": it.uri, "fullStatement": it.statement} {
			if v == "" {
				add(o, CodeMissingField, it.id, "the CFItem has no %s (CASE requires it)", k)
			}
		}
		if it.id == "" {
			continue
		}
		if why := checkIdentity(it.id, maxIDLen); why != "" {
			add(o, CodeIdentityFormat, it.id, "identifier %s", why)
		}
		if why := checkIdentity(it.uri, maxURILen); why != "" {
			add(o, CodeIdentityFormat, it.id, "uri %s", why)
		}
		if prev, dup := m.byID[it.id]; dup {
			add(o, CodeDuplicateID, it.id, "identifier %s is also the CFItem at %s %s", it.id, prev.file, prev.where)
			continue
		}
		if it.id == m.docID {
			add(o, CodeDuplicateID, it.id, "identifier %s is also the CFDocument's", it.id)
			continue
		}
		if other, dup := m.byURI[it.uri]; dup && it.uri != "" {
			add(o, CodeDuplicateID, it.id, "uri %s is also the uri of %s", it.uri, other)
		}
		m.byID[it.id] = it
		m.items = append(m.items, it)
		m.index(it.id, it.uri)
		m.countFields("CFItems", o.raw)
	}
	rep.Items.Read = len(in.items)
	if len(in.items) == 0 {
		fnd = append(fnd, Finding{Code: CodeNoItems, File: d.file, Where: "CFItems", ID: m.docID, Message: "the package has no CFItems: nothing to import"})
	}
	for _, o := range in.assocs {
		fnd = append(fnd, m.association(o)...)
	}
	rep.Associations.Read = len(in.assocs)
	fnd = append(fnd, m.cycles()...)
	return m, fnd
}

func (m *model) index(id, uri string) {
	m.lowerIDs[strings.ToLower(id)] = id
	if uri != "" {
		if _, dup := m.byURI[uri]; !dup {
			m.byURI[uri] = id
		}
	}
}

// resolve finds the node a LinkURI names: by identifier, by uri, or by the
// last segment of the uri. "" when it is outside the package.
func (m *model) resolve(l Link) string {
	for _, c := range []string{l.Identifier, m.byURI[l.URI]} {
		if id, ok := m.lowerIDs[strings.ToLower(c)]; ok && c != "" {
			return id
		}
	}
	if i := strings.LastIndex(strings.TrimRight(l.URI, "/"), "/"); i >= 0 && l.URI != "" {
		seg := strings.TrimSuffix(strings.TrimRight(l.URI, "/")[i+1:], ".json")
		if id, ok := m.lowerIDs[strings.ToLower(seg)]; ok {
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
	id := str(o.raw, "identifier")
	typ := str(o.raw, "associationType")
	origin, ok1 := link(o.raw, "originNodeURI")
	dest, ok2 := link(o.raw, "destinationNodeURI")
	if !ok1 || !ok2 {
		add(CodeInvalidValue, id, "originNodeURI and destinationNodeURI must be LinkURI objects {title, identifier, uri}")
		return fnd
	}
	for k, v := range map[string]string{"identifier": id, "associationType": typ} {
		if v == "" {
			add(CodeMissingField, id, "the CFAssociation has no %s", k)
		}
	}
	if origin == (Link{}) || dest == (Link{}) {
		add(CodeMissingField, id, "the CFAssociation needs both originNodeURI and destinationNodeURI")
	}
	if len(fnd) > 0 {
		return fnd
	}
	if prev, dup := m.assocIDs[id]; dup {
		add(CodeDuplicateID, id, "association identifier %s is also the CFAssociation at %s", id, prev)
		return fnd
	}
	m.assocIDs[id] = o.file + " " + o.where
	from, to := m.resolve(origin), m.resolve(dest)
	if typ != "isChildOf" {
		if from == "" && to == "" {
			add(CodeDangling, id, "%s association: neither end (%s, %s) is the CFDocument or a CFItem of this package", typ, linkName(origin), linkName(dest))
			return fnd
		}
		if from == "" || to == "" {
			m.externalEP++
		}
		m.rep.NotCarriedAssociations[typ]++
		m.rep.Associations.NotCarried++
		return fnd
	}
	switch {
	case from == "" || m.byID[from] == nil:
		add(CodeDangling, id, "isChildOf: the origin %s is not a CFItem of this package", linkName(origin))
	case to == "":
		add(CodeDangling, id, "isChildOf: the destination %s is neither the CFDocument nor a CFItem of this package", linkName(dest))
	}
	if len(fnd) > 0 {
		return fnd
	}
	if to == m.docID {
		to = ""
	}
	m.countFields("CFAssociations", o.raw)
	key := [2]string{to, from}
	if m.seenEdge[key] {
		m.rep.NotCarriedAssociations["isChildOf (repeated pair, kept once)"]++
		m.rep.Associations.NotCarried++
		return fnd
	}
	m.seenEdge[key] = true
	e := &edge{id: id, parent: to, child: from}
	if r, ok := o.raw["sequenceNumber"]; ok && string(r) != "null" {
		var f float64
		var s string
		if json.Unmarshal(r, &f) == nil {
			e.seq, e.hasSeq = f, true
		} else if json.Unmarshal(r, &s) == nil {
			if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
				e.seq, e.hasSeq = f, true
			}
		}
	}
	if why := checkIdentity(id, maxIDLen); why != "" {
		add(CodeIdentityFormat, id, "association identifier %s", why)
	}
	m.edges = append(m.edges, e)
	m.byID[from].parents = append(m.byID[from].parents, e)
	m.rep.Associations.Carried++
	m.rep.CarriedAssociations["isChildOf"]++
	return fnd
}

func linkName(l Link) string {
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
			fnd = append(fnd, Finding{Code: CodeCycle, File: it.file, Where: it.where, ID: e.child, Message: fmt.Sprintf("isChildOf %s makes the item its own parent", e.id)})
			continue
		}
		adj[idx[e.child]] = append(adj[idx[e.child]], idx[e.parent])
	}
	for _, comp := range scc(adj) {
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
		fnd = append(fnd, Finding{Code: CodeCycle, File: m.items[comp[0]].file, ID: ids[0],
			Message: fmt.Sprintf("isChildOf associations form a cycle through %d items: %s", len(ids), strings.Join(shown, ", "))})
	}
	return fnd
}

// scc returns the strongly connected components (Tarjan, iterative).
func scc(adj [][]int) [][]int {
	n := len(adj)
	index, low := make([]int, n), make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var comps [][]int
	var stack []int
	next := 0
	type frame struct{ v, i int }
	for s := 0; s < n; s++ {
		if index[s] >= 0 {
			continue
		}
		call := []frame{{s, 0}}
		index[s], low[s] = next, next
		next++
		stack, on[s] = append(stack, s), true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.i < len(adj[f.v]) {
				w := adj[f.v][f.i]
				f.i++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack, on[w] = append(stack, w), true
					call = append(call, frame{w, 0})
				} else if on[w] && index[w] < low[f.v] {
					low[f.v] = index[w]
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 && low[v] < low[call[len(call)-1].v] {
				low[call[len(call)-1].v] = low[v]
			}
			if low[v] == index[v] {
				var comp []int
				for {
					w := stack[len(stack)-1]
					stack, on[w] = stack[:len(stack)-1], false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				comps = append(comps, comp)
			}
		}
	}
	return comps
}
