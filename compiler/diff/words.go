package diff

import "strings"

// Word-diff operations.
const (
	opEqual  = "equal"
	opDelete = "delete"
	opInsert = "insert"
)

// wordOp is one run of a word-level diff: words kept, deleted from the old
// statement or inserted into the new one, joined by single spaces.
type wordOp struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

// maxLCSCells bounds the table of the longest-common-subsequence search: two
// statements whose differing middles are longer are shown as one deletion and
// one insertion (after their common first and last words).
const maxLCSCells = 1 << 22

// wordDiff returns the word-level diff of two statements (words are split at
// white space): a longest common subsequence of words, deletions before
// insertions within each changed run. The same inputs give the same ops.
func wordDiff(old, new string) []wordOp {
	a, b := strings.Fields(old), strings.Fields(new)
	var ops []wordOp
	emit := func(op string, words []string) {
		if len(words) == 0 {
			return
		}
		text := strings.Join(words, " ")
		if n := len(ops); n > 0 && ops[n-1].Op == op {
			ops[n-1].Text += " " + text
			return
		}
		ops = append(ops, wordOp{Op: op, Text: text})
	}
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	emit(opEqual, a[:pre])
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma)*len(mb) > maxLCSCells || len(ma) == 0 || len(mb) == 0 {
		emit(opDelete, ma)
		emit(opInsert, mb)
	} else {
		lcsOps(ma, mb, emit)
	}
	emit(opEqual, a[len(a)-suf:])
	return ops
}

// lcsOps emits the diff of a and b through a longest common subsequence,
// each changed run as its deletions then its insertions.
func lcsOps(a, b []string, emit func(string, []string)) {
	n, m := len(a), len(b)
	// l[i*(m+1)+j] is the LCS length of a[i:] and b[j:].
	l := make([]int32, (n+1)*(m+1))
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case a[i] == b[j]:
				l[i*(m+1)+j] = l[(i+1)*(m+1)+j+1] + 1
			case l[(i+1)*(m+1)+j] >= l[i*(m+1)+j+1]:
				l[i*(m+1)+j] = l[(i+1)*(m+1)+j]
			default:
				l[i*(m+1)+j] = l[i*(m+1)+j+1]
			}
		}
	}
	var del, ins []string
	flush := func() {
		emit(opDelete, del)
		emit(opInsert, ins)
		del, ins = del[:0], ins[:0]
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			flush()
			emit(opEqual, a[i:i+1])
			i++
			j++
		case l[(i+1)*(m+1)+j] >= l[i*(m+1)+j+1]:
			del = append(del, a[i])
			i++
		default:
			ins = append(ins, b[j])
			j++
		}
	}
	del = append(del, a[i:]...)
	ins = append(ins, b[j:]...)
	flush()
}
