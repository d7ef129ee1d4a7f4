package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/pkggen"
)

func read(t *testing.T, cs *mcp.ClientSession, uri string) (*mcp.ResourceContents, error) {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, err
	}
	if len(res.Contents) != 1 {
		t.Fatalf("%s: %d contents", uri, len(res.Contents))
	}
	return res.Contents[0], nil
}

func TestResources(t *testing.T) {
	cs, srv := client(t, images(t))
	templates, err := cs.ListResourceTemplates(context.Background(), nil)
	if err != nil || len(templates.ResourceTemplates) != 14 {
		t.Fatalf("templates: %v %v", err, templates)
	}
	var mathSnap, engSnap string
	for _, p := range srv.Catalog().Packages {
		if p.FrameworkID() == maths {
			mathSnap = p.SnapshotID()
		} else {
			engSnap = p.SnapshotID()
		}
	}
	base := func(fw, snap string) string {
		return "kgfegmcp://framework/" + fw + "/snapshot/" + strings.NewReplacer("@", "%40", "+", "%2B").Replace(snap)
	}
	cat, err := read(t, cs, "kgfegmcp://catalog")
	if err != nil || !strings.Contains(cat.Text, `"frameworkCount":2`) || cat.Meta["representation"] != "deterministic_derived" {
		t.Fatalf("catalog: %v %+v", err, cat)
	}
	man, err := read(t, cs, base(maths, mathSnap)+"/manifest")
	if err != nil || !strings.Contains(string(man.Blob), `"snapshotId": "`+mathSnap+`"`) || man.Meta["representation"] != "raw_source" {
		t.Fatalf("manifest: %v", err)
	}
	ind := pkggen.NodeID(pkggen.Shipped()[1], 0, 0, 0, 0)
	for _, suffix := range []string{"/standard/" + ind, "/standard/" + ind + "/learning-components", "/standard/" + ind + "/provenance"} {
		doc, err := read(t, cs, base(maths, mathSnap)+suffix)
		if err != nil || !json.Valid([]byte(doc.Text)) || doc.Meta["contentSha256"] == nil {
			t.Errorf("%s: %v", suffix, err)
		}
	}
	// A learning-progression edge and its provenance record.
	out, _ := call(t, cs, "get_learning_components_for_standard", req(map[string]any{"frameworkId": maths,
		"identifier": map[string]any{"identifierType": "node_id", "nodeId": ind}}))
	rel := out["components"].([]any)[0].(map[string]any)["relationship"].(map[string]any)["relationshipId"].(string)
	if _, err := read(t, cs, base(maths, mathSnap)+"/relationship/"+rel); err != nil {
		t.Errorf("relationship: %v", err)
	}
	if _, err := read(t, cs, base(maths, mathSnap)+"/relationship/"+rel+"/provenance"); err == nil || !strings.Contains(err.Error(), "resource_not_found") {
		t.Errorf("provenance of a supports edge: %v", err)
	}
	// Bulk artifacts: allowed for the English sample, denied for mathematics.
	if doc, err := read(t, cs, base(english, engSnap)+"/artifact/nodes"); err != nil || doc.MIMEType != "application/x-ndjson" || len(doc.Blob) == 0 {
		t.Errorf("allowed bulk artifact: %v", err)
	}
	for uri, want := range map[string]string{
		base(maths, mathSnap) + "/artifact/nodes":           "resource_access_denied",
		base(maths, mathSnap) + "/artifact/noSuchArtifact":  "resource_not_found",
		base(maths, mathSnap) + "/standard/no-such-node":    "standard_not_found",
		base(maths, mathSnap) + "/relationship/nope":        "resource_not_found",
		"kgfegmcp://framework/no-such-framework":            "framework_not_found",
		base(maths, mathSnap) + "/standard/" + ind + "?x=1": "not found", // no template matches: the SDK refuses it
		base(maths, mathSnap) + "/standard/a%2Fb":           "invalid_evidence_uri",
	} {
		_, err := read(t, cs, uri)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %s", uri, err, want)
		}
	}
}
