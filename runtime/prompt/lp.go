package prompt

// lpProvenanceCap is how many full provenance resources one workflow opens.
const lpProvenanceCap = 10

// lpSteps are the steps of the three stored-progression workflows (§4.3).
func lpSteps(r *renderer, d *Def, v Values, p *Package, route map[string]any) {
	switch d.Name {
	case "learning_progression_teaching_sequence":
		grades, _ := gradeLabels(p.Profile, v.List("local_grade_labels"))
		focusSteps(r, v, p, route, grades, 10)
		if g := v.List("normalized_grades"); len(g) > 0 {
			r.line("   Keep only hits whose facets.normalizedGrades meet %s.", string(encode(g)))
		}
		r.stepf("For each retained standard (at most 3), read one page of 25 direct stored edges:")
		r.call("get_standard_progressions", with(route, "identifier", nodeSelector, "connectionKind", "all", "limit", 25))
		r.stepf("Walk the stored builds downstream from each retained standard (bounded; report truncationReasons):")
		r.call("traverse_learning_progressions", with(route, "identifier", nodeSelector, "direction", "downstream", "maxDepth", 8, "maxNodes", 30, "maxEdges", 40))
		r.stepf("Only when the caller explicitly selected two of the retained standards, read the connecting paths between them:")
		r.call("get_learning_progression_paths", with(route, "sourceIdentifier", nodeSelector,
			"targetIdentifier", map[string]any{"identifierType": "node_id", "nodeId": "{targetNodeId}"}, "maxDepth", 6, "maxPaths", 3))
		componentStep(r, p, route, " (at most 5 per standard)")
	case "learning_progression_support_plan":
		r.stepf("Read the target standard:")
		r.call("get_standard", with(route, "identifier", v["identifier"]))
		r.stepf("Read one page of 25 incoming builds and one page of 25 related links:")
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
		r.stepf("Discover the edges of the selected subset, at most 3 pages, continuing only through page.nextRequest:")
		r.call("search_learning_progressions", search)
		r.stepf("Inspect at most %d edges exactly (the edge, then its provenance resource):", lpProvenanceCap)
		r.call("get_learning_progression", with(route, "relationshipId", "{relationshipId}"))
		r.stepf("Read the validation report and unresolved items where the links above offer them and the rights allow.")
	}
	r.stepf("Open full provenance for at most %d edges in total (the relationship provenance resource, or read_evidence); cite the relationship IDs you used.", lpProvenanceCap)
	r.stepf("Write the %s following the guidance and output rules below; with no stored edges for the focus, say so: there is no hypothesis fallback.", d.Title)
}
