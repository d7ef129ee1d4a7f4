package finding

//go:generate go test -run TestDocsMatchRegistry -update .

// Stage is the gate stage that reports a finding (docs/validation.md), in gate order.
type Stage string

// The gate stages, in the order they run.
const (
	StageDiscovery    Stage = "discovery"
	StageManifest     Stage = "manifest"
	StageTree         Stage = "tree"
	StageProfile      Stage = "profile"
	StageArtifacts    Stage = "artifacts"
	StageReport       Stage = "report"
	StageDelivery     Stage = "delivery"
	StageGraph        Stage = "graph"
	StageComponents   Stage = "components"
	StageProgressions Stage = "progressions"
	StageReconcile    Stage = "reconcile"
	StagePrompts      Stage = "prompts"
	// StageAny marks the generic document codes, which every stage reports
	// about the documents it reads.
	StageAny Stage = "any"
)

var stageOrder = map[Stage]int{
	StageDiscovery: 0, StageManifest: 1, StageTree: 2, StageProfile: 3, StageArtifacts: 4,
	StageReport: 5, StageDelivery: 6, StageGraph: 7, StageComponents: 8,
	StageProgressions: 9, StageReconcile: 10, StagePrompts: 11, StageAny: 1,
}

func (s Stage) order() int { return stageOrder[s] }

// Rule is one registered finding code.
type Rule struct {
	Code     Code
	Stage    Stage
	Severity Severity
	Summary  string
}

// Generic document codes: the same problems in any JSON or JSONL artifact, the
// manifest, a profile or a prompt config. Their Artifact field says which.
const (
	JSONSyntax       Code = "json_syntax"
	JSONInvalidUTF8  Code = "json_invalid_utf8"
	JSONDuplicateKey Code = "json_duplicate_key"
	SchemaUnknown    Code = "schema_unknown_field"
	SchemaMissing    Code = "schema_missing_field"
	SchemaWrongType  Code = "schema_wrong_type"
	SchemaInvalid    Code = "schema_invalid_value"
	FileTooLarge     Code = "file_too_large"
)

