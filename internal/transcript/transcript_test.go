package transcript

import (
	"os"
	"path/filepath"
	"testing"
)

// TestShippedTranscriptsRoundTrip: every golden transcript parses, and
// formats back to its own bytes.
func TestShippedTranscriptsRoundTrip(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "cmd", "kgmcp", "testdata", "transcripts", "*", "*.txtar"))
	if len(files) < 50 {
		t.Fatalf("%d transcripts", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if tr.Request == "" || tr.Response == "" {
			t.Errorf("%s: empty request or response", f)
		}
		if got := tr.Format(); string(got) != string(b) {
			t.Errorf("%s does not format back to its bytes", f)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, bad := range []string{
		"no sections\n",
		"-- request --\na\nb\n",
		"-- request --\n{}\n-- other --\nx\n",
		"-- request --\n{}\n-- request --\n{}\n",
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
