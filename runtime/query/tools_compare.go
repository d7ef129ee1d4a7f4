package query

import (
	"slices"

	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/standard"

	"context"
	"sort"

	"github.com/kgc-project/kgc/kgimg"
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

// Comparison bounds.
const (
	maxCompareFrameworks   = 8
	comparePathDepth       = 64 // hierarchy levels walked above a match
	comparePathsPerMatch   = 8
	comparePathOccurrences = 256
)

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
	PublisherAlignments *ComparisonAlignments `json:"publisherAlignments"`
	Sections            []ComparisonSection   `json:"sections"`
	// Suggestions (beyond the contract) say, when a section found nothing,
	// which query words no compared framework uses and the comparison
	// with the close words they do use.
	Suggestions []SearchSuggestion  `json:"suggestions"`
	Warnings    []ComparisonWarning `json:"warnings"`
}

// ComparisonAlignments lists the publisher alignments of a comparison: the
// first maxComparisonAlignments and how many there are.
type ComparisonAlignments struct {
	Notice     string                `json:"notice"`
	Alignments []ComparisonAlignment `json:"alignments"`
	TotalCount int                   `json:"totalCount"`
}

// ComparisonAlignment is one publisher-asserted relation between standards
// of two compared frameworks, as CASE orients it (origin associationType
// destination), and the snapshot whose publisher asserts it.
type ComparisonAlignment struct {
	AssertedBy      string      `json:"assertedBy" enum:"publisher"`
	AssertedIn      string      `json:"assertedIn"`
	AssociationType string      `json:"associationType"`
	RelationID      string      `json:"relationId"`
	SequenceNumber  *int64      `json:"sequenceNumber"`
	Origin          EndStandard `json:"origin"`
	Destination     EndStandard `json:"destination"`
}

// maxComparisonAlignments bounds the publisher alignments a comparison lists.
const maxComparisonAlignments = 20

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

// ComparisonSection is one framework's package: its profile facts, its own
// matches, search warnings, bound and cursor (the cursor continues
// search_standards with snapshotIds [snapshotId], the same mode, query, match
// and filters, and limit maxMatchesPerFramework).
type ComparisonSection struct {
	CodeSearchPolicy           profile.CodeSearchPolicy       `json:"codeSearchPolicy"`
	ComparisonDimensions       []string                       `json:"comparisonDimensions"`
	FrameworkID                string                         `json:"frameworkId"`
	GraphPackageID             string                         `json:"graphPackageId"`
	GraphType                  string                         `json:"graphType"`
	HasMore                    bool                           `json:"hasMore"`
	Hierarchy                  profile.Hierarchy              `json:"hierarchy"`
	KnownSourceAnomalies       []profile.Anomaly              `json:"knownSourceAnomalies"`
	LanguagePolicy             profile.LanguagePolicy         `json:"languagePolicy"`
	LocalGradesOrStages        []string                       `json:"localGradesOrStages"`
	Matches                    []ComparisonMatch              `json:"matches"`
	NextCursor                 *string                        `json:"nextCursor"`
	NormalizedGrades           []string                       `json:"normalizedGrades"`
	PackageSearchWarnings      []SearchWarning                `json:"packageSearchWarnings"`
	ProfileID                  string                         `json:"profileId"`
	ProfileSha256              string                         `json:"profileSha256"`
	ProfileVersion             string                         `json:"profileVersion"`
	RequiredProfileDisclosures []string                       `json:"requiredProfileDisclosures"`
	Rights                     Rights                         `json:"rights"`
	SnapshotID                 string                         `json:"snapshotId"`
	SourceMetadata             SourceMetadata                 `json:"sourceMetadata"`
	SourceRoleCapabilities     profile.SourceRoleCapabilities `json:"sourceRoleCapabilities"`
	// TotalMatchingCount is how many standards of this package match in
	// all (beyond the contract): the matches shown are all of them, or the
	// first of this many.
	TotalMatchingCount int                 `json:"totalMatchingCount"`
	Warnings           []ComparisonWarning `json:"warnings"`
}

// ComparisonMatch is one retained hit; HierarchyPaths and ContextComplete are
// both set exactly when includeContextPaths is.
type ComparisonMatch struct {
	ContextComplete *bool        `json:"contextComplete"`
	HierarchyPaths  [][]PathStep `json:"hierarchyPaths"`
	RetrievalStatus string       `json:"retrievalStatus" enum:"retrieval_candidate"`
	SearchHit       StandardHit  `json:"searchHit"`
}

// PathStep is one node of a root-to-match path.
type PathStep struct {
	Description   *string `json:"description"`
	NodeID        string  `json:"nodeId"`
	StatementCode *string `json:"statementCode"`
}

// ComparisonWarning is a warning of one section.
type ComparisonWarning struct {
	Code           string  `json:"code" enum:"code_search_unsupported,context_incomplete,no_matches,text_search_unsupported,unresolved_evidence_present"`
	FrameworkID    string  `json:"frameworkId"`
	GraphPackageID string  `json:"graphPackageId"`
	Message        string  `json:"message"`
	NodeID         *string `json:"nodeId"`
	RelationshipID *string `json:"relationshipId"`
	SnapshotID     string  `json:"snapshotId"`
}

