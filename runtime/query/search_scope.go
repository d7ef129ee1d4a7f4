package query

import (
	"encoding/hex"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/schema/manifest"
)

// scopeRequest holds the package-selection fields both search tools share.
type scopeRequest struct {
	Cursor        *string  `json:"cursor"`
	FrameworkIDs  []string `json:"frameworkIds"`
	SnapshotIDs   []string `json:"snapshotIds"`
	Jurisdictions []string `json:"jurisdictions"`
	Languages     []string `json:"languages"`
	Subjects      []string `json:"subjects"`
	Limit         int      `json:"limit"`
}

func scopeProps() map[string]*Schema {
	return map[string]*Schema{
		"cursor":        cursorSchema(),
		"frameworkIds":  array(frameworkID(), 64, "search only these frameworks (their unique current snapshot unless snapshotIds pins one)"),
		"snapshotIds":   array(snapshotID(), 64, "search exactly these snapshots"),
		"jurisdictions": filterValues(64, "keep packages of these jurisdictions"),
		"languages":     array(pattern(str(2, 64, ""), languagePattern), 64, "keep packages in these languages"),
		"subjects":      filterValues(64, "keep packages of these local subjects"),
		"limit":         integer(1, 100, 25, "page size"),
	}
}

// selectPackages resolves a search's scope: explicit snapshots and frameworks
// (each framework's unique current snapshot unless one of its snapshots is
// named), or every family's unique current snapshot; then the package filters.
func (s *Service) selectPackages(r *scopeRequest) ([]*catalog.Package, obj, error) {
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
			return nil, nil, err
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
			return nil, nil, err
		}
		add(p)
	}
	explicit := len(r.SnapshotIDs)+len(r.FrameworkIDs) > 0
	if !explicit {
		for _, f := range s.cat.Frameworks {
			if p, err := s.cat.Resolve(f.ID, "", manifest.GraphAcademicStandards); err == nil {
				add(p)
			}
		}
	}
	var kept []*catalog.Package
	for _, p := range pkgs {
		f := p.Manifest.Framework
		if anyIn(r.Jurisdictions, f.Jurisdiction) && anyIn(r.Languages, f.Languages...) && anyIn(r.Subjects, f.LocalSubject) {
			kept = append(kept, p)
		}
	}
	if explicit && len(kept) == 0 {
		return nil, nil, kgerr.New(kgerr.FrameworkNotFound, "no selected package matches the jurisdiction, language and subject filters")
	}
	var scope obj
	// Exact: the selectors name one package and the filters keep it.
	if explicit && len(pkgs) == 1 && len(kept) == 1 {
		p := kept[0]
		scope = obj{"selectionMode": "exact", "frameworkId": p.FrameworkID(), "graphType": p.Manifest.GraphType, "snapshotId": p.SnapshotID()}
	} else {
		var fws, types, snaps []string
		for _, p := range kept {
			fws = append(fws, p.FrameworkID())
			snaps = append(snaps, p.SnapshotID())
			if !contains(types, p.Manifest.GraphType) {
				types = append(types, p.Manifest.GraphType)
			}
		}
		scope = obj{"selectionMode": "federated", "frameworkIds": nonNil(fws), "graphTypes": nonNil(types), "snapshotIds": nonNil(snaps)}
	}
	return kept, scope, nil
}

func selectedSnapshots(s *Service, pkgs []*catalog.Package) []FrameworkSnapshot {
	out := make([]FrameworkSnapshot, 0, len(pkgs))
	for _, p := range pkgs {
		if snap, ok := s.cat.Snapshot(p.SnapshotID()); ok {
			out = append(out, frameworkSnapshot(snap))
		}
	}
	return out
}

// indexSetSha256 binds a cursor to the selected images and normalisers.
func indexSetSha256(pkgs []*catalog.Package) string {
	var parts []obj
	for _, p := range pkgs {
		var sum [8]byte
		h := p.Img.Header().Checksum
		for i := range sum {
			sum[i] = byte(h >> (8 * i))
		}
		parts = append(parts, obj{"graphPackageId": p.GraphPackageID(), "image": hex.EncodeToString(sum[:])})
	}
	v, _ := canonjson.Sha256(obj{"packages": parts, "lexical": textnorm.LexicalVersion, "facet": textnorm.FacetVersion,
		"ranking": "deterministic_search_ranking_v1", "cursor": 1})
	return v
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
			return fail("request.query", "must not contain control characters")
		}
	}
	return nil
}

func searchWarning(code, message, nodeID string, p *catalog.Package) obj {
	var n any
	if nodeID != "" {
		n = nodeID
	}
	return obj{"code": code, "message": message, "nodeId": n, "packageIdentity": packageIdentity(p)}
}
