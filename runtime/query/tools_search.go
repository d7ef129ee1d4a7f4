package query

import (
	"context"
	"slices"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/search"
)

// maxTextQueryTokens bounds a standards text query, repeats counted.
const maxTextQueryTokens = 32

// MatchPolicy is a text query's match policy: MatchMode tokens with Operator
// all or any, exact_phrase, or (beyond the contract, opt-in) stems with
// Operator all or any: tokens, each query token matching any light form of
// its word (wordforms.go).
type MatchPolicy struct {
	MatchMode MatchMode `json:"matchMode"`
	Operator  *Operator `json:"operator,omitempty"`
}

// SearchMode is how a search reads its query.
type SearchMode string

// The search modes.
const (
	SearchText       SearchMode = "text"        // words in statements (standards) or descriptions (components)
	SearchCodeExact  SearchMode = "code_exact"  // a statement code, exactly (standards only)
	SearchCodePrefix SearchMode = "code_prefix" // statement codes starting with the query (standards only)
)

// MatchMode is how a text query's words must match.
type MatchMode string

// The match modes of a text search.
const (
	MatchTokens      MatchMode = "tokens"       // the exact words
	MatchStems       MatchMode = "stems"        // any light form of each word (fraction finds fractions)
	MatchExactPhrase MatchMode = "exact_phrase" // the words, in order
)

// Operator combines the words of a tokens or stems match.
type Operator string

// The operators of a tokens or stems match.
const (
	OperatorAll Operator = "all" // every word
	OperatorAny Operator = "any" // at least one word
)

// Words is the match policy of tokens or stems with op (the policies of
// MatchExactPhrase take no operator: use Phrase).
func Words(mode MatchMode, op Operator) *MatchPolicy {
	return &MatchPolicy{MatchMode: mode, Operator: &op}
}

// Phrase is the exact_phrase match policy.
func Phrase() *MatchPolicy { return &MatchPolicy{MatchMode: MatchExactPhrase} }

// operator is the policy's operator ("" when it has none).
func (m *MatchPolicy) operator() string {
	if m == nil || m.Operator == nil {
		return ""
	}
	return string(*m.Operator)
}

func (m *MatchPolicy) effective() any {
	if m == nil {
		return nil
	}
	if m.MatchMode == "tokens" || m.MatchMode == "stems" {
		return obj{"matchMode": string(m.MatchMode), "operator": m.operator()}
	}
	return obj{"matchMode": string(m.MatchMode)}
}

func matchSchema() *Schema {
	return &Schema{Types: []string{"object"}, Discriminator: "matchMode",
		Description: `tokens: the exact words; stems: any form of them (fraction finds fractions); exact_phrase: the words in order`,
		OneOf: []*Schema{
			jsonschema.Object(map[string]*Schema{"matchMode": {Types: []string{"string"}, Const: "tokens"},
				"operator": jsonschema.Enum("all words, or any", "all", "any")}, "matchMode", "operator"),
			jsonschema.Object(map[string]*Schema{"matchMode": {Types: []string{"string"}, Const: "stems"},
				"operator": jsonschema.Enum("all words, or any", "all", "any")}, "matchMode", "operator"),
			jsonschema.Object(map[string]*Schema{"matchMode": {Types: []string{"string"}, Const: "exact_phrase"}}, "matchMode"),
		}}
}

func modeConst(mode string) *Schema { return &Schema{Types: []string{"string"}, Const: mode} }

// textQuery is a lexical query: 1–512 characters.
func textQuery() *Schema { return jsonschema.String(1, 512, "") }

// codeQuery is a code query: 1–256 characters.
func codeQuery() *Schema {
	return jsonschema.String(1, 256, "a statement code as authored, e.g. B5.2.3.1")
}

