package kgimg_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/kgimg"
)

var nodeFields = map[kgimg.NodeField]delivery.NodeProp{
	kgimg.NodeAcademicSubject: delivery.NAcademicSubject, kgimg.NodeAdoptionStatus: delivery.NAdoptionStatus,
	kgimg.NodeAttributionStatement: delivery.NAttributionStatement, kgimg.NodeAuthor: delivery.NAuthor,
	kgimg.NodeCaseIdentifierURI: delivery.NCaseIdentifierURI, kgimg.NodeCaseIdentifierUUID: delivery.NCaseIdentifierUUID,
	kgimg.NodeDescription: delivery.NDescription,
	kgimg.NodeIdentityKey: delivery.NIdentityKey, kgimg.NodeInLanguage: delivery.NInLanguage,
	kgimg.NodeJurisdiction: delivery.NJurisdiction, kgimg.NodeLicense: delivery.NLicense, kgimg.NodeName: delivery.NName,
	kgimg.NodeNormalizedStatementType: delivery.NNormalizedStatementType, kgimg.NodeProvider: delivery.NProvider,
	kgimg.NodeStatementCode: delivery.NStatementCode, kgimg.NodeStatementType: delivery.NStatementType,
}

var relFields = map[kgimg.RelField]delivery.RelProp{
	kgimg.RelAttributionStatement: delivery.RAttributionStatement, kgimg.RelAuthor: delivery.RAuthor,
	kgimg.RelDescription: delivery.RDescription, kgimg.RelLicense: delivery.RLicense,
	kgimg.RelProvider: delivery.RProvider, kgimg.RelResolutionStatus: delivery.RResolutionStatus,
}

func sameList(l kgimg.StringList, want []string) bool {
	if l.Len() != len(want) {
		return false
	}
	for i := range want {
		if l.At(i) != want[i] {
			return false
		}
	}
	return true
}

