package gate

import (
	"strings"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/schema/finding"
)

// checkComponentFields checks one learning component's own fields: a
// description, and none of the standards-only fields.
func (s *state) checkComponentFields(n *delivery.Node) {
	if d, ok := n.Prop(delivery.NDescription); !ok || strings.TrimSpace(d) == "" {
		s.nodeFinding(finding.ComponentFieldInvalid, n, "learning component %s needs a description", n.ID)
	}
	for _, p := range []delivery.NodeProp{delivery.NCaseIdentifierUUID, delivery.NCaseIdentifierURI,
		delivery.NGradeLevel, delivery.NStatementCode, delivery.NStatementType, delivery.NNormalizedStatementType} {
		if n.Has(p) {
			s.nodeFinding(finding.ComponentFieldInvalid, n, "learning component %s must not carry %s (a standards-only field)", n.ID, delivery.NodePropNames[p])
		}
	}
}

// checkComponents checks that every learning component supports a standard.
func (s *state) checkComponents(g *graph) {
	supported := make([]bool, len(g.nodes))
	for _, ri := range g.supports {
		supported[g.src[ri]] = true
	}
	for i, n := range g.nodes {
		if n.Kind == delivery.KindComponent && !supported[i] && !g.dup[i] {
			s.nodeFinding(finding.ComponentUnsupported, n, "learning component %s supports no standard (every component needs at least one supports relationship)", n.ID)
		}
	}
}