// StandardSearchRequest is a search_standards request
// (docs/reference/tools.md#search_standards): a
// Mode (text, code_exact or code_prefix), its Query, for text the Match
// policy, and facet filters.
type StandardSearchRequest struct {
	SearchScope
	Mode                     SearchMode   `json:"mode"`
	Query                    string       `json:"query"`
	Match                    *MatchPolicy `json:"match,omitempty"`
	IncludeGroupings         bool         `json:"includeGroupings"`
	LocalGradeLabels         []string     `json:"localGradeLabels,omitempty"`
	NormalizedGrades         []string     `json:"normalizedGrades,omitempty"`
	NormalizedStatementTypes []string     `json:"normalizedStatementTypes,omitempty"`
	NormalizedSubjects       []string     `json:"normalizedSubjects,omitempty"`
	StatementTypes           []string     `json:"statementTypes,omitempty"`
}

// NewStandardSearchRequest searches the standards of the given frameworks
// (every served framework when none is given) for query's words: mode
// SearchText, every word (MatchTokens, OperatorAll), every other field at
// its default (25 hits a page, groupings left out). Set Match to Words(
// MatchStems, …) to also find other forms of the words, or Phrase().
func NewStandardSearchRequest(query string, frameworkIDs ...string) StandardSearchRequest {
	r := newRequest[StandardSearchRequest](searchStandardsSchema(), searchArgs(SearchText, query, frameworkIDs))
	r.Match = Words(MatchTokens, OperatorAll)
	return r
}

// Next returns the request for the page after res (r with res's cursor),
// and false when res was the last page.
func (r StandardSearchRequest) Next(res *SearchResult[StandardHit]) (StandardSearchRequest, bool) {
	if res == nil || res.Page.NextCursor == nil {
		return r, false
	}
	r.Cursor = res.Page.NextCursor
	return r, true
}

// NewCodeSearchRequest finds standards by statement code: the code itself
// (SearchCodeExact) or every code it begins (SearchCodePrefix), in the given
// frameworks (every served framework when none is given).
func NewCodeSearchRequest(mode SearchMode, code string, frameworkIDs ...string) StandardSearchRequest {
	return newRequest[StandardSearchRequest](searchStandardsSchema(), searchArgs(mode, code, frameworkIDs))
}

// searchArgs are the arguments a search constructor fills in.
func searchArgs(mode SearchMode, query string, frameworkIDs []string) map[string]any {
	args := map[string]any{"mode": string(mode), "query": query}
	if mode == SearchText {
		args["match"] = map[string]any{"matchMode": string(MatchTokens), "operator": string(OperatorAll)}
	}
	if len(frameworkIDs) > 0 {
		ids := make([]any, len(frameworkIDs))
		for i, id := range frameworkIDs {
			ids[i] = id
		}
		args["frameworkIds"] = ids
	}
	return args
}

func searchStandardsSchema() *Schema {
	alt := func(mode string, query *Schema, withMatch bool) *Schema {
		props := scopeProps()
		props["includeGroupings"] = jsonschema.Boolean(false, "also return Standard Grouping nodes")
		props["localGradeLabels"] = filterValues(64, "keep hits whose grades meet these local grade labels (resolved through the profile)")
		props["normalizedGrades"] = filterValues(64, "keep hits with any of these normalized grades")
		props["normalizedStatementTypes"] = jsonschema.Array(jsonschema.Enum("", "Standard", "Standard Grouping"), 64, "keep hits of these normalized statement types")
		props["normalizedSubjects"] = filterValues(64, "keep hits whose subject resolves to any of these normalized subjects")
		props["statementTypes"] = filterValues(64, "keep hits of these source statement types (or their aliases)")
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
			alt("text", textQuery(), true),
			alt("code_exact", codeQuery(), false),
			alt("code_prefix", codeQuery(), false),
		}}
}

