package gate_test

import (
	"encoding/json"
	"sort"
	"strconv"

	"github.com/kgc-project/kgc/schema/finding"
)

// allowParent edits the allowedParents entry of parent in statement type st
// (adding it when missing).
func (p *pkg) allowParent(st, parent string, minCount, maxCount int) {
	p.statementType(st, func(d map[string]any) {
		aps, _ := d["allowedParents"].([]any)
		entry := map[string]any{"parentStatementType": parent}
		for _, ap := range aps {
			if ap.(map[string]any)["parentStatementType"] == parent {
				entry = ap.(map[string]any)
			}
		}
		if _, ok := entry["minCount"]; !ok {
			aps = append(aps, entry)
		}
		entry["minCount"], entry["maxCount"] = json.Number(strconv.Itoa(minCount)), json.Number(strconv.Itoa(maxCount))
		d["allowedParents"] = aps
	})
}

// secondParent gives child a second hasChild parent, src, and counts the edge
// and the multi-parent item.
func (p *pkg) secondParent(leaf, src string) {
	rec, _ := p.find(relsF, into(leaf))
	p.addEdge(edgeLike(rec, "extra-edge", src, item, leaf, item))
	p.bump("additionalCounts.multiParentTargets", 1)
	p.manifest(func(m map[string]any) { obj(m, "capabilities")["multiParent"] = true })
	p.bumpObjectCount(reportF, "learning_commons_relationships", 1)
}

func hierarchyCases() []ruleCase {
	return []ruleCase{
		// leaf → its strand closes strand → standard → leaf → strand. The
		// profile allows the strand's second parent, an indicator.
		{name: "hierarchy cycle", pkg: english, want: []finding.Code{finding.HierarchyCycle}, at: loc{artifact: "relationships", path: relsF},
			mutate: func(p *pkg) {
				leaf := p.leaves()[0]
				up := p.parents()
				std, strand := up[leaf], up[up[leaf]]
				p.profile(func(d map[string]any) { obj(d, "hierarchy")["allowMultiParent"] = true })
				p.allowParent("Strand", "Indicator", 0, 1)
				p.secondParent(strand, leaf)
				cycle := []string{leaf, std, strand}
				sort.Strings(cycle)
				p.want = loc{artifact: "relationships", path: relsF, record: cycle[0]}
			}},
		// The orphan's type may have no parent, so only reachability fails.
		{name: "orphan item", pkg: english, want: []finding.Code{finding.HierarchyUnreachable},
			mutate: func(p *pkg) {
				leaf := p.leaves()[0]
				p.allowParent("Indicator", "Content Standard", 0, 1)
				p.records(relsF, func(_ int, rec map[string]any) []map[string]any {
					if rec["target_identifier"] == leaf {
						return nil
					}
					return []map[string]any{rec}
				})
				p.bump("relationships", -1)
				p.bumpObjectCount(reportF, "learning_commons_relationships", -1)
				_, line := p.find(nodesF, withID(leaf))
				p.atNode(leaf, line)
			}},
		// The second grade hangs below a strand of the first.
		{name: "root type below an item", pkg: english, want: []finding.Code{finding.HierarchyRootChild},
			mutate: func(p *pkg) {
				grades := p.nodeIDs("Grade")
				var strand string
				for child, parent := range p.parents() {
					if parent == grades[0] && (strand == "" || child < strand) {
						strand = child
					}
				}
				p.atRel(p.rel(into(grades[1]), func(rec map[string]any) {
					e := edgeLike(rec, rec["identifier"].(string), strand, item, grades[1], item)
					for k, v := range e {
						rec[k] = v
					}
				}))
			}},
		// The leaf hangs below a strand; its type needs no standard parent.
		{name: "parent of the wrong type", pkg: english, want: []finding.Code{finding.HierarchyParentType},
			mutate: func(p *pkg) {
				leaf := p.leaves()[0]
				strand := p.nodeIDs("Strand")[0]
				p.allowParent("Indicator", "Content Standard", 0, 1)
				p.atRel(p.rel(into(leaf), func(rec map[string]any) {
					e := edgeLike(rec, rec["identifier"].(string), strand, item, leaf, item)
					for k, v := range e {
						rec[k] = v
					}
				}))
			}},
		// Multi-parent items are allowed, but the leaf's second standard
		// parent is one too many.
		{name: "too many parents of a type", pkg: english, want: []finding.Code{finding.HierarchyParentCardinality},
			mutate: func(p *pkg) {
				leaf := p.leaves()[0]
				p.profile(func(d map[string]any) { obj(d, "hierarchy")["allowMultiParent"] = true })
				var other string
				for _, std := range p.nodeIDs("Content Standard") {
					if std != p.parents()[leaf] {
						other = std
						break
					}
				}
				p.secondParent(leaf, other)
				_, line := p.find(nodesF, withID(leaf))
				p.want = loc{}
				p.atNode(leaf, line)
			}},
		// The profile allows a strand parent besides the standard, but not
		// two parents.
		{name: "multi-parent forbidden", pkg: english, want: []finding.Code{finding.HierarchyMultiParent},
			mutate: func(p *pkg) {
				leaf := p.leaves()[0]
				p.allowParent("Indicator", "Strand", 0, 1)
				p.secondParent(leaf, p.nodeIDs("Strand")[0])
				_, line := p.find(nodesF, withID(leaf))
				p.want = loc{}
				p.atNode(leaf, line)
			}},

		// Detailed standards artifacts compared with the graph (stage report).
		{name: "standards framework record differs", pkg: english, want: []finding.Code{finding.StandardsFrameworkMismatch},
			at:     loc{artifact: "standardsFramework", path: standardsF, field: "identifier"},
			mutate: func(p *pkg) { p.doc(standardsF, func(d map[string]any) { d["identifier"] = "someone-else" }) }},
		{name: "unresolved report empty", pkg: english, want: []finding.Code{finding.UnresolvedReportMismatch},
			at: loc{artifact: "unresolvedItems", path: unresolvedF, field: "relationship_unresolved_edges"},
			mutate: func(p *pkg) {
				p.doc(unresolvedF, func(d map[string]any) { d["relationship_unresolved_edges"] = []any{} })
			}},
		{name: "provenance for no node", pkg: english, want: []finding.Code{finding.ProvenanceEntryUnknown},
			at:     loc{artifact: "entityProvenance", path: entityProvF, record: "ghost"},
			mutate: func(p *pkg) { p.doc(entityProvF, func(d map[string]any) { d["ghost"] = map[string]any{} }) }},
	}
}