// checkRoundTrip compares every node and relationship of the image with the
// decoded source records, field for field, and every index with a brute-force
// answer computed from the source.
func checkRoundTrip(t *testing.T, img *kgimg.Image, res *gate.Result) {
	t.Helper()
	m := res.Manifest
	kinds := map[kgimg.NodeKind]int{}
	labels := map[kgimg.RelLabel]int{}
	if img.NodeCount() != len(res.Nodes) || img.RelationshipCount() != len(res.Relationships) {
		t.Fatalf("counts %d/%d, source %d/%d", img.NodeCount(), img.RelationshipCount(), len(res.Nodes), len(res.Relationships))
	}
	for i, n := range res.Nodes {
		o := uint32(i)
		kinds[img.NodeKind(o)]++
		if got := img.NodeString(o, kgimg.NodeID); got != n.ID {
			t.Fatalf("node %d id %q, want %q", i, got, n.ID)
		}
		if ord, ok := img.NodeByID(n.ID); !ok || ord != o {
			t.Errorf("NodeByID(%s) = %d %v", n.ID, ord, ok)
		}
		if img.NodeOrder(o) != uint32(n.Order) || img.NodeIsCurrent(o) != n.IsCurrent {
			t.Errorf("node %s order/isCurrent differ", n.ID)
		}
		for f, p := range nodeFields {
			if got := img.NodeString(o, f); got != n.Str(p) {
				t.Errorf("node %s field %d = %q, want %q", n.ID, f, got, n.Str(p))
			}
			if img.NodePresent(o)&(1<<p) != 0 != n.Has(p) {
				t.Errorf("node %s presence of %s differs", n.ID, delivery.NodePropNames[p])
			}
		}
		if n.Str(delivery.NIdentifier) != n.ID {
			t.Errorf("node %s: properties.identifier is not derivable", n.ID)
		}
		if !sameList(img.NodeGradeLevel(o), n.GradeLevel) || !sameList(img.NodeTags(o), n.Tags) || !sameList(img.NodeLabels(o), n.Labels) {
			t.Errorf("node %s lists differ", n.ID)
		}
		if uuid, ok := n.Prop(delivery.NCaseIdentifierUUID); ok {
			found := false
			hits := img.NodesByCaseUUID(uuid)
			for j := 0; j < hits.Len(); j++ {
				found = found || hits.At(j) == o
			}
			if !found {
				t.Errorf("NodesByCaseUUID(%s) misses node %d", uuid, o)
			}
		}
		if want := res.EntityProvenance[n.ID]; img.NodeString(o, kgimg.NodeProvenanceJSON) != string(want) {
			t.Errorf("node %s provenance differs", n.ID)
		}
	}
	for i, r := range res.Relationships {
		o := uint32(i)
		labels[img.RelLabel(o)]++
		if img.RelString(o, kgimg.RelID) != r.ID || img.NodeString(img.RelSource(o), kgimg.NodeID) != r.Source ||
			img.NodeString(img.RelTarget(o), kgimg.NodeID) != r.Target || img.RelOrder(o) != uint32(r.Order) {
			t.Fatalf("relationship %d (%s) differs", i, r.ID)
		}
		if ord, ok := img.RelationshipByID(r.ID); !ok || ord != o {
			t.Errorf("RelationshipByID(%s) = %d %v", r.ID, ord, ok)
		}
		for f, p := range relFields {
			if got := img.RelString(o, f); got != r.Str(p) {
				t.Errorf("relationship %s field %d = %q, want %q", r.ID, f, got, r.Str(p))
			}
		}
		if r.Has(delivery.RSupportConfidence) && img.RelConfidence(o) != r.Confidence {
			t.Errorf("relationship %s confidence differs", r.ID)
		}
		// The derived properties equal the source.
		sk, sv := img.EntityKey(img.RelSource(o))
		tk, tv := img.EntityKey(img.RelTarget(o))
		derived := map[delivery.RelProp]string{
			delivery.RIdentifier: r.ID, delivery.RRelationshipType: img.RelTypeName(o),
			delivery.RSourceEntity: kgimg.NodeKindLabel(img.NodeKind(img.RelSource(o))), delivery.RSourceEntityKey: sk, delivery.RSourceEntityValue: sv,
			delivery.RTargetEntity: kgimg.NodeKindLabel(img.NodeKind(img.RelTarget(o))), delivery.RTargetEntityKey: tk, delivery.RTargetEntityValue: tv,
		}
		for p, want := range derived {
			if r.Str(p) != want {
				t.Errorf("relationship %s: derived %s = %q, source %q", r.ID, delivery.RelPropNames[p], want, r.Str(p))
			}
		}
		if !sameList(img.NodeLabels(img.RelSource(o)), r.SourceLabels) || !sameList(img.NodeLabels(img.RelTarget(o)), r.TargetLabels) {
			t.Errorf("relationship %s labels are not the endpoints' labels", r.ID)
		}
		rec, _, ok := img.Provenance(o)
		if want, has := res.Provenance[r.ID]; has != ok || string(rec) != string(want) {
			t.Errorf("relationship %s provenance differs (has %v, got %v)", r.ID, has, ok)
		}
	}
	for kind, want := range map[kgimg.NodeKind]int64{kgimg.FrameworkNode: m.Counts.FrameworkNodes, kgimg.ItemNode: m.Counts.ItemNodes, kgimg.ComponentNode: m.Counts.LearningComponentNodes} {
		if int64(kinds[kind]) != want {
			t.Errorf("%s nodes %d, manifest %d", kind, kinds[kind], want)
		}
	}
	for label, want := range map[kgimg.RelLabel]int64{kgimg.Supports: m.Counts.SupportsRelationships, kgimg.BuildsTowards: m.Counts.BuildsTowardsRelationships, kgimg.RelatesTo: m.Counts.RelatesToRelationships} {
		if int64(labels[label]) != want {
			t.Errorf("%s edges %d, manifest %d", label, labels[label], want)
		}
	}
	if int64(img.RelationshipCount()) != m.Counts.Relationships {
		t.Errorf("relationships %d, manifest %d", img.RelationshipCount(), m.Counts.Relationships)
	}
	checkAdjacency(t, img, res)
	checkFacetsAndSearch(t, img, res)
}

func checkAdjacency(t *testing.T, img *kgimg.Image, res *gate.Result) {
	t.Helper()
	names := map[string]kgimg.RelLabel{"hasChild": kgimg.HasChild, "supports": kgimg.Supports, "buildsTowards": kgimg.BuildsTowards, "relatesTo": kgimg.RelatesTo}
	for name, label := range names {
		want := map[string][]string{} // "<dir>:<node>" → "rel" in contract order
		var rels []*delivery.Relationship
		for _, r := range res.Relationships {
			if r.Label == name {
				rels = append(rels, r)
			}
		}
		sort.SliceStable(rels, func(a, b int) bool {
			if (name == "hasChild" || name == "supports") && rels[a].Order != rels[b].Order {
				return rels[a].Order < rels[b].Order
			}
			return rels[a].ID < rels[b].ID
		})
		for _, r := range rels {
			want["out:"+r.Source] = append(want["out:"+r.Source], r.ID)
			want["in:"+r.Target] = append(want["in:"+r.Target], r.ID)
		}
		for i, n := range res.Nodes {
			for dir, d := range map[string]kgimg.Direction{"out": kgimg.Out, "in": kgimg.In} {
				_, edges := img.Adjacency(label, d).Row(uint32(i))
				var got []string
				for j := 0; j < edges.Len(); j++ {
					got = append(got, img.RelString(edges.At(j), kgimg.RelID))
				}
				w := want[dir+":"+n.ID]
				if label == kgimg.HasChild && d == kgimg.Out {
					// Children are in curriculum order: the same edges,
					// ordered as the recorded basis says.
					checkChildOrder(t, img, uint32(i), got, w)
					continue
				}
				if fmt.Sprint(got) != fmt.Sprint(w) {
					t.Errorf("%s %s row of %s = %v, want %v", name, dir, n.ID, got, w)
				}
			}
		}
	}
}