// checkFacetValues applies the cross-field rules of facet filters: no control
// characters, nothing blank or repeated after facet normalization.
func checkFacetValues(field string, values []string) error {
	seen := map[string]bool{}
	for _, v := range values {
		if noControl(v) != nil {
			return jsonschema.Fail("request."+field, "must not contain control characters")
		}
		k := textnorm.Facet(v)
		if k == "" {
			return jsonschema.Fail("request."+field, "%q is blank after normalization", v)
		}
		if seen[k] {
			return jsonschema.Fail("request."+field, "%q repeats another value after normalization", v)
		}
		seen[k] = true
	}
	return nil
}

// checkQuery validates a search query for its mode (text, tag or code).
func checkQuery(kind, q string, maxTokens int) error {
	if err := noControl(q); err != nil {
		return err
	}
	switch kind {
	case "text":
		toks := textnorm.Tokens(q)
		if len(toks) == 0 {
			return jsonschema.Fail("request.query", "has no letters or digits to search for")
		}
		if maxTokens > 0 && len(toks) > maxTokens {
			return jsonschema.Fail("request.query", "has %d tokens; at most %d are allowed", len(toks), maxTokens)
		}
	case "tag":
		if textnorm.Facet(q) == "" {
			return jsonschema.Fail("request.query", "is blank after normalization")
		}
	default:
		if !hasSearchable(q) {
			return jsonschema.Fail("request.query", "must contain a letter, mark, number or symbol")
		}
	}
	return nil
}

func (r *StandardSearchRequest) check() error {
	for _, f := range []struct {
		name   string
		values []string
	}{{"jurisdictions", r.Jurisdictions}, {"subjects", r.Subjects}, {"localGradeLabels", r.LocalGradeLabels},
		{"normalizedGrades", r.NormalizedGrades}, {"normalizedSubjects", r.NormalizedSubjects}, {"statementTypes", r.StatementTypes}} {
		if err := checkFacetValues(f.name, f.values); err != nil {
			return err
		}
	}
	if slices.Contains(r.NormalizedStatementTypes, "Standard Grouping") && !r.IncludeGroupings {
		return jsonschema.Fail("request.includeGroupings", "must be true when normalizedStatementTypes contains Standard Grouping")
	}
	kind := "code"
	if r.Mode == "text" {
		kind = "text"
	}
	return checkQuery(kind, r.Query, maxTextQueryTokens)
}

func (r *StandardSearchRequest) effective() obj {
	return obj{
		"frameworkIds": nonNil(r.FrameworkIDs), "snapshotIds": nonNil(r.SnapshotIDs), "includeGroupings": r.IncludeGroupings,
		"jurisdictions": nonNil(r.Jurisdictions), "languages": nonNil(r.Languages), "subjects": nonNil(r.Subjects),
		"limit": r.Limit, "localGradeLabels": nonNil(r.LocalGradeLabels), "normalizedGrades": nonNil(r.NormalizedGrades),
		"normalizedStatementTypes": nonNil(r.NormalizedStatementTypes), "normalizedSubjects": nonNil(r.NormalizedSubjects),
		"statementTypes": nonNil(r.StatementTypes), "mode": string(r.Mode), "query": r.Query, "match": r.Match.effective(),
	}
}

// keepTop makes run keep only the limit+1 best hits after the cursor's
// position (the text and tag modes, whose pages need no other hit): a common
// term matches 100,000s of standards. The position is read here without the
// cursor's bindings, which searchPage checks before anything is answered; an
// unreadable cursor keeps every hit and is refused there.
func keepTop(run *search.Run, cursor *string, byCode bool, limit int) {
	var pos []any
	if cursor != nil {
		var ok bool
		if pos, ok = peekPosition(*cursor, byCode); !ok {
			return
		}
	}
	run.KeepTop(pos, byCode, limit)
}

// beginSearch selects a search's packages and starts its run.
func (s *Service) beginSearch(r *SearchScope) ([]*catalog.Package, EffectiveScope, *search.Run, error) {
	pkgs, scope, warnings, err := s.selectPackages(r)
	if err != nil {
		return nil, nil, nil, err
	}
	_, exact := scope.(ExactScope)
	return pkgs, scope, search.NewRun(exact, warnings), nil
}

