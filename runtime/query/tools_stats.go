package query

import (
	"context"
	"encoding/json"
	"math"
	"sort"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgimg"
	"github.com/kgc-project/kgc/schema/kgfb"
)

// counter counts string values (nil for an absent value).
type counter map[string]int

func (c counter) list(nullCount int) []obj {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]obj, 0, len(keys)+1)
	if nullCount > 0 {
		out = append(out, obj{"value": nil, "count": nullCount})
	}
	for _, k := range keys {
		out = append(out, obj{"value": k, "count": c[k]})
	}
	return out
}

func intCounts(m map[int]int, key string) []obj {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	out := make([]obj, 0, len(keys))
	for _, k := range keys {
		out = append(out, obj{key: k, "count": m[k]})
	}
	return out
}

// statistics computes get_framework_statistics' statistics for a package.
// Standards and learning-component figures are kept apart, never merged.
func statistics(p *catalog.Package) obj {
	img := p.Img
	items, frameworks, coded := 0, 0, 0
	local, grades, normGrades, types, normTypes := counter{}, counter{}, counter{}, counter{}, counter{}
	noGrade, noType, noNormType := 0, 0, 0
	parentDist := map[int]int{}
	maxParents, multi := 0, 0
	up := img.Adjacency(kgfb.RelLabelHasChild, kgfb.DirectionIn)
	for n := 0; n < img.NodeCount(); n++ {
		o := uint32(n)
		switch img.NodeKind(o) {
		case kgfb.NodeKindFramework:
			frameworks++
			continue
		case kgfb.NodeKindComponent:
			continue
		}
		items++
		if img.NodeString(o, kgimg.NodeStatementCode) != "" {
			coded++
		}
		gl := stringList(img.NodeGradeLevel(o))
		if len(gl) == 0 {
			noGrade++
		}
		for _, g := range gl {
			grades[g]++
			normGrades[g]++
		}
		for _, gm := range p.Profile.GradeMappings {
			for _, g := range gm.NormalizedGrades {
				if contains(gl, g) {
					local[gm.LocalLabel]++
					break
				}
			}
		}
		if t := img.NodeString(o, kgimg.NodeStatementType); t != "" {
			types[t]++
		} else {
			noType++
		}
		if t := img.NodeString(o, kgimg.NodeNormalizedStatementType); t != "" {
			normTypes[t]++
		} else {
			noNormType++
		}
		pc := up.Degree(o)
		parentDist[pc]++
		maxParents = max(maxParents, pc)
		if pc > 1 {
			multi++
		}
	}
	// Minimum structural depth of every node reachable from the root.
	depths, _, _ := bfsAll(img, img.RootNode())
	depthCounts := map[int]int{}
	maxDepth := 0
	for _, d := range depths {
		depthCounts[d]++
		maxDepth = max(maxDepth, d)
	}
	labels, sourceTypes, statuses := counter{}, counter{}, counter{}
	hierarchy, unresolved := 0, 0
	for r := 0; r < img.RelationshipCount(); r++ {
		o := uint32(r)
		if img.RelLabel(o) != kgfb.RelLabelHasChild {
			continue
		}
		hierarchy++
		labels[img.RelTypeName(o)]++
		sourceTypes[img.RelTypeName(o)]++
		if st := img.RelString(o, kgimg.RelResolutionStatus); st != "" {
			statuses[st]++
			unresolved++
		}
	}
	standardsNodes := 0
	for n := 0; n < img.NodeCount(); n++ {
		if img.NodeKind(uint32(n)) != kgfb.NodeKindComponent {
			standardsNodes++
		}
	}
	return obj{
		"totalFrameworkNodes": frameworks, "totalItemNodes": items, "totalNodes": frameworks + items,
		"totalRelationships":               hierarchy,
		"localGradeLabelCounts":            local.list(0),
		"nodeGradeLevelCounts":             grades.list(noGrade),
		"normalizedGradeCounts":            normGrades.list(noGrade),
		"statementTypeCounts":              types.list(noType),
		"normalizedStatementTypeCounts":    normTypes.list(noNormType),
		"canonicalRelationshipLabelCounts": labels.list(0),
		"sourceRelationshipTypeCounts":     sourceTypes.list(0),
		"codePresence":                     obj{"codedItemCount": coded, "uncodedItemCount": items - coded},
		"maximumStructuralDepth":           maxDepth,
		"minimumStructuralDepthCounts":     intCounts(depthCounts, "depth"),
		"multiParent": obj{"maximumParentCount": maxParents, "parentCountDistribution": renameKey(intCounts(parentDist, "parentCount"), "count", "nodeCount"),
			"targetCount": multi},
		"unresolvedRelationships": obj{"resolvedCount": hierarchy - unresolved, "statusCounts": statuses.list(0), "unresolvedCount": unresolved},
		"unreachableNodeCount":    standardsNodes - len(depths),
		"learningComponents":      componentStatistics(p),
		"learningProgressions": obj{
			"buildsTowardsRelationships": p.Manifest.Counts.BuildsTowardsRelationships, "relatesToRelationships": p.Manifest.Counts.RelatesToRelationships,
			"hasLearningProgressions": p.Manifest.Capabilities.HasLearningProgressions, "hasLearningProgressionProvenance": p.Manifest.Capabilities.HasLearningProgressionProvenance,
		},
	}
}

