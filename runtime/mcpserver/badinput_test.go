package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type propSchema struct {
	Type    any                    `json:"type"`
	Minimum *float64               `json:"minimum"`
	Maximum *float64               `json:"maximum"`
	Props   map[string]*propSchema `json:"properties"`
	OneOf   []*propSchema          `json:"oneOf"`
	AnyOf   []*propSchema          `json:"anyOf"`
	Items   *propSchema            `json:"items"`
	Max     *int                   `json:"maxItems"`
	Const   string                 `json:"const"`
	Enum    []any                  `json:"enum"`
	Req     []string               `json:"required"`
}

func (p *propSchema) is(t string) bool {
	switch x := p.Type.(type) {
	case string:
		return x == t
	case []any:
		for _, v := range x {
			if v == t {
				return true
			}
		}
	}
	return false
}

// TestEveryToolRejectsBadInput derives bad requests from each tool's published
// input schema (unknown fields, wrong types, out-of-range integers, fractions,
// oversized arrays) and checks each is refused as an input error, then that the
// server still answers.
func TestEveryToolRejectsBadInput(t *testing.T) {
	cs, _ := client(t, images(t))
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, tool := range tools.Tools {
		raw, _ := json.Marshal(tool.InputSchema)
		var top propSchema
		if err := json.Unmarshal(raw, &top); err != nil {
			t.Fatal(err)
		}
		bad := map[string]any{"unknown top-level field": map[string]any{"bogus": 1}}
		if len(top.AnyOf) > 0 {
			// Wrapped or flat: break the wrapped form.
			top = *top.AnyOf[0]
		}
		if reqSchema := top.Props["request"]; reqSchema != nil {
			bad["request not an object"] = map[string]any{"request": "x"}
			bad["request is null"] = map[string]any{"request": nil}
			// One schema branch (or the schema itself) gives the fields to break.
			branches := []*propSchema{reqSchema}
			if len(reqSchema.OneOf) > 0 {
				branches = reqSchema.OneOf
			}
			for _, br := range branches {
				// Properties every branch shares are published once, beside
				// the branches.
				for name, p := range reqSchema.Props {
					if br.Props == nil {
						br.Props = map[string]*propSchema{}
					}
					if _, own := br.Props[name]; !own && br != reqSchema {
						br.Props[name] = p
					}
				}
				br.Req = append(br.Req, reqSchema.Req...)
				base := minimal(br)
				with := func(k string, v any) map[string]any {
					r := map[string]any{}
					for bk, bv := range base {
						r[bk] = bv
					}
					r[k] = v
					return map[string]any{"request": r}
				}
				bad["unknown field "+br.Const] = with("bogus", true)
				for name, p := range br.Props {
					switch {
					case p.is("integer"):
						bad[name+" above maximum"] = with(name, *p.Maximum+1)
						bad[name+" below minimum"] = with(name, *p.Minimum-1)
						bad[name+" fraction"] = with(name, *p.Minimum+0.5)
						bad[name+" as string"] = with(name, "1")
					case p.is("boolean"):
						bad[name+" as string"] = with(name, "true")
					case p.is("string"):
						bad[name+" as number"] = with(name, 7)
					case p.is("array"):
						bad[name+" not an array"] = with(name, "x")
						if p.Max != nil {
							many := make([]any, *p.Max+1)
							for i := range many {
								many[i] = strings.Repeat("a", i+1)
							}
							bad[name+" too long"] = with(name, many)
						}
					}
				}
			}
		}
		for name, args := range bad {
			checked++
			if txt := errorText(t, cs, tool.Name, args); !strings.HasPrefix(txt, "Input validation error: ") {
				t.Errorf("%s, %s: %q", tool.Name, name, txt)
			}
		}
	}
	t.Logf("%d bad requests derived from %d tool schemas", checked, len(tools.Tools))
	if checked < 150 {
		t.Errorf("only %d bad requests derived from the schemas", checked)
	}
	if out, _ := call(t, cs, "get_capabilities", map[string]any{}); out == nil {
		t.Fatal("the server stopped answering")
	}
}