// SearchStandards answers search_standards: one ranked page of standards;
// pass Page.NextCursor back (in a request otherwise unchanged) for the next.
func (s *Service) SearchStandards(ctx context.Context, r StandardSearchRequest) (*SearchResult[StandardHit], error) {
	if err := checkRequest(searchStandardsSchema(), &r); err != nil {
		return nil, err
	}
	p, err := s.searchStandards(ctx, r)
	if err != nil {
		return nil, err
	}
	return own(s, p.Result.(*SearchResult[StandardHit]), nil)
}

func (s *Service) searchStandards(_ context.Context, r StandardSearchRequest) (*Paged, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	pkgs, scope, run, err := s.beginSearch(&r.SearchScope)
	if err != nil {
		return nil, err
	}
	tokens, queryTerms := search.QueryTokens(r.Query, r.Mode == "text")
	if r.Mode == "text" {
		keepTop(run, r.Cursor, false, r.Limit)
	}
	q := r.query()
	if err := search.MatchStandards(run, pkgs, &q, tokens, queryTerms); err != nil {
		return nil, err
	}
	kids := search.NewChildBudget()
	paged, err := searchPage(s, run, pagingInput{tool: "search_standards", mode: string(r.Mode), cursor: r.Cursor, limit: r.Limit,
		request: r.effective(), byCode: r.Mode != "text", pkgs: pkgs, scope: scope},
		func(h *search.Hit) StandardHit {
			return search.StandardHitOf(h, string(r.Mode), queryTerms, run.Hits(), kids)
		})
	if err != nil {
		return nil, err
	}
	if run.Matched <= search.FewMatches && r.Cursor == nil {
		res := paged.Result.(*SearchResult[StandardHit])
		res.Page.Suggestions = search.StandardSuggestions(pkgs, q, run.Matched, func(alt search.StandardQuery) string {
			return callLine("search_standards", r.with(alt))
		})
		paged.Encoded = nil // the page changes after its check
	}
	return paged, nil
}

// query is what r matches, for the engine.
func (r *StandardSearchRequest) query() search.StandardQuery {
	q := search.StandardQuery{Mode: string(r.Mode), Query: r.Query, IncludeGroupings: r.IncludeGroupings,
		LocalGradeLabels: r.LocalGradeLabels, NormalizedGrades: r.NormalizedGrades, StatementTypes: r.StatementTypes,
		NormalizedTypes: r.NormalizedStatementTypes, NormalizedSubjects: r.NormalizedSubjects}
	if r.Match != nil {
		q.MatchMode, q.Operator = string(r.Match.MatchMode), r.Match.operator()
	}
	return q
}

// with is r matching q instead, without a cursor: the request of a
// suggested call.
func (r StandardSearchRequest) with(q search.StandardQuery) StandardSearchRequest {
	r.Cursor = nil
	r.Mode, r.Query, r.IncludeGroupings = SearchMode(q.Mode), q.Query, q.IncludeGroupings
	r.LocalGradeLabels, r.NormalizedGrades, r.StatementTypes = q.LocalGradeLabels, q.NormalizedGrades, q.StatementTypes
	r.NormalizedStatementTypes, r.NormalizedSubjects = q.NormalizedTypes, q.NormalizedSubjects
	r.Match = nil
	if q.MatchMode != "" {
		r.Match = &MatchPolicy{MatchMode: MatchMode(q.MatchMode)}
		if q.Operator != "" {
			r.Match.Operator = ptr(Operator(q.Operator))
		}
	}
	return r
}

// callLine is a suggested call: the tool and its request, defaults left out
// where they are zero, cursor never.
func callLine(tool string, request any) string {
	b, err := canonjson.Marshal(map[string]any{"request": request})
	if err != nil {
		return tool
	}
	return tool + " " + string(b)
}

func ptr[T any](v T) *T { return &v }
