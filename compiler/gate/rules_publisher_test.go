package gate_test

import (
	"encoding/json"
	"strings"

	"github.com/kgc-project/kgc/schema/finding"
)

const pubF = "delivery/publisher_relations.jsonl"

// publish declares publisher_relations.jsonl with lines (each a relation)
// and expects the finding on line `at` (1-based) with record id.
func (p *pkg) publish(at int, id string, lines ...map[string]any) {
	var b strings.Builder
	for _, l := range lines {
		j, _ := json.Marshal(l)
		b.Write(j)
		b.WriteByte('\n')
	}
	p.WriteFile(p.t, pubF, []byte(b.String()))
	p.manifest(func(m map[string]any) {
		obj(m, "artifacts")["publisherRelations"] = pubF
		obj(m, "checksums")[pubF] = "sha256:" + strings.Repeat("0", 64)
	})
	p.at(loc{artifact: "publisherRelations", path: pubF, line: at, record: id})
}

// relation is a publisher relation of type typ from node origin to an end.
func relation(id, typ string, origin string, destination map[string]any) map[string]any {
	return map[string]any{"identifier": id, "associationType": typ, "origin": map[string]any{"nodeId": origin}, "destination": destination}
}

func publisherCases() []ruleCase {
	outside := map[string]any{"uri": "urn:x:other:1", "identifier": "other-1", "title": "Another framework's item"}
	return []ruleCase{
		{name: "publisher relation of an unknown type", pkg: english, want: []finding.Code{finding.PublisherRelationInvalid},
			mutate: func(p *pkg) {
				leaf := p.leaves()[0]
				p.publish(2, "pr-2", relation("pr-1", "exactMatchOf", leaf, outside), relation("pr-2", "isChildOf", leaf, outside))
			}},
		{name: "publisher relation to no node", pkg: english, want: []finding.Code{finding.PublisherRelationDangling},
			mutate: func(p *pkg) {
				p.publish(1, "pr-1", relation("pr-1", "precedes", p.leaves()[0], map[string]any{"nodeId": "no-such-node"}))
			}},
		{name: "publisher relation repeated", pkg: english, want: []finding.Code{finding.PublisherRelationDuplicate},
			mutate: func(p *pkg) {
				leaves := p.leaves()
				p.publish(2, "pr-2", relation("pr-1", "precedes", leaves[0], map[string]any{"nodeId": leaves[1]}),
					relation("pr-2", "precedes", leaves[0], map[string]any{"nodeId": leaves[1]}))
			}},
	}
}
