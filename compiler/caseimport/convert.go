package caseimport

import (
	"crypto/sha1"

	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/internal/natural"
)

// Delivery labels and keys (docs/reference/package-format.md).
const (
	labelFramework = "StandardsFramework"
	labelItem      = "StandardsFrameworkItem"
	keyCaseUUID    = "caseIdentifierUUID"
	rootFallback   = "unresolvedRootFallback"
)

// arrange settles the hierarchy: depths, statement types, which root edges
// are fallbacks, the sibling order; it returns the items in pre-order.
func (m *model) arrange() []*item {
	for _, e := range m.edges {
		if e.parent != "" {
			m.byID[e.parent].hasKids = true
		}
	}
	for _, it := range m.items {
		if len(it.parents) == 0 { // an orphan: hung under the root, marked
			e := &edge{id: fallbackID(it.id), child: it.id, fallback: true}
			it.parents = append(it.parents, e)
			m.edges = append(m.edges, e)
			m.rep.Items.Orphans++
		}
	}
	// Depth by breadth-first search from the root.
	for _, e := range m.edges {
		m.kids[e.parent] = append(m.kids[e.parent], e)
	}
	queue := []string{""}
	depth := map[string]int{"": 0}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, e := range m.kids[p] {
			if _, seen := depth[e.child]; !seen {
				depth[e.child] = depth[p] + 1
				m.byID[e.child].depth = depth[p] + 1
				queue = append(queue, e.child)
			}
		}
	}
	// Statement types: the CFItemType (spellings folded to the first seen),
	// else "Level N" by depth.
	spelled := map[string]string{}
	for _, it := range m.items {
		t := it.itemType
		if t == "" {
			t = fmt.Sprintf("Level %d", it.depth)
			m.rep.Items.Untyped++
		}
		k := strings.ToLower(strings.Join(strings.Fields(t), " "))
		if s, ok := spelled[k]; ok {
			t = s
		} else {
			spelled[k] = t
		}
		it.typ = t
	}
	// A type is a root type when none of its items has an item parent; a root
	// edge of another type's item becomes an unresolved root fallback.
	itemParent := map[string]bool{}
	for _, e := range m.edges {
		if e.parent != "" {
			itemParent[m.byID[e.child].typ] = true
		}
	}
	for _, e := range m.edges {
		if e.parent == "" && !e.fallback && itemParent[m.byID[e.child].typ] {
			e.fallback = true
			m.rep.Items.MixedRootFallbacks++
		}
	}
	for _, e := range m.edges {
		if e.fallback {
			m.rep.RootFallbacks++
		}
	}
	for p := range m.kids {
		sortEdges(m, m.kids[p])
	}
	var order []*item
	seen := map[string]bool{}
	var walk func(p string)
	walk = func(p string) {
		for _, e := range m.kids[p] {
			if !seen[e.child] {
				seen[e.child] = true
				order = append(order, m.byID[e.child])
				walk(e.child)
			}
		}
	}
	walk("")
	return order
}

// MaxDepth bounds the hierarchy an import takes: 128 levels below the
// document (real frameworks have fewer than 10; the server walks at most 64
// levels of ancestors a call). A deeper chain is refused with the reason.
const MaxDepth = 128

// checkDepth refuses a hierarchy deeper than MaxDepth (after arrange).
func (m *model) checkDepth(order []*item) []Finding {
	if len(order) == 0 {
		return nil
	}
	deepest := order[0]
	for _, it := range order {
		if it.depth > deepest.depth {
			deepest = it
		}
	}
	if deepest.depth <= MaxDepth {
		return nil
	}
	return []Finding{{Code: codeTooDeep, File: deepest.file, Where: deepest.where, ID: deepest.id, Message: fmt.Sprintf(
		"the isChildOf hierarchy is %d levels deep here; kgc imports at most %d (each level of untyped items becomes a statement type of the profile, and the server walks at most 64 levels a call)",
		deepest.depth, MaxDepth)}}
}

// sortEdges orders siblings: sequenceNumber first (those without one after),
// then listEnumeration, humanCodingScheme and statement in natural order,
// then identifier; real root edges before fallbacks.
func sortEdges(m *model, es []*edge) {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.fallback != b.fallback {
			return !a.fallback
		}
		if a.hasSeq != b.hasSeq {
			return a.hasSeq
		}
		if a.hasSeq && a.seq != b.seq {
			return a.seq < b.seq
		}
		x, y := m.byID[a.child], m.byID[b.child]
		for _, p := range [][2]string{{x.listEnum, y.listEnum}, {x.code, y.code}, {x.statement, y.statement}} {
			if c := natural.Compare(p[0], p[1]); c != 0 {
				return c < 0
			}
		}
		return a.child < b.child
	})
}

