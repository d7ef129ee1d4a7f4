package gate_test

import (
	"github.com/kgc-project/kgc/schema/finding"
)

const item = "StandardsFrameworkItem"

// leaves returns the indicators (leaves of the hierarchy) whose parent edge is
// an ordinary hasChild edge, in file order.
func (p *pkg) leaves() []string {
	plain := map[string]bool{}
	p.each(relsF, func(_ int, rec map[string]any) {
		if plainChild(rec) {
			plain[rec["target_identifier"].(string)] = true
		}
	})
	var out []string
	for _, id := range p.nodeIDs("Indicator") {
		if plain[id] {
			out = append(out, id)
		}
	}
	return out
}

// editLeaf edits the first leaf's node record and expects the finding on it.
func (p *pkg) editLeaf(edit func(rec map[string]any)) {
	p.atNode(p.node(withID(p.leaves()[0]), edit))
}

// editLeafEdge edits the first leaf's parent edge and expects the finding on it.
func (p *pkg) editLeafEdge(edit func(rec map[string]any)) {
	p.atRel(p.rel(into(p.leaves()[0]), edit))
}

// addEdge appends a relationship after the AS/LC records, counts it, and
// expects the finding on it.
func (p *pkg) addEdge(rec map[string]any) {
	after := p.lastMatch(relsF, func(r map[string]any) bool { return r["label"] == "hasChild" || r["label"] == "supports" })
	p.atRel(rec["identifier"].(string), p.insertAfter(relsF, after, rec))
	p.bump("relationships", 1)
}

// addLeafEdge adds a copy of the first leaf's parent edge, under a new ID,
// changed by edit.
func (p *pkg) addLeafEdge(edit func(rec map[string]any)) {
	rec, _ := p.find(relsF, into(p.leaves()[0]))
	rec["identifier"], props(rec)["identifier"] = "extra-edge", "extra-edge"
	edit(rec)
	p.addEdge(rec)
}

func setProp(key string, v any) func(rec map[string]any) {
	return func(rec map[string]any) { props(rec)[key] = v }
}

