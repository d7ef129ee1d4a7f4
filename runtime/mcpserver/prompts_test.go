package mcpserver_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/mcpserver"
	"github.com/kgc-project/kgc/runtime/prompt"
	"github.com/kgc-project/kgc/schema/manifest"
)

// promptPkg is what a prompt test needs of one served package.
type promptPkg struct {
	fw, snap        string
	grades          []string
	nodes           []string // standards, for the selector arguments
	components      bool
	progressions    bool
	derivatives     string
	promptConfigSha string
	instructions    []string // every instruction of its embedded prompt config
}

func promptPackages(t *testing.T, cs *mcp.ClientSession, srv *mcpserver.Server) []promptPkg {
	t.Helper()
	var out []promptPkg
	for _, p := range srv.Catalog().Packages {
		pp := promptPkg{fw: p.FrameworkID(), snap: p.SnapshotID(), grades: p.Manifest.Framework.LocalGradesOrStages,
			components: p.Manifest.Includes(manifest.GraphLearningComponents), progressions: p.Manifest.Includes(manifest.GraphLearningProgressions),
			derivatives: p.Manifest.Rights.AllowGeneratedDerivatives}
		page, _ := call(t, cs, "search_standards", req(map[string]any{"snapshotIds": []any{pp.snap}, "mode": "text", "query": "and the of to in a",
			"match": map[string]any{"matchMode": "tokens", "operator": "any"}, "limit": 2}))
		for _, h := range page["page"].(map[string]any)["hits"].([]any) {
			pp.nodes = append(pp.nodes, h.(map[string]any)["node"].(map[string]any)["nodeId"].(string))
		}
		if raw := p.Img.PromptConfigJSON(); raw != nil {
			var cfg struct {
				Shared  map[string]struct{ Instructions []string }            `json:"shared"`
				Prompts map[string]map[string]struct{ Instructions []string } `json:"prompts"`
			}
			if err := json.Unmarshal(raw, &cfg); err != nil {
				t.Fatal(err)
			}
			for _, b := range cfg.Shared {
				pp.instructions = append(pp.instructions, b.Instructions...)
			}
			pp.promptConfigSha = "configured"
		}
		out = append(out, pp)
	}
	return out
}

// promptArgs are valid arguments of d over p (and q, for the multi-framework
// prompts).
func promptArgs(d *prompt.Def, p, q promptPkg) map[string]string {
	sel := `{"identifierType":"node_id","nodeId":"` + p.nodes[0] + `"}`
	args := map[string]string{}
	for _, a := range d.Args {
		switch a.Name {
		case "framework_id", "source_framework_id":
			args[a.Name] = p.fw
		case "snapshot_id", "source_snapshot_id":
			args[a.Name] = p.snap
		case "target_framework_id":
			args[a.Name] = q.fw
		case "target_snapshot_id":
			args[a.Name] = q.snap
		case "grade_or_stage":
			args[a.Name] = p.grades[0]
		case "grades_in_room":
			b, _ := json.Marshal(p.grades[:2])
			args[a.Name] = string(b)
		case "topic_or_standard", "topic_or_query":
			args[a.Name] = "number words"
		case "identifier":
			args[a.Name] = sel
		case "standard_identifiers":
			args[a.Name] = "[" + sel + "]"
		case "framework_ids":
			args[a.Name] = `["` + p.fw + `","` + q.fw + `"]`
		case "snapshot_ids":
			args[a.Name] = `["` + p.snap + `","` + q.snap + `"]`
		case "local_context":
			args[a.Name] = "A rural school; \"quoted\" words and ünïcödé stay exact."
		}
	}
	return args
}

// expectedRefusal is the error code a prompt must give over p, or "".
func expectedRefusal(d *prompt.Def, p, q promptPkg) string {
	switch {
	case p.derivatives != "allowed" || d.Multi && q.derivatives != "allowed":
		return "prompt_access_denied"
	case d.Name == "multigrade_lesson_plan" && !p.components:
		return "capability_unavailable"
	}
	return ""
}

var templateLine = regexp.MustCompile("(?m)^   `([a-z_]+)` (\\{.*\\})$")

// workflowRequest is get_workflow_instructions' request for the same
// arguments: camelCase names, JSON strings as JSON values, numbers as numbers.
func workflowRequest(d *prompt.Def, args map[string]string) map[string]any {
	r := map[string]any{"workflowName": d.Name}
	for k, v := range args {
		a, _ := d.Arg(k)
		var x any = v
		switch a.Kind {
		case prompt.TextList, prompt.SelectorArg, prompt.SelectorList, prompt.Integer, prompt.Boolean:
			json.Unmarshal([]byte(v), &x)
		}
		r[prompt.Camel(k)] = x
	}
	return r
}