func renameKey(list []obj, from, to string) []obj {
	for _, o := range list {
		o[to] = o[from]
		delete(o, from)
	}
	return list
}

// bfsAll returns the minimum hasChild depth of every node reachable from root.
func bfsAll(img *kgimg.Image, root uint32) (map[uint32]int, []uint32, bool) {
	return bfsDepths(img, img.Adjacency(kgfb.RelLabelHasChild, kgfb.DirectionOut), root)
}

func bfsDepths(img *kgimg.Image, adj kgimg.Adjacency, root uint32) (map[uint32]int, []uint32, bool) {
	order, depths, complete := bfs(img, adj, root, math.MaxInt32, math.MaxInt32)
	return depths, order, complete
}

func componentStatistics(p *catalog.Package) obj {
	img := p.Img
	down := img.Adjacency(kgfb.RelLabelSupports, kgfb.DirectionOut)
	up := img.Adjacency(kgfb.RelLabelSupports, kgfb.DirectionIn)
	comps, supports, multi := 0, 0, 0
	minC, maxC := math.Inf(1), math.Inf(-1)
	span := map[int]int{}
	supportedTypes := map[string]bool{}
	tags := map[string]bool{}
	for n := 0; n < img.NodeCount(); n++ {
		o := uint32(n)
		if img.NodeKind(o) != kgfb.NodeKindComponent {
			continue
		}
		comps++
		for _, t := range stringList(img.NodeTags(o)) {
			tags[t] = true
		}
		stds, rels := down.Row(o)
		supports += stds.Len()
		if stds.Len() > 1 {
			multi++
		}
		gradesSeen := map[string]bool{}
		for i := 0; i < stds.Len(); i++ {
			s := stds.At(i)
			supportedTypes[img.NodeString(s, kgimg.NodeStatementType)] = true
			for _, g := range stringList(img.NodeGradeLevel(s)) {
				gradesSeen[g] = true
			}
			if img.RelHas(rels.At(i), kgimg.RPSupportConfidence) {
				c := img.RelConfidence(rels.At(i))
				minC, maxC = math.Min(minC, c), math.Max(maxC, c)
			}
		}
		span[len(gradesSeen)]++
	}
	var types []string
	for t := range supportedTypes {
		types = append(types, t)
	}
	sort.Strings(types)
	without := 0
	perStandard := map[int]int{}
	for n := 0; n < img.NodeCount(); n++ {
		o := uint32(n)
		if img.NodeKind(o) != kgfb.NodeKindItem || !supportedTypes[img.NodeString(o, kgimg.NodeStatementType)] {
			continue
		}
		d := up.Degree(o)
		perStandard[d]++
		if d == 0 {
			without++
		}
	}
	var lo, hi any
	if comps > 0 && !math.IsInf(minC, 1) {
		lo, hi = minC, maxC
	}
	return obj{
		"totalLearningComponents": comps, "totalSupportsRelationships": supports, "multiStandardComponentCount": multi,
		"supportedStatementTypes": nonNil(types), "standardsWithoutComponents": without, "tagVocabularySize": len(tags),
		"supportConfidenceMinimum": lo, "supportConfidenceMaximum": hi,
		"componentsPerStandardCounts": intCounts(perStandard, "value"), "bridgeSpanCounts": intCounts(span, "value"),
	}
}

func (s *Service) getFrameworkStatistics(_ context.Context, raw json.RawMessage) (any, error) {
	r, err := decode[frameworkRequest](raw)
	if err != nil {
		return nil, err
	}
	p, err := s.resolvePackage(r.FrameworkID, r.SnapshotID, r.GraphType)
	if err != nil {
		return nil, err
	}
	stats := s.memo.get("statistics:"+p.GraphPackageID(), func() any { return statistics(p) })
	return obj{"package": packageRef(p), "sourceMetadata": sourceMetadata(p), "statistics": stats}, nil
}
