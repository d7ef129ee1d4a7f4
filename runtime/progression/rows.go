package progression

import (
	"encoding/json"
	"sort"

	"github.com/kgc-project/kgc/internal/excerpt"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/uri"
)

// Excerpt bounds of progression rows.
const (
	maxStatementExcerptChars = 2048 // a standard's statement in a node summary
	maxRationaleExcerptChars = 512  // a judgment's rationale and each warning
)

const confidenceNotice = "Confidence is the generating model's own judgment, not a calibrated probability or validated correctness."

// nodeOf is the ProgressionStandard (summary) of node n.
func nodeOf(p *catalog.Package, n uint32) ProgressionStandard {
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

// relationshipOf is the ProgressionRelationship (evidence row) of r.
func relationshipOf(p *catalog.Package, r uint32) ProgressionRelationship {
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

// Evidence accumulates the deduplicated nodes and relationships of a result.
type Evidence struct {
	p *catalog.Package
	// EdgeOrder lists a lone edge's nodes as [source, target] (the exact
	// lookup) rather than by node ID.
	EdgeOrder bool
	// Nodes and Rels are the node and relationship ordinals recorded.
	Nodes map[uint32]bool
	Rels  map[uint32]bool
	rows  *Rows
}

// Rows keeps the node summaries and edge rows built for one call, so the
// candidate results tried while fitting the size ceiling share them.
type Rows struct {
	nodes map[uint32]ProgressionStandard
	rels  map[uint32]ProgressionRelationship
}

// NewRows returns an empty row cache.
func NewRows() *Rows {
	return &Rows{nodes: map[uint32]ProgressionStandard{}, rels: map[uint32]ProgressionRelationship{}}
}

// Node returns n's summary, built once.
func (c *Rows) Node(p *catalog.Package, n uint32) ProgressionStandard {
	row, ok := c.nodes[n]
	if !ok {
		row = nodeOf(p, n)
		c.nodes[n] = row
	}
	return row
}

// Rel returns r's evidence row, built once.
func (c *Rows) Rel(p *catalog.Package, r uint32) ProgressionRelationship {
	row, ok := c.rels[r]
	if !ok {
		row = relationshipOf(p, r)
		c.rels[r] = row
	}
	return row
}

// NewEvidence starts the evidence of a result over p, its rows built through
// rows (a new cache when nil).
func NewEvidence(p *catalog.Package, rows *Rows) *Evidence {
	if rows == nil {
		rows = NewRows()
	}
	return &Evidence{p: p, Nodes: map[uint32]bool{}, Rels: map[uint32]bool{}, rows: rows}
}

// AddEdge records an edge and both its endpoints.
func (e *Evidence) AddEdge(r uint32) {
	e.Rels[r] = true
	e.Nodes[e.p.Img.RelSource(r)] = true
	e.Nodes[e.p.Img.RelTarget(r)] = true
}

// Tables returns the node summaries ordered by node ID (with edgeOrder, the
// lone edge's [source, target]) and the relationship rows
// ordered by (relationship type, relationship ID), as connections are.
func (e *Evidence) Tables() ([]ProgressionStandard, []ProgressionRelationship) {
	img := e.p.Img
	rs := make([]uint32, 0, len(e.Rels))
	for r := range e.Rels {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool {
		if a, b := img.RelTypeName(rs[i]), img.RelTypeName(rs[j]); a != b {
			return a < b
		}
		return img.RelString(rs[i], kgimg.RelID) < img.RelString(rs[j], kgimg.RelID)
	})
	ns := make([]uint32, 0, len(e.Nodes))
	if e.EdgeOrder && len(rs) == 1 && len(e.Nodes) == 2 {
		ns = append(ns, img.RelSource(rs[0]), img.RelTarget(rs[0]))
	} else {
		for n := range e.Nodes {
			ns = append(ns, n)
		}
		sort.Slice(ns, func(i, j int) bool { return img.NodeString(ns[i], kgimg.NodeID) < img.NodeString(ns[j], kgimg.NodeID) })
	}
	nodes := make([]ProgressionStandard, len(ns))
	for i, n := range ns {
		nodes[i] = e.rows.Node(e.p, n)
	}
	rels := make([]ProgressionRelationship, len(rs))
	for i, r := range rs {
		rels[i] = e.rows.Rel(e.p, r)
	}
	return nodes, rels
}