// checkPrompts renders every prompt over every package (and for the
// multi-framework ones, over pairs), checking refusals, the message, its
// templates, its config, and for the workflows the byte-identity of
// get_workflow_instructions.
func checkPrompts(t *testing.T, cs *mcp.ClientSession, pkgs []promptPkg) {
	ctx := context.Background()
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(list.Prompts) != 9 {
		t.Fatalf("prompts/list: %v %v", list, err)
	}
	// An argument the prompt cannot render without is listed as required.
	for _, lp := range list.Prompts {
		for _, a := range lp.Arguments {
			if (a.Name == "grades_in_room" || a.Name == "framework_ids") && !a.Required {
				t.Errorf("prompts/list: %s.%s is not required", lp.Name, a.Name)
			}
		}
	}
	for _, d := range prompt.Defs() {
		for i, p := range pkgs {
			q := pkgs[(i+1)%len(pkgs)]
			if len(p.nodes) == 0 || d.Multi && q.fw == p.fw {
				continue
			}
			args := promptArgs(&d, p, q)
			res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: d.Name, Arguments: args})
			want := expectedRefusal(&d, p, q)
			if want != "" {
				if err == nil || !strings.Contains(err.Error(), want+": ") {
					t.Errorf("%s on %s: %v, want %s", d.Name, p.snap, err, want)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s on %s: %v", d.Name, p.snap, err)
				continue
			}
			if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
				t.Fatalf("%s: %d messages", d.Name, len(res.Messages))
			}
			msg := res.Messages[0].Content.(*mcp.TextContent).Text
			if len(msg) > prompt.MaxRenderedBytes || !utf8.ValidString(msg) || !strings.Contains(msg, "ünïcödé") {
				t.Errorf("%s on %s: %d bytes", d.Name, p.snap, len(msg))
			}
			for _, ins := range p.instructions {
				if !strings.Contains(msg, ins) {
					t.Errorf("%s on %s: config instruction %.60q… not rendered", d.Name, p.snap, ins)
				}
			}
			meta := res.Meta["promptConfig"]
			if d.Multi {
				meta = res.Meta["metadata"].(map[string]any)["contexts"].([]any)[0].(map[string]any)["promptConfig"]
			}
			if (meta != nil) != (p.promptConfigSha != "") {
				t.Errorf("%s on %s: promptConfig %v", d.Name, p.snap, meta)
			}
			if strings.HasPrefix(d.Name, "learning_progression_") && !p.progressions {
				// Without stored progressions the workflow still renders,
				// says so, and calls no progression tool.
				if !strings.Contains(msg, "Stored learning-progression capability unavailable") || !strings.Contains(msg, "[LLM-INFERRED / GENERATED]") {
					t.Errorf("%s on %s: no unavailability disclosure, or no [LLM-INFERRED / GENERATED] label", d.Name, p.snap)
				}
				for _, m := range templateLine.FindAllStringSubmatch(msg, -1) {
					if strings.Contains(m[1], "progression") {
						t.Errorf("%s on %s: calls %s", d.Name, p.snap, m[1])
					}
				}
			}
			if d.Name == "learning_progression_teaching_sequence" && p.progressions {
				// The direct links are read per kind: outgoing builds,
				// incoming builds, related.
				var kinds []string
				for _, m := range templateLine.FindAllStringSubmatch(msg, -1) {
					if m[1] == "get_standard_progressions" {
						var r struct {
							Request struct{ ConnectionKind string }
						}
						json.Unmarshal([]byte(m[2]), &r)
						kinds = append(kinds, r.Request.ConnectionKind)
					}
				}
				if strings.Join(kinds, " ") != "outgoing_builds incoming_builds related" {
					t.Errorf("%s on %s: direct calls %v", d.Name, p.snap, kinds)
				}
			}
			if d.Name == "multigrade_lesson_plan" {
				// The grades in the room are searched at once.
				if n := strings.Count(msg, "`search_standards`"); n != 1 {
					t.Errorf("%s on %s: %d searches, want 1", d.Name, p.snap, n)
				}
			}
			// Each template is answered by its tool in runtime/query (TestPromptTemplates…).
			if !d.Workflow {
				continue
			}
			out, wres := call(t, cs, "get_workflow_instructions", req(workflowRequest(&d, args)))
			if out == nil {
				t.Errorf("workflow %s on %s: %v", d.Name, p.snap, wres.Content[0])
				continue
			}
			if out["rendered"].(map[string]any)["message"] != msg {
				t.Errorf("workflow %s on %s: rendered.message differs from the prompt's message", d.Name, p.snap)
			}
		}
	}
}

// TestPromptsOnTheSamples renders every prompt over the shipped samples and a
// restricted copy (derivatives prohibited, no prompt config).
func TestPromptsOnTheSamples(t *testing.T) {
	t.Parallel()
	cs, srv := client(t, images(t, restrictedSpec()))
	checkPrompts(t, cs, promptPackages(t, cs, srv))
}

// TestPromptsOnTheCorpus renders every prompt over the complete corpus
// packages (the Nigeria ones carry real prompt configs). Heavy: rendering is
// the same single-threaded work TestPromptsOnTheSamples runs under -race.
func TestPromptsOnTheCorpus(t *testing.T) {
	t.Parallel()
	imgtest.Heavy(t)
	dir, _ := corpusImages(t)
	cs, srv := client(t, dir)
	checkPrompts(t, cs, promptPackages(t, cs, srv))
}
