package digraph

import (
	"fmt"
	"testing"
)

func TestStronglyConnected(t *testing.T) {
	for _, c := range []struct {
		adj  [][]int
		want string
	}{
		{[][]int{}, "[]"},
		{[][]int{{1}, {2}, {0}, {}}, "[[0 1 2] [3]]"},
		{[][]int{{1}, {}, {3}, {2}}, "[[0] [1] [2 3]]"},
		{[][]int{{0}}, "[[0]]"}, // a self-loop is one component of one node
		{[][]int{{3}, {0}, {1}, {2, 4}, {}}, "[[0 1 2 3] [4]]"},
	} {
		if got := fmt.Sprint(StronglyConnected(c.adj)); got != c.want {
			t.Errorf("%v: %s, want %s", c.adj, got, c.want)
		}
	}
	// A long chain: no recursion to overflow.
	n := 1 << 20
	adj := make([][]int, n)
	for i := 0; i < n-1; i++ {
		adj[i] = []int{i + 1}
	}
	adj[n-1] = []int{0}
	if comps := StronglyConnected(adj); len(comps) != 1 || len(comps[0]) != n {
		t.Errorf("a cycle of %d nodes: %d components", n, len(comps))
	}
}
