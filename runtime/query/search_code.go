package query

import (
	"github.com/kgc-project/kgc/runtime/record"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/search"
	"github.com/kgc-project/kgc/schema/profile"
)

// CodeMatch explains a code-mode hit: its code as authored and normalized,
// its code type, the scopes the code is read in and the parent codes derived
// from it.
type CodeMatch struct {
	AuthoredCode      string             `json:"authoredCode"`
	CodeType          *string            `json:"codeType"`
	NormalizedCode    string             `json:"normalizedCode"`
	ParentDerivations []ParentDerivation `json:"parentDerivations"`
	Scopes            []CodeScope        `json:"scopes"`
}

// ParentDerivation is one parent code derived from a hit's code by a
// profile rule, and the records it names.
type ParentDerivation struct {
	ChildCodeType         string   `json:"childCodeType"`
	DerivedCode           string   `json:"derivedCode"`
	MatchedParentNodeIDs  []string `json:"matchedParentNodeIds"`
	NormalizedDerivedCode string   `json:"normalizedDerivedCode"`
	ParentCodeType        string   `json:"parentCodeType"`
	Status                string   `json:"status" enum:"matched_unique,matched_multiple,not_found"`
}

// CodeScope is an ancestor whose statement type scopes a hit's code.
type CodeScope struct {
	ScopeNode          StandardNode `json:"scopeNode"`
	ScopeStatementType string       `json:"scopeStatementType"`
}

// codeMatch is the CodeMatch of a code-mode hit (whose code scopes are given)
// and the hit warnings its parent derivations raise.
func codeMatch(p *catalog.Package, n uint32, scopeNodes []uint32) (*CodeMatch, []SearchWarning) {
	img, cp := p.Img, p.Profile().CodeSearchPolicy
	code := img.NodeString(n, kgimg.NodeStatementCode)
	ct := record.CodeTypeOf(p, n)
	var warnings []SearchWarning
	derivations := []ParentDerivation{}
	for i, rule := range cp.CodeParentRules {
		re := p.ParentRule(i)
		if rule.ChildCodeType != ct || re == nil {
			continue
		}
		if ok, err := re.Search(code); err != nil || !ok {
			continue
		}
		derivedCode, err := re.Substitute(code, rule.Replacement)
		if err != nil {
			continue
		}
		nd := profile.NormalizeCode(cp, derivedCode)
		matched := []string{}
		if nd != "" {
			for _, m := range search.CodeMatches(p, nd, false) {
				if m != n && record.CodeTypeOf(p, m) == rule.ParentCodeType {
					matched = append(matched, img.NodeString(m, kgimg.NodeID))
				}
			}
		}
		status := "matched_unique"
		switch len(matched) {
		case 0:
			status = "not_found"
			warnings = append(warnings, searchWarning("derived_parent_code_not_found",
				"the parent code "+derivedCode+" derived from "+code+" names no "+rule.ParentCodeType+" in this package", img.NodeString(n, kgimg.NodeID), p))
		case 1:
		default:
			status = "matched_multiple"
			warnings = append(warnings, searchWarning("derived_parent_code_multiple",
				"the parent code "+derivedCode+" derived from "+code+" names several records; none is preferred", img.NodeString(n, kgimg.NodeID), p))
		}
		derivations = append(derivations, ParentDerivation{ChildCodeType: rule.ChildCodeType, DerivedCode: derivedCode,
			MatchedParentNodeIDs: matched, NormalizedDerivedCode: nd, ParentCodeType: rule.ParentCodeType, Status: status})
	}
	scopes := []CodeScope{}
	for _, sc := range scopeNodes {
		scopes = append(scopes, CodeScope{ScopeNode: record.Standard(img, sc), ScopeStatementType: img.NodeString(sc, kgimg.NodeStatementType)})
	}
	m := &CodeMatch{AuthoredCode: code, NormalizedCode: img.NodeString(n, kgimg.NodeNormalizedCode),
		ParentDerivations: derivations, Scopes: scopes}
	if ct != "" {
		m.CodeType = &ct
	}
	return m, warnings
}
