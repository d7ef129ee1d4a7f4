package pkggen

import (
	"fmt"
	"sort"
	"strconv"
)

// Statement types of generated packages.
const (
	typeGrade     = "Grade"
	typeStrand    = "Strand"
	typeStandard  = "Content Standard"
	typeIndicator = "Indicator"
)

type gnode struct {
	id, kind, statementType, normType string
	description, code, grade          string
	tags                              []string
	parent                            int // index of the parent node (-1 for the root)
	fallback                          bool
}

type grel struct {
	id, label     string
	src, tgt      int
	fallback      bool
	confidence    string
	pair          string // claim pair ID for progression edges
	first, second int    // claim endpoints (first/second in claim order)
}

type claim struct {
	pair, decision, direction string
	first, second             int
	confidence                string
	rationale                 string
}

type ggraph struct {
	spec          Spec
	nodes         []gnode
	rels          []grel
	claims        []claim
	indicators    map[[4]int]int // (grade, strand, standard, indicator) → node index
	indicatorList []int          // node indexes of the indicators in generation order
	standardIndex map[[3]int]int
}

func (g *ggraph) add(n gnode) int {
	g.nodes = append(g.nodes, n)
	return len(g.nodes) - 1
}

func pick(list []string, i int) string { return list[i%len(list)] }

func gradeNumber(spec Spec, g int) string {
	if g < len(spec.GradeNumbers) {
		return spec.GradeNumbers[g]
	}
	return strconv.Itoa(g + 1)
}

func newGraph(spec Spec) *ggraph {
	g := &ggraph{spec: spec, indicators: map[[4]int]int{}, standardIndex: map[[3]int]int{}}
	root := g.add(gnode{id: uuidFor(spec.FrameworkID + ":root"), kind: "StandardsFramework", parent: -1})
	topics, verbs := spec.Topics, spec.Verbs
	unresolvedLeft := spec.Unresolved
	for gi, label := range spec.GradeLabels {
		grade := gradeNumber(spec, gi)
		gn := g.add(gnode{id: uuidFor(fmt.Sprintf("%s:g%d", spec.FrameworkID, gi)), kind: "StandardsFrameworkItem",
			statementType: typeGrade, normType: "Standard Grouping", description: label, grade: grade, parent: root})
		for si := 0; si < spec.Strands; si++ {
			strandTopic := pick(topics, si*7+1)
			sn := g.add(gnode{id: uuidFor(fmt.Sprintf("%s:g%d:s%d", spec.FrameworkID, gi, si)), kind: "StandardsFrameworkItem",
				statementType: typeStrand, normType: "Standard Grouping", grade: grade, parent: gn,
				description: fmt.Sprintf("Strand %d: %s", si+1, titleCase(strandTopic))})
			for ki := 0; ki < spec.Standards; ki++ {
				topic := pick(topics, si*spec.Standards+ki)
				code := ""
				if spec.Codes {
					strandNo := si + 1
					if spec.RepeatCodes {
						strandNo = 1
					}
					code = fmt.Sprintf("%s%s.%d.%d", spec.CodePrefix, grade, strandNo, ki+1)
				}
				kn := g.add(gnode{id: uuidFor(fmt.Sprintf("%s:g%d:s%d:k%d", spec.FrameworkID, gi, si, ki)), kind: "StandardsFrameworkItem",
					statementType: typeStandard, normType: "Standard", grade: grade, parent: sn, code: code,
					description: fmt.Sprintf("Demonstrate understanding of %s appropriate to %s.", topic, label)})
				g.standardIndex[[3]int{gi, si, ki}] = kn
				for ii := 0; ii < spec.Indicators; ii++ {
					icode := ""
					if spec.Codes {
						icode = fmt.Sprintf("%s.%d", code, ii+1)
					}
					verb := pick(verbs, gi+si+ki+ii)
					n := gnode{id: uuidFor(fmt.Sprintf("%s:g%d:s%d:k%d:i%d", spec.FrameworkID, gi, si, ki, ii)), kind: "StandardsFrameworkItem",
						statementType: typeIndicator, normType: "Standard", grade: grade, parent: kn, code: icode,
						description: fmt.Sprintf("%s %s, step %d of %d, in %s.", verb, topic, ii+1, spec.Indicators, label)}
					last := gi == len(spec.GradeLabels)-1 && si == spec.Strands-1 && ki == spec.Standards-1
					if last && unresolvedLeft > 0 && spec.Indicators-ii <= spec.Unresolved {
						n.parent, n.fallback = root, true
						unresolvedLeft--
					}
					g.indicators[[4]int{gi, si, ki, ii}] = g.add(n)
					g.indicatorList = append(g.indicatorList, len(g.nodes)-1)
				}
			}
		}
	}
	g.addHierarchy()
	if spec.Components {
		g.addComponents()
	}
	if spec.Progressions {
		g.addProgressions()
	}
	return g
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	b := []byte(s)
	if b[0] >= 'a' && b[0] <= 'z' {
		b[0] -= 'a' - 'A'
	}
	return string(b)
}

func (g *ggraph) addHierarchy() {
	for i, n := range g.nodes {
		if n.parent < 0 {
			continue
		}
		p := g.nodes[n.parent]
		g.rels = append(g.rels, grel{id: uuidFor("hasChild:" + p.id + ":" + n.id), label: "hasChild", src: n.parent, tgt: i, fallback: n.fallback})
	}
}

