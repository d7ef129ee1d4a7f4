package main

import (
	"testing"
	"time"
)

// memoryMatches follows server-memory's search_nodes: a case-folded
// substring of the name, the type or an observation, with every relation
// that has an end among the matches.
func TestMemoryMatches(t *testing.T) {
	g := &graph{
		nodes: []gnode{
			{id: "a", code: "N1", kind: "Topic", description: "Whole Numbers to 100"},
			{id: "b", description: "Count objects", label: "LearningComponent"},
			{id: "c", kind: "Numbering", description: "Shapes"},
			{id: "d", description: "Time"},
		},
		edges: []gedge{{"hasChild", "a", "c"}, {"supports", "b", "a"}, {"hasChild", "d", "b"}},
	}
	if e, r := g.memoryMatches("NUMBER"); e != 2 || r != 2 {
		t.Errorf("NUMBER: %d entities, %d relations; want 2 (a by observation, c by type) and 2", e, r)
	}
	if e, r := g.memoryMatches("learningcomp"); e != 1 || r != 2 {
		t.Errorf("learningcomp: %d entities, %d relations; want 1 (b by its label as type) and 2", e, r)
	}
	if e, _ := g.memoryMatches("n1 a"); e != 1 {
		t.Errorf("n1 a: %d entities; want 1 (a by its name, code and ID)", e)
	}
}

// A ratio is the median of the blocks' p50 ratios, with their min and max.
func TestBlockRatios(t *testing.T) {
	ms := func(v ...int) sample {
		var s sample
		for _, x := range v {
			s.times = append(s.times, time.Duration(x)*time.Millisecond)
		}
		return s
	}
	a := ms(1, 1, 2, 2, 3, 3)
	b := ms(2, 2, 2, 2, 2, 2)
	if got, want := blockRatios(a, b, 3), "1.00× (0.50–1.50)"; got != want {
		t.Errorf("blockRatios = %q, want %q", got, want)
	}
	if got, want := blockRatios(a, b, 1), "1.00×"; got != want {
		t.Errorf("one block: %q, want %q", got, want)
	}
}
