// Package excerpt cuts texts to character budgets, for the bounded evidence
// excerpts of the progression tools and summary (docs/reference/tools.md): the compiler's
// stored summary and the server's results cut the same way.
package excerpt

// Chars cuts s to at most n characters (code points) and reports whether it cut.
func Chars(s string, n int) (string, bool) {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos], true
		}
		i++
	}
	return s, false
}

// List returns at most max texts, each cut to chars characters, whether any was
// cut or left out, and how many were left out.
func List(texts []string, max, chars int) (excerpts []string, excerpted bool, omitted int) {
	excerpts = []string{}
	for i, t := range texts {
		if i == max {
			return excerpts, true, len(texts) - max
		}
		e, cut := Chars(t, chars)
		excerpts = append(excerpts, e)
		excerpted = excerpted || cut
	}
	return excerpts, excerpted, 0
}
