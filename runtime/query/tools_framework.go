package query

import (
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/resource"
	"github.com/kgc-project/kgc/runtime/standard"

	"context"
	"sort"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/uri"
	"github.com/kgc-project/kgc/schema/manifest"
)

// Identifier patterns (docs/reference/package-format.md lists the forms).
const (
	frameworkPattern = `^[a-z0-9]+(?:-[a-z0-9]+)*$`
	snapshotPattern  = `^[a-z0-9]+(?:-[a-z0-9]+)*@[a-z0-9]+(?:[._-][a-z0-9]+)*\+[0-9a-f]{12}$`
	languagePattern  = `^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$`
	cursorPattern    = `^[A-Za-z0-9_-]+$`
)

// Identifiers are copied from results, never composed: they are published
// as their type alone (terse), and validated in full.
func frameworkID() *Schema {
	return jsonschema.Terse(jsonschema.Pattern(jsonschema.String(3, 200, ""), frameworkPattern))
}
func snapshotID() *Schema {
	return jsonschema.Terse(jsonschema.Pattern(jsonschema.String(18, 280, ""), snapshotPattern))
}
func cursorSchema() *Schema {
	return jsonschema.Nullable(jsonschema.Terse(jsonschema.Pattern(jsonschema.String(1, maxCursorLength, "a page's nextCursor"), cursorPattern)))
}
func graphType() *Schema {
	s := jsonschema.Enum("", manifest.GraphAcademicStandards, manifest.GraphLearningComponents, manifest.GraphLearningProgressions)
	s.Default = manifest.GraphAcademicStandards
	s.Hidden = true // every package is routed as academic_standards
	return s
}
func filterValues(max int, desc string) *Schema {
	return jsonschema.Array(jsonschema.Terse(jsonschema.String(1, 128, "")), max, desc)
}

// --- get_capabilities -------------------------------------------------------

// CapabilitiesResult is get_capabilities' result: the server's surface and
// what each package can serve.
type CapabilitiesResult struct {
	AvailableGraphTypes             []string `json:"availableGraphTypes"`
	FrameworkPromptOverlaysOptional bool     `json:"frameworkPromptOverlaysOptional"`
	ImplementedFeatures             []string `json:"implementedFeatures"`
	// IncludedGraphTypes is the union of the graph types the packages
	// contain (AvailableGraphTypes: their primary, routing types).
	IncludedGraphTypes        []string              `json:"includedGraphTypes"`
	Packages                  []PackageCapabilities `json:"packages"`
	PromptConfigSchemaVersion string                `json:"promptConfigSchemaVersion"`
	PromptNames               []string              `json:"promptNames"`
	ResourceRepresentations   []string              `json:"resourceRepresentations"`
	ResourceURIs              []string              `json:"resourceUris"`
	ResourceURITemplates      []string              `json:"resourceUriTemplates"`
	ServerName                string                `json:"serverName"`
	ToolNames                 []string              `json:"toolNames"`
	UnavailableFeatures       []string              `json:"unavailableFeatures"`
	// TruncationReason and OmittedCount say the result ceiling cut Packages
	// (beyond the contract).
	TruncationReason string `json:"truncationReason,omitempty"`
	OmittedCount     int    `json:"omittedCount,omitempty"`
}

// Capabilities answers get_capabilities (built once: the catalog never
// changes), its packages cut to the result ceiling when they are over it.
func (s *Service) Capabilities(context.Context) (*CapabilitiesResult, error) {
	v := s.memo.get("capabilities", func() any {
		full := s.capabilities()
		k, err := fitPrefix(full, len(full.Packages), func(k int) any {
			c := *full
			c.Packages = full.Packages[:k]
			return &c
		})
		switch {
		case err != nil:
			return err
		case k < 0:
			return ResultTooLarge("get_capabilities")
		case k < len(full.Packages):
			c := *full
			c.Packages, c.TruncationReason, c.OmittedCount = full.Packages[:k], "byte_limit", len(full.Packages)-k
			return &c
		}
		return full
	})
	if err, ok := v.(error); ok {
		return nil, err
	}
	return v.(*CapabilitiesResult), nil
}

