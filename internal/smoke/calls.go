package smoke

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// commonWords finds a standard or component in any English-language
// framework: a tokens/any text search for them matches nearly every
// description.
const commonWords = "the and of to in a for with by on use"

// maxDiscovered bounds how many snapshots discovery looks into: a smoke run
// costs a few dozen calls whatever the catalog's size.
const maxDiscovered = 8

func textMatch() map[string]any { return map[string]any{"matchMode": "tokens", "operator": "any"} }

func req(fields map[string]any) map[string]any { return map[string]any{"request": fields} }

func merge(a map[string]any, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// firstNodeID returns the node ID of a search result's first hit (its
// record's nodeId).
func firstNodeID(res map[string]any) string {
	hits := asList(asMap(res["page"])["hits"])
	if len(hits) == 0 {
		return ""
	}
	hit := asMap(hits[0])
	for _, k := range []string{"node", "learningComponent", "component", "record"} {
		if id := asString(asMap(hit[k])["nodeId"]); id != "" {
			return id
		}
	}
	return asString(hit["nodeId"])
}

// discover finds, in the first snapshots of the catalog, the identifiers the
// templates and tools need: a standard, a hierarchy relationship, a learning
// component, a progression edge, and which artifacts each package declares.
func (d *driver) discover(ctx context.Context) {
	for i, sn := range d.snapshots {
		if i == maxDiscovered {
			break
		}
		if doc, _, err := d.read(ctx, sn.ref("package_manifest", "")); err == nil {
			sn.artifacts = map[string]bool{}
			m := asMap(doc)
			if inner, ok := m["manifest"]; ok {
				m = asMap(inner)
			}
			for name := range asMap(m["artifacts"]) {
				sn.artifacts[name] = true
			}
		}
		res, _, err := d.call(ctx, "search_standards", req(map[string]any{"snapshotIds": []any{sn.id}, "mode": "text",
			"query": commonWords, "match": textMatch(), "limit": 1}))
		if err == nil {
			sn.standard = firstNodeID(res)
		}
		if sn.standard != "" {
			if ctxRes, _, err := d.call(ctx, "get_standard_context", req(merge(sn.route(), map[string]any{"nodeId": sn.standard, "maxNodes": 4}))); err == nil {
				for _, r := range asList(ctxRes["relationships"]) {
					if id := asString(asMap(r)["relationshipId"]); id != "" {
						sn.relationship = id
						break
					}
				}
			}
		}
		if sn.components {
			res, _, err := d.call(ctx, "search_learning_components", req(map[string]any{"snapshotIds": []any{sn.id},
				"mode": "learning_component_text", "query": commonWords, "match": textMatch(), "limit": 1}))
			if err == nil {
				sn.component = firstNodeID(res)
			}
		}
		if sn.lp {
			res, _, err := d.call(ctx, "search_learning_progressions", req(merge(sn.route(), map[string]any{"limit": 1})))
			if err == nil {
				if c := asList(res["connections"]); len(c) > 0 {
					cm := asMap(c[0])
					sn.lpEdge = asString(cm["relationshipId"])
					sn.lpSource = asString(asMap(cm["sourceMatch"])["nodeId"])
					sn.lpTarget = asString(asMap(cm["targetMatch"])["nodeId"])
				}
			}
		}
	}
}

// readTemplates reads one known-good address per template.
func (d *driver) readTemplates(ctx context.Context) {
	has := func(artifact string) func(*snapshot) bool {
		return func(sn *snapshot) bool { return sn.artifacts[artifact] }
	}
	std := func(sn *snapshot) bool { return sn.standard != "" }
	none := func(*snapshot) string { return "" }
	stdID := func(sn *snapshot) string { return sn.standard }
	compID := func(sn *snapshot) string { return sn.component }
	// Each read is named by its template (uri.Ref's Kind); its address is
	// built by runtime/uri, so any identifier the gate accepts is read.
	reads := []struct {
		name   string
		ok     func(*snapshot) bool
		id     func(*snapshot) string
		reason string
	}{
		{"framework", func(*snapshot) bool { return true }, none, ""},
		{"package_manifest", func(*snapshot) bool { return true }, none, ""},
		{"validation_report", has("validationReport"), none, "no package declares a validation report"},
		{"unresolved_items", has("unresolvedItems"), none, "no package declares unresolved items"},
		{"interpretation_profile", func(*snapshot) bool { return true }, none, ""},
		{"manifest_artifact", func(sn *snapshot) bool { return sn.bulk && sn.artifacts["standardsFramework"] },
			func(*snapshot) string { return "standardsFramework" }, "no package both declares standardsFramework and allows whole artifacts"},
		{"standard", std, stdID, "no standard found"},
		{"standard_provenance", func(sn *snapshot) bool { return std(sn) && sn.artifacts["entityProvenance"] }, stdID, "no package with detailed provenance"},
		{"standard_learning_components", func(sn *snapshot) bool { return std(sn) && sn.components }, stdID, "no package with learning components"},
		{"standard_diagram", std, stdID, "no standard found"},
		{"learning_component", func(sn *snapshot) bool { return sn.component != "" }, compID, "no learning component found"},
		{"learning_component_provenance", func(sn *snapshot) bool { return sn.component != "" && sn.artifacts["learningComponentProvenance"] },
			compID, "no package with learning-component provenance"},
		{"relationship", func(sn *snapshot) bool { return sn.relationship != "" },
			func(sn *snapshot) string { return sn.relationship }, "no relationship found"},
		{"relationship_provenance", func(sn *snapshot) bool { return sn.lpEdge != "" },
			func(sn *snapshot) string { return sn.lpEdge }, "no progression edge found"},
		{"learning_progressions", func(sn *snapshot) bool { return sn.lp }, none, "no package with learning progressions"},
	}
	for _, r := range reads {
		sn := d.pick(r.ok)
		if sn == nil {
			d.s.Skipped = append(d.s.Skipped, Check{Name: "resource " + r.name, Reason: r.reason})
			continue
		}
		addr := sn.ref(r.name, r.id(sn))
		read := d.read
		if r.name == "standard_diagram" {
			read = d.readMermaid
		}
		_, n, err := read(ctx, addr)
		if err != nil {
			d.s.failOrWithhold("resource "+r.name, addr, err, "resources/read %s (%s): %v", addr, r.name, err)
			continue
		}
		d.s.Resources = append(d.s.Resources, Check{Name: r.name, Target: addr, Bytes: n})
	}
}

// grade returns a local grade label of the snapshot's framework, from the
// framework resource.
func (d *driver) grade(ctx context.Context, sn *snapshot) string {
	doc, _, err := d.read(ctx, sn.ref("framework", ""))
	if err != nil {
		return ""
	}
	var find func(v any) string
	find = func(v any) string {
		switch x := v.(type) {
		case map[string]any:
			if l := asList(x["localGradesOrStages"]); len(l) > 0 {
				return asString(l[0])
			}
			for _, c := range x {
				if g := find(c); g != "" {
					return g
				}
			}
		case []any:
			for _, c := range x {
				if g := find(c); g != "" {
					return g
				}
			}
		}
		return ""
	}
	return find(doc)
}

// callTools calls each tool once with a valid request.
func (d *driver) callTools(ctx context.Context) {
	first := d.snapshots[0]
	graded, grade := d.graded(ctx)
	std := d.pick(func(sn *snapshot) bool { return sn.standard != "" })
	lc := d.pick(func(sn *snapshot) bool { return sn.component != "" })
	lp := d.pick(func(sn *snapshot) bool { return sn.lpEdge != "" })
	var frameworks []any
	for _, sn := range d.snapshots {
		if len(frameworks) == 2 {
			break
		}
		if len(frameworks) == 0 || frameworks[0] != sn.framework {
			frameworks = append(frameworks, sn.framework)
		}
	}
	var compareOn *snapshot
	if len(frameworks) == 2 {
		compareOn = first
	}
	node := func(sn *snapshot, id string) map[string]any {
		return map[string]any{"identifierType": "node_id", "nodeId": id}
	}
	type call struct {
		tool   string
		sn     *snapshot
		args   func(sn *snapshot) map[string]any
		reason string
	}
	calls := []call{
		{"get_capabilities", first, func(*snapshot) map[string]any { return map[string]any{} }, ""},
		{"list_frameworks", first, func(*snapshot) map[string]any { return req(map[string]any{"limit": 5}) }, ""},
		{"get_framework", first, func(sn *snapshot) map[string]any { return req(sn.route()) }, ""},
		{"get_framework_statistics", first, func(sn *snapshot) map[string]any { return req(sn.route()) }, ""},
		{"search_standards", first, func(sn *snapshot) map[string]any {
			return req(map[string]any{"snapshotIds": []any{sn.id}, "mode": "text", "query": commonWords, "match": textMatch(), "limit": 5})
		}, ""},
		{"get_standard", std, func(sn *snapshot) map[string]any {
			return req(merge(sn.route(), map[string]any{"identifier": node(sn, sn.standard)}))
		}, "no standard found"},
		{"get_standard_context", std, func(sn *snapshot) map[string]any {
			return req(merge(sn.route(), map[string]any{"nodeId": sn.standard}))
		}, "no standard found"},
		{"get_publisher_relations", std, func(sn *snapshot) map[string]any {
			return req(merge(sn.route(), map[string]any{"identifier": node(sn, sn.standard), "sequenceDepth": 1}))
		}, "no standard found"},
		{"search_learning_components", lc, func(sn *snapshot) map[string]any {
			return req(map[string]any{"snapshotIds": []any{sn.id}, "mode": "learning_component_text", "query": commonWords, "match": textMatch(), "limit": 5})
		}, "no package with learning components"},
		{"get_learning_component", lc, func(sn *snapshot) map[string]any {
			return req(merge(sn.route(), map[string]any{"nodeId": sn.component}))
		}, "no learning component found"},
		{"get_learning_component_context", lc, func(sn *snapshot) map[string]any {
			return req(merge(sn.route(), map[string]any{"nodeId": sn.component}))
		}, "no learning component found"},
		{"get_learning_components_for_standard", d.pick(func(sn *snapshot) bool { return sn.components && sn.standard != "" }), func(sn *snapshot) map[string]any {
			return req(merge(sn.route(), map[string]any{"identifier": node(sn, sn.standard)}))
		}, "no package with learning components"},
		{"get_learning_progression", lp, func(sn *snapshot) map[string]any {
			return req(merge(sn.route(), map[string]any{"relationshipId": sn.lpEdge}))
		}, "no progression edge found"},
		{"get_standard_progressions", lp, func(sn *snapshot) map[string]any {
			return req(merge(sn.route(), map[string]any{"identifier": node(sn, sn.lpSource), "limit": 5}))
		}, "no progression edge found"},
		{"search_learning_progressions", lp, func(sn *snapshot) map[string]any {
			return req(merge(sn.route(), map[string]any{"limit": 5}))
		}, "no progression edge found"},
		{"traverse_learning_progressions", lp, func(sn *snapshot) map[string]any {
			return req(merge(sn.route(), map[string]any{"identifier": node(sn, sn.lpSource), "direction": "downstream"}))
		}, "no progression edge found"},
		{"get_learning_progression_paths", lp, func(sn *snapshot) map[string]any {
			return req(merge(sn.route(), map[string]any{"sourceIdentifier": node(sn, sn.lpSource), "targetIdentifier": node(sn, sn.lpTarget)}))
		}, "no progression edge found"},
		{"read_evidence", first, func(sn *snapshot) map[string]any {
			return req(map[string]any{"uri": sn.ref("package_manifest", ""), "maxContentBytes": 1024})
		}, ""},
		{"compare_framework_evidence", compareOn, func(*snapshot) map[string]any {
			return req(map[string]any{"mode": "text", "query": commonWords, "match": textMatch(), "frameworkIds": frameworks, "maxMatchesPerFramework": 2})
		}, "the catalog has one framework; comparison needs two"},
		{"get_workflow_instructions", graded, func(sn *snapshot) map[string]any {
			return req(merge(sn.route(), map[string]any{"workflowName": "student_study_support", "gradeOrStage": grade, "topicOrStandard": "the first topic"}))
		}, "no framework lists a grade"},
	}
	for _, c := range calls {
		if c.sn == nil {
			d.s.Skipped = append(d.s.Skipped, Check{Name: "tool " + c.tool, Reason: c.reason})
			continue
		}
		_, n, err := d.call(ctx, c.tool, c.args(c.sn))
		if err != nil {
			d.s.failOrWithhold("tool "+c.tool, c.sn.id, err, "tools/call %s on %s: %v", c.tool, c.sn.id, err)
			continue
		}
		d.s.Tools = append(d.s.Tools, Check{Name: c.tool, Target: c.sn.id, Bytes: n})
	}
}

// graded returns the first snapshot whose framework lists a grade, and the
// grade (nil when none does).
func (d *driver) graded(ctx context.Context) (*snapshot, string) {
	for _, sn := range d.snapshots {
		if g := d.grade(ctx, sn); g != "" {
			return sn, g
		}
	}
	return nil, ""
}

// getPrompt renders one prompt.
func (d *driver) getPrompt(ctx context.Context) {
	sn, grade := d.graded(ctx)
	if sn == nil {
		d.s.Skipped = append(d.s.Skipped, Check{Name: "prompt student_study_support", Reason: "no framework lists a grade"})
		return
	}
	res, err := d.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "student_study_support", Arguments: map[string]string{
		"framework_id": sn.framework, "snapshot_id": sn.id, "grade_or_stage": grade, "topic_or_standard": "the first topic"}})
	if err != nil {
		d.s.failOrWithhold("prompt student_study_support", sn.id, err, "prompts/get student_study_support: %v", err)
		return
	}
	if len(res.Messages) != 1 {
		d.s.fail("prompts/get student_study_support: %d messages, want 1", len(res.Messages))
		return
	}
	d.s.PromptGetCount = 1
}

// readMermaid reads one Mermaid resource: a single text item of type
// text/vnd.mermaid holding a flowchart.
func (d *driver) readMermaid(ctx context.Context, uri string) (any, int, error) {
	res, err := d.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, 0, err
	}
	if len(res.Contents) != 1 {
		return nil, 0, fmt.Errorf("want exactly one item, got %d", len(res.Contents))
	}
	c := res.Contents[0]
	if c.MIMEType != "text/vnd.mermaid" || !strings.Contains(c.Text, "\nflowchart ") {
		return nil, 0, fmt.Errorf("want a Mermaid flowchart as text/vnd.mermaid, got %q (%d bytes)", c.MIMEType, len(c.Text))
	}
	return c.Text, len(c.Text), nil
}
