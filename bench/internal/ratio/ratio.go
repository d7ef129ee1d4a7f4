// Package ratio summarises two sides measured interleaved as the spread of
// their ratio: the samples (calls, spawns, runs) are cut into consecutive
// blocks of the same rounds on both sides, the ratio is taken per block (or
// per pair of runs), and the figure is the median of those ratios with their
// minimum and maximum, "1.23× (1.10–1.41)". One ratio of two pooled figures
// hides how much a busy machine moved it; the spread over blocks shows it,
// and a side cannot win by being measured at a quieter moment, since every
// block holds both sides' samples of the same rounds.
package ratio

import (
	"fmt"
	"sort"
	"time"
)

// Spread is the median of a set of ratios with their minimum and maximum.
type Spread struct {
	Median, Min, Max float64
	N                int // how many ratios
}

// Of is the spread of rs (the median of an even count is the mean of the two
// middle values). rs is not modified.
func Of(rs []float64) Spread {
	if len(rs) == 0 {
		return Spread{}
	}
	s := append([]float64(nil), rs...)
	sort.Float64s(s)
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return Spread{Median: med, Min: s[0], Max: s[n-1], N: n}
}

// String is "median× (min–max)", or "median×" for a single ratio, and "—"
// for none; two decimals, none from 100 on.
func (s Spread) String() string {
	switch s.N {
	case 0:
		return "—"
	case 1:
		return num(s.Median) + "×"
	}
	return num(s.Median) + "× (" + num(s.Min) + "–" + num(s.Max) + ")"
}

func num(x float64) string {
	if x >= 100 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// Blocks cuts a and b, the two sides' samples in the order of the interleaved
// rounds that took them (a[i] and b[i] from round i), into n consecutive
// blocks and returns the spread of the ratio of a's median to b's over the
// blocks. n is clamped to [1, min(len(a), len(b))]; with no samples it is the
// empty Spread.
func Blocks(a, b []time.Duration, n int) Spread {
	size := min(len(a), len(b))
	if size == 0 {
		return Spread{}
	}
	n = max(1, min(n, size))
	rs := make([]float64, n)
	for k := range rs {
		lo, hi := k*size/n, (k+1)*size/n
		rs[k] = float64(Median(a[lo:hi])) / float64(Median(b[lo:hi]))
	}
	return Of(rs)
}

// Pairs is the spread of a[i]/b[i]: runs taken in pairs, one of each side.
func Pairs(a, b []float64) Spread {
	rs := make([]float64, min(len(a), len(b)))
	for i := range rs {
		rs[i] = a[i] / b[i]
	}
	return Of(rs)
}

// Median is the median of d (the mean of the two middle values of an even
// count); d is not modified.
func Median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	n := len(s)
	if n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[n/2]
}

// BlockSize says how many of samples each of Blocks' n blocks holds: "4", or
// "40–41" when they do not divide evenly.
func BlockSize(samples, n int) string {
	n = max(1, min(n, samples))
	if samples == 0 {
		return "0"
	}
	lo, hi := samples/n, (samples+n-1)/n
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}