// Registered codes, by stage.
const (
	FrameworkDirInvalid   Code = "framework_dir_invalid"
	SnapshotDirInvalid    Code = "snapshot_dir_invalid"
	SnapshotNotNamespaced Code = "snapshot_not_namespaced"
	PathSymlink           Code = "path_symlink"
	PathSpecialFile       Code = "path_special_file"
	PathCaseCollision     Code = "path_case_collision"
	PathNameUnsafe        Code = "path_name_unsafe"
	PathTreeTooLarge      Code = "path_tree_too_large"

	ManifestMissing            Code = "manifest_missing"
	ManifestVersionUnsupported Code = "manifest_version_unsupported"
	ManifestIdentityMismatch   Code = "manifest_identity_mismatch"
	ManifestGraphPackage       Code = "manifest_graph_package_invalid"
	ManifestGraphTypes         Code = "manifest_graph_types_invalid"
	ManifestSnapshotRelation   Code = "manifest_snapshot_relation_invalid"
	ManifestArtifactPath       Code = "manifest_artifact_path_invalid"
	ManifestArtifactDuplicate  Code = "manifest_artifact_path_duplicate"
	ManifestArtifactName       Code = "manifest_artifact_name_invalid"
	ManifestChecksumClosure    Code = "manifest_checksum_closure"
	ManifestCountsInvalid      Code = "manifest_counts_invalid"
	ManifestLPDeclaration      Code = "manifest_progression_declaration"
	ManifestValidationStatus   Code = "manifest_validation_status"
	ManifestSubjectMapping     Code = "manifest_subject_mapping"

	TreeUndeclaredFile      Code = "tree_undeclared_file"
	TreeUndeclaredDirectory Code = "tree_undeclared_directory"
	ArtifactMissing         Code = "artifact_missing"

	ProfileMissing            Code = "profile_missing"
	ProfilePathUnsafe         Code = "profile_path_unsafe"
	ProfileSha256Mismatch     Code = "profile_sha256_mismatch"
	ProfileIdentityMismatch   Code = "profile_identity_mismatch"
	ProfileVersionUnsupported Code = "profile_version_unsupported"
	ProfileDuplicateValue     Code = "profile_duplicate_value"
	ProfileRegexInvalid       Code = "profile_regex_invalid"
	ProfileReferenceInvalid   Code = "profile_reference_invalid"
	ProfilePolicyInconsistent Code = "profile_policy_inconsistent"
	ProfileFrameworkMismatch  Code = "profile_framework_mismatch"
	ProfileManifestMismatch   Code = "profile_manifest_mismatch"

	ArtifactChecksumMismatch Code = "artifact_checksum_mismatch"
	ArtifactNotRegular       Code = "artifact_not_regular"

	ReportNotPassed     Code = "report_not_passed"
	ReportCountMismatch Code = "report_count_mismatch"

	JSONLParsingError        Code = "jsonl_parsing_error"
	JSONLEnvelopeInvalid     Code = "jsonl_envelope_invalid"
	DeliveryPropertyDecoding Code = "delivery_property_decoding_error"
	DeliverySchemaRecord     Code = "delivery_schema_record_unsupported"

	NodeIDInvalid                 Code = "node_id_invalid"
	NodeIDDuplicate               Code = "node_id_duplicate"
	NodeIdentifierMismatch        Code = "node_identifier_mismatch"
	NodeLabelInvalid              Code = "node_label_invalid"
	FrameworkNodeCount            Code = "framework_node_count"
	NodeCaseIdentityInvalid       Code = "node_case_identity_invalid"
	NodeCaseUUIDDuplicate         Code = "node_case_uuid_duplicate"
	NodeStatementTypeInvalid      Code = "node_statement_type_invalid"
	NodeNormalizedTypeMismatch    Code = "node_normalized_type_mismatch"
	NodeGradeLevelInvalid         Code = "node_grade_level_invalid"
	NodeFieldInvalid              Code = "node_field_invalid"
	StatementCodeNotAllowed       Code = "statement_code_not_allowed"
	StatementCodeUnmapped         Code = "statement_code_unmapped"
	StatementCodePattern          Code = "statement_code_pattern_mismatch"
	RelationshipIDInvalid         Code = "relationship_id_invalid"
	RelationshipIDDuplicate       Code = "relationship_id_duplicate"
	RelationshipIdentifier        Code = "relationship_identifier_mismatch"
	RelationshipTypeInvalid       Code = "relationship_type_invalid"
	RelationshipEndpointMissing   Code = "relationship_endpoint_missing"
	RelationshipEndpointLabels    Code = "relationship_endpoint_labels_mismatch"
	RelationshipEntityMismatch    Code = "relationship_entity_mismatch"
	RelationshipEndpointKind      Code = "relationship_endpoint_kind_invalid"
	RelationshipSelfEdge          Code = "relationship_self_edge"
	RelationshipDuplicateEdge     Code = "relationship_duplicate_edge"
	RelationshipResolution        Code = "relationship_resolution_invalid"
	RelationshipPropertyMisplaced Code = "relationship_property_misplaced"
	PublisherRelationInvalid      Code = "publisher_relation_invalid"
	PublisherRelationDangling     Code = "publisher_relation_dangling"
	PublisherRelationDuplicate    Code = "publisher_relation_duplicate"
	HierarchyCycle                Code = "hierarchy_cycle"
	HierarchyUnreachable          Code = "hierarchy_unreachable"
	HierarchyRootChild            Code = "hierarchy_root_child_invalid"
	HierarchyParentType           Code = "hierarchy_parent_type_invalid"
	HierarchyParentCardinality    Code = "hierarchy_parent_cardinality"
	HierarchyMultiParent          Code = "hierarchy_multi_parent_forbidden"
	StandardsFrameworkMismatch    Code = "standards_framework_mismatch"
	UnresolvedReportMismatch      Code = "unresolved_report_mismatch"
	ProvenanceEntryUnknown        Code = "provenance_entry_unknown"

	ComponentUnsupported  Code = "learning_component_unsupported"
	ComponentInHierarchy  Code = "learning_component_in_hierarchy"
	ComponentFieldInvalid Code = "learning_component_field_invalid"

	ProgressionEndpointInvalid    Code = "progression_endpoint_invalid"
	ProgressionRelatesOrder       Code = "progression_relates_to_order"
	ProgressionDuplicatePair      Code = "progression_duplicate_pair"
	ProgressionCycle              Code = "progression_cycle"
	ProgressionRecordOrder        Code = "progression_record_order"
	ProgressionSplitMismatch      Code = "progression_split_mismatch"
	ProgressionClaimsMismatch     Code = "progression_claims_mismatch"
	ProgressionShardMisplaced     Code = "progression_shard_misplaced"
	ProgressionShardDuplicate     Code = "progression_shard_duplicate"
	ProgressionProvenanceMissing  Code = "progression_provenance_missing"
	ProgressionProvenanceUnknown  Code = "progression_provenance_unknown"
	ProgressionProvenanceMismatch Code = "progression_provenance_mismatch"
	ProgressionIndexInvalid       Code = "progression_index_invalid"
	ProgressionUnionMismatch      Code = "progression_union_mismatch"
	ProgressionReportMismatch     Code = "progression_report_mismatch"
	ProgressionReceiptMismatch    Code = "progression_receipt_mismatch"
	ProgressionUnresolvedMismatch Code = "progression_unresolved_mismatch"
	ProgressionSummaryMismatch    Code = "progression_summary_mismatch"

	CountMismatch      Code = "count_mismatch"
	CapabilityMismatch Code = "capability_mismatch"

	PromptConfigIdentity   Code = "prompt_config_identity_mismatch"
	PromptConfigVersion    Code = "prompt_config_version_unsupported"
	PromptConfigTooLarge   Code = "prompt_config_too_large"
	PromptConfigDuplicate  Code = "prompt_config_duplicate_value"
	PromptConfigEmpty      Code = "prompt_config_empty"
	PromptConfigPathUnsafe Code = "prompt_config_path_unsafe"
)

