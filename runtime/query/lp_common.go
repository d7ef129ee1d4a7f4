package query

import (
	"github.com/kgc-project/kgc/runtime/record"

	"encoding/json"
	"sort"

	"github.com/kgc-project/kgc/internal/excerpt"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/search"
	"github.com/kgc-project/kgc/runtime/uri"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
)

// Fixed ceilings of the progression tools (docs/reference/tools.md#get_learning_progression).
const (
	MaxProgressionResultBytes = 1 << 20 // text plus structured copy, UTF-8 bytes
	MaxProgressionResultChars = 100000  // text plus structured copy, characters
	maxStatementExcerptChars  = 2048
	maxRationaleExcerptChars  = 512
)

const (
	confidenceNotice   = "Confidence is the generating model's own judgment, not a calibrated probability or validated correctness."
	noContinuation     = "This result is complete for its request and has no continuation; narrow or widen the bounds and call again."
	collectionNotice   = "To continue, call the same tool again with page.nextRequest exactly as returned; no other change is allowed."
	collectionComplete = "This page ends the collection: page.hasMore is false and there is nothing to continue."
	inventoryNotice    = "metadata.artifacts lists only the artifacts this result was derived from; the manifest (metadata.manifestUri) lists every artifact with its checksum."
)

// ProgressionRoute is the routing part of every progression request: the
// framework (required: progressions live inside one package) and, optionally,
// the snapshot (nil: the framework's unique current one, pinned in the echo).
type ProgressionRoute struct {
	FrameworkID string  `json:"frameworkId"`
	SnapshotID  *string `json:"snapshotId"`
}

func lpRouteProps() map[string]*Schema {
	return map[string]*Schema{"frameworkId": frameworkID(), "snapshotId": nullable(snapshotID())}
}

// lpSelectorSchema is the standard selector of get_standard plus statement_code.
func lpSelectorSchema() *Schema { return selectorSchema(true) }

// lpPackage resolves the route of a progression request: the one package its
// edges live in, which must declare progressions and allow standard evidence.
func (s *Service) lpPackage(r ProgressionRoute) (*catalog.Package, error) {
	p, err := s.resolvePackage(r.FrameworkID, r.SnapshotID, manifest.GraphAcademicStandards)
	if err != nil {
		return nil, err
	}
	if !p.Manifest.Capabilities.HasLearningProgressions {
		return nil, kgerr.New(kgerr.CapabilityUnavailable, "%s declares no learning progressions", p.SnapshotID()).
			WithHint("list_frameworks and get_capabilities show which packages carry progressions")
	}
	if err := standardResources(p); err != nil {
		return nil, err
	}
	return p, nil
}

// resolveEndpoint resolves an exact selector to one standard, statement codes
// included (only where the profile enables codes; ambiguity is refused).
func resolveEndpoint(p *catalog.Package, sel Selector) (uint32, error) {
	if sel.IdentifierType != "statement_code" {
		return resolveStandard(p, sel)
	}
	cp := p.Profile().CodeSearchPolicy
	if cp.Availability == "none" {
		return 0, kgerr.New(kgerr.CapabilityUnavailable, "%s has no searchable statement codes; select the standard by node_id", p.SnapshotID())
	}
	q := profile.NormalizeCode(cp, sel.StatementCode)
	var hits []uint32
	if q != "" {
		hits = search.CodeMatches(p, q, false)
	}
	switch len(hits) {
	case 0:
		return 0, kgerr.New(kgerr.StandardNotFound, "no standard in %s has statement code %s", p.SnapshotID(), sel.StatementCode)
	case 1:
		return hits[0], nil
	}
	return 0, kgerr.New(kgerr.AmbiguousGraphNode, "statement code %s names %d standards in %s", sel.StatementCode, len(hits), p.SnapshotID()).
		WithHint("select the standard by node_id")
}

// lpEdges returns a package's progression edges of one label in relationship-ID
// order (built once per package).
func (s *Service) lpEdges(p *catalog.Package, label kgimg.RelLabel) []uint32 {
	key := "lpEdges:" + p.GraphPackageID() + ":" + label.String()
	return s.memo.get(key, func() any {
		img := p.Img
		var out []uint32
		order := img.RelationshipIDOrder()
		for i := 0; i < order.Len(); i++ {
			if r := order.At(i); img.RelLabel(r) == label {
				out = append(out, r)
			}
		}
		return out
	}).([]uint32)
}

