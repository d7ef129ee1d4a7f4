package query

import (
	"context"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/runtime/kgerr"
)

// TestFrameworkRouting: a framework with one current snapshot routes to it;
// a second current snapshot of the English sample makes its routing
// ambiguous; a snapshot ID routes exactly, and not under another framework;
// an unknown framework is not found.
func TestFrameworkRouting(t *testing.T) {
	t.Parallel()
	second := pkggen.Shipped()[0]
	second.VersionToken = "2027"
	svc := New(imgtest.Catalog(t, imgtest.Images(t, []pkggen.Spec{second}, nil)), Options{})
	ctx := context.Background()
	get := func(framework, snapshot string) (*FrameworkResult, error) {
		r := FrameworkRequest{FrameworkID: framework}
		if snapshot != "" {
			r.SnapshotID = &snapshot
		}
		return svc.GetFramework(ctx, r)
	}
	if _, err := get(englishSample, ""); kgerr.CodeOf(err) != kgerr.AmbiguousFramework {
		t.Errorf("two current snapshots: %v", err)
	}
	res, err := get(mathsSample, "")
	if err != nil || res.Framework.FrameworkID != mathsSample || !strings.HasPrefix(res.Framework.SnapshotID, mathsSample+"@2026+") {
		t.Fatalf("unique current: %+v %v", res, err)
	}
	snap := res.Framework.SnapshotID
	if _, err := get(mathsSample, snap); err != nil {
		t.Errorf("exact routing: %v", err)
	}
	if _, err := get(englishSample, snap); kgerr.CodeOf(err) != kgerr.FrameworkNotFound {
		t.Errorf("snapshot of another framework: %v", err)
	}
	if _, err := get("no-such-framework", ""); kgerr.CodeOf(err) != kgerr.FrameworkNotFound {
		t.Errorf("unknown framework: %v", err)
	}
}

// TestStandardsAndComponents reads an indicator by each of its identifiers,
// its learning components, and a component's placement; a component is not
// a standard and a standard is not a component.
func TestStandardsAndComponents(t *testing.T) {
	t.Parallel()
	svc := New(imgtest.Catalog(t, imgtest.Images(t, nil, nil)), Options{})
	ctx := context.Background()
	var indicator string
	for _, spec := range pkggen.Shipped() {
		if spec.FrameworkID == mathsSample {
			indicator = pkggen.NodeID(spec, 0, 0, 0, 0)
		}
	}
	lc, err := svc.StandardComponents(ctx, NewStandardRequest(mathsSample, ByNodeID(indicator)))
	if err != nil || len(lc.Components) == 0 {
		t.Fatalf("the indicator's learning components: %v", err)
	}
	std := lc.Standard
	for _, sel := range []Selector{
		ByNodeID(std.NodeID),
		{IdentifierType: "case_identifier_uuid", CaseIdentifierUUID: *std.CaseIdentifierUUID},
		{IdentifierType: "case_identifier_uri", CaseIdentifierURI: *std.CaseIdentifierURI},
	} {
		r := NewStandardRequest(mathsSample, sel)
		r.FrameworkID, r.SnapshotID = nil, &lc.Package.PackageIdentity.SnapshotID
		if got, err := svc.Standard(ctx, r); err != nil || got.Node.NodeID != std.NodeID {
			t.Errorf("get_standard(%+v): %v", sel, err)
		}
	}
	comp := lc.Components[0].Node
	if b, _ := canonjson.Marshal(comp); strings.Contains(string(b), "caseIdentifier") {
		t.Errorf("a learning component carries CASE identity: %s", b)
	}
	if _, err := svc.Standard(ctx, NewStandardRequest(mathsSample, ByNodeID(comp.NodeID))); kgerr.CodeOf(err) != kgerr.StandardNotFound {
		t.Errorf("a component read as a standard: %v", err)
	}
	got, err := svc.ComponentContext(ctx, NewComponentRequest(mathsSample, comp.NodeID))
	if err != nil || len(got.Placements) == 0 {
		t.Fatalf("component context: %v", err)
	}
	pl := got.Placements[0]
	if p := pl.HierarchyPath; len(p) != 5 || p[0] != "kgc Sample Mathematics Curriculum, Grades 1–3" || pl.StatementCode == nil || p[4] != *pl.StatementCode {
		t.Errorf("hierarchy path %v", p)
	}
	if len(got.SupportedStandards) != len(got.Placements) {
		t.Error("context and placements disagree")
	}
	if _, err := svc.Component(ctx, NewComponentRequest(mathsSample, std.NodeID)); kgerr.CodeOf(err) != kgerr.LearningComponentNotFound {
		t.Errorf("a standard read as a component: %v", err)
	}
}

