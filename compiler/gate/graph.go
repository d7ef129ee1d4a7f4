package gate

import (
	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/manifest"
)

// graph indexes the decoded records for the semantic checks.
type graph struct {
	nodes []*delivery.Node
	rels  []*delivery.Relationship
	// index returns the position of the first node with an ID (the
	// decoder's table of node IDs: no map of a million IDs built again).
	index func(id string) (int, bool)
	// dup marks the nodes whose ID an earlier node has.
	dup  []bool
	root int
	// src and tgt are each relationship's endpoint nodes (-1: none).
	src, tgt []int32
	// relOK marks relationships whose endpoints exist with the kinds their type
	// allows; only those take part in topology checks.
	relOK []bool
	// parents lists, per node, the indices of valid hasChild edges into it.
	parents [][]int
	// supports, builds, relates list valid edges of each type, in record order.
	hasChild, supports, builds, relates []int
}

func (s *state) nodeFinding(code finding.Code, n *delivery.Node, format string, args ...any) {
	s.add(finding.New(code, format, args...).At(manifest.Nodes, s.res.Manifest.Path(manifest.Nodes)).OnLine(n.Line).For(n.ID))
}

func (s *state) relFinding(code finding.Code, r *delivery.Relationship, format string, args ...any) {
	s.add(finding.New(code, format, args...).At(manifest.Relationships, s.res.Manifest.Path(manifest.Relationships)).OnLine(r.Line).For(r.ID))
}

// checkGraph runs the node and relationship checks. Node checks run whenever the
// nodes artifact is usable; the rest of the graph stage (and everything after)
// needs the relationships too, and returns nil without them.
func (s *state) checkGraph() *graph {
	if !s.need(manifest.Nodes) {
		return nil
	}
	g := &graph{nodes: s.res.Nodes, index: s.res.NodeIndex, dup: make([]bool, len(s.res.Nodes)), root: -1}
	for _, n := range g.nodes {
		n.Kind = kindOf(n.Labels)
	}
	if !s.need(manifest.Relationships) {
		s.checkNodes(g)
		return nil
	}
	g.rels = s.res.Relationships
	// The relationship checks need only the nodes' kinds: they run beside
	// the node checks.
	s.alongside(func(s *state) { s.checkNodes(g) }, func(s *state) { s.checkRelationships(g) })
	s.res.Sources, s.res.Targets = g.src, g.tgt
	return g
}

// kindOf returns the kind of a node with these labels: the one of the three
// node labels it carries, or KindUnknown unless it carries exactly one.
func kindOf(labels []string) delivery.NodeKind {
	kind, kinds := delivery.KindUnknown, 0
	for _, l := range labels {
		switch l {
		case delivery.LabelFramework:
			kind = delivery.KindFramework
			kinds++
		case delivery.LabelItem:
			kind = delivery.KindItem
			kinds++
		case delivery.LabelComponent:
			kind = delivery.KindComponent
			kinds++
		}
	}
	if kinds != 1 {
		return delivery.KindUnknown
	}
	return kind
}

func (s *state) checkNodes(g *graph) {
	m := s.res.Manifest
	p := s.res.Profile
	roots := 0
	caseOwner := make(map[string]*delivery.Node, len(g.nodes))
	var grades []string // the profile's normalized grades, computed once
	if p != nil {
		grades = p.NormalizedGrades()
	}
	for i, n := range g.nodes {
		if why := ids.CheckOpaque(n.ID, ids.MaxNodeID); why != "" {
			s.nodeFinding(finding.NodeIDInvalid, n, "node identifier %q: %s", n.ID, why)
		}
		if first, _ := g.index(n.ID); first != i {
			g.dup[i] = true
			s.nodeFinding(finding.NodeIDDuplicate, n, "node %s is also defined on line %d", n.ID, g.nodes[first].Line)
		}
		if v, ok := n.Prop(delivery.NIdentifier); !ok || v != n.ID {
			s.nodeFinding(finding.NodeIdentifierMismatch, n, "properties.identifier %q must equal the envelope identifier %q", v, n.ID)
		}
		if n.Kind == delivery.KindUnknown { // set by kindOf
			s.nodeFinding(finding.NodeLabelInvalid, n, "labels %v must include exactly one of StandardsFramework, StandardsFrameworkItem, LearningComponent", n.Labels)
			continue
		}
		switch n.Kind {
		case delivery.KindFramework:
			roots++
			if g.root < 0 {
				g.root = i
			}
			s.checkCaseIdentity(n, caseOwner)
		case delivery.KindItem:
			s.checkCaseIdentity(n, caseOwner)
			if p != nil {
				s.checkItem(n, grades)
			}
		case delivery.KindComponent:
			if !m.Includes(manifest.GraphLearningComponents) || m.DeliverySchemaVersion == "1.0" {
				s.add(finding.New(finding.DeliverySchemaRecord, "learning component %s needs learning_components in includedGraphTypes and delivery schema 1.1 or later", n.ID).
					At(manifest.Nodes, m.Path(manifest.Nodes)).OnLine(n.Line).For(n.ID))
			}
			s.checkComponentFields(n)
		}
	}
	if roots != 1 {
		s.add(finding.New(finding.FrameworkNodeCount, "the package has %d StandardsFramework nodes; it must have exactly one", roots).At(manifest.Nodes, m.Path(manifest.Nodes)))
	}
}

