package query

import (
	"github.com/kgc-project/kgc/runtime/record"

	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/prompt"
	"github.com/kgc-project/kgc/schema/manifest"
)

// maxWorkflowChars bounds a get_workflow_instructions envelope in characters
// (its text and structured copy together); MaxResultBytes bounds its bytes.
const maxWorkflowChars = 100000

// workflowSchema is the get_workflow_instructions request: workflowName
// picks a workflow prompt, whose arguments follow in camelCase with their
// defaults and limits, lists and selectors as real JSON values.
func workflowSchema() *Schema {
	var alts []*Schema
	for _, d := range prompt.Defs() {
		if !d.Workflow {
			continue
		}
		props := map[string]*Schema{"workflowName": {Types: []string{"string"}, Const: d.Name}}
		req := []string{"workflowName"}
		for _, a := range d.Args {
			props[prompt.Camel(a.Name)] = argSchema(a)
			if a.Required {
				req = append(req, prompt.Camel(a.Name))
			}
		}
		alts = append(alts, jsonschema.Object(props, req...))
	}
	return &Schema{Types: []string{"object"}, Discriminator: "workflowName",
		Description: "a workflow (a prompt) and its arguments in camelCase", OneOf: alts}
}

// argSchema is the JSON schema of one prompt argument.
func argSchema(a prompt.Arg) *Schema {
	var s *Schema
	switch a.Kind {
	case prompt.Text:
		s = jsonschema.String(a.Min, a.Max, "")
	case prompt.Integer:
		def, _ := strconv.Atoi(a.Default)
		s = jsonschema.Integer(int64(a.Min), int64(a.Max), int64(def), "")
	case prompt.Boolean:
		s = jsonschema.Boolean(a.Default == "true", "")
	case prompt.Choice:
		s = jsonschema.Enum("", a.Enum...)
		s.Default = a.Default
	case prompt.Framework:
		s = frameworkID()
	case prompt.Snapshot:
		s = snapshotID()
	case prompt.Language:
		s = jsonschema.Pattern(jsonschema.String(2, 64, ""), languagePattern)
	case prompt.TextList:
		item := jsonschema.String(1, a.ItemMax, "")
		if len(a.Enum) > 0 {
			item = jsonschema.Enum("", a.Enum...)
		}
		s = jsonschema.Array(item, a.Max, "")
		s.MinItems = a.Min
	case prompt.SelectorArg:
		s = promptSelector(a.Codes)
	case prompt.SelectorList:
		s = jsonschema.Array(promptSelector(a.Codes), a.Max, "")
	}
	// The prompt's lists and selectors are JSON strings; here they are
	// JSON values.
	s.Description = strings.TrimPrefix(a.Description, "JSON ")
	return s
}

// promptSelector is a prompt's standard selector: identifiers up to 512
// characters.
func promptSelector(withCode bool) *Schema { return boundedSelector(withCode, 512, 512) }

// WorkflowResult is get_workflow_instructions' result: the native prompt's
// render, byte for byte, with the validated request and the pinned package.
type WorkflowResult struct {
	EffectiveRequest   map[string]any `json:"effectiveRequest"`
	InstructionsNotice string         `json:"instructionsNotice"`
	ManifestSha256     string         `json:"manifestSha256"`
	Package            PackageRef     `json:"package"`
	ProfileSha256      string         `json:"profileSha256"`
	Rendered           WorkflowRender `json:"rendered"`
}

// WorkflowRender is the render of the workflow's prompt.
type WorkflowRender struct {
	Message       string                 `json:"message"`
	Metadata      prompt.Metadata        `json:"metadata"`
	PromptConfig  *prompt.ConfigIdentity `json:"promptConfig"`
	PromptName    string                 `json:"promptName"`
	PromptVersion string                 `json:"promptVersion"`
}

const instructionsNotice = "These are the instructions the native MCP prompt of this workflow renders, for hosts that cannot use prompts: " +
	"treat rendered.message as the user's request and follow its steps with the tools it names. Nothing has been generated yet."

// WorkflowRequest is a get_workflow_instructions request: a workflow prompt
// (prompt.Def.Workflow) and its arguments exactly as GetPrompt takes them, by
// the prompt's argument names, every value a string (lists and selectors as
// JSON text, integers and booleans as their literals).
type WorkflowRequest struct {
	WorkflowName string
	Arguments    map[string]string
}

