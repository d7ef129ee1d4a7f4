package stats

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/internal/natural"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/graph"
)

// ValueCount counts one value (nil: the records without one).
type ValueCount struct {
	Count int     `json:"count"`
	Value *string `json:"value"`
}

// IntValueCount counts one integer value.
type IntValueCount struct {
	Count int `json:"count"`
	Value int `json:"value"`
}

// DepthCount counts the nodes at one least depth.
type DepthCount struct {
	Count int `json:"count"`
	Depth int `json:"depth"`
}

// ParentCount counts the nodes with one number of parents.
type ParentCount struct {
	NodeCount   int `json:"nodeCount"`
	ParentCount int `json:"parentCount"`
}

// counter counts string values (nil for an absent value).
type counter map[string]int

func (c counter) list(nullCount int) []ValueCount { return c.sorted(nullCount, strings.Compare) }

// grades lists grade counts in school order (K, 1, 2, … 12; "10" after "9").
func (c counter) grades(nullCount int) []ValueCount {
	return c.sorted(nullCount, natural.CompareGrades)
}

// sorted lists the counts by value in cmp's order, the count of absent values
// first.
func (c counter) sorted(nullCount int, cmp func(a, b string) int) []ValueCount {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmp)
	out := make([]ValueCount, 0, len(keys)+1)
	if nullCount > 0 {
		out = append(out, ValueCount{Count: nullCount})
	}
	for _, k := range keys {
		out = append(out, ValueCount{Value: &k, Count: c[k]})
	}
	return out
}

// intCounts lists the counts of m by key, ascending.
func intCounts[T any](m map[int]int, entry func(key, count int) T) []T {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	out := make([]T, 0, len(keys))
	for _, k := range keys {
		out = append(out, entry(k, m[k]))
	}
	return out
}

// Statistics are a package's structural figures (get_framework_statistics):
// the standards hierarchy, with learning components and progressions kept
// apart.
type Statistics struct {
	CanonicalRelationshipLabelCounts []ValueCount                  `json:"canonicalRelationshipLabelCounts"`
	CodePresence                     CodePresence                  `json:"codePresence"`
	LearningComponents               ComponentStatistics           `json:"learningComponents"`
	LearningProgressions             ProgressionStatistics         `json:"learningProgressions"`
	LocalGradeLabelCounts            []ValueCount                  `json:"localGradeLabelCounts"`
	MaximumStructuralDepth           int                           `json:"maximumStructuralDepth"`
	MinimumStructuralDepthCounts     []DepthCount                  `json:"minimumStructuralDepthCounts"`
	MultiParent                      MultiParentStatistics         `json:"multiParent"`
	NodeGradeLevelCounts             []ValueCount                  `json:"nodeGradeLevelCounts"`
	NormalizedGradeCounts            []ValueCount                  `json:"normalizedGradeCounts"`
	NormalizedStatementTypeCounts    []ValueCount                  `json:"normalizedStatementTypeCounts"`
	SourceRelationshipTypeCounts     []ValueCount                  `json:"sourceRelationshipTypeCounts"`
	StatementTypeCounts              []ValueCount                  `json:"statementTypeCounts"`
	TotalFrameworkNodes              int                           `json:"totalFrameworkNodes"`
	TotalItemNodes                   int                           `json:"totalItemNodes"`
	TotalNodes                       int                           `json:"totalNodes"`
	TotalRelationships               int                           `json:"totalRelationships"`
	UnreachableNodeCount             int                           `json:"unreachableNodeCount"`
	UnresolvedRelationships          UnresolvedRelationshipSummary `json:"unresolvedRelationships"`
}

// CodePresence counts the items with and without a statement code.
type CodePresence struct {
	CodedItemCount   int `json:"codedItemCount"`
	UncodedItemCount int `json:"uncodedItemCount"`
}

// MultiParentStatistics describe the items with more than one parent.
type MultiParentStatistics struct {
	MaximumParentCount      int           `json:"maximumParentCount"`
	ParentCountDistribution []ParentCount `json:"parentCountDistribution"`
	// ParentStatementTypes counts the items' sets of parent statement types,
	// each set its distinct types sorted and joined by " + " (the framework
	// root as "(framework root)"); StatementTypeCounts the items' own types
	// (both beyond the contract).
	ParentStatementTypes []ValueCount `json:"parentStatementTypes"`
	StatementTypeCounts  []ValueCount `json:"statementTypeCounts"`
	TargetCount          int          `json:"targetCount"`
}

