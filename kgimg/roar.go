package kgimg

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// Bitmap is a read-only view of a roaring bitmap in the portable serialization
// format (RoaringFormatSpec), read in place from the image with no allocation.
// The image writer uses github.com/RoaringBitmap/roaring to produce it; the
// verifier checks every structural invariant before a Bitmap is handed out.
type Bitmap struct {
	buf     []byte
	n       int    // containers
	hdr     int    // offset of the descriptive header (key, card-1 pairs)
	runBits []byte // nil when no run containers
	offs    int    // offset of the offset header, or -1
	data    int    // offset of the first container (used when offs < 0)
}

const (
	serialCookieNoRun = 12346
	serialCookie      = 12347
	noOffsetThreshold = 4
	arrayMax          = 4096
	bitmapBytes       = 8192
)

// parseBitmap validates buf as a portable roaring bitmap whose values are all
// below limit, and returns a view of it.
func parseBitmap(buf []byte, limit uint64) (Bitmap, string) {
	var b Bitmap
	b.buf = buf
	if len(buf) < 8 {
		return b, "bitmap shorter than its cookie"
	}
	cookie := binary.LittleEndian.Uint32(buf)
	pos := 4
	switch {
	case cookie&0xffff == serialCookie:
		b.n = int(cookie>>16) + 1
		rb := (b.n + 7) / 8
		if pos+rb > len(buf) {
			return b, "run-container bitmap out of range"
		}
		b.runBits = buf[pos : pos+rb]
		pos += rb
	case cookie == serialCookieNoRun:
		b.n = int(binary.LittleEndian.Uint32(buf[4:]))
		pos = 8
	default:
		return b, "unknown roaring cookie"
	}
	if b.n > 1<<16 {
		return b, "too many containers"
	}
	b.hdr = pos
	pos += 4 * b.n
	b.offs = -1
	if b.runBits == nil || b.n >= noOffsetThreshold {
		b.offs = pos
		pos += 4 * b.n
	}
	if pos > len(buf) {
		return b, "container headers out of range"
	}
	b.data = pos
	prevKey := -1
	at := pos
	for i := 0; i < b.n; i++ {
		key := int(binary.LittleEndian.Uint16(buf[b.hdr+4*i:]))
		card := int(binary.LittleEndian.Uint16(buf[b.hdr+4*i+2:])) + 1
		if key <= prevKey {
			return b, "container keys are not strictly increasing"
		}
		prevKey = key
		if b.offs >= 0 {
			if o := int(binary.LittleEndian.Uint32(buf[b.offs+4*i:])); o != at {
				return b, "container offset disagrees with the layout"
			}
		}
		size, max, why := checkContainer(buf, at, b.isRun(i), card)
		if why != "" {
			return b, why
		}
		if uint64(key)<<16|uint64(max) >= limit {
			return b, "bitmap holds a value beyond the node count"
		}
		at += size
	}
	return b, ""
}

func (b *Bitmap) isRun(i int) bool { return b.runBits != nil && b.runBits[i/8]&(1<<(i%8)) != 0 }

// checkContainer validates one container at pos and returns its byte size and
// largest value.
func checkContainer(buf []byte, pos int, run bool, card int) (size int, max uint16, why string) {
	switch {
	case run:
		if pos+2 > len(buf) {
			return 0, 0, "run container out of range"
		}
		nr := int(binary.LittleEndian.Uint16(buf[pos:]))
		size = 2 + 4*nr
		if nr == 0 || pos+size > len(buf) {
			return 0, 0, "run container out of range"
		}
		total, next := 0, 0
		for r := 0; r < nr; r++ {
			start := int(binary.LittleEndian.Uint16(buf[pos+2+4*r:]))
			length := int(binary.LittleEndian.Uint16(buf[pos+4+4*r:])) + 1
			if start < next || start+length > 1<<16 {
				return 0, 0, "runs overlap, are unsorted or overflow"
			}
			next = start + length + 1
			total += length
			max = uint16(start + length - 1)
		}
		if total != card {
			return 0, 0, "run container cardinality disagrees with its header"
		}
		return size, max, ""
	case card <= arrayMax:
		size = 2 * card
		if pos+size > len(buf) {
			return 0, 0, "array container out of range"
		}
		prev := -1
		for j := 0; j < card; j++ {
			v := int(binary.LittleEndian.Uint16(buf[pos+2*j:]))
			if v <= prev {
				return 0, 0, "array container is not strictly increasing"
			}
			prev = v
		}
		return size, uint16(prev), ""
	default:
		if pos+bitmapBytes > len(buf) {
			return 0, 0, "bitmap container out of range"
		}
		total := 0
		for w := 0; w < bitmapBytes/8; w++ {
			word := binary.LittleEndian.Uint64(buf[pos+8*w:])
			total += bits.OnesCount64(word)
			if word != 0 {
				max = uint16(64*w + 63 - bits.LeadingZeros64(word))
			}
		}
		if total != card {
			return 0, 0, "bitmap container cardinality disagrees with its header"
		}
		return bitmapBytes, max, ""
	}
}

