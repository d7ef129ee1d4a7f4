package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/pkggen"
)

// The standard_diagram template is listed as text/vnd.mermaid and reads a
// standard's neighbourhood as a Mermaid flowchart, sent as text with its
// metadata; rights that withhold standard resources withhold it too, and an
// unknown node is standard_not_found.
func TestStandardDiagramResource(t *testing.T) {
	cs, srv := client(t, images(t, restrictedSpec()))
	listed := false
	for tmpl, err := range cs.ResourceTemplates(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tmpl.Name == "standard_diagram" {
			listed = true
			if tmpl.MIMEType != "text/vnd.mermaid" || !strings.HasSuffix(tmpl.URITemplate, "/standard/{node_id}/diagram") {
				t.Errorf("template %+v", tmpl)
			}
		}
	}
	if !listed {
		t.Fatal("standard_diagram is not listed")
	}
	snapshots := map[string]string{}
	for _, p := range srv.Catalog().Packages {
		snapshots[p.FrameworkID()] = strings.NewReplacer("@", "%40", "+", "%2B").Replace(p.SnapshotID())
	}
	restricted := restrictedSpec()
	node := pkggen.NodeID(pkggen.Shipped()[1], 1, 0, 1, 1)
	uri := "kgfegmcp://framework/" + maths + "/snapshot/" + snapshots[maths] + "/standard/" + node + "/diagram"
	doc, err := read(t, cs, uri)
	if err != nil {
		t.Fatal(err)
	}
	if doc.MIMEType != "text/vnd.mermaid" || doc.Blob != nil || !strings.HasPrefix(doc.Text, "---\ntitle: ") ||
		!strings.Contains(doc.Text, "\nflowchart LR\n") || !strings.Contains(doc.Text, "class n") {
		t.Errorf("diagram: %+v", doc)
	}
	if doc.Meta["resourceKind"] != "standard_diagram" || doc.Meta["representation"] != "deterministic_derived" ||
		doc.Meta["byteLength"] != float64(len(doc.Text)) {
		t.Errorf("diagram metadata: %v", doc.Meta)
	}
	for _, want := range []string{"builds towards", "supports", "relates to", "Solve problems involving addition"} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("the diagram lacks %q", want)
		}
	}
	for u, want := range map[string]string{
		"kgfegmcp://framework/" + restricted.FrameworkID + "/snapshot/" + snapshots[restricted.FrameworkID] + "/standard/" +
			pkggen.NodeID(restricted, 1, 0, 1, 1) + "/diagram": "resource_access_denied",
		"kgfegmcp://framework/" + maths + "/snapshot/" + snapshots[maths] + "/standard/no-such-node/diagram": "standard_not_found",
	} {
		if _, err := read(t, cs, u); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %s", u, err, want)
		}
	}
	// get_capabilities lists the kind where it can be read, not where the
	// rights withhold it.
	caps, _ := call(t, cs, "get_capabilities", map[string]any{})
	for _, p := range caps["packages"].([]any) {
		pc := p.(map[string]any)
		fw := pc["packageIdentity"].(map[string]any)["frameworkId"]
		has := strings.Contains(strings.Join(anyStrings(pc["availableResourceKinds"]), ","), "standard_diagram")
		if has != (fw != restricted.FrameworkID) {
			t.Errorf("%s: availableResourceKinds %v", fw, pc["availableResourceKinds"])
		}
	}
}

func anyStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
