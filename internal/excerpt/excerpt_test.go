package excerpt

import (
	"fmt"
	"testing"
)

func TestChars(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
		cut  bool
	}{
		{"", 3, "", false}, {"abc", 3, "abc", false}, {"abcd", 3, "abc", true},
		{"aé😀b", 3, "aé😀", true}, {"aé😀", 3, "aé😀", false}, {"😀😀", 1, "😀", true}, {"x", 0, "", true},
	} {
		if got, cut := Chars(c.in, c.n); got != c.want || cut != c.cut {
			t.Errorf("Chars(%q, %d) = %q, %v", c.in, c.n, got, cut)
		}
	}
}

func TestList(t *testing.T) {
	got, cut, omitted := List([]string{"aaaa", "b", "c"}, 2, 2)
	if fmt.Sprint(got) != "[aa b]" || !cut || omitted != 1 {
		t.Errorf("List = %v %v %d", got, cut, omitted)
	}
	got, cut, omitted = List(nil, 5, 10)
	if got == nil || len(got) != 0 || cut || omitted != 0 {
		t.Errorf("List(nil) = %#v %v %d", got, cut, omitted)
	}
}