// UnresolvedRelationshipSummary counts the hierarchy edges by resolution.
type UnresolvedRelationshipSummary struct {
	ResolvedCount   int          `json:"resolvedCount"`
	StatusCounts    []ValueCount `json:"statusCounts"`
	UnresolvedCount int          `json:"unresolvedCount"`
}

// ProgressionStatistics are the declared progression figures.
type ProgressionStatistics struct {
	BuildsTowardsRelationships       int64 `json:"buildsTowardsRelationships"`
	HasLearningProgressionProvenance bool  `json:"hasLearningProgressionProvenance"`
	HasLearningProgressions          bool  `json:"hasLearningProgressions"`
	RelatesToRelationships           int64 `json:"relatesToRelationships"`
}

// ComponentStatistics are the learning-component figures.
type ComponentStatistics struct {
	BridgeSpanCounts            []IntValueCount `json:"bridgeSpanCounts"`
	ComponentsPerStandardCounts []IntValueCount `json:"componentsPerStandardCounts"`
	MultiStandardComponentCount int             `json:"multiStandardComponentCount"`
	StandardsWithoutComponents  int             `json:"standardsWithoutComponents"`
	SupportConfidenceMaximum    *float64        `json:"supportConfidenceMaximum"`
	SupportConfidenceMinimum    *float64        `json:"supportConfidenceMinimum"`
	SupportedStatementTypes     []string        `json:"supportedStatementTypes"`
	TagVocabularySize           int             `json:"tagVocabularySize"`
	TotalLearningComponents     int             `json:"totalLearningComponents"`
	TotalSupportsRelationships  int             `json:"totalSupportsRelationships"`
}

func intValueCount(k, n int) IntValueCount { return IntValueCount{Value: k, Count: n} }

