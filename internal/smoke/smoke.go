// Package smoke checks a running kgmcp the way an MCP host uses it
// (over stdio or Streamable HTTP): the handshake, the exact
// inventory of tools, resource templates and prompts, the catalog and one
// known-good address per template found from the catalog, each tool called
// once with a valid request, and (over stdio) a clean exit. The summary is
// deterministic JSON.
package smoke

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/query"
	"github.com/kgc-project/kgc/runtime/uri"
)

// Summary is what a smoke run found.
type Summary struct {
	Status                string  `json:"status"` // passed | failed
	Target                string  `json:"target"` // the command or the URL
	ServerName            string  `json:"serverName"`
	ServerVersion         string  `json:"serverVersion"`
	ToolCount             int     `json:"toolCount"`
	PromptCount           int     `json:"promptCount"`
	ResourceTemplateCount int     `json:"resourceTemplateCount"`
	FixedResourceCount    int     `json:"fixedResourceCount"`
	ResourceReadCount     int     `json:"resourceReadCount"`
	ToolCallCount         int     `json:"toolCallCount"`
	PromptGetCount        int     `json:"promptGetCount"`
	Resources             []Check `json:"resources"`
	Tools                 []Check `json:"tools"`
	Skipped               []Check `json:"skipped"`
	// Withheld are the reads and calls the packages' rights refuse, as a
	// package not yet reviewed must (resource_access_denied,
	// prompt_access_denied): expected, not failures.
	Withheld  []Check        `json:"withheld"`
	Failures  []string       `json:"failures"`
	CleanExit *bool          `json:"cleanExit,omitempty"`
	Catalog   map[string]int `json:"catalog"`
}

// Check is one read or call.
type Check struct {
	Name   string `json:"name"`
	Target string `json:"target,omitempty"` // the URI read or the snapshot called
	Bytes  int    `json:"bytes,omitempty"`
	Reason string `json:"reason,omitempty"` // why it was skipped
}

// withheld reports whether err is the server withholding something the
// package's rights do not allow (not a failure of the server).
func withheld(err error) bool {
	m := err.Error()
	// A domain error's text is "<code>: <message>" (runtime/kgerr).
	return strings.Contains(m, kgerr.ResourceAccessDenied+": ") || strings.Contains(m, kgerr.PromptAccessDenied+": ")
}

// failOrWithhold records err of a read or call of target: a rights refusal as
// withheld, anything else as a failure.
func (s *Summary) failOrWithhold(name, target string, err error, format string, args ...any) {
	if withheld(err) {
		s.Withheld = append(s.Withheld, Check{Name: name, Target: target, Reason: err.Error()})
		return
	}
	s.fail(format, args...)
}

func (s *Summary) fail(format string, args ...any) {
	s.Failures = append(s.Failures, fmt.Sprintf(format, args...))
}

// Expected inventory: what the contract registers.
func expectedTools() []string {
	var out []string
	for _, t := range query.Tools() {
		out = append(out, t.Name)
	}
	sort.Strings(out)
	return out
}

// run drives one connected session. The caller owns the session and, for
// stdio, the process.
func run(ctx context.Context, cs *mcp.ClientSession, target string) *Summary {
	s := &Summary{Target: target, Resources: []Check{}, Tools: []Check{}, Skipped: []Check{}, Withheld: []Check{}, Failures: []string{}, Catalog: map[string]int{}}
	if init := cs.InitializeResult(); init != nil && init.ServerInfo != nil {
		s.ServerName, s.ServerVersion = init.ServerInfo.Name, init.ServerInfo.Version
	}
	s.inventory(ctx, cs)
	d := &driver{cs: cs, s: s}
	if d.readCatalog(ctx) {
		d.discover(ctx)
		d.readTemplates(ctx)
		d.callTools(ctx)
		d.getPrompt(ctx)
	}
	sort.Slice(s.Resources, func(i, j int) bool { return s.Resources[i].Name < s.Resources[j].Name })
	sort.Slice(s.Tools, func(i, j int) bool { return s.Tools[i].Name < s.Tools[j].Name })
	sort.Slice(s.Skipped, func(i, j int) bool { return s.Skipped[i].Name < s.Skipped[j].Name })
	sort.Slice(s.Withheld, func(i, j int) bool { return s.Withheld[i].Name < s.Withheld[j].Name })
	s.ResourceReadCount, s.ToolCallCount = len(s.Resources), len(s.Tools)
	s.Status = "passed"
	if len(s.Failures) > 0 {
		s.Status = "failed"
	}
	return s
}

// inventory requires exactly the contract's tools, templates, fixed resources
// and prompts.
func (s *Summary) inventory(ctx context.Context, cs *mcp.ClientSession) {
	var tools, prompts, templates, fixed []string
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			s.fail("tools/list: %v", err)
			break
		}
		tools = append(tools, t.Name)
		if t.OutputSchema == nil {
			s.fail("tool %s has no output schema", t.Name)
		}
	}
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			s.fail("prompts/list: %v", err)
			break
		}
		prompts = append(prompts, p.Name)
	}
	for t, err := range cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			s.fail("resources/templates/list: %v", err)
			break
		}
		templates = append(templates, t.URITemplate)
	}
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			s.fail("resources/list: %v", err)
			break
		}
		fixed = append(fixed, r.URI)
	}
	s.ToolCount, s.PromptCount, s.ResourceTemplateCount, s.FixedResourceCount = len(tools), len(prompts), len(templates), len(fixed)
	same(s, "tools", tools, expectedTools())
	same(s, "prompts", prompts, query.PromptNames())
	same(s, "resource templates", templates, uri.TemplateURIs())
	same(s, "fixed resources", fixed, []string{uri.Catalog})
}

