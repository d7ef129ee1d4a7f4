package ratio

import (
	"testing"
	"time"
)

func ms(v ...int) []time.Duration {
	var d []time.Duration
	for _, x := range v {
		d = append(d, time.Duration(x)*time.Millisecond)
	}
	return d
}

// A ratio is the median of the blocks' median ratios, with their min and max.
func TestBlocks(t *testing.T) {
	a := ms(1, 1, 2, 2, 3, 3)
	b := ms(2, 2, 2, 2, 2, 2)
	for _, c := range []struct {
		n    int
		want string
	}{
		{3, "1.00× (0.50–1.50)"},
		{1, "1.00×"},
		{2, "1.00× (0.50–1.50)"}, // blocks 1,1,2 and 2,3,3: medians 1 and 3
		{99, "1.00× (0.50–1.50)"},
	} {
		if got := Blocks(a, b, c.n).String(); got != c.want {
			t.Errorf("Blocks(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	// Blocks follow the rounds: a slow stretch in the middle of both sides
	// cancels out, where pooled medians would not see it.
	a, b = ms(2, 2, 20, 20, 2, 2), ms(1, 1, 10, 10, 1, 1)
	if s := Blocks(a, b, 3); s.Median != 2 || s.Min != 2 || s.Max != 2 {
		t.Errorf("Blocks over a slow stretch = %+v, want 2× in every block", s)
	}
	if s := Blocks(nil, b, 3); s.String() != "—" {
		t.Errorf("no samples: %q", s.String())
	}
}

func TestOfAndPairs(t *testing.T) {
	if s := Of([]float64{3, 1, 2, 10}); s.Median != 2.5 || s.Min != 1 || s.Max != 10 || s.N != 4 {
		t.Errorf("Of = %+v", s)
	}
	if got, want := Pairs([]float64{2, 3, 4}, []float64{1, 2, 2}).String(), "2.00× (1.50–2.00)"; got != want {
		t.Errorf("Pairs = %q, want %q", got, want)
	}
	if got, want := Pairs([]float64{569.7, 1100.6, 50}, []float64{1, 1, 1}).String(), "570× (50.00–1101)"; got != want {
		t.Errorf("Pairs = %q, want %q", got, want)
	}
	if got := Median(ms(3, 1, 2, 4)); got != 2500*time.Microsecond {
		t.Errorf("Median = %v", got)
	}
}

func TestBlockSize(t *testing.T) {
	for _, c := range []struct {
		samples, n int
		want       string
	}{{200, 5, "40"}, {10, 5, "2"}, {11, 5, "2–3"}, {3, 5, "1"}, {0, 5, "0"}} {
		if got := BlockSize(c.samples, c.n); got != c.want {
			t.Errorf("BlockSize(%d, %d) = %q, want %q", c.samples, c.n, got, c.want)
		}
	}
}
