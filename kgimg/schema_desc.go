package kgimg

// The verifier walks the FlatBuffers payload with these descriptions of the
// tables in kgimg/kgimg.fbs (a test parses the .fbs and checks they match).

type kind uint8

const (
	kScalar     kind = iota // size bytes inline
	kEnum                   // ubyte with a maximum value
	kString                 // offset to a string
	kBytes                  // offset to [ubyte] (or other scalar vector: elem bytes each)
	kStrings                // offset to [string]
	kTables                 // offset to [table]
	kTable                  // offset to a table
	kDeprecated             // a slot older images may fill; never read, never walked
)

type fieldDesc struct {
	name     string
	kind     kind
	size     int        // scalar size, or element size of a scalar vector
	max      int        // largest valid enum value
	table    *tableDesc // element or sub-table type
	required bool
}

type tableDesc struct {
	name   string
	fields []fieldDesc
}

func scalar(name string, size int) fieldDesc { return fieldDesc{name: name, kind: kScalar, size: size} }
func enum(name string, max int) fieldDesc {
	return fieldDesc{name: name, kind: kEnum, size: 1, max: max}
}
func str(name string) fieldDesc           { return fieldDesc{name: name, kind: kString} }
func reqStr(name string) fieldDesc        { return fieldDesc{name: name, kind: kString, required: true} }
func vec(name string, elem int) fieldDesc { return fieldDesc{name: name, kind: kBytes, size: elem} }
func strs(name string) fieldDesc          { return fieldDesc{name: name, kind: kStrings} }
func tables(name string, t *tableDesc) fieldDesc {
	return fieldDesc{name: name, kind: kTables, table: t}
}
func table(name string, t *tableDesc) fieldDesc { return fieldDesc{name: name, kind: kTable, table: t} }

func required(f fieldDesc) fieldDesc { f.required = true; return f }

// deprecated is a field older formats wrote and no reader reads: its bytes
// are not walked, since nothing reaches them.
func deprecated(name string) fieldDesc { return fieldDesc{name: name, kind: kDeprecated} }

