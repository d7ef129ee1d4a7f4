package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
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
	if err != nil || len(templates.ResourceTemplates) != 15 {
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
	// Raw JSON is sent as text (its exact bytes), not as a base64 blob.
	if err != nil || man.Blob != nil || !strings.Contains(man.Text, `"snapshotId": "`+mathSnap+`"`) || man.Meta["representation"] != "raw_source" {
		t.Fatalf("manifest: %v %+v", err, man)
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
	if doc, err := read(t, cs, base(english, engSnap)+"/artifact/nodes"); err != nil || doc.MIMEType != "application/x-ndjson" || doc.Blob != nil || len(doc.Text) == 0 {
		t.Errorf("allowed bulk artifact: %v", err)
	}
	for uri, want := range map[string]string{
		base(maths, mathSnap) + "/artifact/nodes":           "resource_access_denied",
		base(maths, mathSnap) + "/artifact/noSuchArtifact":  "resource_not_found",
		base(maths, mathSnap) + "/standard/no-such-node":    "standard_not_found",
		base(maths, mathSnap) + "/relationship/nope":        "resource_not_found",
		"kgfegmcp://framework/no-such-framework":            "framework_not_found",
		base(maths, mathSnap) + "/standard/" + ind + "?x=1": "not found",          // no template matches: the SDK refuses it
		base(maths, mathSnap) + "/standard/a%2Fb":           "standard_not_found", // the ID a/b
		base(maths, mathSnap) + "/standard/./provenance":    "invalid_evidence_uri",
	} {
		_, err := read(t, cs, uri)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %s", uri, err, want)
		}
	}
}

func TestLearningProgressionSummaryResource(t *testing.T) {
	cs, srv := client(t, images(t))
	for _, p := range srv.Catalog().Packages {
		base := "kgfegmcp://framework/" + p.FrameworkID() + "/snapshot/" + strings.NewReplacer("@", "%40", "+", "%2B").Replace(p.SnapshotID())
		doc, err := read(t, cs, base+"/learning-progressions")
		if err != nil {
			t.Fatalf("%s: %v", p.SnapshotID(), err)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(doc.Text), &got); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(doc.Text, "structural") || doc.Meta["representation"] != "deterministic_derived" {
			t.Errorf("%s: notices or metadata %v", p.SnapshotID(), doc.Meta)
		}
		counts := got["objectCounts"].(map[string]any)
		if len(counts) != 18 {
			t.Errorf("%s: %d object counts", p.SnapshotID(), len(counts))
		}
		if p.FrameworkID() == english {
			if got["hasLearningProgressions"] != false || got["needsReviewClaims"] != nil || got["pedagogicalCorrectnessEstablished"] != nil ||
				counts["relationships"] != nil || len(got["artifacts"].([]any)) != 0 {
				t.Errorf("standards-only package: %v", got)
			}
			continue
		}
		// The mathematics sample: compare with its own generation summary and provenance.
		f := pkgtest.Sample(t, maths)
		var gen struct {
			ObjectCounts map[string]float64 `json:"object_counts"`
		}
		if err := json.Unmarshal(f.Read(t, "detailed/lp_generation_summary.json"), &gen); err != nil {
			t.Fatal(err)
		}
		for k, v := range gen.ObjectCounts {
			if counts[k] != v {
				t.Errorf("objectCounts.%s = %v, want %v", k, counts[k], v)
			}
		}
		arts := got["artifacts"].([]any)
		if len(arts) != 9 || arts[0].(map[string]any)["logicalName"] != "learningProgressionBuildsTowards" ||
			!strings.HasSuffix(arts[0].(map[string]any)["uri"].(string), "/artifact/learningProgressionBuildsTowards") {
			t.Errorf("artifacts %v", arts)
		}
		warnings := 0
		for k := 0; k < 64; k++ {
			var shard map[string]struct {
				Claim struct {
					Judgment struct {
						Warnings []string `json:"warnings"`
					} `json:"judgment"`
				} `json:"claim"`
			}
			if err := json.Unmarshal(f.Read(t, fmt.Sprintf("additional/lp_relationship_provenance_shard_%02d.json", k)), &shard); err != nil {
				t.Fatal(err)
			}
			for _, rec := range shard {
				warnings += len(rec.Claim.Judgment.Warnings)
			}
		}
		if got["needsReviewClaims"] != gen.ObjectCounts["needs_review_claims"] || got["validationPassed"] != true ||
			got["relationshipWarningCount"] != float64(warnings) || got["pedagogicalCorrectnessEstablished"] != false ||
			got["buildsTowardsRelationships"] != gen.ObjectCounts["builds_towards_relationships"] {
			t.Errorf("summary %v (edge warnings %d)", got, warnings)
		}
	}
}
