package query

import (
	"context"
	"strings"

	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/search"
)

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
	args["mode"] = search.ComponentText // the text mode of this tool (SearchText was refused as unsupported)
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
		return jsonschema.Object(props, req...)
	}
	return &Schema{Types: []string{"object"}, Discriminator: "mode", UnknownCode: kgerr.UnsupportedSearchMode,
		Description: "",
		OneOf: []*Schema{
			alt(search.ComponentText, textQuery(), true),
			alt(search.ComponentTag, jsonschema.String(1, 128, "a whole tag value, compared after NFKC, case folding and whitespace collapse"), false),
			alt(search.ComponentCodeExact, codeQuery(), false),
			alt(search.ComponentCodePrefix, codeQuery(), false),
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
	case search.ComponentText:
		kind = "text"
	case search.ComponentTag:
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
	case search.ComponentText:
		return "text"
	case search.ComponentCodeExact:
		return "code_exact"
	case search.ComponentCodePrefix:
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
	tokens, queryTerms := queryTokens(r.Query, r.Mode == search.ComponentText)
	if r.Mode == search.ComponentText || r.Mode == search.ComponentTag {
		run.keepTop(r.Cursor, false, r.Limit)
	}
	if err := matchComponents(run, pkgs, &r, tokens, queryTerms); err != nil {
		return nil, err
	}
	paged, err := searchPage(s, run, pagingInput{tool: "search_learning_components", mode: string(r.Mode), cursor: r.Cursor, limit: r.Limit,
		request: r.effective(), pkgs: pkgs, scope: scope},
		func(h *search.Hit) ComponentHit { return search.ComponentHitOf(h, string(r.Mode), queryTerms) })
	if err != nil {
		return nil, err
	}
	if run.Matched == 0 && r.Cursor == nil && r.Mode == search.ComponentText {
		// A word no component uses: the close words they do use, counted.
		res := paged.Result.(*SearchResult[ComponentHit])
		paged.Encoded = nil // the page changes after its check
		res.Page.Suggestions = search.SpellingSuggestions(search.ComponentWords, pkgs, r.Query, 0, func(q string) (int, string) {
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
		case search.ComponentText:
			run.normalized[p.GraphPackageID()] = strings.Join(tokens, " ")
			lookup := img.ComponentToken
			if r.Match.MatchMode == "stems" {
				lookup = search.FormLookup(img.ComponentToken, img.ComponentTokensWithPrefix)
			}
			search.Lexical(img, lookup, tokens, string(r.Match.MatchMode), r.Match.operator(), func(m search.Match) {
				run.Add(search.Hit{Pkg: p, Node: m.Node, Score: search.Coverage(len(m.Matched), queryTerms), Terms: m.Matched, Phrase: m.Phrase})
			})
		case search.ComponentTag:
			q := textnorm.Facet(r.Query)
			run.normalized[p.GraphPackageID()] = q
			list, _ := img.ComponentTag(q)
			for i := 0; i < list.Len(); i++ {
				run.Add(search.Hit{Pkg: p, Node: list.At(i), Score: search.FullScore, Terms: []string{q}})
			}
		default:
			prefix := r.Mode == search.ComponentCodePrefix
			q, err := normalizedCodeQuery(p, r.Query, prefix)
			if err != nil {
				return err
			}
			run.normalized[p.GraphPackageID()] = q
			run.Append(search.SupportedCodeHits(p, q, prefix)...)
		}
	}
	return nil
}
