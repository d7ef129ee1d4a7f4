package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
	"github.com/kgc-project/kgc/runtime/uri"
)

// TestIdentifiersWithSeparatorsHaveAddresses: node IDs holding "/", "%",
// "\" or being a dot segment pass the gate; every resource link the server
// gives for them reads (get_standard linked to …/standard/x1%2Fprovenance,
// which resources/read refused as an encoded separator).
func TestIdentifiersWithSeparatorsHaveAddresses(t *testing.T) {
	t.Parallel()
	spec := bigSpec()
	spec.FrameworkID, spec.Strands, spec.Standards, spec.Indicators = "kgc-odd-ids", 1, 1, 4
	f := pkgtest.Write(t, spec)
	odd := []string{"x1/provenance", "50%41/..%2F", "..", `a\b c`}
	renamed := map[string]string{}
	for i, id := range odd {
		renamed[pkggen.NodeID(spec, 0, 0, 0, i)] = id
	}
	f.Rename(t, renamed)
	f.Seal(t)
	data, _ := imgtest.Build(t, f.Dir, f.Profiles, "")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "odd.kgimg"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := client(t, dir)
	for _, id := range odd {
		out, r := call(t, cs, "get_standard", req(map[string]any{"frameworkId": spec.FrameworkID,
			"identifier": map[string]any{"identifierType": "node_id", "nodeId": id}}))
		if out == nil {
			t.Fatalf("%s: %v", id, r.Content[0].(*mcp.TextContent).Text)
		}
		addr := out["standardUri"].(string)
		for _, u := range []string{addr, addr + "/provenance", addr + "/diagram"} {
			rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: u})
			if err != nil {
				t.Errorf("%q: %s: %v", id, u, err)
				continue
			}
			if u == addr && !strings.Contains(rr.Contents[0].Text, `"nodeId":"`+strings.ReplaceAll(id, `\`, `\\`)+`"`) {
				t.Errorf("%s read another record: %.200s", u, rr.Contents[0].Text)
			}
		}
		if canon, ok := uri.Canonical(addr); !ok || canon != addr {
			t.Errorf("%s is not canonical (%q)", addr, canon)
		}
	}
}
