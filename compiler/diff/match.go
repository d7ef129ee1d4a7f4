package diff

import (
	"slices"
	"strings"
)

// matchKey says which key paired an old node with a new one.
type matchKey uint8

// Match keys, tried in this order. The zero matchKey is that of an
// unpaired node.
const (
	// matchID: the same node ID.
	matchID matchKey = iota + 1
	// matchCaseUUID: the same caseIdentifierUUID (standards only).
	matchCaseUUID
	// matchCode: the same statementCode (standards only).
	matchCode
)

// String spells a key as the reports do.
func (k matchKey) String() string {
	switch k {
	case matchID:
		return "nodeId"
	case matchCaseUUID:
		return "caseUuid"
	case matchCode:
		return "statementCode"
	}
	return "none"
}

// matching pairs the nodes of two snapshots: oldToNew[i] is the new index of
// old node i (or -1), newToOld the reverse, by[i] the key that paired old
// node i.
type matching struct {
	oldToNew, newToOld []int32
	by                 []matchKey
}

// match pairs nodes by node ID (standards and learning components), then the
// standards still unpaired by CASE UUID, then by statement code. A key pairs
// two nodes only when it is non-empty and held by exactly one unpaired node of
// its kind on each side, so a duplicated UUID or code pairs nothing.
func match(a, b *Snapshot) *matching {
	m := &matching{oldToNew: fill(len(a.Nodes)), newToOld: fill(len(b.Nodes)), by: make([]matchKey, len(a.Nodes))}
	id := func(n *node) string { return n.ID }
	m.by1(a, b, kindItem, matchID, id)
	m.by1(a, b, kindComponent, matchID, id)
	m.by1(a, b, kindItem, matchCaseUUID, func(n *node) string { return n.CaseUUID })
	m.by1(a, b, kindItem, matchCode, func(n *node) string { return n.Code })
	return m
}

func fill(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = -1
	}
	return out
}

// by1 pairs the unpaired nodes of one kind whose key is unique on both sides.
func (m *matching) by1(a, b *Snapshot, kind uint8, how matchKey, key func(*node) string) {
	ao := candidates(a, kind, m.oldToNew, key)
	bo := candidates(b, kind, m.newToOld, key)
	i, j := 0, 0
	for i < len(ao) && j < len(bo) {
		ka, kb := key(&a.Nodes[ao[i]]), key(&b.Nodes[bo[j]])
		if c := strings.Compare(ka, kb); c != 0 {
			if c < 0 {
				i = skip(a, ao, i, key)
			} else {
				j = skip(b, bo, j, key)
			}
			continue
		}
		ni, nj := skip(a, ao, i, key), skip(b, bo, j, key)
		if ni-i == 1 && nj-j == 1 {
			m.oldToNew[ao[i]], m.newToOld[bo[j]], m.by[ao[i]] = bo[j], ao[i], how
		}
		i, j = ni, nj
	}
}

// candidates lists the unpaired nodes of a kind with a non-empty key, sorted
// by key (then index).
func candidates(s *Snapshot, kind uint8, paired []int32, key func(*node) string) []int32 {
	var out []int32
	for i := range s.Nodes {
		if s.Nodes[i].Kind == kind && paired[i] < 0 && key(&s.Nodes[i]) != "" {
			out = append(out, int32(i))
		}
	}
	slices.SortStableFunc(out, func(x, y int32) int { return strings.Compare(key(&s.Nodes[x]), key(&s.Nodes[y])) })
	return out
}

// skip returns the position after the run of equal keys starting at i.
func skip(s *Snapshot, list []int32, i int, key func(*node) string) int {
	k := key(&s.Nodes[list[i]])
	j := i + 1
	for j < len(list) && key(&s.Nodes[list[j]]) == k {
		j++
	}
	return j
}