// fallbackID is the stable relationship ID of an orphan's root edge.
func fallbackID(child string) string {
	h := sha1.Sum([]byte("kgc import case: root fallback: " + child))
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	x := hex.EncodeToString(h[:16])
	return x[:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}

type nodeRec struct {
	Identifier string            `json:"identifier"`
	Labels     []string          `json:"labels"`
	Properties map[string]string `json:"properties"`
	Type       string            `json:"type"`
}

type relRec struct {
	Identifier       string            `json:"identifier"`
	Label            string            `json:"label"`
	Properties       map[string]string `json:"properties"`
	SourceIdentifier string            `json:"source_identifier"`
	SourceLabels     []string          `json:"source_labels"`
	TargetIdentifier string            `json:"target_identifier"`
	TargetLabels     []string          `json:"target_labels"`
	Type             string            `json:"type"`
}

// exports writes the delivery nodes and relationships JSONL to nw and rw,
// a record at a time.
func (m *model) exports(order []*item, p *derived, nw, rw io.Writer) (err error) {
	enc := func(w io.Writer, v any) {
		if err != nil {
			return
		}
		var b []byte
		if b, err = json.Marshal(v); err == nil {
			b = append(b, '\n')
			_, err = w.Write(b)
		}
	}
	d := m.in.doc.raw
	common := func(props map[string]string) map[string]string {
		props["license"] = p.rights.SourceLicense
		props["attributionStatement"] = p.rights.AttributionStatement
		props["isCurrent"] = p.isCurrent
		props["jurisdiction"] = p.jurisdiction
		for k, v := range map[string]string{"author": str(d, "creator"), "provider": str(d, "publisher"), "adoptionStatus": str(d, "adoptionStatus"), "academicSubject": p.subject} {
			if v != "" {
				props[k] = v
			}
		}
		return props
	}
	root := common(map[string]string{"identifier": m.docID, keyCaseUUID: m.docID, "caseIdentifierURI": m.docURI, "name": m.title})
	if p.docLang != "" {
		root["inLanguage"] = p.docLang
	}
	enc(nw, nodeRec{m.docID, []string{labelFramework}, root, "node"})
	for _, it := range order {
		props := common(map[string]string{"identifier": it.id, keyCaseUUID: it.id, "caseIdentifierURI": it.uri, "description": it.statement,
			"statementType": it.typ, "normalizedStatementType": p.normalized[it.typ]})
		if it.code != "" {
			props["statementCode"] = it.code
		}
		if it.listEnum != "" {
			props["listEnumeration"] = it.listEnum // the publisher's enumeration among its siblings
		}
		if g := p.grades(it.levels); len(g) > 0 {
			b, _ := json.Marshal(g)
			props["gradeLevel"] = string(b)
		}
		if l := firstNonEmpty(it.lang, p.docLang); l != "" && langRe.MatchString(l) {
			props["inLanguage"] = l
		}
		enc(nw, nodeRec{it.id, []string{labelItem}, props, "node"})
	}
	parents := append([]string{""}, itemIDs(order)...)
	for _, par := range parents {
		for _, e := range m.kids[par] {
			src, srcLabel := e.parent, labelItem
			if src == "" {
				src, srcLabel = m.docID, labelFramework
			}
			props := map[string]string{"identifier": e.id, "relationshipType": "hasChild",
				"sourceEntity": srcLabel, "sourceEntityKey": keyCaseUUID, "sourceEntityValue": src,
				"targetEntity": labelItem, "targetEntityKey": keyCaseUUID, "targetEntityValue": e.child,
				"license": p.rights.SourceLicense, "attributionStatement": p.rights.AttributionStatement}
			if e.fallback {
				props["resolutionStatus"] = rootFallback
			}
			if e.hasSeq {
				props["sequenceNumber"] = strconv.FormatInt(e.seq, 10) // the publisher's order of the siblings
			}
			enc(rw, relRec{e.id, "hasChild", props, src, []string{srcLabel}, e.child, []string{labelItem}, "relationship"})
		}
	}
	return err
}

// writePublisher writes the publisher relations JSONL, in input order.
func (m *model) writePublisher(w io.Writer) error {
	for _, r := range m.pubs {
		b, err := delivery.EncodePublisherRelation(r)
		if err != nil {
			return err
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}

func itemIDs(its []*item) []string {
	out := make([]string, len(its))
	for i, it := range its {
		out[i] = it.id
	}
	return out
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
