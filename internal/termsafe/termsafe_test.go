package termsafe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, é ü 中":          "plain text, é ü 中",
		"\x1b]0;pwned\x07title":      `\x1b]0;pwned\x07title`,
		"clear\x1b[2J":               `clear\x1b[2J`,
		"c1 \u009b31m csi":           `c1 \u009b31m csi`,
		"bidi \u202eevil\u2066":      `bidi \u202eevil\u2066`,
		"bad \xff byte":              `bad \xff byte`,
		"two\nlines\tand tab\x7fDEL": `two\nlines\tand tab\u007fDEL`,
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWriterKeepsLayoutAndRunesSplitAcrossWrites: line feeds and tabs pass,
// controls are escaped, and a rune cut between two writes is written whole.
func TestWriterKeepsLayoutAndRunesSplitAcrossWrites(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	in := "a\tb\n\x1b[2Jé中\u009b\n"
	raw := []byte(in)
	for i := range raw { // one byte a write: every rune is split
		if _, err := w.Write(raw[i : i+1]); err != nil {
			t.Fatal(err)
		}
	}
	w.Write([]byte{0xe4, 0xb8}) // an incomplete rune at the end
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := "a\tb\n\\x1b[2Jé中\\u009b\n\\xe4\\xb8"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// TestJSONStaysJSON: what encoding/json leaves raw (DEL, C1, bidi) comes out
// as \u escapes that decode to the same string.
func TestJSONStaysJSON(t *testing.T) {
	in := "a\x7f\u0085\u009b\u202e\x1b\xff é"
	b, _ := json.Marshal(map[string]string{"k": in})
	var out bytes.Buffer
	w := NewWriter(&out)
	w.Write(b)
	w.Flush()
	var back map[string]string
	if err := json.Unmarshal(out.Bytes(), &back); err != nil || back["k"] != strings.ToValidUTF8(in, "\ufffd") {
		t.Errorf("%q -> %q: %v %q", b, out.Bytes(), err, back["k"])
	}
	if bytes.ContainsAny(out.Bytes(), "\x7f\u0085\u009b\u202e") {
		t.Errorf("raw controls in %q", out.Bytes())
	}
}
