package gate

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/manifest"
)

// entityKey returns the endpoint key a node is referenced by: standards by CASE
// UUID, learning components by identifier.
func entityKey(n *delivery.Node) (key, value string) {
	if n.Kind == delivery.KindComponent {
		return "identifier", n.ID
	}
	return "caseIdentifierUUID", n.Str(delivery.NCaseIdentifierUUID)
}

// sameLabels reports whether two label lists are equal as their labels
// joined by NUL. Equal lists are (the usual case, without joining them:
// two allocations per endpoint of a million relationships); only lists that
// differ are joined.
func sameLabels(a, b []string) bool {
	return slices.Equal(a, b) || strings.Join(a, "\x00") == strings.Join(b, "\x00")
}

func (s *state) checkRelationships(g *graph) {
	m := s.res.Manifest
	g.relOK = make([]bool, len(g.rels))
	g.parents = make([][]int, len(g.nodes))
	g.src, g.tgt = make([]int32, len(g.rels)), make([]int32, len(g.rels))
	seenID := make(map[string]int, len(g.rels))
	seenEdge := make(map[uint64]int, len(g.rels))
	for i, r := range g.rels {
		src, okS := g.index(r.Source)
		tgt, okT := g.index(r.Target)
		g.src[i], g.tgt[i] = -1, -1
		if okS {
			g.src[i] = int32(src)
		}
		if okT {
			g.tgt[i] = int32(tgt)
		}
		if why := ids.CheckOpaque(r.ID, ids.MaxNodeID); why != "" {
			s.relFinding(finding.RelationshipIDInvalid, r, "relationship identifier %q: %s", r.ID, why)
		}
		if prev, dup := seenID[r.ID]; dup {
			s.relFinding(finding.RelationshipIDDuplicate, r, "relationship %s is also defined on line %d", r.ID, g.rels[prev].Line)
			continue
		}
		seenID[r.ID] = i
		if v, ok := r.Prop(delivery.RIdentifier); !ok || v != r.ID {
			s.relFinding(finding.RelationshipIdentifier, r, "properties.identifier %q must equal the envelope identifier %q", v, r.ID)
		}
		switch r.Label {
		case delivery.HasChild:
		case delivery.Supports:
			if !m.Includes(manifest.GraphLearningComponents) || m.DeliverySchemaVersion == "1.0" {
				s.relFinding(finding.DeliverySchemaRecord, r, "supports relationship needs learning_components in includedGraphTypes and delivery schema 1.1 or later")
				continue
			}
		case delivery.BuildsTowards, delivery.RelatesTo:
			if !m.Includes(manifest.GraphLearningProgressions) || m.DeliverySchemaVersion != "1.2" {
				s.relFinding(finding.DeliverySchemaRecord, r, "%s relationship needs learning_progressions in includedGraphTypes and delivery schema 1.2", r.Label)
				continue
			}
		default:
			s.relFinding(finding.RelationshipTypeInvalid, r, "label %q is not a relationship type (hasChild, supports, buildsTowards, relatesTo)", r.Label)
			continue
		}
		if t, _ := r.Prop(delivery.RRelationshipType); t != r.Label {
			s.relFinding(finding.RelationshipTypeInvalid, r, "properties.relationshipType %q must equal the label %q", t, r.Label)
		}
		if r.Has(delivery.RSupportConfidence) && r.Label != delivery.Supports {
			s.relFinding(finding.RelationshipPropertyMisplaced, r, "supportConfidence is defined only on supports relationships")
		}
		if seq, ok := r.Prop(delivery.RSequenceNumber); ok {
			if r.Label != delivery.HasChild {
				s.relFinding(finding.RelationshipPropertyMisplaced, r, "sequenceNumber is defined only on hasChild relationships")
			} else if _, err := strconv.ParseInt(seq, 10, 64); err != nil {
				s.relFinding(finding.DeliveryPropertyDecoding, r, "sequenceNumber must be an integer written as a string (\"3\"), not %q", seq)
			}
		}
		if !okS {
			s.relFinding(finding.RelationshipEndpointMissing, r, "source %q is not a node", r.Source)
		}
		if !okT {
			s.relFinding(finding.RelationshipEndpointMissing, r, "target %q is not a node", r.Target)
		}
		if !okS || !okT {
			continue
		}
		sn, tn := g.nodes[src], g.nodes[tgt]
		if sn.Kind == delivery.KindUnknown || tn.Kind == delivery.KindUnknown {
			continue // the node's label problem is already reported
		}
		if !s.checkEndpoints(r, sn, tn) {
			continue
		}
		if src == tgt {
			s.relFinding(finding.RelationshipSelfEdge, r, "relationship connects %s to itself", r.Source)
			continue
		}
		if !s.checkKinds(g, r, sn, tn) {
			continue
		}
		if rs, ok := r.Prop(delivery.RResolutionStatus); ok {
			switch {
			case rs != delivery.UnresolvedRootFallback:
				s.relFinding(finding.RelationshipResolution, r, "resolutionStatus %q is unknown (only %s exists)", rs, delivery.UnresolvedRootFallback)
				continue
			case r.Label != delivery.HasChild || sn.Kind != delivery.KindFramework:
				s.relFinding(finding.RelationshipResolution, r, "resolutionStatus %s is only valid on a hasChild edge from the framework root", rs)
				continue
			}
		}
		// The edge's type and its endpoint nodes (each ID names one first
		// node, so equal keys are equal type, source and target IDs).
		key := edgeOf(r.Label, src, tgt)
		if prev, dup := seenEdge[key]; dup {
			s.relFinding(finding.RelationshipDuplicateEdge, r, "relationship repeats %s %s → %s (also %s)", r.Label, r.Source, r.Target, g.rels[prev].ID)
			continue
		}
		seenEdge[key] = i
		g.relOK[i] = true
		switch r.Label {
		case delivery.HasChild:
			g.hasChild = append(g.hasChild, i)
			g.parents[tgt] = append(g.parents[tgt], i)
		case delivery.Supports:
			g.supports = append(g.supports, i)
		case delivery.BuildsTowards:
			g.builds = append(g.builds, i)
		case delivery.RelatesTo:
			g.relates = append(g.relates, i)
		}
	}
}