func (s *state) checkCaseIdentity(n *delivery.Node, owner map[string]*delivery.Node) {
	uuid, hasUUID := n.Prop(delivery.NCaseIdentifierUUID)
	uri, hasURI := n.Prop(delivery.NCaseIdentifierURI)
	switch {
	case !hasUUID || !hasURI:
		s.nodeFinding(finding.NodeCaseIdentityInvalid, n, "standards node %s needs caseIdentifierUUID and caseIdentifierURI", n.ID)
		return
	case ids.CheckOpaque(uuid, ids.MaxNodeID) != "":
		s.nodeFinding(finding.NodeCaseIdentityInvalid, n, "caseIdentifierUUID %q: %s", uuid, ids.CheckOpaque(uuid, ids.MaxNodeID))
		return
	case ids.CheckOpaque(uri, ids.MaxCaseURI) != "":
		s.nodeFinding(finding.NodeCaseIdentityInvalid, n, "caseIdentifierURI %q: %s", uri, ids.CheckOpaque(uri, ids.MaxCaseURI))
		return
	}
	if prev, dup := owner[uuid]; dup {
		s.nodeFinding(finding.NodeCaseUUIDDuplicate, n, "CASE UUID %s is also used by node %s (line %d)", uuid, prev.ID, prev.Line)
		return
	}
	owner[uuid] = n
}

// checkItem checks an item against the profile: statement type, normalized
// classification, grade levels (grades: the profile's normalized grades) and
// statement code.
func (s *state) checkItem(n *delivery.Node, grades []string) {
	p := s.res.Profile
	t, ok := n.Prop(delivery.NStatementType)
	st, known := p.StatementType(t)
	switch {
	case !ok:
		s.nodeFinding(finding.NodeStatementTypeInvalid, n, "item %s has no statementType", n.ID)
	case !known:
		s.nodeFinding(finding.NodeStatementTypeInvalid, n, "statementType %q is not a statement type of profile %s", t, p.ProfileID)
	case !st.IsGraphNode:
		s.nodeFinding(finding.NodeStatementTypeInvalid, n, "statementType %q is not a graph-node type in profile %s", t, p.ProfileID)
	}
	if known {
		if nt, _ := n.Prop(delivery.NNormalizedStatementType); nt != st.NormalizedStatementType {
			s.nodeFinding(finding.NodeNormalizedTypeMismatch, n, "normalizedStatementType %q differs from the profile's %q for %q", nt, st.NormalizedStatementType, t)
		}
	}
	if len(grades) > 0 {
		for _, gl := range n.GradeLevel {
			found := false
			for _, x := range grades {
				found = found || x == gl
			}
			if !found {
				s.nodeFinding(finding.NodeGradeLevelInvalid, n, "gradeLevel %q is not one of the profile's normalized grades %v", gl, grades)
			}
		}
	}
	code, coded := n.Prop(delivery.NStatementCode)
	if !coded {
		return
	}
	cp := p.CodeSearchPolicy
	switch {
	case cp.Availability == "none":
		s.nodeFinding(finding.StatementCodeNotAllowed, n, "item has statement code %q but profile %s has no code search", code, p.ProfileID)
	case known && st.CodeType == nil:
		s.nodeFinding(finding.StatementCodeUnmapped, n, "statement code %q is on statement type %q, which has no code type", code, t)
	case known && s.res.Compiled != nil:
		matched := false
		for _, re := range s.res.Compiled.Patterns[*st.CodeType] {
			if ok, err := re.FullMatch(code); err == nil && ok {
				matched = true
				break
			}
		}
		if !matched {
			s.nodeFinding(finding.StatementCodePattern, n, "statement code %q matches none of code type %s's patterns", code, *st.CodeType)
		}
	}
}