func (g *ggraph) addComponents() {
	spec := g.spec
	keys := make([][4]int, 0, len(g.indicators))
	for k := range g.indicators {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return g.indicators[keys[i]] < g.indicators[keys[j]] })
	count := 0
	for _, k := range keys {
		ind := g.indicators[k]
		topic := pick(spec.Topics, k[1]*spec.Standards+k[2])
		lc := g.add(gnode{id: uuidFor(fmt.Sprintf("%s:lc:%d:%d:%d:%d", spec.FrameworkID, k[0], k[1], k[2], k[3])), kind: "LearningComponent",
			description: fmt.Sprintf("Recognise and use %s (part %d)", topic, k[3]+1),
			tags:        []string{topic, fmt.Sprintf("part %d", k[3]+1)}, parent: -1})
		conf := []string{"0.95", "0.9", "0.85", "0.8"}[count%4]
		g.rels = append(g.rels, grel{id: uuidFor("supports:" + g.nodes[lc].id + ":" + g.nodes[ind].id), label: "supports", src: lc, tgt: ind, confidence: conf})
		if count%5 == 0 {
			if next, ok := g.indicators[[4]int{k[0], k[1], k[2], k[3] + 1}]; ok {
				g.rels = append(g.rels, grel{id: uuidFor("supports:" + g.nodes[lc].id + ":" + g.nodes[next].id), label: "supports", src: lc, tgt: next, confidence: "0.7"})
			}
		}
		count++
	}
}

func (g *ggraph) addProgressions() {
	spec := g.spec
	var lp []grel
	edge := func(label string, a, b int, direction string) {
		src, tgt := a, b
		if label == "relatesTo" && g.nodes[a].id > g.nodes[b].id {
			src, tgt = b, a
		}
		r := grel{id: uuidFor(label + ":" + g.nodes[src].id + ":" + g.nodes[tgt].id), label: label, src: src, tgt: tgt,
			pair: uuidFor("pair:" + g.nodes[a].id + ":" + g.nodes[b].id), first: a, second: b}
		lp = append(lp, r)
		g.claims = append(g.claims, claim{pair: r.pair, decision: label, direction: direction, first: a, second: b,
			confidence: "0.8", rationale: fmt.Sprintf("Synthetic sample judgment: %s between generated statements.", label)})
	}
	builds := func(a, b int) {
		// Claims name the pair in CASE order; direction says which way it builds.
		if g.nodes[a].id < g.nodes[b].id {
			edge("buildsTowards", a, b, "first_to_second")
		} else {
			edgeReversed(g, &lp, a, b)
		}
	}
	linked := map[[2]int]bool{} // unordered node pairs already joined by an edge
	for _, pair := range spec.Builds {
		a, b := g.indicatorList[pair[0]], g.indicatorList[pair[1]]
		builds(a, b)
		linked[[2]int{min(a, b), max(a, b)}] = true
	}
	free := func(a, b int) bool { return !linked[[2]int{min(a, b), max(a, b)}] }
	for gi := 0; gi+1 < len(spec.GradeLabels) && spec.Builds == nil; gi++ {
		for si := 0; si < progressionStrands(spec); si++ {
			for ki := 0; ki < spec.Standards; ki++ {
				for ii := 0; ii < spec.Indicators; ii++ {
					builds(g.indicators[[4]int{gi, si, ki, ii}], g.indicators[[4]int{gi + 1, si, ki, ii}])
				}
			}
		}
	}
	for gi := range spec.GradeLabels {
		for si := 0; si < progressionStrands(spec); si++ {
			for ki := 0; ki < spec.Standards; ki++ {
				for ii := 0; ii+1 < spec.Indicators; ii++ {
					if a, b := g.indicators[[4]int{gi, si, ki, ii}], g.indicators[[4]int{gi, si, ki, ii + 1}]; free(a, b) {
						edge("relatesTo", a, b, "")
					}
				}
				if spec.Indicators >= 3 && free(g.indicators[[4]int{gi, si, ki, 0}], g.indicators[[4]int{gi, si, ki, 2}]) {
					decision := "no_relation"
					if gi == 0 && si == 0 && ki == 0 {
						decision = "needs_review"
					}
					a, b := g.indicators[[4]int{gi, si, ki, 0}], g.indicators[[4]int{gi, si, ki, 2}]
					g.claims = append(g.claims, claim{pair: uuidFor("pair:" + g.nodes[a].id + ":" + g.nodes[b].id), decision: decision,
						first: a, second: b, confidence: "0.5", rationale: "Synthetic sample judgment: no stored relationship."})
				}
			}
		}
	}
	sort.Slice(lp, func(i, j int) bool {
		if lp[i].label != lp[j].label {
			return lp[i].label < lp[j].label
		}
		return lp[i].id < lp[j].id
	})
	g.rels = append(g.rels, lp...)
	sort.Slice(g.claims, func(i, j int) bool { return g.claims[i].pair < g.claims[j].pair })
}

// progressionStrands is how many strands (from the first) carry progressions.
func progressionStrands(spec Spec) int {
	if spec.ProgressionStrands > 0 && spec.ProgressionStrands < spec.Strands {
		return spec.ProgressionStrands
	}
	return spec.Strands
}

// edgeReversed adds a buildsTowards edge a → b whose claim lists the pair in CASE
// order (b first), so the claim's direction is second_to_first.
func edgeReversed(g *ggraph, lp *[]grel, a, b int) {
	r := grel{id: uuidFor("buildsTowards:" + g.nodes[a].id + ":" + g.nodes[b].id), label: "buildsTowards", src: a, tgt: b,
		pair: uuidFor("pair:" + g.nodes[b].id + ":" + g.nodes[a].id), first: b, second: a}
	*lp = append(*lp, r)
	g.claims = append(g.claims, claim{pair: r.pair, decision: "buildsTowards", direction: "second_to_first", first: b, second: a,
		confidence: "0.8", rationale: "Synthetic sample judgment: buildsTowards between generated statements."})
}
