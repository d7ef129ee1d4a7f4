package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type obj = map[string]any

// session wraps a client session with tool calls that return parsed results.
type session struct{ cs *mcp.ClientSession }

func (s session) call(name string, args obj) (obj, error) {
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, err
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		return nil, fmt.Errorf("%s: %s", name, text)
	}
	var out obj
	return out, json.Unmarshal([]byte(text), &out)
}

// measured is one request of the per-tool table.
type measured struct {
	label string
	do    func() error
}

// target picks the package the calls run on: the largest standards package,
// its first text hit, and a learning component anywhere.
type target struct {
	fw, snap, node, code, lc, lcSnap, lcFw string
	prefix                                 bool   // the package allows code_prefix
	lpFw, lpSnap, lpFrom, lpTo, lpRel      string // a package with progressions, an edge's endpoints and ID
}

func discover(s session) (target, error) {
	var t target
	caps, err := s.call("get_capabilities", obj{})
	if err != nil {
		return t, err
	}
	best := -1.0
	for _, p := range caps["packages"].([]any) {
		p := p.(obj)
		id := p["packageIdentity"].(obj)
		n, _ := p["searchIndex"].(obj)["lexicalDocumentCount"].(float64)
		if n > best {
			best, t.fw, t.snap = n, id["frameworkId"].(string), id["snapshotId"].(string)
			t.prefix = strings.Contains(fmt.Sprint(p["implementedSearchModes"]), "code_prefix")
		}
	}
	hits, err := s.call("search_standards", obj{"request": obj{"snapshotIds": []any{t.snap}, "mode": "text", "query": "and",
		"match": obj{"matchMode": "tokens", "operator": "any"}, "limit": 50}})
	if err != nil {
		return t, err
	}
	for _, h := range hits["page"].(obj)["hits"].([]any) {
		node := h.(obj)["node"].(obj)
		if t.node == "" {
			t.node = node["nodeId"].(string)
		}
		if c, ok := node["statementCode"].(string); ok && t.code == "" {
			t.node, t.code = node["nodeId"].(string), c
		}
	}
	lcs, err := s.call("search_learning_components", obj{"request": obj{"mode": "learning_component_text", "query": "number numbers",
		"match": obj{"matchMode": "tokens", "operator": "any"}, "limit": 1}})
	if err == nil {
		for _, h := range lcs["page"].(obj)["hits"].([]any) {
			id := h.(obj)["packageIdentity"].(obj)
			t.lc, t.lcSnap, t.lcFw = h.(obj)["node"].(obj)["nodeId"].(string), id["snapshotId"].(string), id["frameworkId"].(string)
		}
	}
	for _, p := range caps["packages"].([]any) {
		p := p.(obj)
		id := p["packageIdentity"].(obj)
		if p["capabilities"].(obj)["hasLearningProgressions"] != true || t.lpFw != "" {
			continue
		}
		fw, snap := id["frameworkId"].(string), id["snapshotId"].(string)
		found, err := s.call("search_learning_progressions", obj{"request": obj{"frameworkId": fw, "snapshotId": snap,
			"relationshipTypes": []any{"buildsTowards"}, "limit": 1}})
		if err != nil {
			return t, err
		}
		for _, c := range found["connections"].([]any) {
			c := c.(obj)
			t.lpFw, t.lpSnap, t.lpRel = fw, snap, c["relationshipId"].(string)
			t.lpFrom, t.lpTo = c["sourceMatch"].(obj)["nodeId"].(string), c["targetMatch"].(obj)["nodeId"].(string)
		}
	}
	if t.node == "" {
		return t, fmt.Errorf("no standard found in %s", t.snap)
	}
	return t, nil
}

