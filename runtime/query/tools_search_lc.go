package query

import (
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/standard"

	"context"
	"strings"

	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/search"
	"github.com/kgc-project/kgc/runtime/uri"
)

// Learning-component search modes (docs/reference/tools.md#search_learning_components).
const (
	lcText       = "learning_component_text"
	lcTag        = "learning_component_tag"
	lcCodeExact  = "learning_component_supported_code_exact"
	lcCodePrefix = "learning_component_supported_code_prefix"
)

var lcAlgorithm = map[string]string{
	lcText: "lexical_token_coverage_v1", lcTag: "tag_exact_v1",
	lcCodeExact: "supported_code_exact_v1", lcCodePrefix: "supported_code_prefix_v1",
}

// ComponentSearchRequest is a search_learning_components request
// (docs/reference/tools.md#search_learning_components): a Mode (learning_component_text, _tag, _supported_code_exact or
// _supported_code_prefix), its Query, and for text the Match policy.
type ComponentSearchRequest struct {
	SearchScope
	Mode  SearchMode   `json:"mode"`
	Query string       `json:"query"`
	Match *MatchPolicy `json:"match,omitempty"`
}

// NewComponentSearchRequest searches the learning components of the given
// frameworks (every served framework when none is given) for query's words
// (mode learning_component_text, MatchTokens, OperatorAll), every other
// field at its default.
func NewComponentSearchRequest(query string, frameworkIDs ...string) ComponentSearchRequest {
	args := searchArgs(SearchText, query, frameworkIDs)
	args["mode"] = lcText // the text mode of this tool (SearchText was refused as unsupported)
	r := newRequest[ComponentSearchRequest](searchComponentsSchema(), args)
	r.Match = Words(MatchTokens, OperatorAll)
	return r
}

// Next returns the request for the page after res (r with res's cursor),
// and false when res was the last page.
func (r ComponentSearchRequest) Next(res *SearchResult[ComponentHit]) (ComponentSearchRequest, bool) {
	if res == nil || res.Page.NextCursor == nil {
		return r, false
	}
	r.Cursor = res.Page.NextCursor
	return r, true
}

func searchComponentsSchema() *Schema {
	alt := func(mode string, query *Schema, withMatch bool) *Schema {
		props := scopeProps()
		props["mode"] = modeConst(mode)
		props["query"] = query
		req := []string{"mode", "query"}
		if withMatch {
			props["match"] = matchSchema()
			req = append(req, "match")
		}
		return object(props, req...)
	}
	return &Schema{Types: []string{"object"}, Discriminator: "mode", UnknownCode: kgerr.UnsupportedSearchMode,
		Description: "",
		OneOf: []*Schema{
			alt(lcText, textQuery(), true),
			alt(lcTag, str(1, 128, "a whole tag value, compared after NFKC, case folding and whitespace collapse"), false),
			alt(lcCodeExact, codeQuery(), false),
			alt(lcCodePrefix, codeQuery(), false),
		}}
}

func (r *ComponentSearchRequest) check() error {
	if err := checkFacetValues("jurisdictions", r.Jurisdictions); err != nil {
		return err
	}
	if err := checkFacetValues("subjects", r.Subjects); err != nil {
		return err
	}
	kind := "code"
	switch r.Mode {
	case lcText:
		kind = "text"
	case lcTag:
		kind = "tag"
	}
	return checkQuery(kind, r.Query, 0)
}

func (r *ComponentSearchRequest) effective() obj {
	return obj{
		"frameworkIds": nonNil(r.FrameworkIDs), "snapshotIds": nonNil(r.SnapshotIDs), "jurisdictions": nonNil(r.Jurisdictions),
		"languages": nonNil(r.Languages), "subjects": nonNil(r.Subjects), "limit": r.Limit,
		"mode": string(r.Mode), "query": r.Query, "match": r.Match.effective(),
	}
}

// standardsMode maps a supported-code or text LC mode to the standards mode
// whose availability it shares.
func standardsMode(mode string) string {
	switch mode {
	case lcText:
		return "text"
	case lcCodeExact:
		return "code_exact"
	case lcCodePrefix:
		return "code_prefix"
	}
	return ""
}

// SearchComponents answers search_learning_components: one ranked page of
// learning components; pass Page.NextCursor back for the next.
func (s *Service) SearchComponents(ctx context.Context, r ComponentSearchRequest) (*SearchResult[ComponentHit], error) {
	if err := checkRequest(searchComponentsSchema(), &r); err != nil {
		return nil, err
	}
	p, err := s.searchComponents(ctx, r)
	if err != nil {
		return nil, err
	}
	return own(s, p.Result.(*SearchResult[ComponentHit]), nil)
}

