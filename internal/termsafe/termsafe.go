// Package termsafe writes text from untrusted content (statements, codes,
// identifiers, item types, a server's names) to a terminal without letting it
// drive the terminal: control characters (C0 but line feed and tab, DEL, C1),
// the bidirectional controls that reorder what is shown, and invalid UTF-8
// are written as Go escapes (\x1b, \u009b, \u202e), as kgc pack quotes
// values. Everything else passes through unchanged. JSON written through a
// Writer stays JSON: encoding/json escapes C0 controls and invalid UTF-8
// itself, and what is left (DEL, C1, bidirectional controls) is written as
// \u escapes, which JSON strings read back as the same characters.
package termsafe

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// unsafe reports whether r must be escaped (line feed and tab pass: a
// writer's own layout uses them).
func unsafe(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case BidiControl(r):
		return true
	}
	return false
}

// BidiControl reports the invisible characters that reorder text (the
// Arabic letter mark, LRM/RLM, the embeddings, overrides and isolates):
// shown to a person, they make text read otherwise than it is.
func BidiControl(r rune) bool {
	return r == 0x061C || r == 0x200E || r == 0x200F || 0x202A <= r && r <= 0x202E || 0x2066 <= r && r <= 0x2069
}

// escape writes the escape of one rune (or of one invalid byte b).
func escape(sb *strings.Builder, r rune, b byte, invalid bool) {
	switch {
	case invalid:
		fmt.Fprintf(sb, `\x%02x`, b)
	case r < 0x7f:
		fmt.Fprintf(sb, `\x%02x`, r)
	default:
		fmt.Fprintf(sb, `\u%04x`, r)
	}
}

// String returns s with every unsafe character escaped; line feeds and tabs
// too, so the value stays on its line.
func String(s string) string {
	if clean(s, false) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			escape(&sb, 0, s[i], true)
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\t':
			sb.WriteString(`\t`)
		case unsafe(r):
			escape(&sb, r, 0, false)
		default:
			sb.WriteString(s[i : i+n])
		}
		i += n
	}
	return sb.String()
}

// clean reports whether s needs no escape (layout: line feeds and tabs
// allowed).
func clean(s string, layout bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || unsafe(r) || (!layout && (r == '\n' || r == '\t')) {
			return false
		}
		i += n
	}
	return true
}

// Writer escapes what is written through it, keeping line feeds and tabs
// (the layout of the text written). A rune split across writes is held back
// until it is whole.
type Writer struct {
	w       io.Writer
	pending []byte // the start of a rune split across writes
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write escapes p and writes it; it reports len(p) written unless w failed.
func (t *Writer) Write(p []byte) (int, error) {
	buf := append(t.pending, p...)
	t.pending = nil
	// Hold back an incomplete rune at the end.
	end := len(buf)
	for k := 1; k < utf8.UTFMax && end-k >= 0; k++ {
		if utf8.RuneStart(buf[end-k]) {
			if !utf8.FullRune(buf[end-k:]) {
				t.pending = append([]byte(nil), buf[end-k:]...)
				end -= k
			}
			break
		}
	}
	s := string(buf[:end])
	if !clean(s, true) {
		var sb strings.Builder
		for i := 0; i < len(s); {
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				escape(&sb, 0, s[i], true)
			case unsafe(r):
				escape(&sb, r, 0, false)
			default:
				sb.WriteString(s[i : i+n])
			}
			i += n
		}
		s = sb.String()
	}
	if _, err := io.WriteString(t.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a rune left incomplete at the end (escaped as the invalid
// bytes it is).
func (t *Writer) Flush() error {
	if len(t.pending) == 0 {
		return nil
	}
	var sb strings.Builder
	for _, b := range t.pending {
		escape(&sb, 0, b, true)
	}
	t.pending = nil
	_, err := io.WriteString(t.w, sb.String())
	return err
}