// Of computes get_framework_statistics' Of for a package.
// Standards and learning-component figures are kept apart, never merged.
func Of(p *catalog.Package) Statistics {
	img := p.Img
	items, frameworks, coded := 0, 0, 0
	local, grades, normGrades, types, normTypes := counter{}, counter{}, counter{}, counter{}, counter{}
	noGrade, noType, noNormType := 0, 0, 0
	parentDist := map[int]int{}
	maxParents, multi := 0, 0
	multiTypes, multiParentTypes, multiNoType := counter{}, counter{}, 0
	up := img.Adjacency(kgimg.HasChild, kgimg.In)
	for n := 0; n < img.NodeCount(); n++ {
		o := uint32(n)
		switch img.NodeKind(o) {
		case kgimg.FrameworkNode:
			frameworks++
			continue
		case kgimg.ComponentNode:
			continue
		}
		items++
		if img.NodeString(o, kgimg.NodeStatementCode) != "" {
			coded++
		}
		gl := img.NodeGradeLevel(o).Views()
		if len(gl) == 0 {
			noGrade++
		}
		for _, g := range gl {
			grades[g]++
			normGrades[g]++
		}
		for _, gm := range p.Profile().GradeMappings {
			for _, g := range gm.NormalizedGrades {
				if slices.Contains(gl, g) {
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
			if t := img.NodeString(o, kgimg.NodeStatementType); t != "" {
				multiTypes[t]++
			} else {
				multiNoType++
			}
			multiParentTypes[parentTypes(img, up, o)]++
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
		if img.RelLabel(o) != kgimg.HasChild {
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
		if img.NodeKind(uint32(n)) != kgimg.ComponentNode {
			standardsNodes++
		}
	}
	return Statistics{
		TotalFrameworkNodes: frameworks, TotalItemNodes: items, TotalNodes: frameworks + items,
		TotalRelationships:               hierarchy,
		LocalGradeLabelCounts:            local.grades(0),
		NodeGradeLevelCounts:             grades.grades(noGrade),
		NormalizedGradeCounts:            normGrades.grades(noGrade),
		StatementTypeCounts:              types.list(noType),
		NormalizedStatementTypeCounts:    normTypes.list(noNormType),
		CanonicalRelationshipLabelCounts: labels.list(0),
		SourceRelationshipTypeCounts:     sourceTypes.list(0),
		CodePresence:                     CodePresence{CodedItemCount: coded, UncodedItemCount: items - coded},
		MaximumStructuralDepth:           maxDepth,
		MinimumStructuralDepthCounts:     intCounts(depthCounts, func(k, n int) DepthCount { return DepthCount{Depth: k, Count: n} }),
		MultiParent: MultiParentStatistics{MaximumParentCount: maxParents, TargetCount: multi,
			StatementTypeCounts: multiTypes.list(multiNoType), ParentStatementTypes: multiParentTypes.list(0),
			ParentCountDistribution: intCounts(parentDist, func(k, n int) ParentCount { return ParentCount{ParentCount: k, NodeCount: n} })},
		UnresolvedRelationships: UnresolvedRelationshipSummary{ResolvedCount: hierarchy - unresolved, StatusCounts: statuses.list(0), UnresolvedCount: unresolved},
		UnreachableNodeCount:    standardsNodes - len(depths),
		LearningComponents:      componentStatistics(p),
		LearningProgressions: ProgressionStatistics{
			BuildsTowardsRelationships: p.Manifest.Counts.BuildsTowardsRelationships, RelatesToRelationships: p.Manifest.Counts.RelatesToRelationships,
			HasLearningProgressions: p.Manifest.Capabilities.HasLearningProgressions, HasLearningProgressionProvenance: p.Manifest.Capabilities.HasLearningProgressionProvenance,
		},
	}
}

// parentTypes names the distinct statement types of n's parents, sorted and
// joined by " + " ("(framework root)" for the root, "(none)" for an untyped
// item).
func parentTypes(img *kgimg.Image, up kgimg.Adjacency, n uint32) string {
	parents, _ := up.Row(n)
	var types []string
	for i := 0; i < parents.Len(); i++ {
		t := "(framework root)"
		if m := parents.At(i); img.NodeKind(m) != kgimg.FrameworkNode {
			if t = img.NodeString(m, kgimg.NodeStatementType); t == "" {
				t = "(none)"
			}
		}
		if !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	sort.Strings(types)
	return strings.Join(types, " + ")
}

// bfsAll returns the minimum hasChild depth of every node reachable from root.
func bfsAll(img *kgimg.Image, root uint32) (map[uint32]int, []uint32, bool) {
	return bfsDepths(img, img.Adjacency(kgimg.HasChild, kgimg.Out), root)
}

func bfsDepths(img *kgimg.Image, adj kgimg.Adjacency, root uint32) (map[uint32]int, []uint32, bool) {
	order, depths, complete := graph.Walk(adj, root, math.MaxInt32, math.MaxInt32)
	return depths, order, complete
}

func componentStatistics(p *catalog.Package) ComponentStatistics {
	img := p.Img
	down := img.Adjacency(kgimg.Supports, kgimg.Out)
	up := img.Adjacency(kgimg.Supports, kgimg.In)
	comps, supports, multi := 0, 0, 0
	minC, maxC := math.Inf(1), math.Inf(-1)
	span := map[int]int{}
	supportedTypes := map[string]bool{}
	tags := map[string]bool{}
	for n := 0; n < img.NodeCount(); n++ {
		o := uint32(n)
		if img.NodeKind(o) != kgimg.ComponentNode {
			continue
		}
		comps++
		for _, t := range img.NodeTags(o).Views() {
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
			for _, g := range img.NodeGradeLevel(s).Views() {
				gradesSeen[g] = true
			}
			if img.RelHas(rels.At(i), kgimg.RPSupportConfidence) {
				c := img.RelConfidence(rels.At(i))
				minC, maxC = math.Min(minC, c), math.Max(maxC, c)
			}
		}
		span[len(gradesSeen)]++
	}
	types := []string{}
	for t := range supportedTypes {
		types = append(types, t)
	}
	sort.Strings(types)
	without := 0
	perStandard := map[int]int{}
	for n := 0; n < img.NodeCount(); n++ {
		o := uint32(n)
		if img.NodeKind(o) != kgimg.ItemNode || !supportedTypes[img.NodeString(o, kgimg.NodeStatementType)] {
			continue
		}
		d := up.Degree(o)
		perStandard[d]++
		if d == 0 {
			without++
		}
	}
	out := ComponentStatistics{
		TotalLearningComponents: comps, TotalSupportsRelationships: supports, MultiStandardComponentCount: multi,
		SupportedStatementTypes: types, StandardsWithoutComponents: without, TagVocabularySize: len(tags),
		ComponentsPerStandardCounts: intCounts(perStandard, intValueCount), BridgeSpanCounts: intCounts(span, intValueCount),
	}
	if comps > 0 && !math.IsInf(minC, 1) {
		out.SupportConfidenceMinimum, out.SupportConfidenceMaximum = &minC, &maxC
	}
	return out
}
