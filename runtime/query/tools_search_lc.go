package query

import (
	"context"

	"github.com/kgc-project/kgc/internal/jsonschema"
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
	tokens, queryTerms := search.QueryTokens(r.Query, r.Mode == search.ComponentText)
	if r.Mode == search.ComponentText || r.Mode == search.ComponentTag {
		keepTop(run, r.Cursor, false, r.Limit)
	}
	q := r.query()
	if err := search.MatchComponents(run, pkgs, &q, tokens, queryTerms); err != nil {
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
		res.Page.Suggestions = search.SpellingSuggestions(search.ComponentWords, pkgs, r.Query, 0, func(s string) (int, string) {
			alt := r
			alt.Query, alt.Cursor = s, nil
			count := search.NewRun(false, nil)
			count.KeepTop(nil, false, 1)
			toks, terms := search.QueryTokens(s, true)
			cq := alt.query()
			if search.MatchComponents(count, pkgs, &cq, toks, terms) != nil {
				return 0, ""
			}
			return count.Matched, callLine("search_learning_components", alt)
		})
	}
	return paged, nil
}

// query is what r matches, for the engine.
func (r *ComponentSearchRequest) query() search.ComponentQuery {
	q := search.ComponentQuery{Mode: string(r.Mode), Query: r.Query}
	if r.Match != nil {
		q.MatchMode, q.Operator = string(r.Match.MatchMode), r.Match.operator()
	}
	return q
}
