package render

import (
	"strings"
	"unicode"
)

// Plain returns s with its Markdown inline emphasis shown as the words: the
// delimiters of each span of *x*, _x_, **x**, __x__ or ***x*** are dropped
// and the words kept (statements in CASE packages mark variables so, as in
// "a fraction *a*/*b*"). Delimiters are paired as CommonMark pairs them: a
// run of * or _ opens a span when it is followed by a word, closes one when
// it follows a word, and _ neither opens nor closes inside a word
// (snake_case stays); a delimiter that pairs with nothing is kept as written
// ("6 * 4", "*X Vectors"), and \* and \_ are a literal * and _. Nothing else
// changes: the result is text, which the writers escape like any other, never
// markup.
func Plain(s string) string {
	if !strings.ContainsAny(s, "*_") {
		return s
	}
	rs := []rune(s)
	drop := make([]bool, len(rs))
	type opener struct {
		start, end int // the run's delimiters not yet paired: rs[start:end]
	}
	// The openers waiting for a closer, one stack for * and one for _: a
	// closer pairs with the nearest opener of its kind, so each delimiter is
	// pushed and popped at most once.
	open := map[rune][]opener{}
	punct := func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }
	for i := 0; i < len(rs); {
		r := rs[i]
		if r == '\\' && i+1 < len(rs) && (rs[i+1] == '*' || rs[i+1] == '_') {
			drop[i] = true
			i += 2
			continue
		}
		if r != '*' && r != '_' {
			i++
			continue
		}
		j := i
		for j < len(rs) && rs[j] == r {
			j++
		}
		// The start and end of the text count as white space.
		prev, next := ' ', ' '
		if i > 0 {
			prev = rs[i-1]
		}
		if j < len(rs) {
			next = rs[j]
		}
		left := !unicode.IsSpace(next) && (!punct(next) || unicode.IsSpace(prev) || punct(prev))
		right := !unicode.IsSpace(prev) && (!punct(prev) || unicode.IsSpace(next) || punct(next))
		canOpen, canClose := left, right
		if r == '_' {
			canOpen = left && (!right || punct(prev))
			canClose = right && (!left || punct(next))
		}
		start := i
		for stack := open[r]; canClose && start < j && len(stack) > 0; stack = open[r] {
			o := &stack[len(stack)-1]
			m := min(o.end-o.start, j-start)
			for x := o.end - m; x < o.end; x++ {
				drop[x] = true
			}
			for x := start; x < start+m; x++ {
				drop[x] = true
			}
			o.end -= m
			start += m
			if o.start == o.end {
				open[r] = stack[:len(stack)-1]
			}
			// The other kind's openers inside the span are closed by
			// nothing: spans nest, never cross.
			other := '_'
			if r == '_' {
				other = '*'
			}
			for in := open[other]; len(in) > 0 && in[len(in)-1].start > o.start; in = open[other] {
				open[other] = in[:len(in)-1]
			}
		}
		if start < j && canOpen {
			open[r] = append(open[r], opener{start: start, end: j})
		}
		i = j
	}
	var b strings.Builder
	for i, r := range rs {
		if !drop[i] {
			b.WriteRune(r)
		}
	}
	return b.String()
}
