package profile

import (
	"fmt"
	"strings"
	"time"

	"github.com/dlclark/regexp2/v2"
)

// matchTimeout bounds one match of a profile regex. Profiles are trusted
// configuration, but backtracking patterns can still blow up on odd input.
const matchTimeout = 250 * time.Millisecond

// Regex is a compiled profile regular expression. Profiles are written for
// Python's re (lookahead, \1 backreferences in replacements); regexp2 accepts that
// syntax where Go's RE2 engine does not.
type Regex struct {
	re   *regexp2.Regexp
	full *regexp2.Regexp // the pattern anchored at both ends, for FullMatch
}

// CompileRegex compiles a Python-flavoured pattern.
func CompileRegex(pattern string) (*Regex, error) {
	net := pythonToNET(pattern)
	re, err := regexp2.Compile(net, regexp2.None)
	if err != nil {
		return nil, err
	}
	full, err := regexp2.Compile(`\A(?:`+net+`)\z`, regexp2.None)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout, full.MatchTimeout = matchTimeout, matchTimeout
	return &Regex{re: re, full: full}, nil
}

// pythonToNET rewrites Python-only group syntax: (?P<name>…) → (?<name>…) and
// (?P=name) → \k<name>.
func pythonToNET(p string) string {
	p = strings.ReplaceAll(p, "(?P<", "(?<")
	for {
		i := strings.Index(p, "(?P=")
		if i < 0 {
			return p
		}
		j := strings.IndexByte(p[i:], ')')
		if j < 0 {
			return p
		}
		p = p[:i] + `\k<` + p[i+4:i+j] + `>` + p[i+j+1:]
	}
}

// Search reports whether the pattern matches anywhere in s (Python re.search).
func (r *Regex) Search(s string) (bool, error) {
	return r.re.MatchString(s)
}

// FullMatch reports whether the pattern matches all of s (Python re.fullmatch).
func (r *Regex) FullMatch(s string) (bool, error) {
	return r.full.MatchString(s)
}

// Substitute applies a Python re.sub replacement (\1, \g<1>, \g<name>) to every
// match in s.
func (r *Regex) Substitute(s, pyReplacement string) (string, error) {
	rep, err := pythonReplacement(pyReplacement)
	if err != nil {
		return "", err
	}
	return r.re.Replace(s, rep, -1, -1)
}

// pythonReplacement converts a Python replacement template to regexp2's syntax.
func pythonReplacement(py string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(py); i++ {
		c := py[i]
		switch {
		case c == '$':
			b.WriteString("$$")
		case c == '\\' && i+1 < len(py):
			n := py[i+1]
			switch {
			case n >= '0' && n <= '9':
				j := i + 1
				for j < len(py) && j < i+3 && py[j] >= '0' && py[j] <= '9' {
					j++
				}
				b.WriteString("${" + py[i+1:j] + "}")
				i = j - 1
			case n == 'g' && i+2 < len(py) && py[i+2] == '<':
				end := strings.IndexByte(py[i+3:], '>')
				if end < 0 {
					return "", fmt.Errorf("unterminated \\g<…> in replacement")
				}
				b.WriteString("${" + py[i+3:i+3+end] + "}")
				i = i + 3 + end
			case n == '\\':
				b.WriteByte('\\')
				i++
			case n == 'n':
				b.WriteByte('\n')
				i++
			case n == 't':
				b.WriteByte('\t')
				i++
			default:
				return "", fmt.Errorf("unknown escape \\%c in replacement", n)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}
