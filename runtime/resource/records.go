package resource

import (
	"encoding/json"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/progression"
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/standard"
	"github.com/kgc-project/kgc/runtime/uri"
)

// standardProvenance is the standard_provenance resource: the detailed
// provenance entry of a standard, as stored.
type standardProvenance struct {
	CaseIdentifierUUID *string         `json:"caseIdentifierUuid"`
	NodeID             string          `json:"nodeId"`
	Provenance         json.RawMessage `json:"provenance"`
}

// componentProvenance is the learning_component_provenance resource.
type componentProvenance struct {
	NodeID     string          `json:"nodeId"`
	Provenance json.RawMessage `json:"provenance"`
}

// relationshipRecord is the relationship resource.
type relationshipRecord struct {
	PackageIdentity record.PackageIdentity   `json:"packageIdentity"`
	Relationship    record.GraphRelationship `json:"relationship"`
}

// relationshipProvenance is the relationship_provenance resource: a
// progression edge's stored provenance record and the shard it lives in.
type relationshipProvenance struct {
	// EpistemicStatus and SemanticNotice state what the stored edge is, as
	// every edge row does.
	EpistemicStatus   string          `json:"epistemicStatus" enum:"llm_inferred"`
	Partition         int             `json:"partition"`
	PartitionArtifact string          `json:"partitionArtifact"`
	Provenance        json.RawMessage `json:"provenance"`
	RelationshipID    string          `json:"relationshipId"`
	SemanticNotice    string          `json:"semanticNotice"`
}

// recordDoc resolves the record-level resource families.
func recordDoc(ref uri.Ref, p *catalog.Package) (*Document, error) {
	img := p.Img
	switch ref.Kind {
	case "standard", "standard_provenance", "standard_learning_components":
		n, ok := img.NodeByID(ref.ID)
		if !ok || img.NodeKind(n) != kgimg.ItemNode {
			return nil, kgerr.New(kgerr.StandardNotFound, "no standard with node ID %s in %s", ref.ID, p.SnapshotID())
		}
		switch ref.Kind {
		case "standard":
			return Derived(ref, "standard", p, standard.Result(p, n), "nodes")
		case "standard_provenance":
			prov := img.NodeString(n, kgimg.NodeProvenanceJSON)
			if err := storedJSON(p, prov); err != nil {
				return nil, err
			}
			if !p.Manifest.Capabilities.HasDetailedProvenance || prov == "" {
				return nil, notFound("standard %s has no detailed provenance in this package", ref.ID).
					WithHint("read the standard itself (%s), whose record names its source, or the package manifest (%s); "+
						"get_capabilities lists the packages that carry detailed provenance", standard.URI(p, ref.ID),
						uri.Ref{Kind: "package_manifest", FrameworkID: p.FrameworkID(), SnapshotID: p.SnapshotID()}.String())
			}
			return Derived(ref, "standard_provenance", p, standardProvenance{NodeID: ref.ID,
				CaseIdentifierUUID: record.NodeString(img, n, kgimg.NodeCaseIdentifierUUID, kgimg.PCaseIdentifierUUID),
				Provenance:         json.RawMessage(prov)}, "entityProvenance")
		default:
			return Derived(ref, "standard_learning_components", p, standard.Components(p, n), "nodes", "relationships")
		}
	case "learning_component", "learning_component_provenance":
		n, ok := img.NodeByID(ref.ID)
		if !ok || img.NodeKind(n) != kgimg.ComponentNode {
			return nil, notFound("no learning component with node ID %s in %s", ref.ID, p.SnapshotID()).
				WithHint("search_learning_components finds components; a standard's are listed by get_learning_components_for_standard")
		}
		if ref.Kind == "learning_component" {
			return Derived(ref, "learning_component", p, standard.ComponentContext(p, n, standard.PlacementDepth).ComponentResult, "nodes", "relationships")
		}
		prov := img.NodeString(n, kgimg.NodeProvenanceJSON)
		if err := storedJSON(p, prov); err != nil {
			return nil, err
		}
		if prov == "" {
			return nil, notFound("learning component %s has no provenance entry in this package", ref.ID).
				WithHint("read the component itself (%s)", uri.Ref{Kind: "learning_component", FrameworkID: p.FrameworkID(), SnapshotID: p.SnapshotID(), ID: ref.ID}.String())
		}
		return Derived(ref, "learning_component_provenance", p, componentProvenance{NodeID: ref.ID, Provenance: json.RawMessage(prov)}, "learningComponentProvenance")
	case "relationship", "relationship_provenance":
		r, ok := img.RelationshipByID(ref.ID)
		if !ok {
			return nil, notFound("no relationship %s in %s", ref.ID, p.SnapshotID()).
				WithHint("relationship IDs come from get_standard_context, get_learning_components_for_standard and the progression tools")
		}
		if ref.Kind == "relationship" {
			return Derived(ref, "relationship", p, relationshipRecord{Relationship: record.Relationship(img, r), PackageIdentity: record.Identity(p)}, "relationships")
		}
		rec, shard, ok := img.Provenance(r)
		if err := storedJSON(p, string(rec)); ok && err != nil {
			return nil, err
		}
		if !ok {
			return nil, notFound("relationship %s has no stored provenance (only learning-progression edges do)", ref.ID).
				WithHint("read the relationship itself (%s)", uri.Ref{Kind: "relationship", FrameworkID: p.FrameworkID(), SnapshotID: p.SnapshotID(), ID: ref.ID}.String())
		}
		// The record is the original provenance map's, read from its shard
		// through the index; the edge itself is a delivery relationship.
		return Derived(ref, "relationship_provenance", p, relationshipProvenance{RelationshipID: ref.ID, Partition: shard,
			PartitionArtifact: provenanceShardName(shard), Provenance: json.RawMessage(rec),
			EpistemicStatus: "llm_inferred", SemanticNotice: progression.SemanticNotice},
			"learningProgressionProvenance", provenanceShardName(shard), "learningProgressionProvenanceIndex", "relationships")
	}
	return nil, notFound("unknown resource")
}

func provenanceShardName(k int) string {
	const digits = "0123456789"
	return "learningProgressionProvenanceShard" + string(digits[k/10]) + string(digits[k%10])
}

// storedJSON refuses a stored JSON document the server could not encode
// (bytes a resealed checksum let through Open; kgc verify refuses them):
// catalog_error naming the image, never an internal error. "" is no
// document.
func storedJSON(p *catalog.Package, doc string) error {
	if doc == "" || kgimg.StrictJSON([]byte(doc)) {
		return nil
	}
	return kgerr.New(kgerr.CatalogError, "the image of %s stores provenance that is not valid JSON", p.SnapshotID()).
		WithHint("run kgc verify on the image and rebuild it with kgc build")
}