// container returns the i-th container's key, cardinality, kind and data offset.
func (b *Bitmap) container(i int) (key uint16, card int, run bool, pos int) {
	key = binary.LittleEndian.Uint16(b.buf[b.hdr+4*i:])
	card = int(binary.LittleEndian.Uint16(b.buf[b.hdr+4*i+2:])) + 1
	run = b.isRun(i)
	if b.offs >= 0 {
		return key, card, run, int(binary.LittleEndian.Uint32(b.buf[b.offs+4*i:]))
	}
	pos = b.data
	for j := 0; j < i; j++ {
		c := int(binary.LittleEndian.Uint16(b.buf[b.hdr+4*j+2:])) + 1
		pos += containerSize(b.buf, pos, b.isRun(j), c)
	}
	return key, card, run, pos
}

func containerSize(buf []byte, pos int, run bool, card int) int {
	switch {
	case run:
		return 2 + 4*int(binary.LittleEndian.Uint16(buf[pos:]))
	case card <= arrayMax:
		return 2 * card
	}
	return bitmapBytes
}

// Len returns the bitmap's cardinality.
func (b Bitmap) Len() int {
	n := 0
	for i := 0; i < b.n; i++ {
		n += int(binary.LittleEndian.Uint16(b.buf[b.hdr+4*i+2:])) + 1
	}
	return n
}

