package query

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/search"
	"github.com/kgc-project/kgc/schema/manifest"
)

// SearchScope holds the package-selection and paging fields both search
// tools share. No frameworks or snapshots: every framework's unique current
// snapshot (federated).
type SearchScope struct {
	Cursor        *string  `json:"cursor,omitempty"`
	FrameworkIDs  []string `json:"frameworkIds,omitempty"`
	SnapshotIDs   []string `json:"snapshotIds,omitempty"`
	Jurisdictions []string `json:"jurisdictions,omitempty"`
	Languages     []string `json:"languages,omitempty"`
	Subjects      []string `json:"subjects,omitempty"`
	Limit         int      `json:"limit,omitempty"`
}

func scopeProps() map[string]*Schema {
	return map[string]*Schema{
		"cursor":        cursorSchema(),
		"frameworkIds":  jsonschema.Array(frameworkID(), 64, "search only these frameworks (their unique current snapshot unless snapshotIds pins one)"),
		"snapshotIds":   jsonschema.Array(snapshotID(), 64, "search exactly these snapshots"),
		"jurisdictions": filterValues(64, "keep packages of these jurisdictions"),
		"languages":     jsonschema.Array(jsonschema.Pattern(jsonschema.String(2, 64, ""), languagePattern), 64, "keep packages in these languages"),
		"subjects":      filterValues(64, "keep packages of these local subjects"),
		"limit":         jsonschema.Integer(1, 100, 25, "page size"),
	}
}

// EffectiveScope is a search's effective scope: an ExactScope or a
// FederatedScope.
type EffectiveScope interface{ selection() string }

func (ExactScope) selection() string     { return "exact" }
func (FederatedScope) selection() string { return "federated" }

// ExactScope is a search's effective scope when its selectors name one
// package.
type ExactScope struct {
	FrameworkID   string `json:"frameworkId"`
	GraphType     string `json:"graphType"`
	SelectionMode string `json:"selectionMode" enum:"exact"`
	SnapshotID    string `json:"snapshotId"`
}

// FederatedScope is a search's effective scope over several packages (or
// every framework's unique current snapshot). Past MaxEchoedPackages
// selected packages the echo is bounded (beyond the contract, which echoes
// them all): FrameworkIDs and SnapshotIDs, like selectedSnapshots, list only
// the packages whose hits are on this page; SelectedPackageCount counts the
// whole selection and SelectionSha256 digests it (the digest the page's
// cursor is bound to).
type FederatedScope struct {
	FrameworkIDs         []string `json:"frameworkIds"`
	GraphTypes           []string `json:"graphTypes"`
	SelectionMode        string   `json:"selectionMode" enum:"federated"`
	SnapshotIDs          []string `json:"snapshotIds"`
	SelectedPackageCount int      `json:"selectedPackageCount,omitempty"`
	SelectionSha256      string   `json:"selectionSha256,omitempty"`
}

// Bounds of a federated page's echo.
const (
	// maxEchoedPackages is the largest selection echoed whole.
	maxEchoedPackages = 32
	// maxPageWarnings bounds a page's warnings; the rest are counted.
	maxPageWarnings = 64
)

// boundWarnings keeps the first MaxPageWarnings warnings and counts the rest.
func boundWarnings(ws []SearchWarning) ([]SearchWarning, int) {
	if ws == nil {
		return []SearchWarning{}, 0
	}
	if len(ws) > maxPageWarnings {
		return ws[:maxPageWarnings], len(ws) - maxPageWarnings
	}
	return ws, 0
}

// scopeEcho returns, for the first k hits of a page, the effective scope and
// selected snapshots to echo: the whole selection up to MaxEchoedPackages
// packages, past it only the packages those hits come from (in selection
// order), with the selection's count and digest.
func scopeEcho(s *Service, in pagingInput, selectionSum string, page []*search.Hit) func(k int) (EffectiveScope, []FrameworkSnapshot) {
	fed, ok := in.scope.(FederatedScope)
	if !ok || len(in.pkgs) <= maxEchoedPackages {
		selected := selectedSnapshots(s, in.pkgs)
		return func(int) (EffectiveScope, []FrameworkSnapshot) { return in.scope, selected }
	}
	rank := make(map[*catalog.Package]int, len(in.pkgs))
	for i, p := range in.pkgs {
		rank[p] = i
	}
	return func(k int) (EffectiveScope, []FrameworkSnapshot) {
		var pkgs []*catalog.Package
		seen := map[*catalog.Package]bool{}
		for _, h := range page[:k] {
			if !seen[h.Pkg] {
				seen[h.Pkg] = true
				pkgs = append(pkgs, h.Pkg)
			}
		}
		sort.Slice(pkgs, func(i, j int) bool { return rank[pkgs[i]] < rank[pkgs[j]] })
		scope := fed
		scope.FrameworkIDs, scope.SnapshotIDs = []string{}, []string{}
		for _, p := range pkgs {
			if !slices.Contains(scope.FrameworkIDs, p.FrameworkID()) {
				scope.FrameworkIDs = append(scope.FrameworkIDs, p.FrameworkID())
			}
			scope.SnapshotIDs = append(scope.SnapshotIDs, p.SnapshotID())
		}
		scope.SelectedPackageCount, scope.SelectionSha256 = len(in.pkgs), selectionSum
		return scope, selectedSnapshots(s, pkgs)
	}
}