// TestStandardContext reads an indicator's hierarchy context: five ancestors
// (root included), one root path, one parent and no children, every ancestor
// in the nodes table; bounds cut the lists and say why; unsupported options
// and a missing node are refused with their codes.
func TestStandardContext(t *testing.T) {
	t.Parallel()
	svc := New(imgtest.Catalog(t, imgtest.Images(t, nil, nil)), Options{})
	ctx := context.Background()
	ind := pkggen.NodeID(pkggen.Shipped()[1], 1, 0, 0, 2)
	r := NewContextRequest(mathsSample, ind)
	r.IncludeDescendants = true
	out, err := svc.StandardContext(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Ancestors.Nodes) != 5 || !out.Ancestors.IsComplete {
		t.Errorf("ancestors: %+v", out.Ancestors)
	}
	if out.RootPaths == nil || len(out.RootPaths.Paths) != 1 || len(out.RootPaths.Paths[0].NodeIDs) != 5 {
		t.Errorf("root paths: %+v", out.RootPaths)
	}
	if len(out.DirectParents.Neighbors) != 1 || out.DirectChildren == nil || len(out.DirectChildren.Neighbors) != 0 {
		t.Errorf("direct neighbours: parents %+v, children %+v", out.DirectParents, out.DirectChildren)
	}
	ids := map[string]bool{}
	for _, n := range out.Nodes {
		ids[n.NodeID] = true
	}
	for _, n := range out.Ancestors.Nodes {
		if !ids[n.NodeID] {
			t.Errorf("ancestor %s is missing from the nodes table", n.NodeID)
		}
	}
	r = NewContextRequest(mathsSample, ind)
	r.MaxNodes, r.MaxPaths, r.AncestorDepth = 2, 1, 2
	small, err := svc.StandardContext(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if a := small.Ancestors; a.IsComplete || a.TruncationReason == nil || *a.TruncationReason != "max_nodes" {
		t.Errorf("bounded ancestors: %+v", a)
	}
	if small.RootPaths == nil || small.RootPaths.IsComplete {
		t.Errorf("root paths past the depth bound: %+v", small.RootPaths)
	}
	for name, edit := range map[string]func(*ContextRequest){
		"includeUnresolved false": func(r *ContextRequest) { r.IncludeUnresolved = false },
		"wrong relationship type": func(r *ContextRequest) { r.RelationshipTypes = []string{"supports"} },
	} {
		r := NewContextRequest(mathsSample, ind)
		edit(&r)
		if _, err := svc.StandardContext(ctx, r); kgerr.CodeOf(err) != kgerr.CapabilityUnavailable {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := svc.StandardContext(ctx, NewContextRequest(mathsSample, "missing")); kgerr.CodeOf(err) != kgerr.GraphNodeNotFound {
		t.Errorf("missing node: %v", err)
	}
}

// TestFrameworkStatistics checks the mathematics sample's structural counts
// against what the generator writes, and the English sample's unresolved
// item.
func TestFrameworkStatistics(t *testing.T) {
	t.Parallel()
	svc := New(imgtest.Catalog(t, imgtest.Images(t, nil, nil)), Options{})
	ctx := context.Background()
	res, err := svc.FrameworkStatistics(ctx, FrameworkRequest{FrameworkID: mathsSample})
	if err != nil {
		t.Fatal(err)
	}
	st := res.Statistics
	if st.TotalItemNodes != 120 || st.TotalFrameworkNodes != 1 || st.TotalNodes != 121 || st.TotalRelationships != 120 ||
		st.MaximumStructuralDepth != 4 || st.UnreachableNodeCount != 0 {
		t.Errorf("structure: %d items, %d roots, %d nodes, %d relationships, depth %d, %d unreachable", st.TotalItemNodes,
			st.TotalFrameworkNodes, st.TotalNodes, st.TotalRelationships, st.MaximumStructuralDepth, st.UnreachableNodeCount)
	}
	if lc := st.LearningComponents; lc.TotalLearningComponents != 81 || lc.TotalSupportsRelationships != 92 || lc.MultiStandardComponentCount != 11 {
		t.Errorf("learning components: %+v", lc)
	}
	if cp := st.CodePresence; cp.CodedItemCount != 108 || cp.UncodedItemCount != 12 {
		t.Errorf("code presence: %+v", cp)
	}
	eng, err := svc.FrameworkStatistics(ctx, FrameworkRequest{FrameworkID: englishSample})
	if err != nil || eng.Statistics.UnresolvedRelationships.UnresolvedCount != 1 {
		t.Errorf("unresolved: %+v %v", eng, err)
	}
}
