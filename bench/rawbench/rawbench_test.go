package main

import "testing"

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
