package record

import (
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/schema/rights"
)

// ImplementedFeatures are the features get_capabilities says the server has.
var ImplementedFeatures = []string{
	"bounded_ancestor_traversal", "bounded_descendant_traversal", "catalog_discovery",
	"complete_root_path_enumeration", "cross_framework_evidence_comparison", "direct_graph_navigation", "exact_framework_lookup",
	"exact_standard_lookup", "framework_prompt_overlays", "framework_statistics", "learning_component_lookup", "learning_component_search",
	"learning_progression_discovery", "learning_progression_lookup", "learning_progression_paths",
	"learning_progression_traversal", "lexical_standard_search", "manifest_declared_artifact_access", "official_alignments",
	"profile_governed_exact_code_search", "profile_governed_prefix_code_search", "prompt_argument_completion",
	"read_only_resources", "resource_links", "rights_aware_resource_access", "role_oriented_prompt_workflows",
	"unique_current_framework_routing", "windowed_evidence_reads", "workflow_instructions",
}

// UnavailableFeatures are the features get_capabilities says it has not.
var UnavailableFeatures = []string{
	"accepted_mapping_overlays", "alignment_persistence", "embeddings", "mcp_sampling",
	"semantic_candidate_retrieval", "semantic_search", "server_side_llm_execution",
	"snapshot_alignment_candidate_retrieval", "snapshot_diffs",
}

// searchModes are the standards and component search modes p serves.
func searchModes(p *catalog.Package) (standards, components []string) {
	cp := p.Profile().CodeSearchPolicy
	standards, components = []string{}, []string{}
	if p.Manifest.Capabilities.TextSearch {
		standards = append(standards, "text")
		components = append(components, "learning_component_text")
	}
	components = append(components, "learning_component_tag")
	if cp.Availability != "none" {
		standards = append(standards, "code_exact")
		components = append(components, "learning_component_supported_code_exact")
		if cp.AllowPrefixSearch {
			standards = append(standards, "code_prefix")
			components = append(components, "learning_component_supported_code_prefix")
		}
	}
	return standards, components
}

// PackageCapabilities is what one package can serve (get_capabilities).
type PackageCapabilities struct {
	AvailableResourceArtifacts              []string        `json:"availableResourceArtifacts"`
	AvailableResourceKinds                  []string        `json:"availableResourceKinds"`
	Capabilities                            Capabilities    `json:"capabilities"`
	Counts                                  Counts          `json:"counts"`
	ImplementedLearningComponentSearchModes []string        `json:"implementedLearningComponentSearchModes"`
	ImplementedSearchModes                  []string        `json:"implementedSearchModes"`
	IncludedGraphTypes                      []string        `json:"includedGraphTypes"`
	PackageIdentity                         PackageIdentity `json:"packageIdentity"`
	Rights                                  rights.Policy   `json:"rights"`
	SearchIndex                             SearchIndex     `json:"searchIndex"`
	TraversalRelationshipType               string          `json:"traversalRelationshipType"`
}

// SearchIndex sizes a package's search index.
type SearchIndex struct {
	CodedNodeCount                 int `json:"codedNodeCount"`
	LearningComponentDocumentCount int `json:"learningComponentDocumentCount"`
	LexicalDocumentCount           int `json:"lexicalDocumentCount"`
	TagVocabularySize              int `json:"tagVocabularySize"`
}

// PackageCapabilitiesOf is what p can serve: kinds and artifacts are the
// resource kinds and artifacts it serves under the server's limits.
func PackageCapabilitiesOf(p *catalog.Package, kinds, artifacts []string) PackageCapabilities {
	img := p.Img
	std, comp := searchModes(p)
	lexical, lcDocs, coded := 0, 0, img.CodeOrder().Len()
	for n := 0; n < img.NodeCount(); n++ {
		o := uint32(n)
		if img.NodeString(o, kgimg.NodeDescription) == "" {
			continue
		}
		switch img.NodeKind(o) {
		case kgimg.ItemNode:
			lexical++
		case kgimg.ComponentNode:
			lcDocs++
		}
	}
	return PackageCapabilities{
		PackageIdentity: Identity(p), Rights: p.Manifest.Rights, Counts: countsOf(p.Manifest.Counts),
		Capabilities: capabilitiesOf(p.Manifest.Capabilities), ImplementedSearchModes: std,
		ImplementedLearningComponentSearchModes: comp,
		SearchIndex: SearchIndex{CodedNodeCount: coded, LexicalDocumentCount: lexical, LearningComponentDocumentCount: lcDocs,
			TagVocabularySize: img.ComponentTagCount()},
		AvailableResourceKinds: kinds, AvailableResourceArtifacts: artifacts,
		TraversalRelationshipType: p.Profile().Hierarchy.RelationshipType,
		IncludedGraphTypes:        p.Manifest.IncludedGraphTypes,
	}
}