func graphCases() []ruleCase {
	return []ruleCase{
		{name: "padded node identifier", pkg: english, want: []finding.Code{finding.NodeIDInvalid},
			mutate: func(p *pkg) {
				old, id := p.leaves()[0], " padded-id"
				p.atNode(id, 0)
				p.records(nodesF, func(l int, rec map[string]any) []map[string]any {
					if rec["identifier"] == old {
						rec["identifier"], props(rec)["identifier"] = id, id
						p.at(loc{line: l})
					}
					return []map[string]any{rec}
				})
				p.records(relsF, func(_ int, rec map[string]any) []map[string]any {
					if rec["target_identifier"] == old {
						rec["target_identifier"] = id
					}
					return []map[string]any{rec}
				})
				p.doc(entityProvF, func(d map[string]any) { d[id] = d[old]; delete(d, old) })
			}},
		// The copy also repeats the CASE UUID (a warning).
		{name: "duplicate node", pkg: english, want: []finding.Code{finding.NodeIDDuplicate, finding.NodeCaseUUIDDuplicate},
			mutate: func(p *pkg) {
				rec, _ := p.find(nodesF, withID(p.leaves()[0]))
				p.atNode(rec["identifier"].(string), p.insertAfter(nodesF, withID(rec["identifier"].(string)), rec))
			}},
		{name: "node properties.identifier differs", pkg: english, want: []finding.Code{finding.NodeIdentifierMismatch},
			mutate: func(p *pkg) { p.editLeaf(setProp("identifier", "someone-else")) }},
		// A node with two kinds drops out of the graph: Provisional, and the
		// report and provenance map follow.
		{name: "node with two kinds", pkg: english, want: []finding.Code{finding.NodeLabelInvalid},
			mutate: func(p *pkg) {
				p.opts.Provisional = true
				leaf := p.leaves()[0]
				p.editLeaf(func(rec map[string]any) { rec["labels"] = []any{item, "LearningComponent"} })
				p.bumpObjectCount(reportF, "learning_commons_item_nodes", -1)
				p.bumpObjectCount(reportF, "learning_commons_relationships", -1)
				p.doc(entityProvF, func(d map[string]any) { delete(d, leaf) })
			}},
		{name: "second framework node", pkg: english, want: []finding.Code{finding.FrameworkNodeCount}, at: loc{artifact: "nodes", path: nodesF},
			mutate: func(p *pkg) {
				p.opts.Provisional = true
				rec, _ := p.find(nodesF, labelled("StandardsFramework"))
				id := "11111111-2222-5333-8444-555555555555"
				rec["identifier"] = id
				pr := props(rec)
				pr["identifier"], pr["caseIdentifierUUID"], pr["caseIdentifierURI"] = id, id, "urn:uuid:"+id
				p.insertAfter(nodesF, labelled("StandardsFramework"), rec)
				p.bumpObjectCount(reportF, "learning_commons_framework_nodes", 1)
			}},
		{name: "item without CASE URI", pkg: english, want: []finding.Code{finding.NodeCaseIdentityInvalid},
			mutate: func(p *pkg) { p.editLeaf(func(rec map[string]any) { delete(props(rec), "caseIdentifierURI") }) }},
		// The parent edge names the new UUID; a shared UUID is only a warning.
		{name: "shared CASE UUID", pkg: english, want: []finding.Code{finding.NodeCaseUUIDDuplicate},
			mutate: func(p *pkg) {
				l := p.leaves()
				p.atNode(p.node(withID(l[1]), setProp("caseIdentifierUUID", l[0])))
				p.rel(into(l[1]), setProp("targetEntityValue", l[0]))
			}},
		{name: "unknown statement type", pkg: english, want: []finding.Code{finding.NodeStatementTypeInvalid},
			mutate: func(p *pkg) { p.editLeaf(setProp("statementType", "Nonsense")) }},
		{name: "normalized type differs", pkg: english, want: []finding.Code{finding.NodeNormalizedTypeMismatch},
			mutate: func(p *pkg) { p.editLeaf(setProp("normalizedStatementType", "Standard Grouping")) }},
		{name: "grade level not in profile", pkg: english, want: []finding.Code{finding.NodeGradeLevelInvalid},
			mutate: func(p *pkg) { p.editLeaf(setProp("gradeLevel", `["9"]`)) }},
		{name: "statement code without code search", pkg: english, want: []finding.Code{finding.StatementCodeNotAllowed},
			mutate: func(p *pkg) {
				p.editLeaf(setProp("statementCode", "E1.1.1.1"))
				p.bump("additionalCounts.codedItems", 1)
			}},
		{name: "statement code on a type without code type", pkg: maths, want: []finding.Code{finding.StatementCodeUnmapped},
			mutate: func(p *pkg) {
				p.atNode(p.node(ofType("Strand"), setProp("statementCode", "M1.1")))
				p.bump("additionalCounts.codedItems", 1)
			}},
		{name: "statement code off pattern", pkg: maths, want: []finding.Code{finding.StatementCodePattern},
			mutate: func(p *pkg) { p.atNode(p.node(ofType("Indicator"), setProp("statementCode", "X1"))) }},

		{name: "padded relationship identifier", pkg: english, want: []finding.Code{finding.RelationshipIDInvalid},
			mutate: func(p *pkg) {
				p.editLeafEdge(func(rec map[string]any) { rec["identifier"], props(rec)["identifier"] = "bad id ", "bad id " })
				p.at(loc{record: "bad id "})
			}},
		{name: "duplicate relationship", pkg: english, want: []finding.Code{finding.RelationshipIDDuplicate},
			mutate: func(p *pkg) {
				rec, _ := p.find(relsF, into(p.leaves()[0]))
				p.atRel(rec["identifier"].(string), p.insertAfter(relsF, withID(rec["identifier"].(string)), rec))
				p.bump("relationships", 1)
			}},
		{name: "relationship properties.identifier differs", pkg: english, want: []finding.Code{finding.RelationshipIdentifier},
			mutate: func(p *pkg) { p.editLeafEdge(setProp("identifier", "someone-else")) }},
		{name: "relationshipType differs from label", pkg: english, want: []finding.Code{finding.RelationshipTypeInvalid},
			mutate: func(p *pkg) { p.editLeafEdge(setProp("relationshipType", "supports")) }},
		{name: "dangling target", pkg: english, want: []finding.Code{finding.RelationshipEndpointMissing},
			mutate: func(p *pkg) { p.addLeafEdge(func(rec map[string]any) { rec["target_identifier"] = "no-such-node" }) }},
		{name: "target labels differ", pkg: english, want: []finding.Code{finding.RelationshipEndpointLabels},
			mutate: func(p *pkg) {
				p.addLeafEdge(func(rec map[string]any) { rec["target_labels"] = []any{"StandardsFramework"} })
			}},
		{name: "target entity value differs", pkg: english, want: []finding.Code{finding.RelationshipEntityMismatch},
			mutate: func(p *pkg) { p.addLeafEdge(setProp("targetEntityValue", "someone-else")) }},
		{name: "hasChild into the root", pkg: english, want: []finding.Code{finding.RelationshipEndpointKind},
			mutate: func(p *pkg) {
				rec, _ := p.find(relsF, plainChild)
				root := p.nodeIDs("StandardsFramework")[0]
				p.addEdge(edgeLike(rec, "extra-edge", p.leaves()[0], item, root, "StandardsFramework"))
			}},
		{name: "self edge", pkg: english, want: []finding.Code{finding.RelationshipSelfEdge},
			mutate: func(p *pkg) {
				rec, _ := p.find(relsF, plainChild)
				leaf := p.leaves()[0]
				p.addEdge(edgeLike(rec, "extra-edge", leaf, item, leaf, item))
			}},
		{name: "duplicate edge", pkg: english, want: []finding.Code{finding.RelationshipDuplicateEdge},
			mutate: func(p *pkg) { p.addLeafEdge(func(map[string]any) {}) }},
		{name: "fallback status below the root", pkg: english, want: []finding.Code{finding.RelationshipResolution},
			mutate: func(p *pkg) { p.addLeafEdge(setProp("resolutionStatus", "unresolvedRootFallback")) }},
		{name: "supportConfidence on hasChild", pkg: english, want: []finding.Code{finding.RelationshipPropertyMisplaced},
			mutate: func(p *pkg) { p.editLeafEdge(setProp("supportConfidence", "0.5")) }},

		// Learning components (maths). A new component supporting nothing is
		// counted in the manifest.
		{name: "component supports nothing", pkg: maths, want: []finding.Code{finding.ComponentUnsupported},
			mutate: func(p *pkg) {
				rec, _ := p.find(nodesF, labelled("LearningComponent"))
				rec["identifier"], props(rec)["identifier"] = "lc-extra", "lc-extra"
				p.atNode("lc-extra", p.insertAfter(nodesF, p.lastMatch(nodesF, labelled("LearningComponent")), rec))
				p.bump("learningComponentNodes", 1)
				p.bumpObjectCount(reportF, "learning_commons_learning_component_nodes", 1)
			}},
		{name: "component in hasChild", pkg: maths, want: []finding.Code{finding.ComponentInHierarchy},
			mutate: func(p *pkg) {
				rec, _ := p.find(relsF, plainChild)
				std := p.nodeIDs("Content Standard")[0]
				lc := p.nodeIDs("LearningComponent")[0]
				p.addEdge(edgeLike(rec, "extra-edge", std, item, lc, "LearningComponent"))
			}},
		{name: "component with a statement type", pkg: maths, want: []finding.Code{finding.ComponentFieldInvalid},
			mutate: func(p *pkg) { p.atNode(p.node(labelled("LearningComponent"), setProp("statementType", "Indicator"))) }},
	}
}