func rule(code Code, stage Stage, sev Severity, summary string) Rule {
	return Rule{Code: code, Stage: stage, Severity: sev, Summary: summary}
}

// Rules is the closed registry, in gate order. `kgc validate --list-rules` prints it.
var Rules = []Rule{
	rule(JSONSyntax, StageAny, Error, "a JSON document or JSONL record is not valid JSON (or has data after the value)"),
	rule(JSONInvalidUTF8, StageAny, Error, "a JSON document is not valid UTF-8"),
	rule(JSONDuplicateKey, StageAny, Error, "a JSON object repeats a key"),
	rule(SchemaUnknown, StageAny, Error, "a document has a field its schema does not define"),
	rule(SchemaMissing, StageAny, Error, "a document lacks a required field"),
	rule(SchemaWrongType, StageAny, Error, "a field has the wrong JSON type (strict: no numeric strings, no fractions for integers)"),
	rule(SchemaInvalid, StageAny, Error, "a field's value breaks its constraint (pattern, length, enum, range, uniqueness)"),
	rule(FileTooLarge, StageAny, Error, "a file the gate reads whole is over its ceiling (manifest or profile 8 MiB, detailed JSON document or provenance shard 256 MiB); it is not read"),

	rule(FrameworkDirInvalid, StageDiscovery, Error, "the framework directory name is not a valid framework ID"),
	rule(SnapshotDirInvalid, StageDiscovery, Error, "the snapshot directory name is not a valid snapshot ID"),
	rule(SnapshotNotNamespaced, StageDiscovery, Error, "the snapshot directory does not start with its framework directory name and '@'"),
	rule(PathSymlink, StageDiscovery, Error, "the package contains (or is reached through) a symbolic link"),
	rule(PathSpecialFile, StageDiscovery, Error, "the package contains a device, FIFO, socket or other non-regular file"),
	rule(PathCaseCollision, StageDiscovery, Error, "two names in one directory are equal ignoring case and Unicode normalisation"),
	rule(PathNameUnsafe, StageDiscovery, Error, "a file or directory name is not safe (control characters, backslash, surrounding whitespace, invalid UTF-8)"),
	rule(PathTreeTooLarge, StageDiscovery, Error, "the package tree holds more than 100,000 entries; the rest are not examined"),

	rule(ManifestMissing, StageManifest, Error, "package_manifest.json is missing"),
	rule(ManifestVersionUnsupported, StageManifest, Error, "manifestVersion, deliverySchemaVersion or sourceSchemaVersion is not supported"),
	rule(ManifestIdentityMismatch, StageManifest, Error, "frameworkId/snapshotId disagree with each other or with the directory names"),
	rule(ManifestGraphPackage, StageManifest, Error, "graphPackageId is neither the initial nor the versioned form, or packageRevision is unsupported"),
	rule(ManifestGraphTypes, StageManifest, Error, "graphType is not in includedGraphTypes, or includedGraphTypes repeats or names an unknown type"),
	rule(ManifestSnapshotRelation, StageManifest, Error, "a snapshot relation targets the same snapshot or repeats (relationType, targetSnapshotId)"),
	rule(ManifestArtifactPath, StageManifest, Error, "an artifact path is not a safe package-relative POSIX path"),
	rule(ManifestArtifactDuplicate, StageManifest, Error, "two artifacts declare the same path"),
	rule(ManifestArtifactName, StageManifest, Error, "an additional artifact name is invalid or reserved"),
	rule(ManifestChecksumClosure, StageManifest, Error, "checksums do not cover exactly the declared artifact paths"),
	rule(ManifestCountsInvalid, StageManifest, Error, "counts break their own rules (one framework node; supports+buildsTowards+relatesTo <= relationships)"),
	rule(ManifestLPDeclaration, StageManifest, Error, "learning-progression artifacts, counts and capability flags disagree with includedGraphTypes"),
	rule(ManifestValidationStatus, StageManifest, Error, "validation status or validatedAt is inconsistent, or the status is not acceptable (failed, quarantined)"),
	rule(ManifestSubjectMapping, StageManifest, Error, "subject mapping status, normalized subjects and note disagree"),

	rule(TreeUndeclaredFile, StageTree, Error, "a file in the package is not declared by the manifest"),
	rule(TreeUndeclaredDirectory, StageTree, Error, "a directory in the package holds no declared artifact"),
	rule(ArtifactMissing, StageTree, Error, "a declared artifact file does not exist"),

	rule(ProfileMissing, StageProfile, Error, "the bound interpretation profile is not in the profile root"),
	rule(ProfilePathUnsafe, StageProfile, Error, "the profile path has a symbolic link or is not a regular file"),
	rule(ProfileSha256Mismatch, StageProfile, Error, "the SHA-256 of the profile's exact bytes differs from the manifest binding"),
	rule(ProfileIdentityMismatch, StageProfile, Error, "the profile's declared ID or version differs from its path or the manifest"),
	rule(ProfileVersionUnsupported, StageProfile, Error, "profileSchemaVersion is not supported"),
	rule(ProfileDuplicateValue, StageProfile, Error, "a profile list that must be unique repeats a value (after facet normalisation where it applies)"),
	rule(ProfileRegexInvalid, StageProfile, Error, "a code pattern or parent-rule regex does not compile"),
	rule(ProfileReferenceInvalid, StageProfile, Error, "a profile cross-reference names an undeclared statement type, code type or value"),
	rule(ProfilePolicyInconsistent, StageProfile, Error, "profile policies contradict each other (code availability, prefix delimiters, multi-parent, subject mapping)"),
	rule(ProfileFrameworkMismatch, StageProfile, Error, "the package's framework is not one of the profile's frameworkIds"),
	rule(ProfileManifestMismatch, StageProfile, Error, "manifest framework metadata, rights or capabilities disagree with the profile"),

	rule(ArtifactChecksumMismatch, StageArtifacts, Error, "an artifact's SHA-256 differs from its manifest checksum"),
	rule(ArtifactNotRegular, StageTree, Error, "a declared artifact path is a directory, not a regular file"),

	rule(ReportNotPassed, StageReport, Error, "the detailed validation report does not say passed with no errors"),
	rule(ReportCountMismatch, StageReport, Error, "an object count in the detailed validation report disagrees with the decoded graph"),

	rule(JSONLParsingError, StageDelivery, Error, "a delivery line is blank, too long, has a carriage return, or is not one JSON object"),
	rule(JSONLEnvelopeInvalid, StageDelivery, Error, "a delivery record's envelope (identifier, labels, type, endpoints) is malformed"),
	rule(DeliveryPropertyDecoding, StageDelivery, Error, "a delivery property is not a string or cannot be decoded (boolean, JSON array, confidence)"),
	rule(DeliverySchemaRecord, StageDelivery, Error, "a record kind is not allowed by the declared delivery schema version or included graph types"),

	rule(NodeIDInvalid, StageGraph, Error, "a node identifier is empty, too long, padded or has control characters"),
	rule(NodeIDDuplicate, StageGraph, Error, "two nodes share an identifier"),
	rule(NodeIdentifierMismatch, StageGraph, Error, "a node's properties.identifier differs from its envelope identifier"),
	rule(NodeLabelInvalid, StageGraph, Error, "a node does not carry exactly one of StandardsFramework, StandardsFrameworkItem, LearningComponent"),
	rule(FrameworkNodeCount, StageGraph, Error, "the package does not have exactly one StandardsFramework node"),
	rule(NodeCaseIdentityInvalid, StageGraph, Error, "a standards node lacks a valid CASE UUID and URI"),
	rule(NodeCaseUUIDDuplicate, StageGraph, Warning, "two standards nodes share a CASE UUID (lookups by it are ambiguous)"),
	rule(NodeStatementTypeInvalid, StageGraph, Error, "an item's statementType is missing or not a graph-node statement type of the profile"),
	rule(NodeNormalizedTypeMismatch, StageGraph, Error, "an item's normalizedStatementType differs from the profile's classification"),
	rule(NodeGradeLevelInvalid, StageGraph, Error, "an item's gradeLevel is not among the profile's normalized grades"),
	rule(NodeFieldInvalid, StageGraph, Error, "a node field breaks its node kind's rules"),
	rule(StatementCodeNotAllowed, StageGraph, Error, "an item has a statement code but the profile's code availability is none"),
	rule(StatementCodeUnmapped, StageGraph, Warning, "an item has a statement code but its statement type has no code type"),
	rule(StatementCodePattern, StageGraph, Warning, "a statement code matches none of its code type's patterns"),
	rule(RelationshipIDInvalid, StageGraph, Error, "a relationship identifier is empty, too long, padded or has control characters"),
	rule(RelationshipIDDuplicate, StageGraph, Error, "two relationships share an identifier"),
	rule(RelationshipIdentifier, StageGraph, Error, "a relationship's properties.identifier differs from its envelope identifier"),
	rule(RelationshipTypeInvalid, StageGraph, Error, "a relationship label is unknown or differs from properties.relationshipType"),
	rule(RelationshipEndpointMissing, StageGraph, Error, "a relationship endpoint names no node"),
	rule(RelationshipEndpointLabels, StageGraph, Error, "a relationship's source_labels/target_labels differ from the endpoint nodes' labels"),
	rule(RelationshipEntityMismatch, StageGraph, Error, "sourceEntity/Key/Value or targetEntity/Key/Value disagree with the endpoint nodes"),
	rule(RelationshipEndpointKind, StageGraph, Error, "a relationship connects node kinds its type does not allow"),
	rule(RelationshipSelfEdge, StageGraph, Error, "a relationship connects a node to itself"),
	rule(RelationshipDuplicateEdge, StageGraph, Error, "two relationships of one type connect the same endpoints"),
	rule(RelationshipResolution, StageGraph, Error, "a resolutionStatus is unknown or used outside a root fallback"),
	rule(RelationshipPropertyMisplaced, StageGraph, Error, "a property appears on a relationship type that does not define it"),
	rule(PublisherRelationInvalid, StageGraph, Error, "a publisher relation (publisher_relations.jsonl) is malformed: an unknown member or associationType, an end that is neither a nodeId nor an outside reference with a uri or identifier, both ends outside the package, a sequenceNumber that is not an integer"),
	rule(PublisherRelationDangling, StageGraph, Error, "a publisher relation's nodeId names no standards item or framework node of the package"),
	rule(PublisherRelationDuplicate, StageGraph, Error, "two publisher relations share an identifier, or one type, origin and destination"),
	rule(HierarchyCycle, StageGraph, Error, "the hierarchy has a cycle"),
	rule(HierarchyUnreachable, StageGraph, Error, "a standards item cannot be reached from the framework root through the hierarchy"),
	rule(HierarchyRootChild, StageGraph, Error, "a child of the root is not a root statement type (and not an unresolved root fallback), or a root type has a non-root parent"),
	rule(HierarchyParentType, StageGraph, Error, "a parent's statement type is not allowed for the child's statement type"),
	rule(HierarchyParentCardinality, StageGraph, Error, "an item has fewer or more parents of a type than the profile allows"),
	rule(HierarchyMultiParent, StageGraph, Error, "an item has several parents but the profile forbids multi-parent hierarchies"),
	rule(StandardsFrameworkMismatch, StageReport, Error, "the detailed standards-framework record disagrees with the root node"),
	rule(UnresolvedReportMismatch, StageReport, Error, "the unresolved-items report disagrees with the unresolved relationships"),
	rule(ProvenanceEntryUnknown, StageGraph, Error, "a detailed provenance entry names no node of its kind"),

	rule(ComponentUnsupported, StageComponents, Error, "a learning component supports no standard"),
	rule(ComponentInHierarchy, StageComponents, Error, "a learning component appears in the hierarchy"),
	rule(ComponentFieldInvalid, StageComponents, Error, "a learning component lacks a description or carries standards-only fields"),

	rule(ProgressionEndpointInvalid, StageProgressions, Error, "a progression endpoint is not a standards item with CASE identity"),
	rule(ProgressionRelatesOrder, StageProgressions, Error, "a relatesTo edge is not stored in canonical CASE order"),
	rule(ProgressionDuplicatePair, StageProgressions, Error, "a pair of standards has several progression edges or conflicting judgments"),
	rule(ProgressionCycle, StageProgressions, Error, "buildsTowards edges form a cycle"),
	rule(ProgressionRecordOrder, StageProgressions, Error, "progression records are not appended after the AS/LC records in (type, identifier) order"),
	rule(ProgressionSplitMismatch, StageProgressions, Error, "the split buildsTowards/relatesTo files disagree with the delivery edges"),
	rule(ProgressionClaimsMismatch, StageProgressions, Error, "final claims disagree with the stored edges"),
	rule(ProgressionShardMisplaced, StageProgressions, Error, "a provenance record is in the wrong shard for its relationship ID"),
	rule(ProgressionShardDuplicate, StageProgressions, Error, "a provenance record appears in more than one shard"),
	rule(ProgressionProvenanceMissing, StageProgressions, Error, "a progression edge has no provenance record"),
	rule(ProgressionProvenanceUnknown, StageProgressions, Error, "a provenance record names no progression edge"),
	rule(ProgressionProvenanceMismatch, StageProgressions, Error, "a provenance record's decision or endpoints disagree with its edge"),
	rule(ProgressionIndexInvalid, StageProgressions, Error, "the provenance index disagrees with the manifest or the shards"),
	rule(ProgressionUnionMismatch, StageProgressions, Error, "the union of the shards differs from the original provenance map"),
	rule(ProgressionReportMismatch, StageProgressions, Error, "the progression validation report did not pass or its counts disagree"),
	rule(ProgressionReceiptMismatch, StageProgressions, Error, "the normalization receipt disagrees with the package"),
	rule(ProgressionUnresolvedMismatch, StageProgressions, Error, "the progression unresolved report disagrees with the final claims"),
	rule(ProgressionSummaryMismatch, StageProgressions, Error, "the progression generation summary disagrees with the package"),

	rule(CountMismatch, StageReconcile, Error, "a manifest count differs from the count derived from the decoded package"),
	rule(CapabilityMismatch, StageReconcile, Error, "a manifest capability differs from what the package and profile show"),

	rule(PromptConfigIdentity, StagePrompts, Error, "a prompt config's identity differs from its path or its profile"),
	rule(PromptConfigVersion, StagePrompts, Error, "promptConfigSchemaVersion is not supported"),
	rule(PromptConfigTooLarge, StagePrompts, Error, "a prompt config is larger than 65,536 bytes or an overlay has too many instructions"),
	rule(PromptConfigDuplicate, StagePrompts, Error, "a guidance block repeats an instruction"),
	rule(PromptConfigEmpty, StagePrompts, Error, "a prompt config has no instruction at all"),
	rule(PromptConfigPathUnsafe, StagePrompts, Error, "the prompt config path has a symbolic link or is not a regular file"),
}

var byCode = func() map[Code]Rule {
	m := make(map[Code]Rule, len(Rules))
	for _, r := range Rules {
		if _, dup := m[r.Code]; dup {
			panic("finding: duplicate registry code " + string(r.Code))
		}
		m[r.Code] = r
	}
	return m
}()

// Lookup returns the registered rule for code. An unregistered code is a bug in
// this module; it is reported as an error-severity rule so it is never lost.
func Lookup(code Code) Rule {
	if r, ok := byCode[code]; ok {
		return r
	}
	return Rule{Code: code, Stage: StageReconcile, Severity: Error, Summary: "unregistered code"}
}

// Registered reports whether code is in the registry.
func Registered(code Code) bool {
	_, ok := byCode[code]
	return ok
}
