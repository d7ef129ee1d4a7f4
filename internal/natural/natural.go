// Package natural orders strings as people read them: runs of digits compare
// as numbers (B5.1.3.1.2 before B5.1.3.1.10), letters without regard to case;
// and grade labels in school order (PK, K, 1, 2, … 12, then the rest).
package natural

import (
	"strconv"
	"strings"
)

// Compare compares a and b with their digit runs compared as numbers and
// letters without regard to case: negative when a comes first.
func Compare(a, b string) int {
	for a != "" && b != "" {
		ra, rb := run(a), run(b)
		da, db := isDigit(ra[0]), isDigit(rb[0])
		switch {
		case da && db:
			na, nb := strings.TrimLeft(ra, "0"), strings.TrimLeft(rb, "0")
			if len(na) != len(nb) {
				return len(na) - len(nb)
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
		default:
			if c := strings.Compare(strings.ToLower(ra), strings.ToLower(rb)); c != 0 {
				return c
			}
		}
		a, b = a[len(ra):], b[len(rb):]
	}
	return len(a) - len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// run is the leading run of digits, or of anything else, of s.
func run(s string) string {
	d := isDigit(s[0])
	i := 1
	for i < len(s) && isDigit(s[i]) == d {
		i++
	}
	return s[:i]
}

// gradeRank places a grade: pre-kindergarten, kindergarten, then numbered
// grades by number; ok is false for any other label.
func gradeRank(g string) (int, bool) {
	u := strings.ToUpper(strings.TrimSpace(g))
	switch u {
	case "PK", "PRE-K", "PREK", "PRE-KINDERGARTEN":
		return -2, true
	case "K", "KG", "KINDERGARTEN":
		return -1, true
	}
	u = strings.TrimPrefix(strings.TrimPrefix(u, "GRADE "), "G")
	if n, err := strconv.Atoi(u); err == nil {
		return n, true
	}
	return 0, false
}

// CompareGrades orders grade labels in school order: PK, K, 1, 2, … (also
// "03", "Grade 3"), then every other label in natural order.
func CompareGrades(a, b string) int {
	ra, oka := gradeRank(a)
	rb, okb := gradeRank(b)
	switch {
	case oka && okb && ra != rb:
		return ra - rb
	case oka != okb:
		if oka {
			return -1
		}
		return 1
	}
	return Compare(a, b)
}
