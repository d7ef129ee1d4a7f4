// Package digraph holds the graph algorithms the compiler needs more than once.
package digraph

import "sort"

// StronglyConnected returns the strongly connected components of a directed
// graph given as adjacency lists over nodes 0..len(adj)-1 (iterative
// Tarjan: no recursion, whatever the depth), each component sorted, the
// components in order of their smallest node.
func StronglyConnected(adj [][]int) [][]int {
	n := len(adj)
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var comps [][]int
	var st []int
	next := 0
	type frame struct{ v, i int }
	for start := 0; start < n; start++ {
		if index[start] >= 0 {
			continue
		}
		call := []frame{{start, 0}}
		index[start], low[start] = next, next
		next++
		st = append(st, start)
		onStack[start] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.i < len(adj[f.v]) {
				w := adj[f.v][f.i]
				f.i++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					st = append(st, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] && index[w] < low[f.v] {
					low[f.v] = index[w]
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				if u := call[len(call)-1].v; low[v] < low[u] {
					low[u] = low[v]
				}
			}
			if low[v] == index[v] {
				var comp []int
				for {
					w := st[len(st)-1]
					st = st[:len(st)-1]
					onStack[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				sort.Ints(comp)
				comps = append(comps, comp)
			}
		}
	}
	sort.Slice(comps, func(i, j int) bool { return comps[i][0] < comps[j][0] })
	return comps
}
