package gate

import (
	"strings"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/manifest"
)

// pubFinding reports a finding about one line of publisher_relations.jsonl.
func (s *state) pubFinding(code finding.Code, path string, line int, id, format string, args ...any) {
	f := finding.New(code, format, args...).WithStage(finding.StageGraph).At(manifest.PublisherRelations, path).OnLine(line)
	if id != "" {
		f = f.For(id)
	}
	s.add(f)
}

// decodePublisherRelation decodes one line of publisher_relations.jsonl
// (read by readJSONL) and keeps the record, or reports what is wrong with it.
func (s *state) decodePublisherRelation(path string, v *jsonv.Value, line int) {
	r, bad := delivery.DecodePublisherRelation(v, line)
	if len(bad) > 0 {
		s.pubFinding(finding.PublisherRelationInvalid, path, line, r.ID, "%s", strings.Join(bad, "; "))
		s.usable[manifest.PublisherRelations] = false
		return
	}
	s.res.PublisherRelations = append(s.res.PublisherRelations, r)
}

// checkPublisherRelations checks the relations against the graph: every
// nodeId names a standards item or the framework node, no identifier and no
// (type, origin, destination) twice, no relation of a node to itself.
func (s *state) checkPublisherRelations(g *graph) {
	if len(s.res.PublisherRelations) == 0 {
		return
	}
	path := s.res.Manifest.Path(manifest.PublisherRelations)
	ids := map[string]int{}
	pairs := map[delivery.PublisherKey]int{}
	ok := true
	for _, r := range s.res.PublisherRelations {
		for _, e := range []struct {
			what string
			end  delivery.RelationEnd
		}{{"origin", r.Origin}, {"destination", r.Destination}} {
			if e.end.External() {
				continue
			}
			i, found := g.index(e.end.NodeID)
			if !found || g.nodes[i].Kind == delivery.KindComponent {
				s.pubFinding(finding.PublisherRelationDangling, path, r.Line, r.ID, "%s nodeId %q is not a standards item or the framework node of the package", e.what, e.end.NodeID)
				ok = false
			}
		}
		if !r.Origin.External() && r.Origin.NodeID == r.Destination.NodeID {
			s.pubFinding(finding.PublisherRelationInvalid, path, r.Line, r.ID, "a %s relation of node %q to itself", r.Type, r.Origin.NodeID)
			ok = false
		}
		if first, dup := ids[r.ID]; dup {
			s.pubFinding(finding.PublisherRelationDuplicate, path, r.Line, r.ID, "identifier %q is also the relation on line %d", r.ID, first)
			ok = false
		} else {
			ids[r.ID] = r.Line
		}
		k := r.Key()
		if first, dup := pairs[k]; dup {
			s.pubFinding(finding.PublisherRelationDuplicate, path, r.Line, r.ID, "the %s relation of line %d joins the same ends", r.Type, first)
			ok = false
		} else {
			pairs[k] = r.Line
		}
	}
	if !ok {
		s.usable[manifest.PublisherRelations] = false
	}
}