// containerHas reports whether low is in the container at pos.
func containerHas(buf []byte, pos int, run bool, card int, low uint16) bool {
	switch {
	case run:
		nr := int(binary.LittleEndian.Uint16(buf[pos:]))
		lo, hi := 0, nr
		for lo < hi {
			m := (lo + hi) / 2
			if binary.LittleEndian.Uint16(buf[pos+2+4*m:]) <= low {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo == 0 {
			return false
		}
		start := int(binary.LittleEndian.Uint16(buf[pos+2+4*(lo-1):]))
		length := int(binary.LittleEndian.Uint16(buf[pos+4+4*(lo-1):]))
		return int(low) <= start+length
	case card <= arrayMax:
		lo, hi := 0, card
		for lo < hi {
			m := (lo + hi) / 2
			v := binary.LittleEndian.Uint16(buf[pos+2*m:])
			switch {
			case v == low:
				return true
			case v < low:
				lo = m + 1
			default:
				hi = m
			}
		}
		return false
	}
	return buf[pos+int(low)/8]&(1<<(low%8)) != 0
}

// Contains reports whether v is in the bitmap.
func (b Bitmap) Contains(v uint32) bool {
	key := uint16(v >> 16)
	for i := 0; i < b.n; i++ {
		k, card, run, pos := b.container(i)
		if k == key {
			return containerHas(b.buf, pos, run, card, uint16(v))
		}
		if k > key {
			return false
		}
	}
	return false
}

// citer iterates the values of one container in ascending order.
type citer struct {
	buf      []byte
	pos      int
	run      bool
	card     int
	i        int    // array index, run index, or bitmap word index
	cur, end uint32 // current run value and its last value
	word     uint64
	started  bool
}

func (b *Bitmap) iter(i int) citer {
	_, card, run, pos := b.container(i)
	return citer{buf: b.buf, pos: pos, run: run, card: card}
}

func (it *citer) next() (uint16, bool) {
	switch {
	case it.run:
		if it.started && it.cur < it.end {
			it.cur++
			return uint16(it.cur), true
		}
		nr := int(binary.LittleEndian.Uint16(it.buf[it.pos:]))
		if it.i >= nr {
			return 0, false
		}
		it.cur = uint32(binary.LittleEndian.Uint16(it.buf[it.pos+2+4*it.i:]))
		it.end = it.cur + uint32(binary.LittleEndian.Uint16(it.buf[it.pos+4+4*it.i:]))
		it.i++
		it.started = true
		return uint16(it.cur), true
	case it.card <= arrayMax:
		if it.i >= it.card {
			return 0, false
		}
		v := binary.LittleEndian.Uint16(it.buf[it.pos+2*it.i:])
		it.i++
		return v, true
	default:
		for it.word == 0 {
			if it.i >= bitmapBytes/8 {
				return 0, false
			}
			it.word = binary.LittleEndian.Uint64(it.buf[it.pos+8*it.i:])
			it.i++
		}
		t := bits.TrailingZeros64(it.word)
		it.word &= it.word - 1
		return uint16(64*(it.i-1) + t), true
	}
}

// AppendTo appends every value, ascending, to dst.
func (b Bitmap) AppendTo(dst []uint32) []uint32 {
	for i := 0; i < b.n; i++ {
		key, _, _, _ := b.container(i)
		it := b.iter(i)
		for v, ok := it.next(); ok; v, ok = it.next() {
			dst = append(dst, uint32(key)<<16|uint32(v))
		}
	}
	return dst
}

// AppendAnd appends the intersection of a and b, ascending, to dst. With enough
// capacity in dst it does not allocate.
func AppendAnd(dst []uint32, a, b Bitmap) []uint32 {
	i, j := 0, 0
	for i < a.n && j < b.n {
		ka, ca, ra, pa := a.container(i)
		kb, cb, rb, pb := b.container(j)
		switch {
		case ka < kb:
			i++
			continue
		case kb < ka:
			j++
			continue
		}
		high := uint32(ka) << 16
		// Walk the smaller container, probe the larger.
		sbuf, sp, sr, sc, bbuf, bp, br, bc := a.buf, pa, ra, ca, b.buf, pb, rb, cb
		if cb < ca {
			sbuf, sp, sr, sc, bbuf, bp, br, bc = b.buf, pb, rb, cb, a.buf, pa, ra, ca
		}
		switch {
		case !sr && sc <= arrayMax:
			dst = andArray(dst, high, sbuf[sp:sp+2*sc], bbuf, bp, br, bc)
		case sr && br:
			dst = andRuns(dst, high, sbuf, sp, bbuf, bp)
		default:
			it := citer{buf: sbuf, pos: sp, run: sr, card: sc}
			for v, ok := it.next(); ok; v, ok = it.next() {
				if containerHas(bbuf, bp, br, bc, v) {
					dst = append(dst, high|uint32(v))
				}
			}
		}
		i++
		j++
	}
	return dst
}

// andRuns intersects two run containers range by range.
func andRuns(dst []uint32, high uint32, abuf []byte, ap int, bbuf []byte, bp int) []uint32 {
	na, nb := int(binary.LittleEndian.Uint16(abuf[ap:])), int(binary.LittleEndian.Uint16(bbuf[bp:]))
	i, j := 0, 0
	for i < na && j < nb {
		as := uint32(binary.LittleEndian.Uint16(abuf[ap+2+4*i:]))
		ae := as + uint32(binary.LittleEndian.Uint16(abuf[ap+4+4*i:]))
		bs := uint32(binary.LittleEndian.Uint16(bbuf[bp+2+4*j:]))
		be := bs + uint32(binary.LittleEndian.Uint16(bbuf[bp+4+4*j:]))
		if lo, hi := max(as, bs), min(ae, be); lo <= hi {
			dst = appendRange(dst, high|lo, int(hi-lo)+1)
		}
		if ae < be {
			i++
		} else {
			j++
		}
	}
	return dst
}

// appendRange appends n consecutive values starting at first.
func appendRange(dst []uint32, first uint32, n int) []uint32 {
	l := len(dst)
	dst = slices.Grow(dst, n)[:l+n]
	out := dst[l:]
	for k := range out {
		out[k] = first + uint32(k)
	}
	return dst
}

// andArray intersects a sorted array container (little-endian uint16s) with the
// container at bp in one forward pass.
func andArray(dst []uint32, high uint32, arr, bbuf []byte, bp int, brun bool, bc int) []uint32 {
	switch {
	case brun:
		nr := int(binary.LittleEndian.Uint16(bbuf[bp:]))
		runs := bbuf[bp+2 : bp+2+4*nr]
		r := 0
		start := uint32(binary.LittleEndian.Uint16(runs))
		end := start + uint32(binary.LittleEndian.Uint16(runs[2:]))
		for k := 0; k+2 <= len(arr); k += 2 {
			v := uint32(binary.LittleEndian.Uint16(arr[k:]))
			for v > end {
				r++
				if r == nr {
					return dst
				}
				start = uint32(binary.LittleEndian.Uint16(runs[4*r:]))
				end = start + uint32(binary.LittleEndian.Uint16(runs[4*r+2:]))
			}
			if v >= start {
				dst = append(dst, high|v)
			}
		}
	case bc <= arrayMax:
		other := bbuf[bp : bp+2*bc]
		k, m := 0, 0
		for k+2 <= len(arr) && m+2 <= len(other) {
			x, y := binary.LittleEndian.Uint16(arr[k:]), binary.LittleEndian.Uint16(other[m:])
			switch {
			case x < y:
				k += 2
			case y < x:
				m += 2
			default:
				dst = append(dst, high|uint32(x))
				k += 2
				m += 2
			}
		}
	default:
		words := bbuf[bp : bp+bitmapBytes]
		for k := 0; k+2 <= len(arr); k += 2 {
			v := binary.LittleEndian.Uint16(arr[k:])
			if words[v>>3]&(1<<(v&7)) != 0 {
				dst = append(dst, high|uint32(v))
			}
		}
	}
	return dst
}