// lpMetadata is the ProgressionMetadata of a package (built once).
func (s *Service) lpMetadata(p *catalog.Package) *ProgressionMetadata {
	return s.memo.get("lpMetadata:"+p.GraphPackageID(), func() any {
		ref := func(kind string) string {
			return uri.Ref{Kind: kind, FrameworkID: p.FrameworkID(), SnapshotID: p.SnapshotID()}.String()
		}
		m := &ProgressionMetadata{
			Package: record.Ref(p), ManifestSha256: ids.Sha256(p.Img.ManifestJSON()), ManifestURI: ref("package_manifest"),
			Artifacts:                artifactEntries(p, manifest.LPProvenance, manifest.LPProvenanceIndex, manifest.Nodes, manifest.Relationships),
			ArtifactInventoryNotice:  inventoryNotice,
			Coverage:                 coverageProjection(p),
			StoredBuildsTowardsCount: len(s.lpEdges(p, kgimg.BuildsTowards)),
			StoredRelatesToCount:     len(s.lpEdges(p, kgimg.RelatesTo)),
			SummaryURI:               ref("learning_progressions"),
			Limits:                   ProgressionLimits{MaxResultBytes: MaxProgressionResultBytes, MaxStatementExcerptCharacters: maxStatementExcerptChars},
			GeneratedOriginNotice:    generatedOriginNotice, SemanticNotice: semanticNotice,
		}
		if _, ok := p.Manifest.Artifact(manifest.LPValidation); ok {
			u := artifactURI(p, manifest.LPValidation)
			m.ValidationURI = &u
		}
		if _, ok := p.Manifest.Artifact(manifest.LPUnresolved); ok {
			u := artifactURI(p, manifest.LPUnresolved)
			m.UnresolvedURI = &u
		}
		return m
	}).(*ProgressionMetadata)
}

// lpNode is a ProgressionStandardSummary.
func lpNode(p *catalog.Package, n uint32) ProgressionStandard {
	img := p.Img
	id := img.NodeString(n, kgimg.NodeID)
	out := ProgressionStandard{
		NodeID: id, CaseIdentifierUUID: record.NodeString(img, n, kgimg.NodeCaseIdentifierUUID, kgimg.PCaseIdentifierUUID),
		CaseIdentifierURI: record.NodeString(img, n, kgimg.NodeCaseIdentifierURI, kgimg.PCaseIdentifierURI),
		StatementCode:     record.NodeString(img, n, kgimg.NodeStatementCode, kgimg.PStatementCode),
		StatementType:     record.NodeString(img, n, kgimg.NodeStatementType, kgimg.PStatementType),
		Facets:            record.Facets(p, n),
		StandardURI:       uri.Ref{Kind: "standard", FrameworkID: p.FrameworkID(), SnapshotID: p.SnapshotID(), ID: id}.String(),
	}
	if img.NodeHas(n, kgimg.PDescription) {
		e, cut := excerpt.Chars(img.NodeString(n, kgimg.NodeDescription), maxStatementExcerptChars)
		out.StatementExcerpt, out.StatementExcerpted = &e, cut
	}
	return out
}

// lpRelationship is a ProgressionRelationshipEvidence row.
func lpRelationship(p *catalog.Package, r uint32) ProgressionRelationship {
	img := p.Img
	id := img.RelString(r, kgimg.RelID)
	ref := func(kind string) string {
		return uri.Ref{Kind: kind, FrameworkID: p.FrameworkID(), SnapshotID: p.SnapshotID(), ID: id}.String()
	}
	out := ProgressionRelationship{Relationship: record.Relationship(img, r), Judgment: judgment(img, r), RelationshipURI: ref("relationship"),
		EpistemicStatus: "llm_inferred"}
	if _, _, ok := img.Provenance(r); ok {
		u := ref("relationship_provenance")
		out.ProvenanceURI = &u
	}
	return out
}

