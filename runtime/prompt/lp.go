package prompt

// lpProvenanceCap is how many full provenance resources one workflow opens.
const lpProvenanceCap = 10

// connectionKinds are the link kinds a workflow reads one at a time (a page
// of `all` that stops at the size ceiling can end before any related link),
// in the reference's order: what the standard builds towards, what builds
// towards it, then related links.
var connectionKinds = []string{"outgoing_builds", "incoming_builds", "related"}

// labelInferred labels an ordering or dependency a model proposes where no
// progression is stored.
const labelInferred = "[LLM-INFERRED / GENERATED]"

// lpSteps are the steps of the three stored-progression workflows
// (the learning_progression_* prompts of docs/reference/prompts.md).
// A package without stored progressions gets standards-based steps instead
// (noProgressionSteps), under a disclosure that says so.
func lpSteps(r *renderer, d *Def, v Values, p *Package, route map[string]any) {
	if !p.HasProgressions {
		noProgressionSteps(r, d, v, p, route)
		return
	}
	switch d.Name {
	case "learning_progression_teaching_sequence":
		grades, _ := gradeLabels(p.Profile, v.List("local_grade_labels"))
		focusSteps(r, v, p, route, grades, 10)
		if g := v.List("normalized_grades"); len(g) > 0 {
			r.line("   Keep only hits whose facets.normalizedGrades meet %s.", string(encode(g)))
		}
		r.stepf("For each retained standard (at most 3), read its stored edges one link kind at a time, one page of 25 each:")
		for _, k := range connectionKinds {
			r.call("get_standard_progressions", with(route, "identifier", nodeSelector, "connectionKind", k, "limit", 25))
		}
		r.stepf("Walk the stored builds downstream from each retained standard (bounded; report truncationReasons):")
		r.call("traverse_learning_progressions", with(route, "identifier", nodeSelector, "direction", "downstream", "maxDepth", 8, "maxNodes", 30, "maxEdges", 40))
		r.stepf("Only when the caller explicitly selected two of the retained standards, read the connecting paths between them:")
		r.call("get_learning_progression_paths", with(route, "sourceIdentifier", nodeSelector,
			"targetIdentifier", map[string]any{"identifierType": "node_id", "nodeId": "{targetNodeId}"}, "maxDepth", 6, "maxPaths", 3))
		componentStep(r, p, route, " (at most 5 per standard)")
	case "learning_progression_support_plan":
		r.stepf("Read the target standard:")
		r.call("get_standard", with(route, "identifier", v["identifier"]))
		r.stepf("Read one page of 25 incoming builds and, separately, one page of 25 related links:")
		r.call("get_standard_progressions", with(route, "identifier", v["identifier"], "connectionKind", "incoming_builds", "limit", 25))
		r.call("get_standard_progressions", with(route, "identifier", v["identifier"], "connectionKind", "related", "limit", 25))
		r.stepf("Walk the stored builds upstream (bounded; report truncationReasons):")
		r.call("traverse_learning_progressions", with(route, "identifier", v["identifier"], "direction", "upstream", "maxDepth", 3, "maxNodes", 20, "maxEdges", 30))
		componentStep(r, p, route, " (the target and at most 3 supporting standards, at most 5 components each)")
	default:
		r.stepf("Read the package totals and the learning-progression summary (keep them apart from the reviewed subset):")
		r.call("get_framework_statistics", route)
		if p.Links.Progressions != "" {
			r.line("   Then read %s", p.Links.Progressions)
		}
		search := with(route, "endpointScope", v.Str("endpoint_scope"), "limit", 25)
		for _, k := range []struct{ arg, field string }{{"local_grade_labels", "localGradeLabels"}, {"normalized_grades", "normalizedGrades"},
			{"statement_types", "statementTypes"}, {"normalized_statement_types", "normalizedStatementTypes"}} {
			if l := v.List(k.arg); len(l) > 0 {
				search[k.field] = l
			}
		}
		if s := selectors(v["standard_identifiers"]); len(s) > 0 {
			search["standardIdentifiers"] = s
		}
		types := v.List("relationship_types")
		if len(types) == 0 {
			types = []string{"buildsTowards", "relatesTo"}
		}
		r.stepf("Discover the edges of the selected subset one link type at a time (a page cut at the size limit can hold none of the other type), at most 3 pages each, continuing only through page.nextRequest:")
		for _, t := range types {
			r.call("search_learning_progressions", with(search, "relationshipTypes", []string{t}))
		}
		r.stepf("Inspect at most %d edges exactly (the edge, then its provenance resource):", lpProvenanceCap)
		r.call("get_learning_progression", with(route, "relationshipId", "{relationshipId}"))
		r.stepf("Read the validation report and unresolved items where the links above offer them and the rights allow.")
	}
	r.stepf("Open full provenance for at most %d edges in total: each edge row's provenanceUri (%s), with resources/read or `read_evidence`; cite the relationship IDs you used.",
		lpProvenanceCap, orNone(p.Links.RelationshipProvenance))
	r.call("read_evidence", map[string]any{"uri": "{provenanceUri}"})
	r.stepf("Write the %s following the guidance and output rules below; with no stored edges for the focus, say so: there is no hypothesis fallback.", d.Title)
}

// noProgressionSteps are a progression workflow's steps over a package that
// stores no progressions: the standards, their hierarchy and components,
// and no progression tool.
func noProgressionSteps(r *renderer, d *Def, v Values, p *Package, route map[string]any) {
	r.line("This package stores no learning progressions: do not call the progression tools, and do not present any order you choose as a stored sequence or prerequisite.")
	switch d.Name {
	case "learning_progression_teaching_sequence":
		grades, _ := gradeLabels(p.Profile, v.List("local_grade_labels"))
		focusSteps(r, v, p, route, grades, 10)
		r.stepf("Read the hierarchy context of each retained standard (at most 3); its siblings, in the order the answer names (the publisher's, or derived from codes or numbers), are the curriculum's arrangement, not a progression:")
		r.call("get_standard_context", with(route, "nodeId", "{nodeId}"))
		componentStep(r, p, route, " (at most 5 per standard)")
	case "learning_progression_support_plan":
		r.stepf("Read the target standard, then its hierarchy context (its parent topic and the standards beside it):")
		r.call("get_standard", with(route, "identifier", v["identifier"]))
		r.call("get_standard_context", with(route, "nodeId", "{nodeId}"))
		componentStep(r, p, route, " (the target, at most 5 components)")
	default:
		r.stepf("Read the package totals; report that there are no stored progressions to review, and review the hierarchy's coverage instead only if the caller asks:")
		r.call("get_framework_statistics", route)
	}
	r.stepf("Write the %s following the guidance and output rules below, stating first that the stored learning-progression capability is unavailable for %s, and label every ordering or dependency you propose %s: a hypothesis, not a stored edge.", d.Title, p.SnapshotID, labelInferred)
}

func orNone(s string) string {
	if s == "" {
		return "not served by this package"
	}
	return s
}
