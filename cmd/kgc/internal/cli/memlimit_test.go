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

// TestPackageLimit: 1.5 times the package, at least 256 MiB, never above the
// machine's limit (none: no ceiling).
func TestPackageLimit(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ size, machine, want int64 }{
		{2 * mib, 16 << 30, 256 * mib},
		{2600 * mib, 16 << 30, 3900 * mib},
		{2600 * mib, 2 << 30, 2 << 30},
		{2600 * mib, 0, 3900 * mib},
	} {
		if got := packageLimit(c.size, c.machine); got != c.want {
			t.Errorf("packageLimit(%d, %d) = %d, want %d", c.size, c.machine, got, c.want)
		}
	}
}

// TestHeapShare: the package's limit less the image and a sixteenth, at
// least half of it; the whole limit without an image.
func TestHeapShare(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ limit, image, want int64 }{
		{3900 * mib, 0, 3900 * mib},
		{3900 * mib, 700 * mib, 3200*mib - 3900*mib/16},
		{3200 * mib, 1, 3000*mib - 1},
		{3900 * mib, 3000 * mib, 1950 * mib},
		{256 * mib, 200 * mib, 128 * mib},
	} {
		if got := heapShare(c.limit, c.image); got != c.want {
			t.Errorf("heapShare(%d, %d) = %d, want %d", c.limit, c.image, got, c.want)
		}
	}
}
