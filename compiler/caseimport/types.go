package caseimport

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/kgc-project/kgc/schema/profile"
)

// types derives statementTypes and the hierarchy policy from what the
// package does: every type's observed parent types and counts.
func (m *model) types(p *derived, order []*item) {
	type stat struct {
		n, leaves, depthSum, first int
		parents                    map[string]int // parent type → items having one
		maxPer                     map[string]int // parent type → most parents of it on one item
		withItemParent             int
	}
	stats := map[string]*stat{}
	var names []string
	multi := false
	for i, it := range order {
		s := stats[it.typ]
		if s == nil {
			s = &stat{first: i, parents: map[string]int{}, maxPer: map[string]int{}}
			stats[it.typ] = s
			names = append(names, it.typ)
		}
		s.n++
		s.depthSum += it.depth
		if !it.hasKids {
			s.leaves++
		}
		per := map[string]int{}
		real := 0
		for _, e := range it.parents {
			if e.parent != "" {
				per[m.byID[e.parent].typ]++
			}
			if !e.fallback {
				real++
			}
		}
		if real > 1 {
			multi = true
		}
		if len(per) > 0 {
			s.withItemParent++
		}
		for t, c := range per {
			s.parents[t]++
			s.maxPer[t] = max(s.maxPer[t], c)
		}
	}
	defs := map[string]string{}
	for _, o := range m.in.defs["CFItemTypes"] {
		t := firstNonEmpty(str(o.raw, "title"), str(o.raw, "typeCode"))
		if desc := str(o.raw, "description"); t != "" && desc != "" {
			defs[strings.ToLower(t)] = desc
		}
	}
	// Order: by mean depth, then first appearance.
	sort.SliceStable(names, func(i, j int) bool {
		a, b := stats[names[i]], stats[names[j]]
		da, db := float64(a.depthSum)/float64(a.n), float64(b.depthSum)/float64(b.n)
		if da != db {
			return da < db
		}
		return a.first < b.first
	})
	h := profile.Hierarchy{RelationshipType: "hasChild", AllowMultiParent: multi, StatementTypeOrder: names}
	p.profile.StatementTypes = nil
	for _, t := range names {
		s := stats[t]
		norm := "Standard"
		if s.leaves == 0 {
			norm = "Standard Grouping"
		}
		p.normalized[t] = norm
		if s.withItemParent == 0 {
			h.RootStatementTypes = append(h.RootStatementTypes, t)
		}
		desc := defs[strings.ToLower(t)]
		if desc == "" {
			desc = fmt.Sprintf("CASE CFItemType %q (%d items).", t, s.n)
			if strings.HasPrefix(t, "Level ") && m.rep.Items.Untyped > 0 {
				desc = fmt.Sprintf("Items without a CFItemType at depth %s of the CASE hierarchy (%d items).", strings.TrimPrefix(t, "Level "), s.n)
			}
		}
		st := profile.StatementType{SourceStatementType: t, NormalizedStatementType: norm, Description: desc, IsGraphNode: true}
		for _, pt := range sortedKeys(s.parents) {
			ap := profile.AllowedParent{ParentStatementType: pt}
			if len(s.parents) == 1 { // items without an item parent hang by fallbacks, which the gate does not count
				ap.MinCount = 1
			}
			mx := s.maxPer[pt]
			if !multi {
				mx = 1
			}
			ap.MaxCount = int64(mx)
			st.AllowedParents = append(st.AllowedParents, ap)
		}
		p.profile.StatementTypes = append(p.profile.StatementTypes, st)
		m.rep.StatementTypes = append(m.rep.StatementTypes, TypeSummary{StatementType: t, NormalizedStatementType: norm, Items: s.n, Root: s.withItemParent == 0})
		if gradeTypes[facetKey(t)] { // CASE's own name for the items that are grades
			p.profile.GradeLevelStatementTypes = append(p.profile.GradeLevelStatementTypes, t)
		}
	}
	if len(h.RootStatementTypes) == 0 {
		// Every type also sits under items: the root gets a type of its own,
		// which no item has (all root edges are then fallbacks).
		const synthetic = "CASE Document Root"
		h.RootStatementTypes = []string{synthetic}
		h.StatementTypeOrder = append([]string{synthetic}, h.StatementTypeOrder...)
		p.profile.StatementTypes = append([]profile.StatementType{{SourceStatementType: synthetic, NormalizedStatementType: "Standard Grouping",
			Description: "Declared by kgc import case so the hierarchy has a root type; no item has it.", IsGraphNode: true}}, p.profile.StatementTypes...)
	}
	p.profile.Hierarchy = h
}

// gradeTypes are the CFItemType names (folded) whose items are grade levels.
var gradeTypes = map[string]bool{"grade": true, "grade level": true, "grade-level": true, "gradelevel": true}

