package query

import (
	"slices"

	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/runtime/compare"
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/standard"

	"context"
	"sort"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/search"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
)

// CompareRequest is a compare_framework_evidence request
// (docs/reference/tools.md#compare_framework_evidence):
// the same search run independently in each of 2–8 frameworks.
type CompareRequest struct {
	Mode                   SearchMode   `json:"mode"`
	Query                  string       `json:"query"`
	Match                  *MatchPolicy `json:"match,omitempty"`
	FrameworkIDs           []string     `json:"frameworkIds"`
	SnapshotIDs            []string     `json:"snapshotIds,omitempty"`
	IncludeContextPaths    bool         `json:"includeContextPaths"`
	IncludeGroupings       bool         `json:"includeGroupings"`
	LocalGradeLabels       []string     `json:"localGradeLabels,omitempty"`
	NormalizedGrades       []string     `json:"normalizedGrades,omitempty"`
	MaxMatchesPerFramework int          `json:"maxMatchesPerFramework"`
}

// NewCompareRequest returns a text comparison of query across frameworks with
// every default filled in (any-token match).
func NewCompareRequest(query string, frameworkIDs ...string) CompareRequest {
	return newRequest[CompareRequest](compareSchema(), map[string]any{"mode": "text", "query": query,
		"match": map[string]any{"matchMode": "tokens", "operator": "any"}, "frameworkIds": frameworkIDs})
}

// maxCompareFrameworks bounds the frameworks one comparison selects.
const maxCompareFrameworks = 8

