// Package jsonv is a strict JSON parser that keeps what a validation gate needs:
// byte offsets of every value, members in document order, duplicate-key detection
// and exact number literals. It accepts only RFC 8259 JSON in valid UTF-8 (no
// BOM, no lone surrogates, no NaN or comments) and never panics on any input.
//
// Parse returns a tree of *Value; the schema decoders in this module walk that tree
// with an Obj reader that reports every problem it meets instead of stopping at the
// first.
package jsonv

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The JSON kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// String returns the JSON name of the kind ("null", "boolean", …).
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	case Object:
		return "object"
	}
	return "unknown"
}

// Value is one parsed JSON value. Str holds the decoded text of a string or the
// exact literal of a number; Arr and Obj hold children in document order.
type Value struct {
	Kind Kind
	Off  int // byte offset of the value's first byte in the parsed input
	Bool bool
	Str  string
	Arr  []*Value
	Obj  []Member
}

// Member is one key/value pair of an object.
type Member struct {
	Key    string
	KeyOff int
	Val    *Value
}

// Get returns the value of the first member named key, or nil.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for i := range v.Obj {
		if v.Obj[i].Key == key {
			return v.Obj[i].Val
		}
	}
	return nil
}

// ErrorKind classifies a parse problem.
type ErrorKind uint8

// Parse problem kinds. Only DuplicateKey is not fatal: the tree is still returned.
const (
	SyntaxError ErrorKind = iota
	InvalidUTF8
	DuplicateKey
	TooDeep
)

// Error is one parse problem at a byte offset.
type Error struct {
	Kind ErrorKind
	Off  int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("offset %d: %s", e.Off, e.Msg) }

// maxDepth bounds nesting of arrays and objects.
const maxDepth = 256

// Parse parses exactly one JSON value surrounded by optional whitespace. On a
// fatal problem it returns a nil value and that one error; duplicate keys are
// reported (all of them) alongside the tree.
func Parse(data []byte) (*Value, []*Error) {
	return parse(parser{data: data})
}

type parser struct {
	data  []byte
	pos   int
	fatal *Error
	dups  []*Error
	// a, when set, is where values, members and elements come from, and
	// strings without escapes are views of data (Parser).
	a *arena
}

func (p *parser) fail(kind ErrorKind, off int, format string, args ...any) *Value {
	if p.fatal == nil {
		p.fatal = &Error{Kind: kind, Off: off, Msg: fmt.Sprintf(format, args...)}
	}
	return nil
}

func (p *parser) ws() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) *Value {
	if p.pos >= len(p.data) {
		return p.fail(SyntaxError, p.pos, "unexpected end of input")
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, ok := p.str()
		if !ok {
			return nil
		}
		return p.newValue(Value{Kind: String, Off: start, Str: s})
	case c == 't':
		return p.literal("true", Value{Kind: Bool, Off: start, Bool: true})
	case c == 'f':
		return p.literal("false", Value{Kind: Bool, Off: start})
	case c == 'n':
		return p.literal("null", Value{Kind: Null, Off: start})
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		return p.fail(SyntaxError, p.pos, "unexpected character %q", rune(c))
	}
}

func (p *parser) literal(word string, v Value) *Value {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return p.fail(SyntaxError, p.pos, "invalid literal")
	}
	p.pos += len(word)
	return p.newValue(v)
}