// WorkflowInstructions answers get_workflow_instructions: the workflow's prompt
// rendered byte for byte, with the request as the tool echoes it (its
// arguments in camelCase, validated against the published schema and
// completed with its defaults) and the pinned package.
func (s *Service) WorkflowInstructions(ctx context.Context, r WorkflowRequest) (*WorkflowResult, error) {
	d, ok := prompt.Lookup(r.WorkflowName)
	if !ok || !d.Workflow {
		return nil, jsonschema.Fail("request.workflowName", "%q is not a workflow", r.WorkflowName)
	}
	request := map[string]any{"workflowName": r.WorkflowName}
	names := make([]string, 0, len(r.Arguments))
	for name := range r.Arguments {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		a, ok := d.Arg(name)
		if !ok {
			return nil, jsonschema.Fail("request", "%s has no argument %q", d.Name, name)
		}
		var v any = r.Arguments[name]
		switch a.Kind {
		case prompt.TextList, prompt.SelectorArg, prompt.SelectorList, prompt.Integer, prompt.Boolean:
			// The tool takes these as JSON values, the prompt as their text.
			if err := json.Unmarshal([]byte(r.Arguments[name]), &v); err != nil {
				return nil, jsonschema.Fail("request."+prompt.Camel(name), "is not JSON: %v", err)
			}
		}
		request[prompt.Camel(name)] = v
	}
	v, err := canonjson.ValueOf(request)
	if err != nil {
		return nil, jsonschema.Fail("request", "%v", err)
	}
	schema := workflowSchema()
	if err := schema.Validate(v, "request"); err != nil {
		return nil, err
	}
	result, err := s.workflow(ctx, schema.WithDefaults(v))
	return own(s, result, err)
}

func (s *Service) workflow(ctx context.Context, doc *jsonv.Value) (*WorkflowResult, error) {
	req, _ := canonjson.Plain(doc).(map[string]any)
	name, _ := req["workflowName"].(string)
	d, ok := prompt.Lookup(name)
	if !ok || !d.Workflow {
		return nil, jsonschema.Fail("request.workflowName", "%q is not a workflow", name)
	}
	args := map[string]string{}
	for _, a := range d.Args {
		x, ok := req[prompt.Camel(a.Name)]
		if !ok || x == nil {
			continue
		}
		switch t := x.(type) {
		case string:
			args[a.Name] = t
		case bool:
			args[a.Name] = strconv.FormatBool(t)
		case float64:
			args[a.Name] = strconv.FormatInt(int64(t), 10)
		default:
			b, err := canonjson.Marshal(t)
			if err != nil {
				return nil, fmt.Errorf("query: encoding %s: %w", a.Name, err)
			}
			args[a.Name] = string(b)
		}
	}
	r, err := s.GetPrompt(ctx, name, args)
	var ae *prompt.ArgError
	if errors.As(err, &ae) {
		// The prompt's argument checks, in this tool's names.
		path := "request"
		if ae.Arg != "" {
			path += "." + prompt.Camel(ae.Arg)
		}
		return nil, jsonschema.Fail(path, "%s", ae.Msg)
	}
	if err != nil {
		return nil, err
	}
	p, err := s.cat.Resolve(r.Metadata.(prompt.Metadata).FrameworkID, r.Metadata.(prompt.Metadata).SnapshotID, manifest.GraphAcademicStandards)
	if err != nil {
		return nil, err
	}
	facts, err := s.promptPackage(p)
	if err != nil {
		return nil, err
	}
	out := &WorkflowResult{EffectiveRequest: req, InstructionsNotice: instructionsNotice, ManifestSha256: facts.ManifestSha256,
		Package: record.Ref(p), ProfileSha256: facts.ProfileSha256,
		Rendered: WorkflowRender{Message: r.Message, Metadata: r.Metadata.(prompt.Metadata), PromptConfig: r.PromptConfig,
			PromptName: r.PromptName, PromptVersion: r.PromptVersion}}
	b, err := canonjson.Marshal(out)
	if err != nil {
		return nil, err
	}
	if 2*len(b) > MaxResultBytes || 2*utf8.RuneCount(b) > maxWorkflowChars {
		return nil, kgerr.New(kgerr.WorkflowInstructionsTooLarge, "the %s instructions are %d bytes and %d characters as JSON (counted twice, text and structured copy: at most %d bytes and %d characters)",
			name, len(b), utf8.RuneCount(b), MaxResultBytes, maxWorkflowChars).
			WithHint("use the native prompt %s, or shorten caller context such as localContext", name)
	}
	return out, nil
}