func requests(s session, t target) []measured {
	req := func(fields obj) obj { return obj{"request": fields} }
	route := func(extra obj) obj {
		r := obj{"frameworkId": t.fw, "snapshotId": t.snap}
		for k, v := range extra {
			r[k] = v
		}
		return req(r)
	}
	tool := func(label, name string, args obj) measured {
		return measured{label, func() error { _, err := s.call(name, args); return err }}
	}
	sel := obj{"identifierType": "node_id", "nodeId": t.node}
	m := []measured{
		{"ping (transport floor)", func() error { return s.cs.Ping(context.Background(), nil) }},
		tool("get_capabilities", "get_capabilities", obj{}),
		tool("list_frameworks", "list_frameworks", req(obj{})),
		tool("get_framework", "get_framework", req(obj{"frameworkId": t.fw, "snapshotId": t.snap})),
		tool("get_framework_statistics", "get_framework_statistics", route(nil)),
		tool("get_standard", "get_standard", route(obj{"identifier": sel})),
		tool("get_standard_context", "get_standard_context", route(obj{"nodeId": t.node})),
		tool("get_learning_components_for_standard", "get_learning_components_for_standard", route(obj{"identifier": sel})),
		tool("search_standards text (2 tokens, any, limit 25)", "search_standards", req(obj{"snapshotIds": []any{t.snap},
			"mode": "text", "query": "understand and", "match": obj{"matchMode": "tokens", "operator": "any"}})),
		tool("search_standards text federated (limit 25)", "search_standards", req(obj{"mode": "text", "query": "number",
			"match": obj{"matchMode": "tokens", "operator": "any"}})),
		{"resources/read kgfegmcp://catalog", func() error {
			_, err := s.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "kgfegmcp://catalog"})
			return err
		}},
	}
	if t.code != "" {
		m = append(m, tool("search_standards code_exact", "search_standards", req(obj{"snapshotIds": []any{t.snap}, "mode": "code_exact", "query": t.code})))
	}
	if t.code != "" && t.prefix {
		m = append(m, tool("search_standards code_prefix", "search_standards", req(obj{"snapshotIds": []any{t.snap}, "mode": "code_prefix",
			"query": strings.SplitN(t.code, ".", 2)[0]})))
	}
	if t.lc != "" {
		lcRoute := req(obj{"frameworkId": t.lcFw, "snapshotId": t.lcSnap, "nodeId": t.lc})
		m = append(m,
			tool("get_learning_component", "get_learning_component", lcRoute),
			tool("get_learning_component_context", "get_learning_component_context", lcRoute),
			tool("search_learning_components text", "search_learning_components", req(obj{"mode": "learning_component_text",
				"query": "number", "match": obj{"matchMode": "tokens", "operator": "any"}})))
	}
	if t.lpFw != "" {
		lp := func(extra obj) obj {
			r := obj{"frameworkId": t.lpFw, "snapshotId": t.lpSnap}
			for k, v := range extra {
				r[k] = v
			}
			return req(r)
		}
		node := func(id string) obj { return obj{"identifierType": "node_id", "nodeId": id} }
		m = append(m,
			tool("get_learning_progression", "get_learning_progression", lp(obj{"relationshipId": t.lpRel})),
			tool("get_standard_progressions (all)", "get_standard_progressions", lp(obj{"identifier": node(t.lpFrom)})),
			tool("search_learning_progressions (limit 25)", "search_learning_progressions", lp(nil)),
			tool("traverse_learning_progressions (max budgets)", "traverse_learning_progressions", lp(obj{"identifier": node(t.lpFrom),
				"maxDepth": 12, "maxNodes": 250, "maxEdges": 100})),
			tool("get_learning_progression_paths (max budgets)", "get_learning_progression_paths", lp(obj{"sourceIdentifier": node(t.lpFrom),
				"targetIdentifier": node(t.lpTo), "maxDepth": 12, "maxPaths": 20})),
			tool("read_evidence (manifest, 16 KiB window)", "read_evidence", req(obj{"uri": "kgfegmcp://framework/" + t.lpFw +
				"/snapshot/" + strings.NewReplacer("@", "%40", "+", "%2B").Replace(t.lpSnap) + "/manifest"})))
	}
	return m
}

// perTool prints p50/p99 round trips of each request against ping's, and the
// server-side handling time kgmcp logs at debug level for the same calls.
func perTool(bin, images string, calls int) error {
	cmd := exec.Command(bin, "--log-level", "debug", images)
	logs, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpbench", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	handled := make(chan time.Duration, 1<<16)
	go func() {
		sc := bufio.NewScanner(logs)
		for sc.Scan() {
			line := sc.Text()
			if i := strings.Index(line, " micros="); i >= 0 && strings.Contains(line, "msg=handled") {
				if n, err := strconv.Atoi(line[i+len(" micros="):]); err == nil {
					handled <- time.Duration(n) * time.Microsecond
				}
			}
		}
	}()
	s := session{cs}
	t, err := discover(s)
	if err != nil {
		return err
	}
	drain(handled)
	fmt.Printf("calls on %s (node %s)\n\n", t.snap, t.node)
	fmt.Println("| request | round trip p50 | round trip p99 | round trip − ping (p50) | server-side p50 | server-side p99 |")
	fmt.Println("|---|---|---|---|---|---|")
	var floor time.Duration
	warm := calls / 10
	for i, m := range requests(s, t) {
		var rt, server []time.Duration
		for j := 0; j < calls+warm; j++ {
			start := time.Now()
			if err := m.do(); err != nil {
				return fmt.Errorf("%s: %w", m.label, err)
			}
			if j >= warm {
				rt = append(rt, time.Since(start))
			}
		}
		for j := 0; j < calls+warm; j++ {
			select {
			case d := <-handled:
				if j >= warm {
					server = append(server, d)
				}
			case <-time.After(5 * time.Second):
				return fmt.Errorf("%s: kgmcp logged %d of %d calls", m.label, j, calls+warm)
			}
		}
		p50 := pct(rt, 50)
		if i == 0 {
			floor = p50
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s |\n", m.label, p50, pct(rt, 99), p50-floor, pct(server, 50), pct(server, 99))
	}
	return nil
}

func drain(c chan time.Duration) {
	for {
		select {
		case <-c:
		case <-time.After(200 * time.Millisecond):
			return
		}
	}
}
