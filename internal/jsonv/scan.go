package jsonv

import "fmt"

// Part is one piece of a document that Scan hands out: a member of the
// top-level object, an element of the top-level array, or an element of the
// array of a top-level member that is split.
type Part struct {
	// Key and KeyOff are the top-level member's key and its offset ("" and
	// -1 for an element of a top-level array).
	Key    string
	KeyOff int
	// Index is the element's position in its array, or -1 for a whole
	// member.
	Index int
	Val   *Value
}

// Scan parses data exactly as Parse does (it accepts the same documents and
// returns the same errors) without holding the tree of the whole document:
// the members of a top-level object, or the elements of a top-level array,
// are handed to fn one at a time as they are parsed, each a tree in memory
// the next one reuses. A top-level member for which split(key) is true and
// whose value is an array is handed out first as an empty array (Index -1,
// no elements) and then element by element (Index counting from 0); split
// may be nil. A scalar document is handed out as one part.
//
// A part, its key and every string in it are valid only until fn returns
// (strings are views of data: fn copies what it keeps). Duplicate keys are
// found as Parse finds them, and reported with the first fatal error's
// absence: so a caller that gets any error has been handed parts of a
// document Parse would not have accepted whole, and discards what it took
// from them. top is the kind of the top-level value (Null when the document
// does not start with one).
//
// Parsing a 172 MB provenance map with Parse builds some 10 million values at
// once; with Scan its memory is that of its largest entry.
func (ps *Parser) Scan(data []byte, split func(key string) bool, fn func(Part)) (top Kind, errs []*Error) {
	ps.a.clear()
	p := parser{data: data, a: &ps.a}
	p.ws()
	if p.pos < len(p.data) {
		switch p.data[p.pos] {
		case '{':
			top = Object
			p.scanObject(split, fn)
		case '[':
			top = Array
			p.scanArray(0, "", -1, fn)
		default:
			if v := p.value(0); v != nil {
				top = v.Kind
				fn(Part{KeyOff: -1, Index: -1, Val: v})
			}
		}
	} else {
		p.value(0) // the error Parse reports
	}
	if p.fatal != nil {
		return top, []*Error{p.fatal}
	}
	p.ws()
	if p.pos < len(p.data) {
		return top, []*Error{{Kind: SyntaxError, Off: p.pos, Msg: "unexpected data after the JSON value"}}
	}
	return top, p.dups
}

// mark is a position in an arena's slabs to come back to.
type mark struct{ vals, mems, elems slabMark }

func (a *arena) mark() mark { return mark{a.vals.at, a.mems.at, a.elems.at} }

// release frees everything allocated since m for reuse.
func (a *arena) release(m mark) { a.vals.at, a.mems.at, a.elems.at = m.vals, m.mems, m.elems }

// scanObject is object at depth 0 handing out each member (see Scan).
// Its errors are object's, in the same order.
func (p *parser) scanObject(split func(string) bool, fn func(Part)) {
	start := p.mark()
	p.pos++ // '{'
	p.ws()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return
	}
	var keys []string
	var set map[string]struct{}
	for {
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			p.fail(SyntaxError, p.pos, "expected an object key")
			return
		}
		keyOff := p.pos
		key, ok := p.str()
		if !ok {
			return
		}
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			p.fail(SyntaxError, p.pos, "expected ':' after an object key")
			return
		}
		p.pos++
		p.ws()
		var val *Value
		switch {
		case split != nil && p.pos < len(p.data) && p.data[p.pos] == '[' && split(key):
			fn(Part{Key: key, KeyOff: keyOff, Index: -1, Val: p.newValue(Value{Kind: Array, Off: p.pos})})
			p.scanArray(1, key, keyOff, fn)
		default:
			val = p.value(1)
		}
		if p.fatal != nil {
			return
		}
		if repeatedKey(keys, &set, key) {
			p.dups = append(p.dups, &Error{Kind: DuplicateKey, Off: keyOff, Msg: fmt.Sprintf("duplicate key %q", key)})
		}
		keys = append(keys, key)
		if val != nil {
			fn(Part{Key: key, KeyOff: keyOff, Index: -1, Val: val})
		}
		p.a.release(start)
		p.ws()
		if p.pos >= len(p.data) {
			p.fail(SyntaxError, p.pos, "unexpected end of input in an object")
			return
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return
		default:
			p.fail(SyntaxError, p.pos, "expected ',' or '}' in an object")
			return
		}
	}
}

// scanArray is array at the given depth handing out each element (see Scan)
// as part of the member key. Its errors are array's.
func (p *parser) scanArray(depth int, key string, keyOff int, fn func(Part)) {
	start := p.mark()
	p.pos++ // '['
	p.ws()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return
	}
	for i := 0; ; i++ {
		p.ws()
		el := p.value(depth + 1)
		if p.fatal != nil {
			return
		}
		fn(Part{Key: key, KeyOff: keyOff, Index: i, Val: el})
		p.a.release(start)
		p.ws()
		if p.pos >= len(p.data) {
			p.fail(SyntaxError, p.pos, "unexpected end of input in an array")
			return
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return
		default:
			p.fail(SyntaxError, p.pos, "expected ',' or ']' in an array")
			return
		}
	}
}

func (p *parser) mark() mark { return p.a.mark() }

// repeatedKey is repeated over a list of keys.
func repeatedKey(keys []string, set *map[string]struct{}, key string) bool {
	if len(keys) < smallObject {
		for _, k := range keys {
			if k == key {
				return true
			}
		}
		return false
	}
	if *set == nil {
		*set = make(map[string]struct{}, 2*len(keys))
		for _, k := range keys {
			(*set)[k] = struct{}{}
		}
	}
	if _, ok := (*set)[key]; ok {
		return true
	}
	(*set)[key] = struct{}{}
	return false
}
