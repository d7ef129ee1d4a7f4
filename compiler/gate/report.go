package gate

import (
	"strings"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/manifest"
)

// reportKeys are the object counts a detailed validation report must carry.
var reportKeys = []string{
	"learning_commons_framework_nodes", "learning_commons_item_nodes",
	"learning_commons_relationships", "learning_commons_unresolved_fallback_relationships",
}

func (s *state) docFinding(d *doc, code finding.Code, field, format string, args ...any) {
	s.add(finding.New(code, format, args...).WithStage(stageOf(d.name)).At(d.name, d.path).In(field))
}

// checkReport checks the detailed validation report on its own (stage 6 of
// docs/validation.md): passed
// is true, errors is empty, validation_checks is a non-empty list of unique
// non-blank strings, object_counts holds non-negative integers including the
// required counts. Other members are allowed.
func (s *state) checkReport() {
	d := s.docs[manifest.ValidationReport]
	if d == nil {
		return
	}
	v := d.v
	if v.Kind != jsonv.Object {
		s.docFinding(d, finding.SchemaWrongType, "", "the validation report must be a JSON object, not %s", v.Kind)
		delete(s.docs, manifest.ValidationReport)
		return
	}
	if p := v.Get("passed"); p == nil || p.Kind != jsonv.Bool || !p.Bool {
		s.docFinding(d, finding.ReportNotPassed, "passed", "the validation report must say passed: true")
	}
	if e := v.Get("errors"); e == nil || e.Kind != jsonv.Array || len(e.Arr) != 0 {
		s.docFinding(d, finding.ReportNotPassed, "errors", "the validation report's errors must be an empty array")
	}
	checks := v.Get("validation_checks")
	if checks == nil || checks.Kind != jsonv.Array || len(checks.Arr) == 0 {
		s.docFinding(d, finding.SchemaInvalid, "validation_checks", "validation_checks must be a non-empty array of check names")
	} else {
		seen := map[string]bool{}
		for _, c := range checks.Arr {
			if c.Kind != jsonv.String || strings.TrimSpace(c.Str) == "" || seen[c.Str] {
				s.docFinding(d, finding.SchemaInvalid, "validation_checks", "validation_checks must hold unique, non-blank strings")
				break
			}
			seen[c.Str] = true
		}
	}
	counts := v.Get("object_counts")
	if counts == nil || counts.Kind != jsonv.Object {
		s.docFinding(d, finding.SchemaMissing, "object_counts", "object_counts must be an object of counts")
		delete(s.docs, manifest.ValidationReport)
		return
	}
	for _, m := range counts.Obj {
		if n, ok := jsonv.IntOf(m.Val); !ok || n < 0 {
			s.docFinding(d, finding.SchemaWrongType, "object_counts."+m.Key, "object_counts.%s must be a non-negative integer", m.Key)
		}
	}
	for _, k := range reportKeys {
		if counts.Get(k) == nil {
			s.docFinding(d, finding.SchemaMissing, "object_counts."+k, "object_counts.%s is required", k)
		}
	}
}

// graphCounts are the counts derived from the decoded graph.
type graphCounts struct {
	frameworks, items, components, relationships int
	hasChild, supports, builds, relates          int
	coded, textItems, multiParent, unresolved    int
}

func countGraph(g *graph) graphCounts {
	var c graphCounts
	for i, n := range g.nodes {
		if g.dup[i] {
			continue
		}
		switch n.Kind {
		case delivery.KindFramework:
			c.frameworks++
		case delivery.KindItem:
			c.items++
			if code, ok := n.Prop(delivery.NStatementCode); ok && code != "" {
				c.coded++
			}
			if d, ok := n.Prop(delivery.NDescription); ok && strings.TrimSpace(d) != "" {
				c.textItems++
			}
			if len(g.parents[i]) > 1 {
				c.multiParent++
			}
		case delivery.KindComponent:
			c.components++
		}
	}
	c.relationships = len(g.rels)
	c.hasChild, c.supports, c.builds, c.relates = len(g.hasChild), len(g.supports), len(g.builds), len(g.relates)
	for _, ri := range g.hasChild {
		if isFallback(g.rels[ri]) {
			c.unresolved++
		}
	}
	return c
}

// checkDetailed compares the detailed standards artifacts with the decoded graph.
func (s *state) checkDetailed(g *graph) {
	c := countGraph(g)
	if d := s.docs[manifest.ValidationReport]; d != nil {
		counts := d.v.Get("object_counts")
		want := map[string]int{
			"learning_commons_framework_nodes":                   c.frameworks,
			"learning_commons_item_nodes":                        c.items,
			"learning_commons_relationships":                     c.hasChild + c.supports,
			"learning_commons_unresolved_fallback_relationships": c.unresolved,
			"learning_commons_learning_component_nodes":          c.components,
			"learning_commons_supports_relationships":            c.supports,
		}
		for _, k := range []string{"learning_commons_framework_nodes", "learning_commons_item_nodes", "learning_commons_relationships",
			"learning_commons_unresolved_fallback_relationships", "learning_commons_learning_component_nodes", "learning_commons_supports_relationships"} {
			got, ok := jsonv.IntOf(counts.Get(k))
			if ok && int(got) != want[k] {
				s.docFinding(d, finding.ReportCountMismatch, "object_counts."+k, "object_counts.%s is %d but the package has %d", k, got, want[k])
			}
		}
	}
	if d := s.docs[manifest.UnresolvedItems]; d != nil {
		edges := d.v.Get("relationship_unresolved_edges")
		switch {
		case d.v.Kind != jsonv.Object || edges == nil || edges.Kind != jsonv.Array:
			s.docFinding(d, finding.UnresolvedReportMismatch, "relationship_unresolved_edges", "the unresolved-items report needs a relationship_unresolved_edges array")
		case len(edges.Arr) != c.unresolved:
			s.docFinding(d, finding.UnresolvedReportMismatch, "relationship_unresolved_edges", "the unresolved-items report lists %d unresolved edges but the package has %d unresolved relationships", len(edges.Arr), c.unresolved)
		}
	}
	if d := s.docs[manifest.StandardsFramework]; d != nil && g.root >= 0 {
		root := g.nodes[g.root]
		for field, want := range map[string]string{"identifier": root.ID, "case_identifier_uuid": root.Str(delivery.NCaseIdentifierUUID)} {
			v := d.v.Get(field)
			if v == nil {
				continue
			}
			if v.Kind != jsonv.String || v.Str != want {
				s.docFinding(d, finding.StandardsFrameworkMismatch, field, "%s must be the root's %q", field, want)
			}
		}
	}
	for _, name := range []string{manifest.EntityProvenance, manifest.LearningComponentProvenance} {
		d := s.docs[name]
		if d == nil {
			continue
		}
		for _, m := range d.v.Obj {
			i, ok := g.index(m.Key)
			kind := delivery.KindUnknown
			if ok {
				kind = g.nodes[i].Kind
			}
			valid := kind == delivery.KindFramework || kind == delivery.KindItem
			if name == manifest.LearningComponentProvenance {
				valid = kind == delivery.KindComponent
			}
			if !valid {
				s.add(finding.New(finding.ProvenanceEntryUnknown, "%s has an entry for %q, which is not a node of its kind", name, m.Key).At(name, d.path).For(m.Key))
			}
		}
	}
}
