package query

import (
	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/runtime/progression"
	"github.com/kgc-project/kgc/runtime/resource"
	"github.com/kgc-project/kgc/runtime/standard"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/search"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
)

// Fixed ceilings of the progression tools (docs/reference/tools.md#get_learning_progression).
const (
	maxProgressionResultBytes = 1 << 20 // text plus structured copy, UTF-8 bytes
	maxProgressionResultChars = 100000  // text plus structured copy, characters
)

const (
	noContinuation     = progression.NoContinuation
	collectionNotice   = "To continue, call the same tool again with page.nextRequest exactly as returned; no other change is allowed."
	collectionComplete = "This page ends the collection: page.hasMore is false and there is nothing to continue."
)

// ProgressionRoute is the routing part of every progression request: the
// framework (required: progressions live inside one package) and, optionally,
// the snapshot (nil: the framework's unique current one, pinned in the echo).
type ProgressionRoute struct {
	FrameworkID string  `json:"frameworkId"`
	SnapshotID  *string `json:"snapshotId"`
}

func lpRouteProps() map[string]*Schema {
	return map[string]*Schema{"frameworkId": frameworkID(), "snapshotId": jsonschema.Nullable(snapshotID())}
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
	if err := resource.StandardResources(p); err != nil {
		return nil, err
	}
	return p, nil
}

// resolveEndpoint resolves an exact selector to one standard, statement codes
// included (only where the profile enables codes; ambiguity is refused).
func resolveEndpoint(p *catalog.Package, sel Selector) (uint32, error) {
	if sel.IdentifierType != "statement_code" {
		return standard.Resolve(p, sel)
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
		return progression.Metadata(p, len(s.lpEdges(p, kgimg.BuildsTowards)), len(s.lpEdges(p, kgimg.RelatesTo)), maxProgressionResultBytes)
	}).(*ProgressionMetadata)
}

// lpEvidence assembles the evidence base of a result.
func (s *Service) lpEvidence(p *catalog.Package, request obj, e *progression.Evidence, notice string) ProgressionEvidence {
	nodes, rels := e.Tables()
	return ProgressionEvidence{Request: request, Metadata: s.lpMetadata(p), Nodes: nodes, Relationships: rels, ContinuationNotice: notice}
}