func (p *parser) object(depth int) *Value {
	if depth >= maxDepth {
		return p.fail(TooDeep, p.pos, "nesting deeper than %d", maxDepth)
	}
	v := p.newValue(Value{Kind: Object, Off: p.pos})
	p.pos++ // '{'
	p.ws()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return v
	}
	// Small objects look for repeated keys by scanning; large ones (a detailed
	// provenance map keyed by a million node IDs) by a set, so parsing stays linear.
	var keys map[string]struct{}
	var members []Member // the members so far (in an arena: the top of its stack)
	base := 0
	if p.a != nil {
		base = len(p.a.mstack)
	}
	for {
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return p.fail(SyntaxError, p.pos, "expected an object key")
		}
		keyOff := p.pos
		key, ok := p.str()
		if !ok {
			return nil
		}
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return p.fail(SyntaxError, p.pos, "expected ':' after an object key")
		}
		p.pos++
		p.ws()
		val := p.value(depth + 1)
		if p.fatal != nil {
			return nil
		}
		if p.a != nil {
			members = p.a.mstack[base:]
		}
		if repeated(members, &keys, key) {
			p.dups = append(p.dups, &Error{Kind: DuplicateKey, Off: keyOff, Msg: fmt.Sprintf("duplicate key %q", key)})
		}
		if p.a != nil {
			p.a.mstack = append(p.a.mstack, Member{Key: key, KeyOff: keyOff, Val: val})
		} else {
			members = append(members, Member{Key: key, KeyOff: keyOff, Val: val})
		}
		p.ws()
		if p.pos >= len(p.data) {
			return p.fail(SyntaxError, p.pos, "unexpected end of input in an object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			if p.a != nil {
				v.Obj = p.a.members(base)
			} else {
				v.Obj = members
			}
			return v
		default:
			return p.fail(SyntaxError, p.pos, "expected ',' or '}' in an object")
		}
	}
}

// smallObject is the member count up to which repeated keys are found by a
// scan; beyond it a set of the keys is kept.
const smallObject = 32

// repeated reports whether key is already a key of members, keeping keys (the
// set of member keys) once the object is no longer small.
func repeated(members []Member, keys *map[string]struct{}, key string) bool {
	if len(members) < smallObject {
		for i := range members {
			if members[i].Key == key {
				return true
			}
		}
		return false
	}
	if *keys == nil {
		*keys = make(map[string]struct{}, 2*len(members))
		for i := range members {
			(*keys)[members[i].Key] = struct{}{}
		}
	}
	if _, ok := (*keys)[key]; ok {
		return true
	}
	(*keys)[key] = struct{}{}
	return false
}

func (p *parser) array(depth int) *Value {
	if depth >= maxDepth {
		return p.fail(TooDeep, p.pos, "nesting deeper than %d", maxDepth)
	}
	v := p.newValue(Value{Kind: Array, Off: p.pos})
	p.pos++ // '['
	p.ws()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return v
	}
	var elems []*Value
	base := 0
	if p.a != nil {
		base = len(p.a.estack)
	}
	for {
		p.ws()
		el := p.value(depth + 1)
		if p.fatal != nil {
			return nil
		}
		switch {
		case p.a != nil:
			p.a.estack = append(p.a.estack, el)
		default:
			elems = append(elems, el)
		}
		p.ws()
		if p.pos >= len(p.data) {
			return p.fail(SyntaxError, p.pos, "unexpected end of input in an array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			if p.a != nil {
				v.Arr = p.a.elements(base)
			} else {
				v.Arr = elems
			}
			return v
		default:
			return p.fail(SyntaxError, p.pos, "expected ',' or ']' in an array")
		}
	}
}

func (p *parser) number() *Value {
	start := p.pos
	d := p.data
	if p.pos < len(d) && d[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(d) && d[p.pos] == '0':
		p.pos++
	case p.pos < len(d) && d[p.pos] >= '1' && d[p.pos] <= '9':
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
		}
	default:
		return p.fail(SyntaxError, p.pos, "invalid number")
	}
	if p.pos < len(d) && d[p.pos] == '.' {
		p.pos++
		n := p.pos
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
		}
		if p.pos == n {
			return p.fail(SyntaxError, p.pos, "invalid number: digits expected after '.'")
		}
	}
	if p.pos < len(d) && (d[p.pos] == 'e' || d[p.pos] == 'E') {
		p.pos++
		if p.pos < len(d) && (d[p.pos] == '+' || d[p.pos] == '-') {
			p.pos++
		}
		n := p.pos
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
		}
		if p.pos == n {
			return p.fail(SyntaxError, p.pos, "invalid number: digits expected in the exponent")
		}
	}
	return p.newValue(Value{Kind: Number, Off: start, Str: p.view(d[start:p.pos])})
}