// checkChildOrder requires node n's children row (got, relationship IDs) to
// hold the edges of want and to follow its recorded basis.
func checkChildOrder(t *testing.T, img *kgimg.Image, n uint32, got, want []string) {
	t.Helper()
	a, b := append([]string(nil), got...), append([]string(nil), want...)
	sort.Strings(a)
	sort.Strings(b)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("children of %s: edges %v, want %v", img.NodeString(n, kgimg.NodeID), got, want)
	}
	basis := img.ChildOrder(n)
	if (len(got) == 0) != (basis == kgimg.OrderNone) {
		t.Errorf("children of %s: %d, basis %s", img.NodeString(n, kgimg.NodeID), len(got), basis)
	}
	kids, _ := img.Adjacency(kgimg.HasChild, kgimg.Out).Row(n)
	for j := 1; j < kids.Len(); j++ {
		x, y := kids.At(j-1), kids.At(j)
		var ok bool
		switch basis {
		case kgimg.OrderCode:
			ok = naturalLE(img.NodeString(x, kgimg.NodeStatementCode), img.NodeString(y, kgimg.NodeStatementCode))
		case kgimg.OrderIdentifier:
			ok = img.NodeString(x, kgimg.NodeID) < img.NodeString(y, kgimg.NodeID)
		default:
			ok = true
		}
		if !ok {
			t.Errorf("children of %s are not in %s order at %d", img.NodeString(n, kgimg.NodeID), basis, j)
		}
	}
}

// naturalLE compares codes with digit runs as numbers: a <= b.
func naturalLE(a, b string) bool {
	split := func(s string) []string { return regexp.MustCompile(`\d+|\D+`).FindAllString(s, -1) }
	pa, pb := split(a), split(b)
	for i := 0; i < len(pa) && i < len(pb); i++ {
		if pa[i] == pb[i] {
			continue
		}
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		if ea == nil && eb == nil {
			return na < nb
		}
		return strings.ToLower(pa[i]) < strings.ToLower(pb[i])
	}
	return len(pa) <= len(pb)
}

func checkFacetsAndSearch(t *testing.T, img *kgimg.Image, res *gate.Result) {
	t.Helper()
	grades := map[string][]uint32{}
	tokens := map[string][]uint32{}
	for i, n := range res.Nodes {
		if n.Kind != delivery.KindItem {
			continue
		}
		for _, g := range n.GradeLevel {
			grades[textnorm.Facet(g)] = append(grades[textnorm.Facet(g)], uint32(i))
		}
		seen := map[string]bool{}
		for _, tok := range textnorm.Tokens(n.Str(delivery.NDescription)) {
			if !seen[tok] {
				seen[tok] = true
				tokens[tok] = append(tokens[tok], uint32(i))
			}
		}
	}
	for g, want := range grades {
		bm, ok := img.Facet(kgimg.FacetNormalizedGrade, g)
		if got := bm.AppendTo(nil); !ok || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("grade facet %q = %v, want %v", g, got, want)
		}
	}
	for tok, want := range tokens {
		got, ok := img.ItemToken(tok)
		if !ok || fmt.Sprint(got.AppendTo(nil)) != fmt.Sprint(want) {
			t.Errorf("token %q = %v, want %v", tok, got.AppendTo(nil), want)
		}
	}
	if _, ok := img.ItemToken("zzzz-no-such-token"); ok {
		t.Error("a missing token was found")
	}
}

func TestShippedImagesRoundTrip(t *testing.T) {
	dirs, profiles := imgtest.ShippedPackages(t)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			data, res := imgtest.Build(t, dir, profiles, "")
			img, err := kgimg.OpenBytes(data)
			if err != nil {
				t.Fatal(err)
			}
			checkRoundTrip(t, img, res)
		})
	}
}

// TestCorpusImagesRoundTrip compiles every complete corpus package, re-opens and
// verifies the image, and reads everything back.
func TestCorpusImagesRoundTrip(t *testing.T) {
	dirs, profiles, prompts := imgtest.CorpusPackages(t)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			data, res := imgtest.Build(t, dir, profiles, prompts)
			path := filepath.Join(t.TempDir(), "x.kgimg")
			if err := writeFile(path, data); err != nil {
				t.Fatal(err)
			}
			img, err := kgimg.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer img.Close()
			checkRoundTrip(t, img, res)
		})
	}
}
