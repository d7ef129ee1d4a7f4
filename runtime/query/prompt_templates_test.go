package query

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/prompt"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/rights"
)

// templateLine is one tool-call template of a rendered prompt: three spaces,
// the tool name in backquotes, and its arguments as one JSON line.
var templateLine = regexp.MustCompile("(?m)^   `([a-z_]+)` (\\{.*\\})$")

// templatePackage is what filling a package's templates needs: two standards
// (for {nodeId} and {targetNodeId}) and, where it stores progressions, an
// edge and its provenance resource.
type templatePackage struct {
	fw, snap                   string
	grades                     []string
	nodes                      []string
	relationship, provenance   string
	allowed, components, progr bool
}

func templatePackages(t *testing.T, svc *Service) []templatePackage {
	t.Helper()
	ctx := context.Background()
	var out []templatePackage
	for _, p := range svc.Catalog().Packages {
		tp := templatePackage{fw: p.FrameworkID(), snap: p.SnapshotID(), grades: p.Manifest.Framework.LocalGradesOrStages,
			allowed:    p.Manifest.Rights.AllowGeneratedDerivatives == rights.DerivativesAllowed,
			components: p.Manifest.Includes(manifest.GraphLearningComponents), progr: p.Manifest.Includes(manifest.GraphLearningProgressions)}
		search := NewStandardSearchRequest("and the of to in a")
		search.SnapshotIDs, search.Match, search.Limit = []string{tp.snap}, Words(MatchTokens, OperatorAny), 2
		res, err := svc.SearchStandards(ctx, search)
		if err != nil {
			t.Fatalf("%s: %v", tp.snap, err)
		}
		for _, h := range res.Page.Hits {
			tp.nodes = append(tp.nodes, h.Node.NodeID)
		}
		if tp.progr {
			lp := NewProgressionSearchRequest(tp.fw)
			lp.SnapshotID, lp.Limit = &tp.snap, 1
			page, err := svc.SearchProgressions(ctx, lp)
			if err != nil {
				t.Fatalf("%s: %v", tp.snap, err)
			}
			if rows := page.Relationships; len(rows) > 0 && rows[0].ProvenanceURI != nil {
				tp.relationship, tp.provenance = rows[0].Relationship.RelationshipID, *rows[0].ProvenanceURI
			}
		}
		if len(tp.nodes) == 2 && len(tp.grades) >= 2 {
			out = append(out, tp)
		}
	}
	return out
}

// templateArgs are valid arguments of d over p (and q, for the
// multi-framework prompts).
func templateArgs(d *prompt.Def, p, q templatePackage) map[string]string {
	sel := `{"identifierType":"node_id","nodeId":"` + p.nodes[0] + `"}`
	values := map[string]string{
		"framework_id": p.fw, "source_framework_id": p.fw, "snapshot_id": p.snap, "source_snapshot_id": p.snap,
		"target_framework_id": q.fw, "target_snapshot_id": q.snap, "grade_or_stage": p.grades[0],
		"grades_in_room": `["` + p.grades[0] + `","` + p.grades[1] + `"]`, "topic_or_standard": "number words", "topic_or_query": "number words",
		"identifier": sel, "standard_identifiers": "[" + sel + "]",
		"framework_ids": `["` + p.fw + `","` + q.fw + `"]`, "snapshot_ids": `["` + p.snap + `","` + q.snap + `"]`,
	}
	args := map[string]string{}
	for _, a := range d.Args {
		if v, ok := values[a.Name]; ok {
			args[a.Name] = v
		}
	}
	return args
}

// checkPromptTemplates renders every prompt over every package the rights
// let it render (the multi-framework ones over the next package too) and
// answers every tool-call template of each message, placeholders filled,
// through Call: each must pass its tool's strict input validation and decode
// into the tool's typed request. The templates are partial requests spelled
// in runtime/prompt (the fields a workflow sets, shown even where they are
// defaults); this is what holds them to the request types.
func checkPromptTemplates(t *testing.T, svc *Service, minTools int) {
	ctx := context.Background()
	pkgs := templatePackages(t, svc)
	if len(pkgs) < 2 {
		t.Fatalf("%d packages to render over", len(pkgs))
	}
	tools, templates := map[string]bool{}, 0
	for _, d := range prompt.Defs() {
		for i, p := range pkgs {
			q := pkgs[(i+1)%len(pkgs)]
			if !p.allowed || d.Multi && (!q.allowed || q.fw == p.fw) || d.Name == "multigrade_lesson_plan" && !p.components {
				continue
			}
			res, err := svc.GetPrompt(ctx, d.Name, templateArgs(&d, p, q))
			if err != nil {
				t.Errorf("%s on %s: %v", d.Name, p.snap, err)
				continue
			}
			lines := templateLine.FindAllStringSubmatch(res.Message, -1)
			if len(lines) == 0 {
				t.Errorf("%s on %s: no tool-call templates", d.Name, p.snap)
			}
			for _, m := range lines {
				tool, body := m[1], m[2]
				if p.relationship == "" && (strings.Contains(body, "{relationshipId}") || strings.Contains(body, "{provenanceUri}")) {
					continue
				}
				body = strings.NewReplacer("{nodeId}", p.nodes[0], "{targetNodeId}", p.nodes[1], "{relationshipId}", p.relationship,
					"{provenanceUri}", p.provenance, "{snapshotId}", p.snap, "{key words of the selected standard}", "number").Replace(body)
				templates++
				tools[tool] = true
				_, err := svc.Call(ctx, tool, json.RawMessage(body))
				var ie *InputError
				if errors.As(err, &ie) || errors.Is(err, ErrUnknownTool) {
					t.Errorf("%s on %s: template %s is refused: %v", d.Name, p.snap, m[0], err)
				}
			}
		}
	}
	t.Logf("%d templates of %d tools answered", templates, len(tools))
	if len(tools) < minTools {
		t.Errorf("the templates call only %d tools", len(tools))
	}
}

// TestPromptTemplatesOnTheSamples: every template of every prompt over the
// shipped samples is a request its tool accepts.
func TestPromptTemplatesOnTheSamples(t *testing.T) {
	t.Parallel()
	checkPromptTemplates(t, New(imgtest.Catalog(t, imgtest.Images(t, nil, nil)), Options{}), 13)
}

// TestPromptTemplatesOnTheCorpus: the same over the complete corpus packages
// (the Nigeria ones carry real prompt configs; skipped without the corpus).
func TestPromptTemplatesOnTheCorpus(t *testing.T) {
	t.Parallel()
	out, _ := imgtest.CorpusImages(t)
	checkPromptTemplates(t, New(imgtest.Catalog(t, out), Options{}), 7)
}