func compareSchema() *Schema {
	alt := func(mode string, query *Schema, withMatch bool) *Schema {
		fws := jsonschema.Array(frameworkID(), maxCompareFrameworks, "the frameworks to compare (2–8)")
		fws.MinItems, fws.Default = 2, nil
		props := map[string]*Schema{
			"frameworkIds":           fws,
			"snapshotIds":            jsonschema.Array(snapshotID(), maxCompareFrameworks, "pin snapshots: at most one per selected framework; the others use their unique current snapshot"),
			"includeContextPaths":    jsonschema.Boolean(true, "attach every root-to-match hierarchy path to each match"),
			"includeGroupings":       jsonschema.Boolean(false, "also match Standard Grouping nodes"),
			"localGradeLabels":       filterValues(64, "keep matches whose grades meet these local grade labels (resolved through each package's profile)"),
			"normalizedGrades":       filterValues(64, "keep matches with any of these normalized grades"),
			"maxMatchesPerFramework": jsonschema.Integer(1, 10, 5, "matches kept per framework (each framework's own ranking)"),
			"mode":                   modeConst(mode),
			"query":                  query,
		}
		req := []string{"mode", "query", "frameworkIds"}
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

// ComparisonResult is compare_framework_evidence's result: one section per
// framework, each from its own package-local search, never merged.
type ComparisonResult struct {
	Disclosures     []string          `json:"disclosures"`
	EpistemicStatus string            `json:"epistemicStatus" enum:"deterministic_derived"`
	Request         ComparisonRequest `json:"request"`
	// PublisherAlignments are the relations the compared frameworks'
	// publishers assert between them that touch a match (null when there
	// are none): publisher-asserted facts, apart from the search matches.
	PublisherAlignments *compare.ComparisonAlignments `json:"publisherAlignments"`
	Sections            []ComparisonSection           `json:"sections"`
	// Suggestions (beyond the contract) say, when a section found nothing,
	// which query words no compared framework uses and the comparison
	// with the close words they do use.
	Suggestions []SearchSuggestion  `json:"suggestions"`
	Warnings    []ComparisonWarning `json:"warnings"`
}

// ComparisonRequest is the canonical resolved request: snapshotIds holds the
// snapshot each framework was answered from, in frameworkIds order.
type ComparisonRequest struct {
	FrameworkIDs           []string     `json:"frameworkIds"`
	IncludeContextPaths    bool         `json:"includeContextPaths"`
	IncludeGroupings       bool         `json:"includeGroupings"`
	LocalGradeLabels       []string     `json:"localGradeLabels"`
	Match                  *MatchPolicy `json:"match,omitempty"`
	MaxMatchesPerFramework int          `json:"maxMatchesPerFramework"`
	Mode                   string       `json:"mode" enum:"text,code_exact,code_prefix"`
	NormalizedGrades       []string     `json:"normalizedGrades"`
	Query                  string       `json:"query"`
	SnapshotIDs            []string     `json:"snapshotIds"`
}

// CompareFrameworkEvidence answers compare_framework_evidence.
func (s *Service) CompareFrameworkEvidence(ctx context.Context, r CompareRequest) (*ComparisonResult, error) {
	if err := checkRequest(compareSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.compare(ctx, r)
	return own(s, result, err)
}

// comparePackages resolves one package per selected framework: the pinned
// snapshot, or the framework's unique current one.
func (s *Service) comparePackages(r CompareRequest) ([]*catalog.Package, error) {
	pinned := map[string]string{}
	for _, id := range r.SnapshotIDs {
		snap, ok := s.cat.Snapshot(id)
		if !ok {
			return nil, kgerr.New(kgerr.FrameworkNotFound, "snapshot %s is not available", id).
				WithHint("call list_frameworks to see the accepted snapshots")
		}
		if !slices.Contains(r.FrameworkIDs, snap.FrameworkID) {
			return nil, kgerr.New(kgerr.InvalidComparisonSelection, "snapshot %s belongs to framework %s, which frameworkIds does not select", id, snap.FrameworkID).
				WithHint("pin only snapshots of the selected frameworks")
		}
		if prev, ok := pinned[snap.FrameworkID]; ok {
			return nil, kgerr.New(kgerr.InvalidComparisonSelection, "snapshotIds pins two snapshots of framework %s (%s, %s)", snap.FrameworkID, prev, id).
				WithHint("pin at most one snapshot per framework; compare two snapshots of one framework with two searches")
		}
		pinned[snap.FrameworkID] = id
	}
	pkgs := make([]*catalog.Package, 0, len(r.FrameworkIDs))
	for _, fw := range r.FrameworkIDs {
		p, err := s.cat.Resolve(fw, pinned[fw], manifest.GraphAcademicStandards)
		if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

func (s *Service) compare(ctx context.Context, r CompareRequest) (*ComparisonResult, error) {
	if err := checkFacetValues("localGradeLabels", r.LocalGradeLabels); err != nil {
		return nil, err
	}
	if err := checkFacetValues("normalizedGrades", r.NormalizedGrades); err != nil {
		return nil, err
	}
	kind := "code"
	if r.Mode == "text" {
		kind = "text"
	}
	if err := checkQuery(kind, r.Query, maxTextQueryTokens); err != nil {
		return nil, err
	}
	pkgs, err := s.comparePackages(r)
	if err != nil {
		return nil, err
	}
	out := &ComparisonResult{Disclosures: compare.Disclosures, EpistemicStatus: "deterministic_derived", Warnings: []ComparisonWarning{}, Suggestions: []SearchSuggestion{},
		Request: ComparisonRequest{FrameworkIDs: r.FrameworkIDs, IncludeContextPaths: r.IncludeContextPaths, IncludeGroupings: r.IncludeGroupings,
			LocalGradeLabels: nonNil(r.LocalGradeLabels), Match: r.Match, MaxMatchesPerFramework: r.MaxMatchesPerFramework, Mode: string(r.Mode),
			NormalizedGrades: nonNil(r.NormalizedGrades), Query: r.Query, SnapshotIDs: make([]string, len(pkgs))}}
	if r.Mode != "text" {
		out.Request.Match = nil
	}
	for i, p := range pkgs {
		out.Request.SnapshotIDs[i] = p.SnapshotID()
		sec, err := s.compareSection(ctx, r, p)
		if err != nil {
			return nil, err
		}
		out.Sections = append(out.Sections, sec)
		out.Warnings = append(out.Warnings, sec.Warnings...)
	}
	sort.Slice(out.Sections, func(i, j int) bool {
		a, b := out.Sections[i], out.Sections[j]
		if a.FrameworkID != b.FrameworkID {
			return a.FrameworkID < b.FrameworkID
		}
		if a.SnapshotID != b.SnapshotID {
			return a.SnapshotID < b.SnapshotID
		}
		return a.GraphPackageID < b.GraphPackageID
	})
	compare.SortWarnings(out.Warnings)
	out.PublisherAlignments = compare.Alignments(standard.PeersOf(s.cat), pkgs, out.Sections)
	out.Suggestions = comparisonSuggestions(pkgs, r, out.Sections)
	return fitComparison(out)
}

// compareSection runs the package-local search of one section and loads the
// hierarchy paths of its matches.
func (s *Service) compareSection(ctx context.Context, r CompareRequest, p *catalog.Package) (ComparisonSection, error) {
	prof := p.Profile()
	sec := ComparisonSection{
		CodeSearchPolicy: prof.CodeSearchPolicy, ComparisonDimensions: nonNil(prof.ComparisonDimensions),
		FrameworkID: p.FrameworkID(), GraphPackageID: p.GraphPackageID(), GraphType: p.Manifest.GraphType,
		Hierarchy: prof.Hierarchy, KnownSourceAnomalies: prof.KnownSourceAnomalies, LanguagePolicy: prof.LanguagePolicy,
		LocalGradesOrStages: nonNil(p.Manifest.Framework.LocalGradesOrStages), Matches: []ComparisonMatch{},
		NormalizedGrades: nonNil(prof.NormalizedGrades()), PackageSearchWarnings: []SearchWarning{},
		ProfileID: prof.ProfileID, ProfileSha256: p.Manifest.Profile.Sha256, ProfileVersion: prof.ProfileVersion,
		RequiredProfileDisclosures: nonNil(prof.RequiredDisclosures), Rights: p.Manifest.Rights, SnapshotID: p.SnapshotID(),
		SourceMetadata: record.Source(p), SourceRoleCapabilities: prof.SourceRoleCapabilities, Warnings: []ComparisonWarning{},
	}
	if sec.KnownSourceAnomalies == nil {
		sec.KnownSourceAnomalies = []profile.Anomaly{}
	}
	warn := func(code, msg, nodeID, relID string) {
		w := ComparisonWarning{Code: code, FrameworkID: sec.FrameworkID, GraphPackageID: sec.GraphPackageID, Message: msg, SnapshotID: sec.SnapshotID}
		if nodeID != "" {
			w.NodeID = &nodeID
		}
		if relID != "" {
			w.RelationshipID = &relID
		}
		sec.Warnings = append(sec.Warnings, w)
	}
	req := StandardSearchRequest{SearchScope: SearchScope{SnapshotIDs: []string{p.SnapshotID()}, Limit: r.MaxMatchesPerFramework},
		Mode: r.Mode, Query: r.Query, Match: r.Match, IncludeGroupings: r.IncludeGroupings,
		LocalGradeLabels: r.LocalGradeLabels, NormalizedGrades: r.NormalizedGrades}
	if r.Mode != "text" {
		req.Match = nil
	}
	page, err := s.searchStandards(ctx, req)
	if kgerr.CodeOf(err) == kgerr.CapabilityUnavailable {
		code := "code_search_unsupported"
		if r.Mode == "text" {
			code = "text_search_unsupported"
		}
		warn(code, "this package cannot serve "+string(r.Mode)+" search: "+search.ModeWarningText(search.ModeWarning(p, string(r.Mode))), "", "")
		return sec, nil
	}
	if err != nil {
		return sec, err
	}
	res := page.Result.(*SearchResult[StandardHit])
	sec.PackageSearchWarnings = res.Page.Warnings
	sec.HasMore, sec.NextCursor, sec.TotalMatchingCount = res.Page.HasMore, res.Page.NextCursor, res.Page.TotalMatchingCount
	for _, h := range res.Page.Hits {
		m := ComparisonMatch{SearchHit: h, RetrievalStatus: "retrieval_candidate"}
		if r.IncludeContextPaths {
			paths, complete, unresolved := compare.HierarchyPaths(p, h.Node.NodeID)
			m.HierarchyPaths, m.ContextComplete = paths, &complete
			if !complete {
				warn("context_incomplete", "not every root-to-match path could be listed within the comparison's bounds ("+
					"at most 8 paths per match)", h.Node.NodeID, "")
			}
			for _, rel := range unresolved {
				warn("unresolved_evidence_present", "a hierarchy path to this match runs through a relationship the source did not resolve (attached to the root as a fallback)",
					h.Node.NodeID, rel)
			}
		}
		sec.Matches = append(sec.Matches, m)
	}
	if len(sec.Matches) == 0 {
		warn("no_matches", "the package-local search found no standards for this query and these filters", "", "")
	}
	compare.SortWarnings(sec.Warnings)
	return sec, nil
}

// fitComparison keeps a comparison under the result ceiling: over it, each
// match keeps only its first hierarchy path (contextComplete false, with a
// context_incomplete warning); still over, result_too_large.
func fitComparison(out *ComparisonResult) (*ComparisonResult, error) {
	if ok, err := anyCeiling.fits(out); err != nil || ok {
		return out, err
	}
	incomplete := false
	for i := range out.Sections {
		sec := &out.Sections[i]
		for j := range sec.Matches {
			m := &sec.Matches[j]
			if len(m.HierarchyPaths) > 1 {
				m.HierarchyPaths = m.HierarchyPaths[:1]
				f := false
				m.ContextComplete = &f
				incomplete = true
				id := m.SearchHit.Node.NodeID
				w := ComparisonWarning{Code: "context_incomplete", FrameworkID: sec.FrameworkID, GraphPackageID: sec.GraphPackageID, SnapshotID: sec.SnapshotID,
					NodeID: &id, Message: "only the first root-to-match path fits the result ceiling"}
				sec.Warnings = append(sec.Warnings, w)
				out.Warnings = append(out.Warnings, w)
			}
		}
	}
	if incomplete {
		compare.SortWarnings(out.Warnings)
		if ok, err := anyCeiling.fits(out); err != nil || ok {
			return out, err
		}
	}
	return nil, ResultTooLarge("the comparison (lower maxMatchesPerFramework, or set includeContextPaths false)")
}

// comparisonSuggestions handles a text comparison in which a section found
// nothing: each query word no compared package uses is named, with the
// comparison again under the close words they do use (counted over all the
// compared packages).
func comparisonSuggestions(pkgs []*catalog.Package, r CompareRequest, sections []ComparisonSection) []SearchSuggestion {
	out := []SearchSuggestion{}
	empty := false
	for _, sec := range sections {
		empty = empty || len(sec.Matches) == 0
	}
	if !empty || r.Mode != "text" || r.Match == nil {
		return out
	}
	req := StandardSearchRequest{Mode: r.Mode, Match: r.Match, IncludeGroupings: r.IncludeGroupings,
		LocalGradeLabels: r.LocalGradeLabels, NormalizedGrades: r.NormalizedGrades}
	found := 0
	for _, sec := range sections {
		found += sec.TotalMatchingCount
	}
	return append(out, search.SpellingSuggestions(search.ItemWords, pkgs, r.Query, found, func(q string) (int, string) {
		req.Query = q
		n := 0
		for _, p := range pkgs { // each framework searched on its own, as the comparison does
			k, _ := search.CountStandards([]*catalog.Package{p}, req.query())
			n += k
		}
		alt := r
		alt.Query = q
		return n, callLine("compare_framework_evidence", alt)
	})...)
}
