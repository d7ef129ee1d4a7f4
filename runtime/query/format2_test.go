package query

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
)

var updateFormat2 = flag.Bool("update-format2", false, "rewrite testdata/format2/answers.txtar from the format 2 fixture")

const format2Snapshot = "kgc-synthetic-mathematics%40bench%2B8b11f5ab6ca6"

// format2Calls are replayed on the format 2 fixture, as format1Calls.
var format2Calls = []struct{ tool, args string }{
	{"get_capabilities", `{}`},
	{"list_frameworks", `{}`},
	{"get_framework", `{"request":{"frameworkId":"kgc-synthetic-mathematics"}}`},
	{"get_framework_statistics", `{"request":{"frameworkId":"kgc-synthetic-mathematics"}}`},
	{"search_standards", `{"request":{"frameworkIds":["kgc-synthetic-mathematics"],"mode":"text","query":"count number","match":{"matchMode":"tokens","operator":"any"},"localGradeLabels":["LEVEL A"]}}`},
	{"search_standards", `{"request":{"frameworkIds":["kgc-synthetic-mathematics"],"mode":"code_prefix","query":"S2.1"}}`},
	{"get_standard", `{"request":{"frameworkId":"kgc-synthetic-mathematics","identifier":{"identifierType":"node_id","nodeId":"24855fc4-34d5-5c3e-a545-045d62a54b74"}}}`},
	{"get_standard_context", `{"request":{"frameworkId":"kgc-synthetic-mathematics","nodeId":"38023475-e009-5f4c-b0a4-08d2ed45e048"}}`},
	{"get_learning_components_for_standard", `{"request":{"frameworkId":"kgc-synthetic-mathematics","identifier":{"identifierType":"node_id","nodeId":"24855fc4-34d5-5c3e-a545-045d62a54b74"}}}`},
	{"search_learning_components", `{"request":{"frameworkIds":["kgc-synthetic-mathematics"],"mode":"learning_component_text","query":"count","match":{"matchMode":"tokens","operator":"any"}}}`},
	{"get_standard_progressions", `{"request":{"frameworkId":"kgc-synthetic-mathematics","identifier":{"identifierType":"statement_code","statementCode":"S1.1.1.1"}}}`},
	{"search_learning_progressions", `{"request":{"frameworkId":"kgc-synthetic-mathematics","localGradeLabels":["LEVEL B"]}}`},
	{"traverse_learning_progressions", `{"request":{"frameworkId":"kgc-synthetic-mathematics","identifier":{"identifierType":"statement_code","statementCode":"S1.1.1.1"}}}`},
	{"get_learning_progression_paths", `{"request":{"frameworkId":"kgc-synthetic-mathematics","sourceIdentifier":{"identifierType":"statement_code","statementCode":"S1.1.1.1"},"targetIdentifier":{"identifierType":"statement_code","statementCode":"S2.1.1.1"}}}`},
}

// format2Resources are read on the format 2 fixture.
var format2Resources = []string{
	"kgfegmcp://framework/kgc-synthetic-mathematics/snapshot/" + format2Snapshot + "/learning-progressions",
	"kgfegmcp://framework/kgc-synthetic-mathematics/snapshot/" + format2Snapshot + "/manifest",
	"kgfegmcp://framework/kgc-synthetic-mathematics/snapshot/" + format2Snapshot + "/interpretation-profile",
	"kgfegmcp://framework/kgc-synthetic-mathematics/snapshot/" + format2Snapshot + "/standard/24855fc4-34d5-5c3e-a545-045d62a54b74",
}

// TestFormat2ImagesAnswerAsBefore opens an image the last format 2 compiler
// wrote (testdata/format2/fixture.kgimg.gz: a synthetic package from
// bench/genpkg -standards 40, with codes, learning components, progressions
// and their provenance) and requires the answers that compiler's server gave
// (answers.txtar, recorded with it), byte for byte: a newer format must keep
// serving the images already built.
func TestFormat2ImagesAnswerAsBefore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gunzip(t, "testdata/format2/fixture.kgimg.gz", filepath.Join(dir, "fixture.kgimg"))
	cat := imgtest.Catalog(t, dir)
	if v := cat.Packages[0].Img.Header().Version; v != 2 {
		t.Fatalf("the fixture is format %d, want 2", v)
	}
	if err := cat.Packages[0].Img.VerifyDeep(); err != nil {
		t.Fatalf("VerifyDeep refused the format 2 image: %v", err)
	}
	replayFixture(t, cat, format2Calls, format2Resources, "testdata/format2/answers.txtar", updateFormat2,
		"Answers of the server that read format 2, to the calls of TestFormat2ImagesAnswerAsBefore\non testdata/format2/fixture.kgimg.gz (canonical JSON, or the error).\n")
}
