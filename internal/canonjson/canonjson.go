// Package canonjson writes canonical JSON: object keys sorted by code point,
// compact separators, non-ASCII characters written literally, and only the
// escapes Python's json.dumps(ensure_ascii=False) uses. Hashes, cursors and
// comparisons of JSON content in this module go through it.
package canonjson

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/jsonv"
)

// Encode returns the canonical encoding of a parsed value. Number literals are
// kept exactly as written.
func Encode(v *jsonv.Value) []byte {
	return appendValue(nil, v)
}

// AppendValue appends the canonical encoding of a parsed value to b (Encode
// into a buffer the caller reuses).
func AppendValue(b []byte, v *jsonv.Value) []byte {
	return appendValue(b, v)
}

func keyOrder(a, b jsonv.Member) int { return strings.Compare(a.Key, b.Key) }

func appendValue(b []byte, v *jsonv.Value) []byte {
	switch v.Kind {
	case jsonv.Null:
		return append(b, "null"...)
	case jsonv.Bool:
		if v.Bool {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case jsonv.Number:
		return append(b, v.Str...)
	case jsonv.String:
		return appendString(b, v.Str)
	case jsonv.Array:
		b = append(b, '[')
		for i, el := range v.Arr {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, el)
		}
		return append(b, ']')
	default:
		// Keys in order (as a canonical document's are) need no sorted copy.
		members := v.Obj
		if !slices.IsSortedFunc(members, keyOrder) {
			members = slices.Clone(members)
			slices.SortStableFunc(members, keyOrder)
		}
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, m.Key)
			b = append(b, ':')
			b = appendValue(b, m.Val)
		}
		return append(b, '}')
	}
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string literal.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		b = appendEscape(b, c)
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendEscape writes the escape of an ASCII byte JSON strings must escape.
func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '"':
		return append(b, '\\', '"')
	case '\\':
		return append(b, '\\', '\\')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// Marshal encodes a Go value canonically. The common dynamic types (maps with
// string keys, slices, strings, booleans, integers, floats, nil and
// json.RawMessage) are encoded directly; typed values (structs with json tags,
// pointers, typed slices and maps) by an encoder built once per type with the
// fields sorted (typed.go). Both give the bytes encoding/json followed by a
// canonical re-encoding would.
func Marshal(v any) ([]byte, error) {
	t := reflect.TypeOf(v)
	n := 4096
	if h, ok := sizeHints.Load(t); ok {
		n = h.(int)
	}
	b, err := appendAny(make([]byte, 0, n), v)
	if err == nil && (len(b) > n || len(b) < n/2) {
		// The next value of this type starts with room for this one (and a
		// little more): no regrowing the buffer on every result.
		sizeHints.Store(t, max(4096, len(b)+len(b)/8))
	}
	return b, err
}

// Append appends the canonical encoding of v to b (Marshal into a buffer the
// caller reuses, for encodings hashed or written piece by piece).
func Append(b []byte, v any) ([]byte, error) { return appendAny(b, v) }

// sizeHints remembers, per type, how large its last encoding was.
var sizeHints sync.Map // reflect.Type → int

func appendAny(b []byte, v any) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendValidString(b, x), nil
	case bool:
		if x {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case uint32:
		return strconv.AppendUint(b, uint64(x), 10), nil
	case float64:
		return appendFloat(b, x)
	case map[string]any:
		if x == nil {
			return append(b, "null"...), nil
		}
		var small [16]string
		keys := small[:0]
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValidString(b, k)
			b = append(b, ':')
			if b, err = appendAny(b, x[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []any:
		return appendSlice(b, x == nil, len(x), func(b []byte, i int) ([]byte, error) { return appendAny(b, x[i]) })
	case []map[string]any:
		return appendSlice(b, x == nil, len(x), func(b []byte, i int) ([]byte, error) { return appendAny(b, x[i]) })
	case []string:
		return appendSlice(b, x == nil, len(x), func(b []byte, i int) ([]byte, error) { return appendValidString(b, x[i]), nil })
	case json.RawMessage:
		tree, errs := jsonv.Parse(x)
		if tree == nil || len(errs) > 0 {
			return nil, fmt.Errorf("canonjson: raw message: %v", errs)
		}
		return appendValue(b, tree), nil
	}
	return appendTyped(b, v)
}

// appendSlice encodes a slice (a nil slice is null, as in encoding/json).
func appendSlice(b []byte, isNil bool, n int, el func([]byte, int) ([]byte, error)) ([]byte, error) {
	if isNil {
		return append(b, "null"...), nil
	}
	var err error
	b = append(b, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = el(b, i); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendFloat writes a float64 as encoding/json does.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("canonjson: unsupported float %v", f)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 → e-9, as encoding/json writes it.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// appendValidString writes s as appendString does, with each invalid UTF-8
// byte replaced by U+FFFD, as encoding/json replaces them, in one pass.
func appendValidString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if c >= 0x20 && c != '"' && c != '\\' {
				continue
			}
			b = append(b, s[start:i-1]...)
			b = appendEscape(b, c)
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\ufffd"...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendReflected encodes any other value through encoding/json, then
// canonically.
func appendReflected(b []byte, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	tree, errs := jsonv.Parse(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	if tree == nil {
		return nil, fmt.Errorf("canonjson: %v", errs)
	}
	return appendValue(b, tree), nil
}

// Sha256 returns "sha256:<hex>" of the canonical encoding of v.
func Sha256(v any) (string, error) {
	b, err := Marshal(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}