// comparisonDisclosures are the fixed disclosures of every comparison.
var comparisonDisclosures = []string{
	"Normalized grades are retrieval facets, not international grade equivalence.",
	"hasChild is structural containment, not a learning progression or a prerequisite.",
	"Standards describe expectations; they do not prove that any learner has mastered anything.",
	"Similar codes, identifiers, grades, hierarchy positions or text are not official equivalence between frameworks.",
	"Cross-framework matches are exploratory retrieval evidence, each ranked inside its own package.",
	"Comparative conclusions generated from this evidence are model-inferred.",
	"Rights, attribution and provenance stay with each package; cite each section's package for its own records.",
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
	out := &ComparisonResult{Disclosures: comparisonDisclosures, EpistemicStatus: "deterministic_derived", Warnings: []ComparisonWarning{}, Suggestions: []SearchSuggestion{},
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
	sortComparisonWarnings(out.Warnings)
	out.PublisherAlignments = s.comparisonAlignments(pkgs, out.Sections)
	out.Suggestions = comparisonSuggestions(pkgs, r, out.Sections)
	return fitComparison(out)
}

// comparisonAlignments finds the publisher relations between standards of
// two different compared snapshots with at least one end among the matches,
// resolved as get_publisher_relations resolves them (in the sections' order,
// then the matches' rank), or nil when there are none.
func (s *Service) comparisonAlignments(pkgs []*catalog.Package, sections []ComparisonSection) *ComparisonAlignments {
	compared := map[string]*catalog.Package{}
	hasAny := false
	for _, p := range pkgs {
		compared[p.SnapshotID()] = p
		hasAny = hasAny || p.Img.PublisherRelationCount() > 0
	}
	if !hasAny {
		return nil
	}
	var all []ComparisonAlignment
	seen := map[[4]string]bool{}
	for _, sec := range sections {
		p := compared[sec.SnapshotID]
		for _, m := range sec.Matches {
			n, ok := p.Img.NodeByID(m.SearchHit.Node.NodeID)
			if !ok {
				continue
			}
			here := standard.End(p, n)
			for _, r := range standard.RelationsOf(s.cat.Packages, p, n, func(kgimg.PublisherKind) bool { return true }) {
				others := r.Other.Matches
				if r.Other.Standard != nil {
					others = []EndStandard{*r.Other.Standard}
				}
				for _, o := range others {
					if compared[o.SnapshotID] == nil || o.FrameworkID == here.FrameworkID {
						continue
					}
					a := ComparisonAlignment{AssertedBy: "publisher", AssertedIn: r.AssertedIn, AssociationType: r.AssociationType,
						RelationID: r.RelationID, SequenceNumber: r.SequenceNumber, Origin: here, Destination: o}
					if r.Direction == "incoming" {
						a.Origin, a.Destination = o, here
					}
					key := [4]string{a.AssertedIn, a.RelationID, a.Origin.SnapshotID + "\x00" + a.Origin.NodeID, a.Destination.SnapshotID + "\x00" + a.Destination.NodeID}
					if !seen[key] {
						seen[key] = true
						all = append(all, a)
					}
				}
			}
		}
	}
	if len(all) == 0 {
		return nil
	}
	return &ComparisonAlignments{Notice: PublisherNotice, Alignments: all[:min(len(all), maxComparisonAlignments)], TotalCount: len(all)}
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
		warn(code, "this package cannot serve "+string(r.Mode)+" search: "+modeWarningText[modeWarning(p, string(r.Mode))], "", "")
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
			paths, complete, unresolved := hierarchyPaths(p, h.Node.NodeID)
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
	sortComparisonWarnings(sec.Warnings)
	return sec, nil
}

// hierarchyPaths lists the root-to-node paths of one standard, whether the
// list is complete, and the IDs of unresolved relationships along them.
func hierarchyPaths(p *catalog.Package, nodeID string) ([][]PathStep, bool, []string) {
	img := p.Img
	n, ok := img.NodeByID(nodeID)
	if !ok {
		return [][]PathStep{}, false, nil
	}
	rp := standard.RootPathsOf(p, n, comparePathDepth, comparePathsPerMatch, comparePathOccurrences)
	paths := make([][]PathStep, 0, len(rp.Paths))
	var unresolved []string
	for _, path := range rp.Paths {
		steps := make([]PathStep, 0, len(path.NodeIDs))
		for _, id := range path.NodeIDs {
			x, _ := img.NodeByID(id)
			steps = append(steps, PathStep{NodeID: id, StatementCode: optString(img.NodeString(x, kgimg.NodeStatementCode)),
				Description: optString(img.NodeString(x, kgimg.NodeDescription))})
		}
		paths = append(paths, steps)
		for _, rid := range path.RelationshipIDs {
			if r, ok := img.RelationshipByID(rid); ok && img.RelString(r, kgimg.RelResolutionStatus) != "" && !slices.Contains(unresolved, rid) {
				unresolved = append(unresolved, rid)
			}
		}
	}
	return paths, rp.IsComplete, unresolved
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func sortComparisonWarnings(ws []ComparisonWarning) {
	key := func(w ComparisonWarning) []string {
		return []string{w.Code, w.FrameworkID, w.SnapshotID, w.GraphPackageID, deref(w.NodeID), deref(w.RelationshipID), w.Message}
	}
	sort.SliceStable(ws, func(i, j int) bool {
		a, b := key(ws[i]), key(ws[j])
		for k := range a {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return false
	})
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
		sortComparisonWarnings(out.Warnings)
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
			k, _ := countStandards([]*catalog.Package{p}, req)
			n += k
		}
		alt := r
		alt.Query = q
		return n, callLine("compare_framework_evidence", alt)
	})...)
}