// str parses a string starting at the opening quote and returns its decoded text.
func (p *parser) str() (string, bool) {
	d := p.data
	start := p.pos
	p.pos++ // opening quote
	// Fast path: no escapes. Eight bytes at a time while they hold no
	// quote, backslash or control character; the UTF-8 check is needed only
	// when one had its high bit set.
	i := p.pos
	ascii := true
	for ; i+8 <= len(d); i += 8 {
		w := binary.LittleEndian.Uint64(d[i:])
		if special(w) != 0 {
			break
		}
		ascii = ascii && w&hiBits == 0
	}
	words := i // the bytes before words are checked, and ascii says whether they are ASCII
	for i < len(d) {
		c := d[i]
		if c == '"' {
			s := d[p.pos:i]
			if !(ascii && isASCII(d[words:i])) && !utf8.Valid(s) {
				p.badUTF8(p.pos, i)
				return "", false
			}
			p.pos = i + 1
			return p.view(s), true
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			p.fail(SyntaxError, i, "control character in a string")
			return "", false
		}
		i++
	}
	if i >= len(d) {
		p.fail(SyntaxError, start, "unterminated string")
		return "", false
	}
	buf := make([]byte, 0, i-p.pos+16)
	buf = append(buf, d[p.pos:i]...)
	if !utf8.Valid(buf) {
		p.badUTF8(p.pos, i)
		return "", false
	}
	p.pos = i
	for p.pos < len(d) {
		c := d[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(buf), true
		case c < 0x20:
			p.fail(SyntaxError, p.pos, "control character in a string")
			return "", false
		case c == '\\':
			if p.pos+1 >= len(d) {
				p.fail(SyntaxError, p.pos, "unterminated escape")
				return "", false
			}
			e := d[p.pos+1]
			p.pos += 2
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return "", false
				}
				if utf16.IsSurrogate(r) {
					if r >= 0xDC00 {
						p.fail(SyntaxError, p.pos-6, "lone low surrogate in \\u escape")
						return "", false
					}
					if p.pos+1 >= len(d) || d[p.pos] != '\\' || d[p.pos+1] != 'u' {
						p.fail(SyntaxError, p.pos-6, "lone high surrogate in \\u escape")
						return "", false
					}
					p.pos += 2
					r2, ok := p.hex4()
					if !ok {
						return "", false
					}
					if r2 < 0xDC00 || r2 > 0xDFFF {
						p.fail(SyntaxError, p.pos-6, "invalid surrogate pair in \\u escape")
						return "", false
					}
					r = utf16.DecodeRune(r, r2)
				}
				buf = utf8.AppendRune(buf, r)
			default:
				p.fail(SyntaxError, p.pos-2, "invalid escape '\\%c'", e)
				return "", false
			}
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			p.pos++
		default:
			r, size := utf8.DecodeRune(d[p.pos:])
			if r == utf8.RuneError && size <= 1 {
				p.fail(InvalidUTF8, p.pos, "invalid UTF-8")
				return "", false
			}
			buf = append(buf, d[p.pos:p.pos+size]...)
			p.pos += size
		}
	}
	p.fail(SyntaxError, start, "unterminated string")
	return "", false
}

// Word-at-a-time tests on eight bytes read little-endian.
const (
	loBits = 0x0101010101010101
	hiBits = 0x8080808080808080
)

// special returns zero when no byte of w is a quote, a backslash or a
// control character (below 0x20), and a word with the high bit of at least
// the first such byte set otherwise (the usual has-zero-byte and
// has-less-than tests, whose borrows can mark more bytes after a first one:
// a caller looks at the bytes one by one from a word where it is not zero).
func special(w uint64) uint64 {
	quote := w ^ (loBits * '"')
	backslash := w ^ (loBits * '\\')
	return ((quote-loBits)&^quote | (backslash-loBits)&^backslash | (w-loBits*0x20)&^w) & hiBits
}

// isASCII reports whether b holds only bytes below 0x80.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func (p *parser) badUTF8(from, to int) {
	off := from
	for off < to {
		r, size := utf8.DecodeRune(p.data[off:to])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		off += size
	}
	p.fail(InvalidUTF8, off, "invalid UTF-8")
}

func (p *parser) hex4() (rune, bool) {
	if len(p.data)-p.pos < 4 {
		p.fail(SyntaxError, p.pos, "short \\u escape")
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		p.fail(SyntaxError, p.pos, "invalid \\u escape")
		return 0, false
	}
	p.pos += 4
	return rune(n), true
}
