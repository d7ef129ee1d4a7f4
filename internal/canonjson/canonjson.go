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
	"sort"

	"github.com/kgc-project/kgc/internal/jsonv"
)

// Encode returns the canonical encoding of a parsed value. Number literals are
// kept exactly as written.
func Encode(v *jsonv.Value) []byte {
	return appendValue(nil, v)
}

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
		return AppendString(b, v.Str)
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
		members := make([]jsonv.Member, len(v.Obj))
		copy(members, v.Obj)
		sort.SliceStable(members, func(i, j int) bool { return members[i].Key < members[j].Key })
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, m.Key)
			b = append(b, ':')
			b = appendValue(b, m.Val)
		}
		return append(b, '}')
	}
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string literal.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Marshal encodes a Go value canonically: encoding/json (without HTML
// escaping) then re-encoded with sorted keys and compact separators.
func Marshal(v any) ([]byte, error) {
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
	return Encode(tree), nil
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