// selectPackages resolves a search's scope: explicit snapshots and frameworks
// (each framework's unique current snapshot unless one of its snapshots is
// named), or every family's unique current snapshot; then the package filters.
//
// A federated search (no selectors) cannot choose between the current
// snapshots of a framework that has several (or none): it leaves the framework
// out and says so with one ambiguous_current_snapshot warning per candidate
// package, so that nothing is dropped silently.
func (s *Service) selectPackages(r *SearchScope) ([]*catalog.Package, EffectiveScope, []SearchWarning, error) {
	var pkgs []*catalog.Package
	seen := map[string]bool{}
	add := func(p *catalog.Package) {
		if !seen[p.GraphPackageID()] {
			seen[p.GraphPackageID()] = true
			pkgs = append(pkgs, p)
		}
	}
	pinned := map[string]bool{}
	for _, id := range r.SnapshotIDs {
		p, err := s.cat.Resolve("", id, manifest.GraphAcademicStandards)
		if err != nil {
			return nil, nil, nil, err
		}
		pinned[p.FrameworkID()] = true
		add(p)
	}
	for _, id := range r.FrameworkIDs {
		if pinned[id] {
			continue
		}
		p, err := s.cat.Resolve(id, "", manifest.GraphAcademicStandards)
		if err != nil {
			return nil, nil, nil, err
		}
		add(p)
	}
	explicit := len(r.SnapshotIDs)+len(r.FrameworkIDs) > 0
	filtered := func(p *catalog.Package) bool {
		f := p.Manifest.Framework
		return record.AnyIn(r.Jurisdictions, f.Jurisdiction) && record.AnyIn(r.Languages, f.Languages...) && record.AnyIn(r.Subjects, f.LocalSubject)
	}
	var warnings []SearchWarning
	if !explicit {
		for _, f := range s.cat.Frameworks {
			p, err := s.cat.Resolve(f.ID, "", manifest.GraphAcademicStandards)
			if err == nil {
				add(p)
			} else if kgerr.CodeOf(err) == kgerr.AmbiguousFramework {
				warnings = append(warnings, ambiguityWarnings(f, filtered)...)
			}
		}
	}
	var kept []*catalog.Package
	for _, p := range pkgs {
		if filtered(p) {
			kept = append(kept, p)
		}
	}
	if explicit && len(kept) == 0 {
		return nil, nil, nil, kgerr.New(kgerr.FrameworkNotFound, "no selected package matches the jurisdiction, language and subject filters")
	}
	var scope EffectiveScope
	// Exact: the selectors name one package and the filters keep it.
	if explicit && len(pkgs) == 1 && len(kept) == 1 {
		p := kept[0]
		scope = ExactScope{SelectionMode: "exact", FrameworkID: p.FrameworkID(), GraphType: p.Manifest.GraphType, SnapshotID: p.SnapshotID()}
	} else {
		var fws, types, snaps []string
		for _, p := range kept {
			fws = append(fws, p.FrameworkID())
			snaps = append(snaps, p.SnapshotID())
			if !slices.Contains(types, p.Manifest.GraphType) {
				types = append(types, p.Manifest.GraphType)
			}
		}
		scope = FederatedScope{SelectionMode: "federated", FrameworkIDs: nonNil(fws), GraphTypes: nonNil(types), SnapshotIDs: nonNil(snaps)}
	}
	return kept, scope, warnings, nil
}

// ambiguityWarnings are the warnings of a framework a federated search left
// out because it has no unique current snapshot: one per candidate package
// the filters keep (its current snapshots, or every snapshot when none is
// current), each naming the candidates and how to pin one.
func ambiguityWarnings(f *catalog.Framework, keep func(*catalog.Package) bool) []SearchWarning {
	var candidates []*catalog.Package
	for _, snap := range f.Snapshots {
		if snap.IsCurrent() {
			if p := snap.Primary(manifest.GraphAcademicStandards); p != nil && keep(p) {
				candidates = append(candidates, p)
			}
		}
	}
	state := fmt.Sprintf("has %d current snapshots", len(candidates))
	if len(candidates) == 0 {
		state = "has no current snapshot"
		for _, snap := range f.Snapshots {
			if p := snap.Primary(manifest.GraphAcademicStandards); p != nil && keep(p) {
				candidates = append(candidates, p)
			}
		}
	}
	ids := make([]string, len(candidates))
	for i, p := range candidates {
		ids[i] = p.SnapshotID()
	}
	out := make([]SearchWarning, 0, len(candidates))
	for _, p := range candidates {
		msg := fmt.Sprintf("framework %s %s (%s), so a search without frameworkIds or snapshotIds leaves it out. To search it, name one snapshot in request.snapshotIds, e.g. [%q].",
			f.ID, state, strings.Join(ids, ", "), p.SnapshotID())
		out = append(out, search.Warning(ambiguousCurrentSnapshot, msg, "", p))
	}
	return out
}

// ambiguousCurrentSnapshot is the search warning for a framework a federated
// search left out because it has no unique current snapshot (beyond the
// contract's codes).
const ambiguousCurrentSnapshot = "ambiguous_current_snapshot"

func selectedSnapshots(s *Service, pkgs []*catalog.Package) []FrameworkSnapshot {
	out := make([]FrameworkSnapshot, 0, len(pkgs))
	for _, p := range pkgs {
		if snap, ok := s.cat.Snapshot(p.SnapshotID()); ok {
			out = append(out, record.Snapshot(snap))
		}
	}
	return out
}

// hasSearchable reports whether a code query has a letter, mark, number or
// symbol after NFKC.
func hasSearchable(q string) bool {
	for _, r := range norm.NFKC.String(q) {
		if unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.S) {
			return true
		}
	}
	return false
}

func noControl(q string) error {
	for _, r := range q {
		if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) {
			return jsonschema.Fail("request.query", "must not contain control characters")
		}
	}
	return nil
}