var (
	stringsDesc     = &tableDesc{"Strings", []fieldDesc{vec("spans", 4), vec("data", 1)}}
	stringListsDesc = &tableDesc{"StringLists", []fieldDesc{vec("starts", 4), table("items", stringsDesc)}}
	nodesDesc       = &tableDesc{"Nodes", []fieldDesc{
		scalar("count", 4), vec("kind", 1), vec("source_export_order", 4), vec("present", 4), vec("is_current", 1),
		col("id"), col("academic_subject"), col("adoption_status"), col("attribution_statement"), col("author"),
		col("case_identifier_uri"), col("case_identifier_uuid"), col("description"),
		col("identity_key"), col("in_language"), col("jurisdiction"), col("license"), col("name"),
		col("normalized_statement_type"), col("provider"), col("statement_code"), col("statement_type"),
		lists("grade_level"), lists("tags"), col("normalized_code"), col("provenance_json"), lists("labels"),
		vec("child_order", 1), vec("curriculum_position", 4), vec("repeated_description", 1),
	}}
	publisherDesc = &tableDesc{"PublisherRelations", []fieldDesc{
		scalar("count", 4), vec("kind", 1), col("id"), vec("origin", 4), vec("destination", 4),
		col("origin_uri"), col("origin_identifier"), col("origin_title"),
		col("destination_uri"), col("destination_identifier"), col("destination_title"),
		vec("sequence", 8), vec("has_sequence", 1), vec("out_offsets", 4), vec("out_rows", 4),
		vec("in_offsets", 4), vec("in_rows", 4), vec("external_by_identifier", 4), vec("external_by_uri", 4),
	}}
	relationshipsDesc = &tableDesc{"Relationships", []fieldDesc{
		scalar("count", 4), vec("label", 1), vec("source", 4), vec("target", 4), vec("source_export_order", 4),
		vec("present", 4), vec("support_confidence", 8), col("id"), col("attribution_statement"), col("author"),
		col("description"), col("license"), col("provider"), col("resolution_status"),
	}}
	adjacencyDesc = &tableDesc{"Adjacency", []fieldDesc{
		enum("label", 3), enum("direction", 1), vec("offsets", 4), vec("neighbors", 4), vec("edges", 4),
	}}
	facetDesc       = &tableDesc{"Facet", []fieldDesc{enum("kind", 5), str("key"), str("value"), vec("bitmap", 1)}}
	postingListDesc = &tableDesc{"PostingList", []fieldDesc{table("keys", stringsDesc), vec("starts", 4), vec("nodes", 4)}}
	searchDesc      = &tableDesc{"Search", []fieldDesc{
		str("lexical_version"), str("facet_version"), str("code_version"), table("item_tokens", postingListDesc),
		table("component_tokens", postingListDesc), table("component_tags", postingListDesc), vec("code_order", 4),
	}}
	provenanceDesc = &tableDesc{"Provenance", []fieldDesc{
		vec("shard_starts", 4), vec("record_relationship", 4), table("records", stringsDesc), vec("relationship_record", 4),
	}}
	artifactDesc = &tableDesc{"Artifact", []fieldDesc{
		reqStr("name"), reqStr("path"), str("sha256"), scalar("size", 8), str("mime"), enum("exposure", 3),
		scalar("embedded", 1), vec("bytes", 1),
	}}
	gradeMappingDesc = &tableDesc{"GradeMapping", []fieldDesc{str("local_label"), strs("aliases"), strs("normalized_grades")}}
	policyDesc       = &tableDesc{"Policy", nil}
	rightsDesc       = &tableDesc{"RightsPolicy", []fieldDesc{
		str("source_license"), str("license_uri"), str("attribution_statement"), str("review_status"),
		scalar("allow_standard_resources", 1), scalar("allow_full_text", 1), scalar("allow_bulk_resource", 1),
		str("allow_generated_derivatives"),
	}}
	stageMappingDesc    = &tableDesc{"StageMapping", []fieldDesc{str("local_label"), str("normalized_stage")}}
	controlledValueDesc = &tableDesc{"ControlledValue", []fieldDesc{str("canonical_value"), strs("aliases")}}
	allowedParentDesc   = &tableDesc{"AllowedParent", []fieldDesc{str("parent_statement_type"), scalar("min_count", 8), scalar("max_count", 8)}}
	profileTypeDesc     = &tableDesc{"ProfileStatementType", []fieldDesc{
		str("source"), str("normalized"), str("description"), strs("aliases"), tables("controlled_values", controlledValueDesc),
		scalar("is_graph_node", 1), strs("identity_scope"), str("code_type"), tables("allowed_parents", allowedParentDesc),
	}}
	codeTypeDesc = &tableDesc{"CodeType", []fieldDesc{
		str("code_type"), strs("patterns"), strs("statement_types"), strs("scope_statement_types"),
	}}
	parentRuleDesc = &tableDesc{"CodeParentRule", []fieldDesc{
		str("child_code_type"), str("parent_code_type"), str("method"), str("regex"), str("replacement"),
	}}
	anomalyDesc    = &tableDesc{"Anomaly", []fieldDesc{str("anomaly_id"), str("description"), str("required_disclosure")}}
	profileKeyDesc = &tableDesc{"ProfileKey", []fieldDesc{enum("kind", 4), str("key"), scalar("target", 4)}}
	compiledDesc   = &tableDesc{"CompiledProfile", []fieldDesc{
		str("profile_id"), str("profile_version"), str("profile_schema_version"), strs("framework_ids"),
		str("local_subject"), strs("normalized_subjects"), strs("subject_aliases"), str("subject_mapping_status"),
		str("subject_mapping_note"), str("vocabulary_id"), str("vocabulary_version"), strs("vocabulary_values"),
		str("vocabulary_unmatched_value"), tables("grade_mappings", gradeMappingDesc),
		tables("education_stage_mappings", stageMappingDesc), strs("grade_level_statement_types"),
		tables("statement_types", profileTypeDesc), scalar("allow_multi_parent", 1), str("relationship_type"),
		strs("root_statement_types"), strs("statement_type_order"), str("code_availability"),
		tables("code_types", codeTypeDesc), scalar("code_case_sensitive", 1), scalar("code_whitespace_normalization", 1),
		scalar("code_punctuation_normalization", 1), scalar("code_allow_prefix", 1), strs("code_prefix_delimiters"),
		tables("code_parent_rules", parentRuleDesc), scalar("codes_are_unique_identifiers", 1),
		strs("canonicalization_notes"), strs("languages"), strs("language_notes"),
		scalar("preserve_source_terminology", 1), scalar("allow_bilingual_pairing", 1),
		scalar("has_official_activities", 1), scalar("has_official_assessment_guidance", 1),
		scalar("has_official_resources", 1), strs("role_notes"), table("rights", rightsDesc),
		strs("comparison_dimensions"), tables("known_source_anomalies", anomalyDesc), strs("required_disclosures"),
		tables("keys", profileKeyDesc), str("rights_reviewed_by"), str("rights_reviewed_at"), str("rights_review_note"),
	}}
	frameworkDesc = &tableDesc{"FrameworkMetadata", []fieldDesc{
		str("name"), str("jurisdiction"), str("jurisdiction_type"), str("issuing_authority"), str("provider"),
		strs("languages"), str("local_subject"), strs("normalized_subjects"), strs("local_grades_or_stages"),
		strs("normalized_grades"), str("adoption_status"), scalar("is_current", 1), str("source_version"),
		str("source_publication_date"), str("source_document_sha256"), str("subject_mapping_status"),
		str("subject_mapping_note"),
	}}
	manifestArtifactDesc = &tableDesc{"ManifestArtifact", []fieldDesc{str("name"), str("path"), scalar("additional", 1)}}
	checksumDesc         = &tableDesc{"ChecksumEntry", []fieldDesc{str("path"), str("sha256")}}
	relationDesc         = &tableDesc{"SnapshotRelation", []fieldDesc{str("relation_type"), str("target_snapshot_id"), str("evidence")}}
	compiledManifestDesc = &tableDesc{"CompiledManifest", []fieldDesc{
		str("manifest_version"), str("framework_id"), str("snapshot_id"), str("graph_package_id"), str("graph_type"),
		strs("included_graph_types"), scalar("package_revision", 8), str("delivery_schema_version"),
		str("source_schema_version"), str("created_at"), table("framework", frameworkDesc), str("profile_id"),
		str("profile_version"), str("profile_sha256"), tables("artifacts", manifestArtifactDesc),
		tables("checksums", checksumDesc), scalar("framework_nodes", 8), scalar("item_nodes", 8),
		scalar("learning_component_nodes", 8), scalar("relationships", 8), scalar("supports_relationships", 8),
		scalar("builds_towards_relationships", 8), scalar("relates_to_relationships", 8), scalar("coded_items", 8),
		scalar("multi_parent_targets", 8), scalar("unresolved_relationships", 8), scalar("text_search", 1),
		str("code_search"), scalar("multi_parent", 1), scalar("has_detailed_provenance", 1),
		scalar("has_unresolved_relationships", 1), scalar("has_official_activities", 1),
		scalar("has_official_assessment_guidance", 1), scalar("has_learning_progressions", 1),
		scalar("has_learning_progression_provenance", 1), table("rights", rightsDesc), str("validation_status"), str("validated_at"), tables("snapshot_relations", relationDesc),
	}}
	progressionCountDesc       = &tableDesc{"ProgressionCount", []fieldDesc{str("label"), str("reason"), scalar("count", 8)}}
	progressionObjectCountDesc = &tableDesc{"ProgressionObjectCount", []fieldDesc{str("key"), scalar("count", 8)}}
	compiledSummaryDesc        = &tableDesc{"CompiledProgressionSummary", []fieldDesc{
		tables("object_counts", progressionObjectCountDesc), tables("eligible_sfis_per_relationship", progressionCountDesc),
		tables("exclusion_reason_counts", progressionCountDesc), scalar("total_sfis_considered", 8),
		scalar("total_sfis_eligible", 8), scalar("total_sfis_excluded", 8), scalar("validation_passed", 1),
		scalar("semantic_validation_performed", 1), scalar("pedagogical_correctness_established", 1),
		str("semantic_scope_notice"), scalar("validation_warning_count", 8), strs("validation_warning_excerpts"),
		scalar("validation_warnings_excerpted", 1), scalar("validation_warnings_omitted", 8),
		scalar("unresolved_claim_count", 8), scalar("unresolved_sfi_count", 8), scalar("relationship_warning_count", 8),
		scalar("relationships_with_warnings_count", 8),
	}}
	identityDesc = &tableDesc{"Identity", []fieldDesc{
		reqStr("framework_id"), reqStr("snapshot_id"), reqStr("graph_package_id"), str("graph_type"),
		scalar("package_revision", 4), str("profile_id"), str("profile_version"), str("profile_sha256"),
		str("manifest_sha256"), str("prompt_config_sha256"), str("compiler"),
	}}
	imageDesc = &tableDesc{"Image", []fieldDesc{
		scalar("format_version", 4), table("identity", identityDesc), vec("manifest_json", 1),
		vec("profile_json", 1), vec("prompt_config_json", 1), deprecated("policy"),
		required(table("nodes", nodesDesc)), required(table("relationships", relationshipsDesc)), scalar("root", 4),
		vec("node_id_order", 4), vec("case_uuid_order", 4), vec("case_uri_order", 4), vec("relationship_id_order", 4),
		tables("adjacency", adjacencyDesc), tables("facets", facetDesc), table("search", searchDesc),
		table("provenance", provenanceDesc), tables("artifacts", artifactDesc), deprecated("progression_summary"),
		table("compiled_profile", compiledDesc), table("compiled_manifest", compiledManifestDesc),
		table("compiled_progression_summary", compiledSummaryDesc), table("publisher_relations", publisherDesc),
		vec("catalog_part", 1),
	}}
	catalogPartDesc = &tableDesc{"CatalogPart", []fieldDesc{
		scalar("format_version", 4), required(table("identity", identityDesc)), required(vec("manifest_json", 1)),
		required(vec("profile_json", 1)), vec("prompt_config_json", 1), required(table("compiled_profile", compiledDesc)),
		required(table("compiled_manifest", compiledManifestDesc)), table("compiled_progression_summary", compiledSummaryDesc),
		vec("case_keys", 8),
	}}
)

func col(name string) fieldDesc   { return table(name, stringsDesc) }
func lists(name string) fieldDesc { return table(name, stringListsDesc) }

// allTables lists every table description (for the schema-agreement test).
var allTables = []*tableDesc{
	stringsDesc, stringListsDesc, nodesDesc, relationshipsDesc, adjacencyDesc, facetDesc, postingListDesc,
	searchDesc, provenanceDesc, artifactDesc, gradeMappingDesc, policyDesc, identityDesc, imageDesc,
	stageMappingDesc, controlledValueDesc, allowedParentDesc, profileTypeDesc, codeTypeDesc, parentRuleDesc, anomalyDesc,
	rightsDesc, profileKeyDesc, compiledDesc, frameworkDesc, manifestArtifactDesc, checksumDesc, relationDesc, compiledManifestDesc,
	progressionCountDesc, progressionObjectCountDesc, compiledSummaryDesc, publisherDesc, catalogPartDesc,
}

// slot returns the field index of name in d (its vtable slot).
func slot(d *tableDesc, name string) int {
	for i, f := range d.fields {
		if f.name == name {
			return i
		}
	}
	panic("kgimg: no field " + name + " in " + d.name)
}
