package search

import (
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/standard"
	"github.com/kgc-project/kgc/runtime/uri"
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
	ScopeNode          record.StandardNode `json:"scopeNode"`
	ScopeStatementType string              `json:"scopeStatementType"`
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
			for _, m := range CodeMatches(p, nd, false) {
				if m != n && record.CodeTypeOf(p, m) == rule.ParentCodeType {
					matched = append(matched, img.NodeString(m, kgimg.NodeID))
				}
			}
		}
		status := "matched_unique"
		switch len(matched) {
		case 0:
			status = "not_found"
			warnings = append(warnings, Warning("derived_parent_code_not_found",
				"the parent code "+derivedCode+" derived from "+code+" names no "+rule.ParentCodeType+" in this package", img.NodeString(n, kgimg.NodeID), p))
		case 1:
		default:
			status = "matched_multiple"
			warnings = append(warnings, Warning("derived_parent_code_multiple",
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

// Score is how a hit ranks: the algorithm and its value.
type Score struct {
	Algorithm        string `json:"algorithm"`
	MatchedTermCount int    `json:"matchedTermCount"`
	PhraseMatched    bool   `json:"phraseMatched"`
	QueryTermCount   int    `json:"queryTermCount"`
	Value            int    `json:"value"`
}

func scoreObject(algorithm string, h *Hit, queryTerms int) Score {
	return Score{Algorithm: algorithm, MatchedTermCount: len(h.Terms), PhraseMatched: h.Phrase, QueryTermCount: queryTerms, Value: h.Score}
}

// MatchedField is a field a hit matched in, with the terms and its value.
type MatchedField struct {
	Field         string   `json:"field"`
	MatchedTerms  []string `json:"matchedTerms"`
	PhraseMatched bool     `json:"phraseMatched"`
	SourceValue   string   `json:"sourceValue"`
}

// SearchWarning is a warning about one package or hit of a search.
type SearchWarning struct {
	Code            string                 `json:"code"`
	Message         string                 `json:"message"`
	NodeID          *string                `json:"nodeId"`
	PackageIdentity record.PackageIdentity `json:"packageIdentity"`
}

func Warning(code, message, nodeID string, p *catalog.Package) SearchWarning {
	w := SearchWarning{Code: code, Message: message, PackageIdentity: record.Identity(p)}
	if nodeID != "" {
		w.NodeID = &nodeID
	}
	return w
}

// Bounds of the children listed with grouping hits.
const (
	maxHitChildren  = 10 // listed per grouping hit
	maxPageChildren = 20 // listed per page, over all its grouping hits
)

// groupingType is the normalized statement type of grouping records.
const groupingType = "Standard Grouping"

// HitChildren are a grouping hit's direct children: Count in all, the
// first of them (in hierarchy order) in Nodes.
type HitChildren struct {
	Count int            `json:"count"`
	Nodes []ChildSummary `json:"nodes"`
}

// ChildSummary names one child: its code, type and statement.
type ChildSummary struct {
	Description             *string `json:"description"`
	NodeID                  string  `json:"nodeId"`
	NormalizedStatementType *string `json:"normalizedStatementType"`
	StatementCode           *string `json:"statementCode"`
	StatementType           *string `json:"statementType"`
}

// childBudget is how many more children a page may list.
type childBudget struct{ left int }

// NewChildBudget is the budget of one page.
func NewChildBudget() *childBudget { return &childBudget{left: maxPageChildren} }

// children lists the direct children of n when n is a grouping (nil for any
// other record, and for a nil budget), taking what it lists from the budget.
func (b *childBudget) children(p *catalog.Package, n uint32) *HitChildren {
	img := p.Img
	if b == nil || img.NodeString(n, kgimg.NodeNormalizedStatementType) != groupingType {
		return nil
	}
	nb, _ := img.Adjacency(kgimg.HasChild, kgimg.Out).Row(n) // in relationship-key order
	k := min(nb.Len(), maxHitChildren, b.left)
	b.left -= k
	out := &HitChildren{Count: nb.Len(), Nodes: make([]ChildSummary, 0, k)}
	for i := range k {
		out.Nodes = append(out.Nodes, childSummary(img, nb.At(i)))
	}
	return out
}

// childSummary is the ChildSummary of node c.
func childSummary(img *kgimg.Image, c uint32) ChildSummary {
	return ChildSummary{
		NodeID:                  img.NodeString(c, kgimg.NodeID),
		StatementCode:           record.NodeString(img, c, kgimg.NodeStatementCode, kgimg.PStatementCode),
		StatementType:           record.NodeString(img, c, kgimg.NodeStatementType, kgimg.PStatementType),
		NormalizedStatementType: record.NodeString(img, c, kgimg.NodeNormalizedStatementType, kgimg.PNormalizedStatementType),
		Description:             record.NodeString(img, c, kgimg.NodeDescription, kgimg.PDescription),
	}
}

// StandardHit is one search_standards hit: a retrieval candidate, never an
// alignment.
type StandardHit struct {
	CodeMatch *CodeMatch `json:"codeMatch"`
	// Location and StandardURI place and cite the hit without another call
	// (beyond the contract).
	standard.Location
	StandardURI string `json:"standardUri"`
	// Children lists a grouping hit's direct children (beyond the contract;
	// null for any other hit).
	Children        *HitChildren           `json:"children"`
	EpistemicStatus string                 `json:"epistemicStatus"`
	Facets          record.FacetEvidence   `json:"facets"`
	MatchedFields   []MatchedField         `json:"matchedFields"`
	MatchedTerms    []string               `json:"matchedTerms"`
	Node            record.StandardNode    `json:"node"`
	PackageIdentity record.PackageIdentity `json:"packageIdentity"`
	RetrievalMethod string                 `json:"retrievalMethod"`
	Score           Score                  `json:"score"`
	Warnings        []SearchWarning        `json:"warnings"`
}

// StandardHitOf builds a search_standards hit, a grouping's with the children
// kids lets it list.
func StandardHitOf(h *Hit, mode string, queryTerms int, all []*Hit, kids *childBudget) StandardHit {
	p, img, n := h.Pkg, h.Pkg.Img, h.Node
	scopes := record.CodeScopes(p, n)
	warnings := []SearchWarning{}
	var cm *CodeMatch
	algorithm := "lexical_token_coverage_v1"
	field := MatchedField{Field: "description", MatchedTerms: h.Terms, PhraseMatched: h.Phrase,
		SourceValue: img.NodeString(n, kgimg.NodeDescription)}
	if mode != "text" {
		algorithm = mode + "_v1"
		field = MatchedField{Field: "statement_code", MatchedTerms: h.Terms, SourceValue: img.NodeString(n, kgimg.NodeStatementCode)}
		if mode == "code_exact" && sameCodeCount(h, all) > 1 {
			warnings = append(warnings, Warning("multiple_code_matches",
				"several records carry this code; all are returned and none is preferred", img.NodeString(n, kgimg.NodeID), p))
		}
		m, ws := codeMatch(p, n, scopes)
		cm = m
		warnings = append(warnings, ws...)
	}
	return StandardHit{
		Node: record.Standard(img, n), PackageIdentity: record.Identity(p), Facets: record.FacetsWithScopes(p, n, scopes),
		RetrievalMethod: mode, EpistemicStatus: "retrieval_candidate", Score: scoreObject(algorithm, h, queryTerms),
		MatchedTerms: h.Terms, MatchedFields: []MatchedField{field}, CodeMatch: cm, Warnings: warnings,
		Location: standard.Place(img, n), StandardURI: standard.URI(p, img.NodeString(n, kgimg.NodeID)),
		Children: kids.children(p, n),
	}
}

// sameCodeCount counts the hits of h's package with h's normalized code.
func sameCodeCount(h *Hit, all []*Hit) int {
	n := 0
	for _, o := range all {
		if o.Pkg == h.Pkg && o.Code == h.Code {
			n++
		}
	}
	return n
}

var lcAlgorithm = map[string]string{
	ComponentText: "lexical_token_coverage_v1", ComponentTag: "tag_exact_v1",
	ComponentCodeExact: "supported_code_exact_v1", ComponentCodePrefix: "supported_code_prefix_v1",
}

// supportedCodeHits follows the supports edges into the standards a code query
// matches: one hit per component, carrying every matched standard.
func supportedCodeHits(p *catalog.Package, q string, prefix bool) []*Hit {
	img := p.Img
	in := img.Adjacency(kgimg.Supports, kgimg.In)
	byComponent := map[uint32]*Hit{}
	var hits []*Hit
	for _, std := range CodeMatches(p, q, prefix) {
		lcs, rels := in.Row(std)
		for i := 0; i < lcs.Len(); i++ {
			h := byComponent[lcs.At(i)]
			if h == nil {
				h = &Hit{Pkg: p, Node: lcs.At(i), Score: halfScore, Terms: []string{q}}
				byComponent[lcs.At(i)] = h
				hits = append(hits, h)
			}
			if !containsU32(h.Stds, std) {
				h.Stds = append(h.Stds, std)
				h.Rels = append(h.Rels, rels.At(i))
			}
			if img.NodeString(std, kgimg.NodeNormalizedCode) == q {
				h.Score = fullScore
			}
		}
	}
	return hits
}

func containsU32(list []uint32, v uint32) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// ComponentHit is one search_learning_components hit.
type ComponentHit struct {
	// ComponentURI cites the component (beyond the contract).
	ComponentURI       string                       `json:"componentUri"`
	EpistemicStatus    string                       `json:"epistemicStatus"`
	MatchedCodes       []standard.SupportedStandard `json:"matchedCodes"`
	MatchedFields      []MatchedField               `json:"matchedFields"`
	MatchedTerms       []string                     `json:"matchedTerms"`
	Node               record.LearningComponentNode `json:"node"`
	PackageIdentity    record.PackageIdentity       `json:"packageIdentity"`
	RetrievalMethod    string                       `json:"retrievalMethod"`
	Score              Score                        `json:"score"`
	SupportedStandards []standard.SupportedStandard `json:"supportedStandards"`
	Warnings           []SearchWarning              `json:"warnings"`
}

// ComponentHitOf builds a search_learning_components hit.
func ComponentHitOf(h *Hit, mode string, queryTerms int) ComponentHit {
	p, img, n := h.Pkg, h.Pkg.Img, h.Node
	fields := []MatchedField{}
	matchedCodes := []standard.SupportedStandard{}
	switch mode {
	case ComponentText:
		fields = append(fields, MatchedField{Field: "description", MatchedTerms: h.Terms, PhraseMatched: h.Phrase,
			SourceValue: img.NodeString(n, kgimg.NodeDescription)})
	case ComponentTag:
		tags := img.NodeTags(n)
		for i := 0; i < tags.Len(); i++ {
			if textnorm.Facet(tags.At(i)) == h.Terms[0] {
				fields = append(fields, MatchedField{Field: "tag", MatchedTerms: h.Terms, SourceValue: tags.At(i)})
			}
		}
	default:
		for i, std := range h.Stds {
			matchedCodes = append(matchedCodes, standard.Supported(p, std, h.Rels[i]))
			fields = append(fields, MatchedField{Field: "supported_statement_code", MatchedTerms: h.Terms,
				SourceValue: img.NodeString(std, kgimg.NodeStatementCode)})
		}
	}
	stds, rels := img.Adjacency(kgimg.Supports, kgimg.Out).Row(n)
	supported := make([]standard.SupportedStandard, 0, stds.Len())
	for i := 0; i < stds.Len(); i++ {
		supported = append(supported, standard.Supported(p, stds.At(i), rels.At(i)))
	}
	return ComponentHit{
		Node: record.Component(img, n), PackageIdentity: record.Identity(p), RetrievalMethod: mode,
		EpistemicStatus: "retrieval_candidate", Score: scoreObject(lcAlgorithm[mode], h, queryTerms),
		MatchedFields: fields, MatchedTerms: h.Terms, MatchedCodes: matchedCodes,
		SupportedStandards: supported, Warnings: []SearchWarning{},
		ComponentURI: uri.Ref{Kind: "learning_component", FrameworkID: p.FrameworkID(), SnapshotID: p.SnapshotID(),
			ID: img.NodeString(n, kgimg.NodeID)}.String(),
	}
}

const (
	fullScore = 1000000
	halfScore = 500000
)

// Learning-component search modes (docs/reference/tools.md#search_learning_components).
const (
	ComponentText       = "learning_component_text"
	ComponentTag        = "learning_component_tag"
	ComponentCodeExact  = "learning_component_supported_code_exact"
	ComponentCodePrefix = "learning_component_supported_code_prefix"
)