// edgeOf packs a relationship type (one of the four) and two node
// positions into one map key.
func edgeOf(label string, src, tgt int) uint64 {
	var t uint64
	switch label {
	case delivery.Supports:
		t = 1
	case delivery.BuildsTowards:
		t = 2
	case delivery.RelatesTo:
		t = 3
	}
	return t<<62 | uint64(src)<<31 | uint64(tgt)
}

// checkEndpoints checks the endpoint labels and entity key/value agreement.
func (s *state) checkEndpoints(r *delivery.Relationship, sn, tn *delivery.Node) bool {
	ok := true
	if !sameLabels(r.SourceLabels, sn.Labels) {
		s.relFinding(finding.RelationshipEndpointLabels, r, "source_labels %v differ from node %s's labels %v", r.SourceLabels, sn.ID, sn.Labels)
		ok = false
	}
	if !sameLabels(r.TargetLabels, tn.Labels) {
		s.relFinding(finding.RelationshipEndpointLabels, r, "target_labels %v differ from node %s's labels %v", r.TargetLabels, tn.ID, tn.Labels)
		ok = false
	}
	for _, end := range []struct {
		side             string
		n                *delivery.Node
		entity, key, val delivery.RelProp
	}{{"source", sn, delivery.RSourceEntity, delivery.RSourceEntityKey, delivery.RSourceEntityValue},
		{"target", tn, delivery.RTargetEntity, delivery.RTargetEntityKey, delivery.RTargetEntityValue}} {
		wantKey, wantVal := entityKey(end.n)
		if e := r.Str(end.entity); e != end.n.Kind.String() {
			s.relFinding(finding.RelationshipEntityMismatch, r, "%sEntity %q must be %q", end.side, e, end.n.Kind.String())
			ok = false
		}
		if k := r.Str(end.key); k != wantKey {
			s.relFinding(finding.RelationshipEntityMismatch, r, "%sEntityKey %q must be %q for a %s", end.side, k, wantKey, end.n.Kind.String())
			ok = false
		} else if v := r.Str(end.val); v != wantVal {
			s.relFinding(finding.RelationshipEntityMismatch, r, "%sEntityValue %q must be %s's %s %q", end.side, v, end.n.ID, wantKey, wantVal)
			ok = false
		}
	}
	return ok
}

// checkKinds checks that a relationship connects the node kinds its type allows.
func (s *state) checkKinds(g *graph, r *delivery.Relationship, sn, tn *delivery.Node) bool {
	switch r.Label {
	case delivery.HasChild:
		if sn.Kind == delivery.KindComponent || tn.Kind == delivery.KindComponent {
			s.relFinding(finding.ComponentInHierarchy, r, "learning components never appear in hasChild (%s → %s)", sn.Kind, tn.Kind)
			return false
		}
		if tn.Kind != delivery.KindItem {
			s.relFinding(finding.RelationshipEndpointKind, r, "hasChild must point at a standards item, not %s", tn.Kind)
			return false
		}
	case delivery.Supports:
		if sn.Kind != delivery.KindComponent || tn.Kind != delivery.KindItem {
			s.relFinding(finding.RelationshipEndpointKind, r, "supports must go from a learning component to a standards item, not %s → %s", sn.Kind, tn.Kind)
			return false
		}
	case delivery.BuildsTowards, delivery.RelatesTo:
		if sn.Kind != delivery.KindItem || tn.Kind != delivery.KindItem {
			s.relFinding(finding.ProgressionEndpointInvalid, r, "%s must connect two standards items, not %s → %s", r.Label, sn.Kind, tn.Kind)
			return false
		}
	}
	return true
}
