package query

import (
	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/runtime/kgerr"
)

// MaxResultBytes is the ceiling of every tool result's envelope (the text
// block plus its structured copy, in UTF-8 bytes). The contract sets it only
// for the access and progression tools (with a 100,000-character ceiling as
// well); kgmcp applies the byte ceiling to every tool: a list that would break
// it is cut before the element that would, and the result says so
// (truncationReason "byte_limit"); a result that cannot be cut is
// result_too_large.
const MaxResultBytes = 1 << 20

// ceiling is a bound on a result's envelope: bytes, and characters where the
// contract sets them (0: none).
type ceiling struct{ bytes, chars int }

var (
	// anyCeiling is every tool's.
	anyCeiling = ceiling{bytes: MaxResultBytes}
	// accessCeiling is the contract's for the progression tools and read_evidence.
	accessCeiling = ceiling{bytes: maxProgressionResultBytes, chars: maxProgressionResultChars}
)

// load is how full v's envelope makes the ceiling: at most 1 fits.
func (c ceiling) load(v any) (float64, error) {
	_, l, err := c.encode(v)
	return l, err
}

// encode is v's canonical JSON and its load.
func (c ceiling) encode(v any) ([]byte, float64, error) {
	b, err := canonjson.Marshal(v)
	if err != nil {
		return nil, 0, err
	}
	l := float64(2*len(b)) / float64(c.bytes)
	if c.chars > 0 {
		l = max(l, float64(2*utf8.RuneCount(b))/float64(c.chars))
	}
	return b, l, nil
}

// fits reports whether v's envelope holds under the ceiling.
func (c ceiling) fits(v any) (bool, error) {
	l, err := c.load(v)
	return l <= 1, err
}

// largestBelow returns the largest k in [0, n) whose build(k) fits, given
// that build(n) does not and that results grow with k; -1 when not even
// build(0) fits. It interpolates between the sizes measured so far (falling
// back to halving when a guess does not halve the interval), so a long list
// costs a few encodings rather than a bisection's log2 n.
func (c ceiling) largestBelow(n int, build func(k int) any) (int, error) {
	lo, hi := 0, n
	llo, err := c.load(build(0))
	if err != nil || llo > 1 {
		return -1, err
	}
	lhi, err := c.load(build(n))
	if err != nil {
		return 0, err
	}
	halve := false
	for hi-lo > 1 {
		k := lo + (hi-lo)/2
		if !halve && lhi > llo {
			k = lo + int(float64(hi-lo)*(1-llo)/(lhi-llo))
		}
		k = min(max(k, lo+1), hi-1)
		width := hi - lo
		l, err := c.load(build(k))
		if err != nil {
			return 0, err
		}
		if l <= 1 {
			lo, llo = k, l
		} else {
			hi, lhi = k, l
		}
		halve = !halve && 2*(hi-lo) > width
	}
	return lo, nil
}

// ResultTooLarge is the error of a result that cannot be cut to fit.
func ResultTooLarge(what string) error {
	return kgerr.New(kgerr.ResultTooLarge, "%s does not fit the %d-byte result ceiling", what, MaxResultBytes).
		WithHint("ask for less (lower limits or depths, a narrower selection), or read the records' resources, natively or with read_evidence")
}

// fitPrefix returns n when full fits the result ceiling, else the largest k
// below n whose build(k) fits (-1 when not even build(0) does).
func fitPrefix(full any, n int, build func(k int) any) (int, error) {
	if ok, err := anyCeiling.fits(full); err != nil || ok {
		return n, err
	}
	return anyCeiling.largestBelow(n, build)
}