func (s *Service) capabilities() *CapabilitiesResult {
	pkgs := make([]PackageCapabilities, 0, len(s.cat.Packages))
	for _, p := range s.cat.Packages {
		kinds, arts := resource.Available(p, s.limits())
		pkgs = append(pkgs, record.PackageCapabilitiesOf(p, kinds, arts))
	}
	available, included := record.GraphTypes(s.cat.Packages)
	tools := make([]string, len(s.tools))
	for i, t := range s.tools {
		tools[i] = t.Name
	}
	sort.Strings(tools)
	return &CapabilitiesResult{
		ServerName: ServerName, ToolNames: tools, PromptNames: PromptNames(),
		ResourceURIs: []string{uri.Catalog}, ResourceURITemplates: uri.TemplateURIs(),
		ResourceRepresentations: []string{"deterministic_derived", "raw_source"},
		AvailableGraphTypes:     available, IncludedGraphTypes: included, ImplementedFeatures: record.ImplementedFeatures, UnavailableFeatures: record.UnavailableFeatures,
		FrameworkPromptOverlaysOptional: true, PromptConfigSchemaVersion: "1.1", Packages: pkgs,
	}
}

// --- list_frameworks --------------------------------------------------------

// FrameworkList is a page of list_frameworks.
type FrameworkList struct {
	CatalogSha256      string              `json:"catalogSha256"`
	HasMore            bool                `json:"hasMore"`
	Items              []FrameworkSnapshot `json:"items"`
	NextCursor         *string             `json:"nextCursor"`
	ReturnedCount      int                 `json:"returnedCount"`
	TotalMatchingCount int                 `json:"totalMatchingCount"`
	// TruncationReason is byte_limit when the result ceiling cut the page
	// short of the limit (beyond the contract).
	TruncationReason string `json:"truncationReason,omitempty"`
}

// ListFrameworksRequest filters and pages the catalog
// (docs/reference/tools.md#list_frameworks). The zero value lists everything, 25 at a time.
type ListFrameworksRequest struct {
	Cursor             *string  `json:"cursor,omitempty"`
	GraphTypes         []string `json:"graphTypes,omitempty"`
	IsCurrent          *bool    `json:"isCurrent,omitempty"`
	IssuingAuthorities []string `json:"issuingAuthorities,omitempty"`
	JurisdictionTypes  []string `json:"jurisdictionTypes,omitempty"`
	Jurisdictions      []string `json:"jurisdictions,omitempty"`
	Languages          []string `json:"languages,omitempty"`
	Limit              int      `json:"limit,omitempty"`
	LocalGrades        []string `json:"localGrades,omitempty"`
	NormalizedGrades   []string `json:"normalizedGrades,omitempty"`
	Query              *string  `json:"query,omitempty"`
	Subjects           []string `json:"subjects,omitempty"`
	ValidationStatus   []string `json:"validationStatus,omitempty"`
}

// ListFrameworks answers list_frameworks: the matching snapshots ordered by
// (frameworkId, snapshotId), one page; pass NextCursor back for the next.
func (s *Service) ListFrameworks(ctx context.Context, r ListFrameworksRequest) (*FrameworkList, error) {
	if err := checkRequest(listFrameworksSchema(), &r); err != nil {
		return nil, err
	}
	p, err := s.listFrameworks(ctx, r)
	if err != nil {
		return nil, err
	}
	return own(s, p.Result.(*FrameworkList), nil)
}

