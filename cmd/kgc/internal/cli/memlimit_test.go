package cli

import (
	"strings"
	"testing"
)

func TestSoftMemoryLimit(t *testing.T) {
	for in, want := range map[string]int64{
		"MemTotal:       24576000 kB\nMemFree: 1 kB\n": 24576000 * 1024 / 3 * 2,
		"MemFree:        1 kB\nMemTotal: 3 kB\n":       2 * 1024,
		"MemTotal: lots kB\n":                          0,
		"MemTotal: 100 MB\n":                           0,
		"":                                             0,
	} {
		if got := softMemoryLimit(strings.NewReader(in)); got != want {
			t.Errorf("%q: %d, want %d", in, got, want)
		}
	}
}
