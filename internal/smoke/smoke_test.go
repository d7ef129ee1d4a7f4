package smoke

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// connect serves srv over an in-memory transport and returns the client.
func connect(t *testing.T, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// On the shipped samples (standards, components, progressions, both rights
// regimes) every template is read and every tool called; two runs print the
// same summary.
func TestSmokeShippedSamples(t *testing.T) {
	cat := imgtest.Catalog(t, imgtest.Images(t, nil, nil))
	var first []byte
	for i := 0; i < 2; i++ {
		s := run(context.Background(), connect(t, mcpserver.New(cat, mcpserver.Options{}).MCP()), "in-memory")
		if s.Status != "passed" || len(s.Failures) > 0 {
			t.Fatalf("failed: %v", s.Failures)
		}
		if s.ToolCount != 20 || s.PromptCount != 9 || s.ResourceTemplateCount != 15 || s.FixedResourceCount != 1 ||
			s.ResourceReadCount != 16 || s.ToolCallCount != 20 || s.PromptGetCount != 1 || len(s.Skipped) != 0 {
			t.Errorf("summary %+v", s)
		}
		b, _ := json.Marshal(s)
		if i == 0 {
			first = b
		} else if string(b) != string(first) {
			t.Error("two runs give different summaries")
		}
	}
}

// A catalog without components or progressions: what it cannot answer is
// skipped with the reason, and the run still passes.
func TestSmokeSkipsWhatTheCatalogLacks(t *testing.T) {
	dir := imgtest.Images(t, nil, nil)
	maths, _ := filepath.Glob(filepath.Join(dir, pkggen.Shipped()[1].FrameworkID+"@*.kgimg"))
	if len(maths) != 1 {
		t.Fatalf("no mathematics image in %s", dir)
	}
	os.Remove(maths[0]) // the English sample alone: no components, no progressions
	cat := imgtest.Catalog(t, dir)
	s := run(context.Background(), connect(t, mcpserver.New(cat, mcpserver.Options{}).MCP()), "in-memory")
	if s.Status != "passed" {
		t.Fatalf("failed: %v", s.Failures)
	}
	if len(s.Skipped) == 0 {
		t.Error("nothing skipped on a catalog without components or progressions")
	}
	if s.ToolCallCount+countPrefix(s.Skipped, "tool ") != 20 || s.ResourceReadCount+countPrefix(s.Skipped, "resource ") != 16 {
		t.Errorf("calls and skips do not add up: %+v", s)
	}
}

func countPrefix(cs []Check, prefix string) int {
	n := 0
	for _, c := range cs {
		if strings.HasPrefix(c.Name, prefix) {
			if c.Reason == "" {
				return -100 // a skip must say why
			}
			n++
		}
	}
	return n
}

// A server that is not kgmcp's inventory fails, naming what differs.
func TestSmokeRefusesAnotherInventory(t *testing.T) {
	s := run(context.Background(), connect(t, mcp.NewServer(&mcp.Implementation{Name: "empty", Version: "1"}, nil)), "in-memory")
	if s.Status != "failed" || len(s.Failures) == 0 || !strings.Contains(strings.Join(s.Failures, "\n"), "tools: the server lists") {
		t.Errorf("an empty server: %+v", s)
	}
}

// TestSmokeReportsRightsRefusalsAsWithheld: a package not yet reviewed
// (full text withheld, generated derivatives review_required) is served as
// its rights say: the resources and prompts it refuses are reported as
// withheld, and the smoke passes (they were failures).
func TestSmokeReportsRightsRefusalsAsWithheld(t *testing.T) {
	spec := pkggen.Shipped()[0]
	spec.FrameworkID, spec.DenyFullText, spec.Derivatives = "kgc-aaa-unreviewed", true, "review_required"
	dir := imgtest.Images(t, []pkggen.Spec{spec}, nil)
	for _, sh := range pkggen.Shipped() { // the unreviewed package alone
		m, _ := filepath.Glob(filepath.Join(dir, sh.FrameworkID+"@*.kgimg"))
		for _, p := range m {
			os.Remove(p)
		}
	}
	cat := imgtest.Catalog(t, dir)
	s := run(context.Background(), connect(t, mcpserver.New(cat, mcpserver.Options{}).MCP()), "in-memory")
	if s.Status != "passed" || len(s.Failures) > 0 {
		t.Fatalf("failed: %v", s.Failures)
	}
	names := map[string]bool{}
	for _, w := range s.Withheld {
		names[w.Name] = true
		if !strings.Contains(w.Reason, "access_denied") {
			t.Errorf("withheld without a rights refusal: %+v", w)
		}
	}
	for _, want := range []string{"resource standard", "prompt student_study_support", "tool get_workflow_instructions"} {
		if !names[want] {
			t.Errorf("%s not reported withheld: %+v", want, s.Withheld)
		}
	}
}

// TestSmokeReadsIdentifiersWithSeparators: every identifier the gate accepts
// has an address (runtime/uri), and smoke reads it at that address — node
// IDs holding "/", "%" or a space were read at hand-built addresses the
// server does not serve, and a correct server failed.
func TestSmokeReadsIdentifiersWithSeparators(t *testing.T) {
	spec := pkggen.Shipped()[0]
	spec.FrameworkID = "kgc-odd-ids"
	f := pkgtest.Write(t, spec)
	nodes := f.Read(t, "delivery/nodes.jsonl")
	ids := regexp.MustCompile(`"identifier":"([0-9a-f-]{36})","labels":\["(?:Standard|StandardGrouping|LearningComponent)`).FindAllSubmatch(nodes, -1)
	if len(ids) == 0 {
		t.Fatal("no item IDs in the fixture")
	}
	renamed := map[string]string{}
	for i, m := range ids {
		renamed[string(m[1])] = fmt.Sprintf("odd/%d%%41 x", i)
	}
	f.Rename(t, renamed)
	f.Seal(t)
	data, _ := imgtest.Build(t, f.Dir, f.Profiles, "")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "odd.kgimg"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	s := run(context.Background(), connect(t, mcpserver.New(imgtest.Catalog(t, dir), mcpserver.Options{}).MCP()), "in-memory")
	if s.Status != "passed" {
		t.Fatalf("failed: %v", s.Failures)
	}
	read := false
	for _, r := range s.Resources {
		read = read || r.Name == "standard" && strings.Contains(r.Target, "odd%2F")
	}
	if !read {
		t.Errorf("no standard with an odd ID was read: %+v", s.Resources)
	}
}