func (s *Service) searchComponents(_ context.Context, r ComponentSearchRequest) (*Paged, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	pkgs, scope, run, err := s.beginSearch(&r.SearchScope)
	if err != nil {
		return nil, err
	}
	tokens, queryTerms := queryTokens(r.Query, r.Mode == lcText)
	if r.Mode == lcText || r.Mode == lcTag {
		run.keepTop(r.Cursor, false, r.Limit)
	}
	if err := matchComponents(run, pkgs, &r, tokens, queryTerms); err != nil {
		return nil, err
	}
	paged, err := searchPage(s, run, pagingInput{tool: "search_learning_components", mode: string(r.Mode), cursor: r.Cursor, limit: r.Limit,
		request: r.effective(), pkgs: pkgs, scope: scope},
		func(h *search.Hit) ComponentHit { return componentHit(h, string(r.Mode), queryTerms) })
	if err != nil {
		return nil, err
	}
	if run.Matched == 0 && r.Cursor == nil && r.Mode == lcText {
		// A word no component uses: the close words they do use, counted.
		res := paged.Result.(*SearchResult[ComponentHit])
		res.Page.Suggestions = spellingSuggestions(search.ComponentWords, pkgs, r.Query, 0, func(q string) (int, string) {
			alt := r
			alt.Query, alt.Cursor = q, nil
			count := &searchRun{normalized: map[string]string{}}
			count.keepTop(nil, false, 1)
			toks, terms := queryTokens(q, true)
			if matchComponents(count, pkgs, &alt, toks, terms) != nil {
				return 0, ""
			}
			return count.Matched, callLine("search_learning_components", alt)
		})
	}
	return paged, nil
}

// matchComponents offers every learning component of pkgs that r matches to
// run (a mode its package cannot serve is a warning, or for an exact scope
// an error).
func matchComponents(run *searchRun, pkgs []*catalog.Package, r *ComponentSearchRequest, tokens []string, queryTerms int) error {
	for _, p := range pkgs {
		if sm := standardsMode(string(r.Mode)); sm != "" {
			if code := modeWarning(p, sm); code != "" {
				if err := run.unavailable(p, code, string(r.Mode)); err != nil {
					return err
				}
				continue
			}
		}
		img := p.Img
		switch r.Mode {
		case lcText:
			run.normalized[p.GraphPackageID()] = strings.Join(tokens, " ")
			lookup := img.ComponentToken
			if r.Match.MatchMode == "stems" {
				lookup = search.FormLookup(img.ComponentToken, img.ComponentTokensWithPrefix)
			}
			search.Lexical(img, lookup, tokens, string(r.Match.MatchMode), r.Match.operator(), func(m search.Match) {
				run.Add(search.Hit{Pkg: p, Node: m.Node, Score: search.Coverage(len(m.Matched), queryTerms), Terms: m.Matched, Phrase: m.Phrase})
			})
		case lcTag:
			q := textnorm.Facet(r.Query)
			run.normalized[p.GraphPackageID()] = q
			list, _ := img.ComponentTag(q)
			for i := 0; i < list.Len(); i++ {
				run.Add(search.Hit{Pkg: p, Node: list.At(i), Score: fullScore, Terms: []string{q}})
			}
		default:
			prefix := r.Mode == lcCodePrefix
			q, err := normalizedCodeQuery(p, r.Query, prefix)
			if err != nil {
				return err
			}
			run.normalized[p.GraphPackageID()] = q
			run.Append(supportedCodeHits(p, q, prefix)...)
		}
	}
	return nil
}

// supportedCodeHits follows the supports edges into the standards a code query
// matches: one hit per component, carrying every matched standard.
func supportedCodeHits(p *catalog.Package, q string, prefix bool) []*search.Hit {
	img := p.Img
	in := img.Adjacency(kgimg.Supports, kgimg.In)
	byComponent := map[uint32]*search.Hit{}
	var hits []*search.Hit
	for _, std := range search.CodeMatches(p, q, prefix) {
		lcs, rels := in.Row(std)
		for i := 0; i < lcs.Len(); i++ {
			h := byComponent[lcs.At(i)]
			if h == nil {
				h = &search.Hit{Pkg: p, Node: lcs.At(i), Score: halfScore, Terms: []string{q}}
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
	ComponentURI       string                `json:"componentUri"`
	EpistemicStatus    string                `json:"epistemicStatus"`
	MatchedCodes       []SupportedStandard   `json:"matchedCodes"`
	MatchedFields      []MatchedField        `json:"matchedFields"`
	MatchedTerms       []string              `json:"matchedTerms"`
	Node               LearningComponentNode `json:"node"`
	PackageIdentity    PackageIdentity       `json:"packageIdentity"`
	RetrievalMethod    string                `json:"retrievalMethod"`
	Score              Score                 `json:"score"`
	SupportedStandards []SupportedStandard   `json:"supportedStandards"`
	Warnings           []SearchWarning       `json:"warnings"`
}

// componentHit builds a search_learning_components hit.
func componentHit(h *search.Hit, mode string, queryTerms int) ComponentHit {
	p, img, n := h.Pkg, h.Pkg.Img, h.Node
	fields := []MatchedField{}
	matchedCodes := []SupportedStandard{}
	switch mode {
	case lcText:
		fields = append(fields, MatchedField{Field: "description", MatchedTerms: h.Terms, PhraseMatched: h.Phrase,
			SourceValue: img.NodeString(n, kgimg.NodeDescription)})
	case lcTag:
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
	supported := make([]SupportedStandard, 0, stds.Len())
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
