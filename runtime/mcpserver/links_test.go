package mcpserver_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/pkggen"
)

// restrictedSpec is the maths sample under another framework ID, with rights
// that withhold standard resources and generated derivatives.
func restrictedSpec() pkggen.Spec {
	spec := pkggen.Shipped()[1]
	spec.FrameworkID = "kgc-restricted-mathematics"
	spec.DenyStandardResources = true
	spec.Derivatives = "prohibited"
	spec.NoPromptConfig = true
	return spec
}

// links returns a result's resource_link blocks, checking they follow the
// text block and are sorted by URI, and that each reads back with the size
// it announces.
func links(t *testing.T, cs *mcp.ClientSession, res *mcp.CallToolResult) map[string]string {
	t.Helper()
	out := map[string]string{}
	var uris []string
	for i, c := range res.Content {
		l, ok := c.(*mcp.ResourceLink)
		if !ok {
			if i > 0 {
				t.Errorf("content block %d is %T, not a resource link", i, c)
			}
			continue
		}
		uris = append(uris, l.URI)
		out[l.Name] = l.URI
		read, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: l.URI})
		if err != nil {
			t.Errorf("link %s does not read: %v", l.URI, err)
			continue
		}
		n := len(read.Contents[0].Text) + len(read.Contents[0].Blob)
		if l.Size == nil || int64(n) != *l.Size || l.MIMEType != read.Contents[0].MIMEType {
			t.Errorf("link %s announces %v bytes of %s; reads %d of %s", l.URI, l.Size, l.MIMEType, n, read.Contents[0].MIMEType)
		}
	}
	if !sort.StringsAreSorted(uris) {
		t.Errorf("links not sorted by URI: %v", uris)
	}
	return out
}

func linkNames(m map[string]string) string {
	var names []string
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}

// TestResultsLinkTheirResources checks the resource_link blocks that follow
// results (docs/reference/tools.md#calling-a-tool):
// which results carry which links, that every link reads, and that rights
// withholding standard resources withhold their links (never the result).
func TestResultsLinkTheirResources(t *testing.T) {
	cs, _ := client(t, images(t, restrictedSpec()))
	node := pkggen.NodeID(pkggen.Shipped()[1], 1, 1, 1, 1)
	restricted := restrictedSpec()
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"get_framework", map[string]any{"frameworkId": maths}, "framework,interpretation_profile,package_manifest,validation_report"},
		{"get_standard", map[string]any{"frameworkId": maths, "identifier": map[string]any{"identifierType": "node_id", "nodeId": node}},
			"package_manifest,standard,standard_provenance"},
		{"get_standard_context", map[string]any{"frameworkId": maths, "nodeId": node}, "package_manifest,standard,standard_provenance"},
		{"get_learning_components_for_standard", map[string]any{"frameworkId": maths, "identifier": map[string]any{"identifierType": "node_id", "nodeId": node}},
			"package_manifest,standard,standard_learning_components,standard_provenance"},
		{"get_framework", map[string]any{"frameworkId": restricted.FrameworkID}, "framework,interpretation_profile,package_manifest,validation_report"},
		{"get_standard", map[string]any{"frameworkId": restricted.FrameworkID, "identifier": map[string]any{"identifierType": "node_id", "nodeId": pkggen.NodeID(restricted, 1, 1, 1, 1)}},
			"package_manifest"},
		{"search_standards", map[string]any{"mode": "code_exact", "query": "M1.1.1.1", "frameworkIds": []any{maths}}, ""},
	}
	for _, c := range cases {
		out, res := call(t, cs, c.tool, req(c.args))
		if out == nil {
			t.Fatalf("%s: %v", c.tool, res.Content[0])
		}
		if got := linkNames(links(t, cs, res)); got != c.want {
			t.Errorf("%s %v: links %s, want %s", c.tool, c.args["frameworkId"], got, c.want)
		}
	}
	// A component links itself and its provenance.
	lc, _ := call(t, cs, "get_learning_components_for_standard", req(cases[3].args))
	id := lc["components"].([]any)[0].(map[string]any)["node"].(map[string]any)["nodeId"].(string)
	_, res := call(t, cs, "get_learning_component", req(map[string]any{"frameworkId": maths, "nodeId": id}))
	if got := linkNames(links(t, cs, res)); got != "learning_component,learning_component_provenance" {
		t.Errorf("get_learning_component links %s", got)
	}
}

// TestResourcesReadAcceptsEitherSpelling reads the same standard with its
// snapshot ID percent-encoded and raw: same bytes, each under the URI sent.
func TestResourcesReadAcceptsEitherSpelling(t *testing.T) {
	cs, srv := client(t, images(t))
	snap := srv.Catalog().Packages[1].SnapshotID()
	node := pkggen.NodeID(pkggen.Shipped()[1], 1, 1, 1, 1)
	encoded := strings.NewReplacer("@", "%40", "+", "%2B").Replace(snap)
	var texts []string
	for _, s := range []string{encoded, snap, strings.Replace(encoded, "%40", "@", 1)} {
		uri := "kgfegmcp://framework/" + maths + "/snapshot/" + s + "/standard/" + node
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		if res.Contents[0].URI != uri {
			t.Errorf("read %s answered as %s", uri, res.Contents[0].URI)
		}
		texts = append(texts, res.Contents[0].Text)
	}
	if texts[0] != texts[1] || texts[1] != texts[2] {
		t.Error("the spellings read different bytes")
	}
	bad := "kgfegmcp://framework/" + maths + "/snapshot/" + snap + "/standard/" + node + "%2Fx"
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: bad}); err == nil {
		t.Errorf("%s (an encoded separator) was read", bad)
	}
}
