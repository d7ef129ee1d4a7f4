package finding

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/findings.md from the registry")

// Markdown renders the registry as the table in docs/findings.md.
func Markdown() string {
	var b strings.Builder
	b.WriteString("# Finding codes\n\n")
	b.WriteString("Generated from `schema/finding/registry.go` (`go test ./schema/finding -update`);\n")
	b.WriteString("`kgc validate --list-rules` prints the same list. Codes are API: never renamed.\n\n")
	b.WriteString("| code | stage | severity | meaning |\n|---|---|---|---|\n")
	for _, r := range Rules {
		b.WriteString("| `" + string(r.Code) + "` | " + string(r.Stage) + " | " + string(r.Severity) + " | " + r.Summary + " |\n")
	}
	return b.String()
}

func TestDocsMatchRegistry(t *testing.T) {
	const path = "../../docs/findings.md"
	want := Markdown()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Fatalf("docs/findings.md is out of date; run go test ./schema/finding -update")
	}
}