func listFrameworksSchema() *Schema {
	return jsonschema.Object(map[string]*Schema{
		"cursor":             cursorSchema(),
		"graphTypes":         jsonschema.Array(graphType(), 16, "match snapshots whose packages contain any of these graph types (includedGraphTypes)"),
		"isCurrent":          jsonschema.Nullable(&Schema{Types: []string{"boolean"}, Description: "match the source's isCurrent flag (null: either)"}),
		"issuingAuthorities": filterValues(64, "match any issuing authority"),
		"jurisdictionTypes":  filterValues(64, "match any jurisdiction type"),
		"jurisdictions":      filterValues(64, "match any jurisdiction"),
		"languages":          jsonschema.Array(jsonschema.Pattern(jsonschema.String(2, 64, ""), languagePattern), 64, "match any language"),
		"limit":              jsonschema.Integer(1, 100, 25, "page size"),
		"localGrades":        filterValues(64, "match any local grade or stage"),
		"normalizedGrades":   filterValues(64, "match any normalized grade"),
		"query":              jsonschema.Nullable(jsonschema.Pattern(jsonschema.String(1, 256, "every whitespace-separated token must occur in the framework's metadata"), `\S`)),
		"subjects":           filterValues(64, "match any local subject"),
		"validationStatus":   jsonschema.Array(jsonschema.Enum("", "failed", "passed", "pending", "quarantined"), 8, "match any package validation status"),
	})
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// filter is the snapshot filter of r.
func (r *ListFrameworksRequest) filter() record.SnapshotFilter {
	return record.SnapshotFilter{GraphTypes: r.GraphTypes, IsCurrent: r.IsCurrent, IssuingAuthorities: r.IssuingAuthorities,
		JurisdictionTypes: r.JurisdictionTypes, Jurisdictions: r.Jurisdictions, Languages: r.Languages, LocalGrades: r.LocalGrades,
		NormalizedGrades: r.NormalizedGrades, Query: r.Query, Subjects: r.Subjects, ValidationStatus: r.ValidationStatus}
}

// effectiveRequest returns the validated request with defaults filled and the
// cursor removed (for hashing and for nextRequest).
func (r ListFrameworksRequest) effective() obj {
	nz := func(v []string) []string { return nonNil(v) }
	var isCurrent, query any
	if r.IsCurrent != nil {
		isCurrent = *r.IsCurrent
	}
	if r.Query != nil {
		query = *r.Query
	}
	return obj{
		"graphTypes": nz(r.GraphTypes), "isCurrent": isCurrent, "issuingAuthorities": nz(r.IssuingAuthorities),
		"jurisdictionTypes": nz(r.JurisdictionTypes), "jurisdictions": nz(r.Jurisdictions), "languages": nz(r.Languages),
		"limit": r.Limit, "localGrades": nz(r.LocalGrades), "normalizedGrades": nz(r.NormalizedGrades), "query": query,
		"subjects": nz(r.Subjects), "validationStatus": nz(r.ValidationStatus),
	}
}

const catalogCursorKind = "framework_catalog_v1"

func (s *Service) listFrameworks(_ context.Context, r ListFrameworksRequest) (*Paged, error) {
	eff := r.effective()
	querySum, _ := canonjson.Sha256(eff)
	catSum := s.catalogSha256()
	var matching []*catalog.Snapshot
	filter := r.filter()
	for _, f := range s.cat.Frameworks {
		for _, snap := range f.Snapshots {
			if filter.Matches(snap) {
				matching = append(matching, snap)
			}
		}
	}
	start := 0
	if r.Cursor != nil {
		fields, err := decodeCursor(*r.Cursor, obj{"cursorKind": catalogCursorKind, "cursorVersion": 1, "catalogSha256": catSum, "effectiveQuerySha256": querySum})
		if err != nil {
			return nil, err
		}
		lastF, _ := fields["lastFrameworkId"].(string)
		lastS, _ := fields["lastSnapshotId"].(string)
		found := false
		for i, m := range matching {
			if m.FrameworkID == lastF && m.SnapshotID == lastS {
				start, found = i+1, true
				break
			}
		}
		if !found {
			return nil, invalidCursor("its position is not in the current result")
		}
	}
	end := min(start+r.Limit, len(matching))
	items := make([]FrameworkSnapshot, 0, end-start)
	for _, m := range matching[start:end] {
		items = append(items, record.Snapshot(m))
	}
	// page returns the first k items, continuing after the k-th when more
	// match; a page cut short of the limit by the result ceiling says so.
	page := func(k int) *FrameworkList {
		out := &FrameworkList{CatalogSha256: catSum, Items: items[:k], ReturnedCount: k, TotalMatchingCount: len(matching)}
		if k > 0 && start+k < len(matching) {
			last := matching[start+k-1]
			next := encodeCursor(obj{"catalogSha256": catSum, "cursorKind": catalogCursorKind, "cursorVersion": 1,
				"effectiveQuerySha256": querySum, "lastFrameworkId": last.FrameworkID, "lastSnapshotId": last.SnapshotID})
			out.HasMore, out.NextCursor = true, &next
		}
		if k < len(items) {
			out.TruncationReason = "byte_limit"
		}
		return out
	}
	out := page(len(items))
	if ok, err := anyCeiling.fits(out); err != nil {
		return nil, err
	} else if !ok {
		k, err := anyCeiling.largestBelow(len(items), func(k int) any { return page(k) })
		if err != nil {
			return nil, err
		}
		if k < 1 {
			return nil, ResultTooLarge("a list_frameworks item")
		}
		out = page(k)
	}
	return &Paged{Result: out, Tool: "list_frameworks", Request: eff, Next: nextOf(out.NextCursor)}, nil
}

// nextOf is a page's next cursor as Paged.Next (nil on the last page).
func nextOf(c *string) any {
	if c == nil {
		return nil
	}
	return *c
}

// --- get_framework ----------------------------------------------------------

// FrameworkRequest names a framework's snapshot (get_framework) or package
// (get_framework_statistics, which also takes GraphType): SnapshotID nil is
// the framework's unique current snapshot.
type FrameworkRequest struct {
	FrameworkID string  `json:"frameworkId"`
	SnapshotID  *string `json:"snapshotId"`
	GraphType   string  `json:"graphType,omitempty"`
}

// FrameworkResult is get_framework's result.
type FrameworkResult struct {
	Framework FrameworkSnapshot `json:"framework"`
	// TopLevel (beyond the contract) lists what the framework holds at its
	// top, in curriculum order: the way into its hierarchy without a search.
	TopLevel *standard.TopLevel `json:"topLevel,omitempty"`
}

// GetFramework answers get_framework: one exact snapshot, or the framework's
// unique current one.
func (s *Service) GetFramework(ctx context.Context, r FrameworkRequest) (*FrameworkResult, error) {
	if err := checkRequest(frameworkRequestSchema(false), &r); err != nil {
		return nil, err
	}
	result, err := s.getFramework(ctx, r)
	return own(s, result, err)
}

func frameworkRequestSchema(withGraphType bool) *Schema {
	props := map[string]*Schema{"frameworkId": frameworkID(), "snapshotId": jsonschema.Nullable(snapshotID())}
	if withGraphType {
		props["graphType"] = graphType()
	}
	return jsonschema.Object(props, "frameworkId")
}

func (s *Service) getFramework(_ context.Context, r FrameworkRequest) (*FrameworkResult, error) {
	snap, err := s.cat.ResolveSnapshot(r.FrameworkID, deref(r.SnapshotID))
	if err != nil {
		return nil, err
	}
	out := &FrameworkResult{Framework: record.Snapshot(snap)}
	if p := snap.Primary(manifest.GraphAcademicStandards); p != nil {
		out.TopLevel = standard.TopLevelOf(p)
	}
	return out, nil
}

// resolvePackage routes framework/snapshot/graph type to one package.
func (s *Service) resolvePackage(frameworkID string, snapshotID *string, graphType string) (*catalog.Package, error) {
	p, err := s.cat.Resolve(frameworkID, deref(snapshotID), graphType)
	if err != nil {
		return nil, err
	}
	if p.Manifest.GraphType != manifest.GraphAcademicStandards {
		return nil, kgerr.New(kgerr.FrameworkNotFound, "only academic_standards packages are routable")
	}
	return p, nil
}
