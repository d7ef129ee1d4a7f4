package jsonv

import "unsafe"

// Parser parses one document after another into memory it reuses: the values,
// members and elements of a tree come from its arena, and strings without
// escapes are views of the parsed bytes. The tree Parse returns, and every
// string in it, is therefore valid only until the next call and only while the
// parsed bytes are unchanged: a caller copies (strings.Clone) whatever it keeps.
// Errors and their messages are exactly those of the package-level Parse.
//
// The delivery decoder parses millions of JSONL lines with one Parser, so a
// line costs no allocation beyond what the caller keeps.
type Parser struct{ a arena }

// Parse parses data as the package-level Parse does.
func (ps *Parser) Parse(data []byte) (*Value, []*Error) {
	ps.a.clear()
	return parse(parser{data: data, a: &ps.a})
}

func parse(p parser) (*Value, []*Error) {
	p.ws()
	v := p.value(0)
	if p.fatal != nil {
		return nil, []*Error{p.fatal}
	}
	p.ws()
	if p.pos < len(p.data) {
		return nil, []*Error{{Kind: SyntaxError, Off: p.pos, Msg: "unexpected data after the JSON value"}}
	}
	return v, p.dups
}

// newValue returns a new value holding v.
func (p *parser) newValue(v Value) *Value {
	if p.a == nil {
		// Not &v: taking v's address on one path moves v to the heap on all.
		out := new(Value)
		*out = v
		return out
	}
	out := &p.a.vals.alloc(1)[0]
	*out = v
	return out
}

// view returns b as a string: a copy, or in an arena a view of b.
func (p *parser) view(b []byte) string {
	if p.a == nil {
		return string(b)
	}
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// arena is the memory of a Parser: slabs of values, members and elements, and
// the stacks where an object's members and an array's elements wait until the
// container is closed and they are copied into a slab.
type arena struct {
	vals   slab[Value]
	mems   slab[Member]
	elems  slab[*Value]
	mstack []Member
	estack []*Value
}

// clear makes every slab's memory free for the next document.
func (a *arena) clear() {
	a.vals.at, a.mems.at, a.elems.at = slabMark{}, slabMark{}, slabMark{}
	a.mstack, a.estack = a.mstack[:0], a.estack[:0]
}

// members moves the members above base on the stack into the slab.
func (a *arena) members(base int) []Member {
	n := len(a.mstack) - base
	if n == 0 {
		return nil
	}
	out := a.mems.alloc(n)
	copy(out, a.mstack[base:])
	clear(a.mstack[base:])
	a.mstack = a.mstack[:base]
	return out
}

// elements moves the elements above base on the stack into the slab.
func (a *arena) elements(base int) []*Value {
	n := len(a.estack) - base
	if n == 0 {
		return nil
	}
	out := a.elems.alloc(n)
	copy(out, a.estack[base:])
	clear(a.estack[base:])
	a.estack = a.estack[:base]
	return out
}

// slabChunk is how many items a slab allocates at a time.
const slabChunk = 1024

// slab hands out runs of items from chunks it keeps for reuse.
type slab[T any] struct {
	chunks [][]T
	at     slabMark
}

type slabMark struct{ chunk, used int }

func (s *slab[T]) alloc(n int) []T {
	for s.at.chunk < len(s.chunks) {
		if c := s.chunks[s.at.chunk]; s.at.used+n <= len(c) {
			out := c[s.at.used : s.at.used+n : s.at.used+n]
			s.at.used += n
			return out
		}
		s.at = slabMark{s.at.chunk + 1, 0}
	}
	// A new chunk at the end; a run longer than a chunk gets its own.
	c := make([]T, max(n, slabChunk))
	s.chunks = append(s.chunks, c)
	s.at = slabMark{len(s.chunks) - 1, n}
	return c[:n:n]
}