// minimal fills a schema branch's required fields with plausible values, so a
// single broken field is what the validator sees.
func minimal(s *propSchema) map[string]any {
	r := map[string]any{}
	for _, name := range s.Req {
		p := s.Props[name]
		switch {
		case p.Const != "":
			r[name] = p.Const
		case len(p.Enum) > 0:
			r[name] = p.Enum[0] // a discriminator, published as an enum
		case name == "frameworkId":
			r[name] = maths
		case name == "frameworkIds":
			r[name] = []any{maths, english}
		case name == "match":
			r[name] = map[string]any{"matchMode": "exact_phrase"}
		case strings.HasSuffix(name, "dentifier"):
			r[name] = map[string]any{"identifierType": "node_id", "nodeId": "x"}
		default:
			r[name] = "x"
		}
	}
	return r
}

// TestUnknownFrameworksAreNamedAsSuch calls every routed tool on a framework
// that is not served.
func TestUnknownFrameworksAreNamedAsSuch(t *testing.T) {
	cs, _ := client(t, images(t))
	sel := map[string]any{"identifierType": "node_id", "nodeId": "x"}
	for tool, r := range map[string]map[string]any{
		"get_framework":                        {"frameworkId": "no-such-framework"},
		"get_framework_statistics":             {"frameworkId": "no-such-framework"},
		"get_standard":                         {"frameworkId": "no-such-framework", "identifier": sel},
		"get_standard_context":                 {"frameworkId": "no-such-framework", "nodeId": "x"},
		"get_learning_component":               {"frameworkId": "no-such-framework", "nodeId": "x"},
		"get_learning_component_context":       {"frameworkId": "no-such-framework", "nodeId": "x"},
		"get_learning_components_for_standard": {"frameworkId": "no-such-framework", "identifier": sel},
		"search_standards":                     {"frameworkIds": []any{"no-such-framework"}, "mode": "code_exact", "query": "x"},
		"search_learning_components":           {"snapshotIds": []any{"no-such-framework@2026+000000000000"}, "mode": "learning_component_tag", "query": "x"},
	} {
		if txt := errorText(t, cs, tool, req(r)); !strings.HasPrefix(txt, "framework_not_found: ") {
			t.Errorf("%s: %q", tool, txt)
		}
	}
}

// TestEveryPromptRejectsBadArguments derives bad arguments from each prompt's
// published argument list (each required argument left out, an unknown
// argument, and each argument given 5,000 characters, which no argument
// accepts) and checks each is refused as an input error, then that the server
// still renders.
func TestEveryPromptRejectsBadArguments(t *testing.T) {
	cs, _ := client(t, images(t))
	ctx := context.Background()
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	good := map[string]string{"framework_id": maths, "source_framework_id": maths, "target_framework_id": english,
		"grade_or_stage": "GRADE ONE", "topic_or_standard": "time", "topic_or_query": "time",
		"grades_in_room": `["GRADE ONE","GRADE TWO"]`, "identifier": `{"identifierType":"node_id","nodeId":"x"}`,
		"framework_ids": `["` + maths + `","` + english + `"]`}
	checked := 0
	for _, p := range list.Prompts {
		valid := map[string]string{}
		for _, a := range p.Arguments {
			if a.Required {
				valid[a.Name] = good[a.Name]
			}
		}
		// The base renders, so each break below is what is refused.
		if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.Name, Arguments: valid}); err != nil {
			t.Fatalf("%s %v: %v", p.Name, valid, err)
		}
		bad := map[string]map[string]string{"unknown argument": merge(valid, map[string]string{"bogus": "1"})}
		for _, a := range p.Arguments {
			bad[a.Name] = merge(valid, map[string]string{a.Name: strings.Repeat("a", 5000)})
			if a.Required {
				missing := merge(valid, nil)
				delete(missing, a.Name)
				bad[a.Name+" missing"] = missing
			}
		}
		for name, args := range bad {
			checked++
			_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.Name, Arguments: args})
			arg := strings.TrimSuffix(name, " missing")
			if name == "unknown argument" {
				arg = "bogus"
			}
			if err == nil || !strings.Contains(err.Error(), "Input validation error: "+arg) {
				t.Errorf("%s, %s: %v", p.Name, name, err)
			}
		}
	}
	t.Logf("%d bad argument sets derived from %d prompts", checked, len(list.Prompts))
	if checked < 100 {
		t.Errorf("only %d bad argument sets", checked)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "teacher_guide_draft",
		Arguments: map[string]string{"framework_id": maths, "grade_or_stage": "GRADE ONE", "topic_or_standard": "time"}}); err != nil {
		t.Fatalf("the server stopped rendering: %v", err)
	}
}

func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
