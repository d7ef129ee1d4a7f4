package query

import (
	"encoding/json"
	"sort"

	"github.com/kgc-project/kgc/internal/excerpt"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/kgimg"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/kgfb"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
)

// Fixed ceilings of the progression tools (progressions.md, Bounds).
const (
	MaxProgressionResultBytes = 1 << 20 // text plus structured copy, UTF-8 bytes
	MaxProgressionResultChars = 100000  // text plus structured copy, characters
	maxExaminedRelationships  = 5000
	maxPathQueueAdmissions    = 5000
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

// lpRoute is the routing part of every progression request.
type lpRoute struct {
	FrameworkID string  `json:"frameworkId"`
	SnapshotID  *string `json:"snapshotId"`
}

func lpRouteProps() map[string]*Schema {
	return map[string]*Schema{"frameworkId": frameworkID(), "snapshotId": nullable(snapshotID())}
}

// lpSelectorSchema is the §2.A3 selector plus statement_code.
func lpSelectorSchema() *Schema { return selectorSchema(true) }

// lpPackage resolves the route of a progression request: the one package its
// edges live in, which must declare progressions and allow standard evidence.
func (s *Service) lpPackage(r lpRoute) (*catalog.Package, error) {
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
	cp := p.Profile.CodeSearchPolicy
	if cp.Availability == "none" {
		return 0, kgerr.New(kgerr.CapabilityUnavailable, "%s has no searchable statement codes; select the standard by node_id", p.SnapshotID())
	}
	q := profile.NormalizeCode(cp, sel.StatementCode)
	var hits []uint32
	if q != "" {
		hits = codeMatches(p, q, false)
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
func (s *Service) lpEdges(p *catalog.Package, label kgfb.RelLabel) []uint32 {
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
func (s *Service) lpMetadata(p *catalog.Package) obj {
	return s.memo.get("lpMetadata:"+p.GraphPackageID(), func() any {
		ref := func(kind string) string {
			return resourceRef{kind: kind, frameworkID: p.FrameworkID(), snapshotID: p.SnapshotID()}.String()
		}
		var validation, unresolved any
		if _, ok := p.Manifest.Artifact(manifest.LPValidation); ok {
			validation = artifactURI(p, manifest.LPValidation)
		}
		if _, ok := p.Manifest.Artifact(manifest.LPUnresolved); ok {
			unresolved = artifactURI(p, manifest.LPUnresolved)
		}
		return obj{
			"package": packageRef(p), "manifestSha256": ids.Sha256(p.Img.ManifestJSON()), "manifestUri": ref("package_manifest"),
			"artifacts":                artifactEntries(p, manifest.LPProvenance, manifest.LPProvenanceIndex, manifest.Nodes, manifest.Relationships),
			"artifactInventoryNotice":  inventoryNotice,
			"coverage":                 coverageProjection(p),
			"storedBuildsTowardsCount": len(s.lpEdges(p, kgfb.RelLabelBuildsTowards)),
			"storedRelatesToCount":     len(s.lpEdges(p, kgfb.RelLabelRelatesTo)),
			"summaryUri":               ref("learning_progressions"), "validationUri": validation, "unresolvedUri": unresolved,
			"limits":                obj{"maxResultBytes": MaxProgressionResultBytes, "maxStatementExcerptCharacters": maxStatementExcerptChars},
			"generatedOriginNotice": generatedOriginNotice, "semanticNotice": semanticNotice,
		}
	}).(obj)
}

// lpNode is a ProgressionStandardSummary.
func lpNode(p *catalog.Package, n uint32) obj {
	img := p.Img
	id := img.NodeString(n, kgimg.NodeID)
	var statement any
	excerpted := false
	if img.NodeHas(n, kgimg.PDescription) {
		e, cut := excerpt.Chars(img.NodeString(n, kgimg.NodeDescription), maxStatementExcerptChars)
		statement, excerpted = e, cut
	}
	return obj{
		"nodeId": id, "caseIdentifierUuid": nodeProp(img, n, kgimg.NodeCaseIdentifierUUID, kgimg.PCaseIdentifierUUID),
		"caseIdentifierUri": nodeProp(img, n, kgimg.NodeCaseIdentifierURI, kgimg.PCaseIdentifierURI),
		"statementCode":     nodeProp(img, n, kgimg.NodeStatementCode, kgimg.PStatementCode),
		"statementType":     nodeProp(img, n, kgimg.NodeStatementType, kgimg.PStatementType),
		"facets":            facetEvidence(p, n),
		"standardUri":       resourceRef{kind: "standard", frameworkID: p.FrameworkID(), snapshotID: p.SnapshotID(), id: id}.String(),
		"statementExcerpt":  statement, "statementExcerpted": excerpted,
	}
}

// lpRelationship is a ProgressionRelationshipEvidence row.
func lpRelationship(p *catalog.Package, r uint32) obj {
	img := p.Img
	id := img.RelString(r, kgimg.RelID)
	ref := func(kind string) string {
		return resourceRef{kind: kind, frameworkID: p.FrameworkID(), snapshotID: p.SnapshotID(), id: id}.String()
	}
	var provURI any
	if _, _, ok := img.Provenance(r); ok {
		provURI = ref("relationship_provenance")
	}
	return obj{"relationship": graphRelationship(img, r), "judgment": judgment(img, r), "relationshipUri": ref("relationship"),
		"provenanceUri": provURI, "epistemicStatus": "llm_inferred"}
}

// judgment projects the stored provenance record's judgment (null without one).
func judgment(img *kgimg.Image, r uint32) any {
	rec, _, ok := img.Provenance(r)
	if !ok {
		return nil
	}
	v, _ := jsonv.Parse(rec)
	j := v.Get("claim").Get("judgment")
	var conf any
	if c := j.Get("confidence"); c != nil && c.Kind == jsonv.Number {
		var f float64
		if json.Unmarshal([]byte(c.Str), &f) == nil {
			conf = f
		}
	}
	var rationale any
	cut := false
	if t := j.Get("rationale"); t != nil && t.Kind == jsonv.String {
		rationale, cut = excerpt.Chars(t.Str, maxRationaleExcerptChars)
	}
	var warnings []string
	if w := j.Get("warnings"); w != nil && w.Kind == jsonv.Array {
		for _, x := range w.Arr {
			if x.Kind == jsonv.String {
				warnings = append(warnings, x.Str)
			}
		}
	}
	ex, wcut, omitted := excerpt.List(warnings, 5, maxRationaleExcerptChars)
	return obj{
		"relationshipId": img.RelString(r, kgimg.RelID), "confidence": conf, "confidenceNotice": confidenceNotice,
		"rationaleExcerpt": rationale, "rationaleExcerpted": cut, "warningCount": len(warnings),
		"warningExcerpts": ex, "warningsExcerpted": wcut, "warningsOmitted": omitted,
	}
}

// evidence accumulates the deduplicated nodes and relationships of a result.
type evidence struct {
	p     *catalog.Package
	nodes map[uint32]bool
	rels  map[uint32]bool
	rows  *rowCache
}

// rowCache keeps the node summaries and edge rows built for one call, so the
// candidate results tried while fitting the size ceiling share them.
type rowCache struct{ nodes, rels map[uint32]obj }

func newRowCache() *rowCache { return &rowCache{nodes: map[uint32]obj{}, rels: map[uint32]obj{}} }

func (c *rowCache) node(p *catalog.Package, n uint32) obj {
	if c.nodes[n] == nil {
		c.nodes[n] = lpNode(p, n)
	}
	return c.nodes[n]
}

func (c *rowCache) rel(p *catalog.Package, r uint32) obj {
	if c.rels[r] == nil {
		c.rels[r] = lpRelationship(p, r)
	}
	return c.rels[r]
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

// tables returns the node summaries ordered by node ID and the relationship
// rows ordered by relationship ID.
func (e *evidence) tables() ([]obj, []obj) {
	img := e.p.Img
	ns := make([]uint32, 0, len(e.nodes))
	for n := range e.nodes {
		ns = append(ns, n)
	}
	sort.Slice(ns, func(i, j int) bool { return img.NodeString(ns[i], kgimg.NodeID) < img.NodeString(ns[j], kgimg.NodeID) })
	rs := make([]uint32, 0, len(e.rels))
	for r := range e.rels {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool { return img.RelString(rs[i], kgimg.RelID) < img.RelString(rs[j], kgimg.RelID) })
	nodes := make([]obj, len(ns))
	for i, n := range ns {
		nodes[i] = e.rows.node(e.p, n)
	}
	rels := make([]obj, len(rs))
	for i, r := range rs {
		rels[i] = e.rows.rel(e.p, r)
	}
	return nodes, rels
}

// lpResult assembles an evidence result around the tool-specific fields.
func (s *Service) lpResult(p *catalog.Package, request obj, e *evidence, fields obj) obj {
	nodes, rels := e.tables()
	out := obj{"request": request, "metadata": s.lpMetadata(p), "nodes": nodes, "relationships": rels}
	for k, v := range fields {
		out[k] = v
	}
	return out
}