// codes derives the code search policy from humanCodingScheme: one code type
// per statement type that has codes, its patterns generalised from the codes.
func (m *model) codes(p *derived, order []*item) {
	byType := map[string][]string{}
	var typeOrder []string
	coded, seen, unique := 0, map[string]bool{}, true
	for _, it := range order {
		if it.code == "" {
			continue
		}
		coded++
		if _, ok := byType[it.typ]; !ok {
			typeOrder = append(typeOrder, it.typ)
		}
		byType[it.typ] = append(byType[it.typ], it.code)
		k := strings.ToLower(it.code)
		if seen[k] {
			unique = false
		}
		seen[k] = true
	}
	cp := profile.CodeSearchPolicy{Availability: "none"}
	m.rep.CodedItems = coded
	if coded > 0 {
		cp.Availability = "partial"
		if coded == len(order) {
			cp.Availability = "complete"
		}
		cp.WhitespaceNormalization = true
		cp.CodesAreUniqueIdentifiers = unique
		for _, d := range []string{".", "-", "_", "/", ":"} {
			for c := range seen {
				if strings.Contains(c, d) {
					cp.PrefixDelimiters = append(cp.PrefixDelimiters, d)
					break
				}
			}
		}
		cp.AllowPrefixSearch = len(cp.PrefixDelimiters) > 0
		cp.CanonicalizationNotes = []string{"Codes are the CASE humanCodingScheme, as published; the patterns were generalised from them by kgc import case."}
		used := map[string]bool{}
		for _, t := range typeOrder {
			key := strings.ReplaceAll(slug(t, 60), "-", "_")
			if key == "" || key[0] < 'a' || key[0] > 'z' {
				key = "code_" + key
			}
			for base, i := key, 2; used[key]; i++ {
				key = fmt.Sprintf("%s_%d", base, i)
			}
			used[key] = true
			pats := patterns(byType[t])
			cp.CodeTypes = append(cp.CodeTypes, profile.CodeType{CodeType: key, Patterns: pats, StatementTypes: []string{t}})
			for i := range p.profile.StatementTypes {
				if p.profile.StatementTypes[i].SourceStatementType == t {
					k := key
					p.profile.StatementTypes[i].CodeType = &k
				}
			}
			m.rep.CodePatterns = append(m.rep.CodePatterns, t+": "+strings.Join(pats, " | "))
		}
	}
	p.profile.CodeSearchPolicy = cp
}

// maxPatterns bounds the patterns of one code type; codes of more shapes get
// one catch-all pattern.
const maxPatterns = 8

// patterns generalises codes: letter runs become [A-Za-z]+ (kept literal
// when every code of the shape has the same run), digit runs \d+,
// punctuation stays literal.
func patterns(codes []string) []string {
	type shape struct {
		toks [][]string // position → the values seen
		kind []byte
	}
	shapes := map[string]*shape{}
	var order []string
	for _, c := range codes {
		toks, kinds := tokens(c)
		sig := string(kinds) + "\x00" + strings.Join(punct(toks, kinds), "\x00")
		s := shapes[sig]
		if s == nil {
			s = &shape{toks: make([][]string, len(toks)), kind: kinds}
			shapes[sig] = s
			order = append(order, sig)
		}
		for i, t := range toks {
			s.toks[i] = append(s.toks[i], t)
		}
	}
	if len(order) > maxPatterns {
		return []string{`^\S(?:.*\S)?$`}
	}
	var out []string
	for _, sig := range order {
		s := shapes[sig]
		var b strings.Builder
		b.WriteString("^")
		for i, k := range s.kind {
			vals := s.toks[i]
			same := true
			for _, v := range vals {
				same = same && v == vals[0]
			}
			switch k {
			case 'L':
				if same && len(vals) > 1 {
					b.WriteString(regexp.QuoteMeta(vals[0]))
				} else if ascii(vals) {
					b.WriteString(`[A-Za-z]+`)
				} else {
					b.WriteString(`\p{L}+`)
				}
			case 'D':
				b.WriteString(`\d+`)
			case 'S':
				b.WriteString(`\s+`)
			default:
				b.WriteString(regexp.QuoteMeta(vals[0]))
			}
		}
		b.WriteString("$")
		out = append(out, b.String())
	}
	sort.Strings(out)
	return out
}

// tokens splits a code into runs of letters (L), digits (D), spaces (S)
// and single other characters (P).
func tokens(c string) ([]string, []byte) {
	var toks []string
	var kinds []byte
	kindOf := func(r rune) byte {
		switch {
		case unicode.IsLetter(r):
			return 'L'
		case unicode.IsDigit(r):
			return 'D'
		case unicode.IsSpace(r):
			return 'S'
		}
		return 'P'
	}
	for _, r := range c {
		k := kindOf(r)
		if n := len(kinds); n > 0 && k != 'P' && kinds[n-1] == k {
			toks[n-1] += string(r)
			continue
		}
		toks, kinds = append(toks, string(r)), append(kinds, k)
	}
	return toks, kinds
}

func punct(toks []string, kinds []byte) []string {
	var out []string
	for i, k := range kinds {
		if k == 'P' {
			out = append(out, toks[i])
		}
	}
	return out
}

func ascii(vals []string) bool {
	for _, v := range vals {
		for _, r := range v {
			if r > unicode.MaxASCII {
				return false
			}
		}
	}
	return true
}