func same(s *Summary, what string, got, want []string) {
	g := append([]string(nil), got...)
	w := append([]string(nil), want...)
	sort.Strings(g)
	sort.Strings(w)
	if strings.Join(g, "\n") != strings.Join(w, "\n") {
		s.fail("%s: the server lists %v, the contract %v", what, g, w)
	}
}

// snapshot is one catalog snapshot with what it can answer.
type snapshot struct {
	framework, id               string
	components, lp, bulk, codes bool
	artifacts                   map[string]bool
	standard, component         string // node IDs found
	relationship                string // a hierarchy relationship ID
	lpEdge, lpSource, lpTarget  string
}

// ref is the address of the snapshot's resource kind (a template name) for
// id, as runtime/uri spells it.
func (sn *snapshot) ref(kind, id string) string {
	return uri.Ref{Kind: kind, FrameworkID: sn.framework, SnapshotID: sn.id, ID: id}.String()
}

func (sn *snapshot) route() map[string]any {
	return map[string]any{"frameworkId": sn.framework, "snapshotId": sn.id}
}

type driver struct {
	cs        *mcp.ClientSession
	s         *Summary
	snapshots []*snapshot
}

// pick returns the first snapshot for which ok holds.
func (d *driver) pick(ok func(*snapshot) bool) *snapshot {
	for _, sn := range d.snapshots {
		if ok(sn) {
			return sn
		}
	}
	return nil
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }
func asList(v any) []any         { l, _ := v.([]any); return l }
func asString(v any) string      { s, _ := v.(string); return s }

// readCatalog reads kgfegmcp://catalog and lists its snapshots.
func (d *driver) readCatalog(ctx context.Context) bool {
	doc, n, err := d.read(ctx, uri.Catalog)
	if err != nil {
		d.s.fail("resources/read %s: %v", uri.Catalog, err)
		return false
	}
	d.s.Resources = append(d.s.Resources, Check{Name: "catalog", Target: uri.Catalog, Bytes: n})
	for _, f := range asList(asMap(doc)["frameworks"]) {
		for _, snap := range asList(asMap(f)["snapshots"]) {
			sm := asMap(snap)
			sn := &snapshot{framework: asString(sm["frameworkId"]), id: asString(sm["snapshotId"])}
			for _, gp := range asList(sm["graphPackages"]) {
				g := asMap(gp)
				caps, counts, rights := asMap(g["capabilities"]), asMap(g["counts"]), asMap(g["rights"])
				sn.lp = sn.lp || caps["hasLearningProgressions"] == true
				sn.codes = sn.codes || asString(caps["codeSearch"]) != "none"
				sn.bulk = sn.bulk || rights["allowBulkResource"] == true
				if c, _ := counts["learningComponentNodes"].(float64); c > 0 {
					sn.components = true
				}
			}
			d.snapshots = append(d.snapshots, sn)
		}
	}
	d.s.Catalog["frameworks"] = len(asList(asMap(doc)["frameworks"]))
	d.s.Catalog["snapshots"] = len(d.snapshots)
	if len(d.snapshots) == 0 {
		d.s.fail("the catalog lists no snapshot")
		return false
	}
	return true
}

// read reads one resource and decodes its single JSON item.
func (d *driver) read(ctx context.Context, uri string) (any, int, error) {
	res, err := d.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, 0, err
	}
	if len(res.Contents) != 1 {
		return nil, 0, fmt.Errorf("want exactly one item, got %d", len(res.Contents))
	}
	data := []byte(res.Contents[0].Text)
	if len(data) == 0 {
		data = res.Contents[0].Blob
	}
	if len(data) == 0 {
		return nil, 0, errors.New("the item is empty")
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, 0, fmt.Errorf("the item is not JSON: %v", err)
	}
	return v, len(data), nil
}

// call calls one tool and decodes its structured result; a tool error is an
// error.
func (d *driver) call(ctx context.Context, name string, args map[string]any) (map[string]any, int, error) {
	res, err := d.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, 0, err
	}
	text := ""
	if len(res.Content) > 0 {
		if t, ok := res.Content[0].(*mcp.TextContent); ok {
			text = t.Text
		}
	}
	if res.IsError {
		return nil, 0, fmt.Errorf("tool error: %s", text)
	}
	// The structured content is the result; the text block is for the
	// model (readable text, or the same JSON).
	raw := []byte(text)
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return nil, 0, fmt.Errorf("the structured content does not encode: %v", err)
		}
		raw = b
	}
	if text == "" {
		return nil, 0, errors.New("the text block is empty")
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, 0, fmt.Errorf("the result is not a JSON object: %v", err)
	}
	return out, len(text), nil
}