// judgment projects the stored provenance record's judgment (null without one).
func judgment(img *kgimg.Image, r uint32) *Judgment {
	rec, _, ok := img.Provenance(r)
	if !ok || !kgimg.StrictJSON(rec) {
		return nil // a record kgc verify refuses: CheckText withdraws its package
	}
	v, _ := jsonv.Parse(rec)
	j := v.Get("claim").Get("judgment")
	out := &Judgment{RelationshipID: img.RelString(r, kgimg.RelID), ConfidenceNotice: confidenceNotice}
	if c := j.Get("confidence"); c != nil && c.Kind == jsonv.Number {
		var f float64
		if json.Unmarshal([]byte(c.Str), &f) == nil {
			out.Confidence = &f
		}
	}
	if t := j.Get("rationale"); t != nil && t.Kind == jsonv.String {
		e, cut := excerpt.Chars(t.Str, maxRationaleExcerptChars)
		out.RationaleExcerpt, out.RationaleExcerpted = &e, cut
	}
	var warnings []string
	if w := j.Get("warnings"); w != nil && w.Kind == jsonv.Array {
		for _, x := range w.Arr {
			if x.Kind == jsonv.String {
				warnings = append(warnings, x.Str)
			}
		}
	}
	out.WarningCount = len(warnings)
	out.WarningExcerpts, out.WarningsExcerpted, out.WarningsOmitted = excerpt.List(warnings, 5, maxRationaleExcerptChars)
	return out
}

// evidence accumulates the deduplicated nodes and relationships of a result.
type evidence struct {
	p *catalog.Package
	// edgeOrder lists a lone edge's nodes as [source, target] (the exact
	// lookup) rather than by node ID.
	edgeOrder bool
	nodes     map[uint32]bool
	rels      map[uint32]bool
	rows      *rowCache
}

// rowCache keeps the node summaries and edge rows built for one call, so the
// candidate results tried while fitting the size ceiling share them.
type rowCache struct {
	nodes map[uint32]ProgressionStandard
	rels  map[uint32]ProgressionRelationship
}

func newRowCache() *rowCache {
	return &rowCache{nodes: map[uint32]ProgressionStandard{}, rels: map[uint32]ProgressionRelationship{}}
}

func (c *rowCache) node(p *catalog.Package, n uint32) ProgressionStandard {
	row, ok := c.nodes[n]
	if !ok {
		row = lpNode(p, n)
		c.nodes[n] = row
	}
	return row
}

func (c *rowCache) rel(p *catalog.Package, r uint32) ProgressionRelationship {
	row, ok := c.rels[r]
	if !ok {
		row = lpRelationship(p, r)
		c.rels[r] = row
	}
	return row
}

func newEvidence(p *catalog.Package, rows *rowCache) *evidence {
	if rows == nil {
		rows = newRowCache()
	}
	return &evidence{p: p, nodes: map[uint32]bool{}, rels: map[uint32]bool{}, rows: rows}
}

// addEdge records an edge and both its endpoints.
func (e *evidence) addEdge(r uint32) {
	e.rels[r] = true
	e.nodes[e.p.Img.RelSource(r)] = true
	e.nodes[e.p.Img.RelTarget(r)] = true
}

// tables returns the node summaries ordered by node ID (with edgeOrder, the
// lone edge's [source, target]) and the relationship rows
// ordered by (relationship type, relationship ID), as connections are.
func (e *evidence) tables() ([]ProgressionStandard, []ProgressionRelationship) {
	img := e.p.Img
	rs := make([]uint32, 0, len(e.rels))
	for r := range e.rels {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool {
		if a, b := img.RelTypeName(rs[i]), img.RelTypeName(rs[j]); a != b {
			return a < b
		}
		return img.RelString(rs[i], kgimg.RelID) < img.RelString(rs[j], kgimg.RelID)
	})
	ns := make([]uint32, 0, len(e.nodes))
	if e.edgeOrder && len(rs) == 1 && len(e.nodes) == 2 {
		ns = append(ns, img.RelSource(rs[0]), img.RelTarget(rs[0]))
	} else {
		for n := range e.nodes {
			ns = append(ns, n)
		}
		sort.Slice(ns, func(i, j int) bool { return img.NodeString(ns[i], kgimg.NodeID) < img.NodeString(ns[j], kgimg.NodeID) })
	}
	nodes := make([]ProgressionStandard, len(ns))
	for i, n := range ns {
		nodes[i] = e.rows.node(e.p, n)
	}
	rels := make([]ProgressionRelationship, len(rs))
	for i, r := range rs {
		rels[i] = e.rows.rel(e.p, r)
	}
	return nodes, rels
}

// lpEvidence assembles the evidence base of a result.
func (s *Service) lpEvidence(p *catalog.Package, request obj, e *evidence, notice string) ProgressionEvidence {
	nodes, rels := e.tables()
	return ProgressionEvidence{Request: request, Metadata: s.lpMetadata(p), Nodes: nodes, Relationships: rels, ContinuationNotice: notice}
}
