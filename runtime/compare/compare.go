package compare

import (
	"slices"
	"sort"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/search"
	"github.com/kgc-project/kgc/runtime/standard"
	"github.com/kgc-project/kgc/schema/profile"
	"github.com/kgc-project/kgc/schema/rights"
)

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
	AssertedBy      string               `json:"assertedBy" enum:"publisher"`
	AssertedIn      string               `json:"assertedIn"`
	AssociationType string               `json:"associationType"`
	RelationID      string               `json:"relationId"`
	SequenceNumber  *int64               `json:"sequenceNumber"`
	Origin          standard.EndStandard `json:"origin"`
	Destination     standard.EndStandard `json:"destination"`
}

// maxComparisonAlignments bounds the publisher alignments a comparison lists.
const maxComparisonAlignments = 20

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
	PackageSearchWarnings      []search.SearchWarning         `json:"packageSearchWarnings"`
	ProfileID                  string                         `json:"profileId"`
	ProfileSha256              string                         `json:"profileSha256"`
	ProfileVersion             string                         `json:"profileVersion"`
	RequiredProfileDisclosures []string                       `json:"requiredProfileDisclosures"`
	Rights                     rights.Policy                  `json:"rights"`
	SnapshotID                 string                         `json:"snapshotId"`
	SourceMetadata             record.SourceMetadata          `json:"sourceMetadata"`
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
	ContextComplete *bool              `json:"contextComplete"`
	HierarchyPaths  [][]PathStep       `json:"hierarchyPaths"`
	RetrievalStatus string             `json:"retrievalStatus" enum:"retrieval_candidate"`
	SearchHit       search.StandardHit `json:"searchHit"`
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

// Disclosures are the fixed disclosures of every comparison.
var Disclosures = []string{
	"Normalized grades are retrieval facets, not international grade equivalence.",
	"hasChild is structural containment, not a learning progression or a prerequisite.",
	"Standards describe expectations; they do not prove that any learner has mastered anything.",
	"Similar codes, identifiers, grades, hierarchy positions or text are not official equivalence between frameworks.",
	"Cross-framework matches are exploratory retrieval evidence, each ranked inside its own package.",
	"Comparative conclusions generated from this evidence are model-inferred.",
	"Rights, attribution and provenance stay with each package; cite each section's package for its own records.",
}

// Alignments finds the publisher relations between standards of
// two different compared snapshots with at least one end among the matches,
// resolved as get_publisher_relations resolves them (in the sections' order,
// then the matches' rank), or nil when there are none.
func Alignments(peers standard.Peers, pkgs []*catalog.Package, sections []ComparisonSection) *ComparisonAlignments {
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
			for _, r := range standard.RelationsOf(peers, p, n, func(kgimg.PublisherKind) bool { return true }) {
				others := r.Other.Matches
				if r.Other.Standard != nil {
					others = []standard.EndStandard{*r.Other.Standard}
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
	return &ComparisonAlignments{Notice: standard.PublisherNotice, Alignments: all[:min(len(all), maxComparisonAlignments)], TotalCount: len(all)}
}

// HierarchyPaths lists the root-to-node paths of one standard, whether the
// list is complete, and the IDs of unresolved relationships along them.
func HierarchyPaths(p *catalog.Package, nodeID string) ([][]PathStep, bool, []string) {
	img := p.Img
	n, ok := img.NodeByID(nodeID)
	if !ok {
		return [][]PathStep{}, false, nil
	}
	rp := standard.RootPathsOf(p, n, pathDepth, comparePathsPerMatch, comparePathOccurrences)
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

func SortWarnings(ws []ComparisonWarning) {
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

// Bounds of the hierarchy paths listed with each match.
const (
	pathDepth              = 64 // hierarchy levels walked above a match
	comparePathsPerMatch   = 8
	comparePathOccurrences = 256
)

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
