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

	"github.com/kgc-project/kgc/bench/internal/ratio"

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
	if res.IsError {
		text := ""
		if len(res.Content) > 0 {
			if t, ok := res.Content[0].(*mcp.TextContent); ok {
				text = t.Text
			}
		}
		return nil, fmt.Errorf("%s: %.300s", name, text)
	}
	// The structured content (the text block is a view for models).
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, err
	}
	var out obj
	return out, json.Unmarshal(b, &out)
}

// measured is one request of the per-tool table. want, when set, is the
// number of hits (or progression connections) its result must carry: the
// first (warm-up) call's result is checked and a different count fails the
// run, so a row that claims a result size measures it. relabel, when set,
// names the row after the count measured (a format with one %d).
type measured struct {
	label   string
	do      func() (obj, error)
	want    int
	relabel string
}

// hits returns the length of the result's page.hits (search tools) or
// connections (search_learning_progressions).
func hits(res obj) int {
	if c, ok := res["connections"].([]any); ok {
		return len(c)
	}
	page, _ := res["page"].(obj)
	h, _ := page["hits"].([]any)
	return len(h)
}

// checkFirst applies want and relabel to the first result of m.
func (m *measured) checkFirst(res obj) error {
	n := hits(res)
	if m.want > 0 && n != m.want {
		return fmt.Errorf("%s: %d hits, the row claims %d", m.label, n, m.want)
	}
	if m.relabel != "" {
		m.label = fmt.Sprintf(m.relabel, n)
	}
	return nil
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
		return measured{label: label, do: func() (obj, error) { return s.call(name, args) }}
	}
	sized := func(m measured, n int) measured { m.want = n; return m }
	labelled := func(m measured, format string) measured { m.relabel = format; return m }
	sel := obj{"identifierType": "node_id", "nodeId": t.node}
	m := []measured{
		{label: "ping (transport floor)", do: func() (obj, error) { return nil, s.cs.Ping(context.Background(), nil) }},
		tool("get_capabilities", "get_capabilities", obj{}),
		tool("list_frameworks", "list_frameworks", req(obj{})),
		tool("get_framework", "get_framework", req(obj{"frameworkId": t.fw, "snapshotId": t.snap})),
		tool("get_framework_statistics", "get_framework_statistics", route(nil)),
		tool("get_standard", "get_standard", route(obj{"identifier": sel})),
		tool("get_standard_context", "get_standard_context", route(obj{"nodeId": t.node})),
		tool("get_learning_components_for_standard", "get_learning_components_for_standard", route(obj{"identifier": sel})),
		sized(tool("search_standards text (2 tokens, any), 25 hits", "search_standards", req(obj{"snapshotIds": []any{t.snap},
			"mode": "text", "query": "understand and", "match": obj{"matchMode": "tokens", "operator": "any"}, "limit": 25})), 25),
		sized(tool("search_standards text federated, 25 hits", "search_standards", req(obj{"mode": "text", "query": "number",
			"match": obj{"matchMode": "tokens", "operator": "any"}, "limit": 25})), 25),
		{label: "resources/read kgfegmcp://catalog", do: func() (obj, error) {
			_, err := s.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "kgfegmcp://catalog"})
			return nil, err
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
			// On the component's own snapshot: a search without a selector
			// leaves out frameworks with two current snapshots (Nigeria's).
			tool("search_learning_components text", "search_learning_components", req(obj{"mode": "learning_component_text",
				"snapshotIds": []any{t.lcSnap}, "query": "number numbers", "match": obj{"matchMode": "tokens", "operator": "any"}, "limit": 25})))
		m[len(m)-1].relabel = "search_learning_components text (limit 25: %d hits)"
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
			labelled(tool("search_learning_progressions", "search_learning_progressions", lp(obj{"limit": 25})), "search_learning_progressions (limit 25: %d connections fit the size ceiling)"),
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
// server-side handling time kgmcp logs at debug level for the same calls. The
// requests are interleaved: each round calls every request once, in table
// order, so ping (the floor) and every tool see the same conditions; calls/10
// warm-up rounds come first. "round trip / ping" is the ratio of the medians
// per block of rounds: the median of the blocks' ratios (min–max).
func perTool(bin, images string, calls, blocks int) error {
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
	ms := requests(s, t)
	rt, server := make([][]time.Duration, len(ms)), make([][]time.Duration, len(ms))
	warm := calls / 10
	for round := 0; round < calls+warm; round++ {
		for i := range ms {
			m := &ms[i]
			start := time.Now()
			res, err := m.do()
			d := time.Since(start)
			if err != nil {
				return fmt.Errorf("%s: %w", m.label, err)
			}
			if round == 0 {
				if err := m.checkFirst(res); err != nil {
					return err
				}
			}
			// kgmcp logs the handling time before it writes the answer.
			select {
			case h := <-handled:
				if round >= warm {
					server[i] = append(server[i], h)
				}
			case <-time.After(5 * time.Second):
				return fmt.Errorf("%s: kgmcp logged no handling time", m.label)
			}
			if round >= warm {
				rt[i] = append(rt[i], d)
			}
		}
	}
	fmt.Printf("calls on %s (the image with the most searchable records; node %s)", t.snap, t.node)
	if t.lc != "" {
		fmt.Printf(", learning-component calls on %s", t.lcSnap)
	}
	if t.lpFw != "" {
		fmt.Printf(", progression calls and read_evidence on %s", t.lpSnap)
	}
	fmt.Printf("; %d rounds after %d warm-up rounds, every request once per round; round trip / ping: median (min–max) over %d blocks of %s\n\n",
		calls, warm, blocks, ratio.BlockSize(calls, blocks)+" rounds")
	fmt.Println("| request | round trip p50 | round trip p99 | round trip − ping (p50) | round trip / ping | server-side p50 | server-side p99 |")
	fmt.Println("|---|---|---|---|---|---|---|")
	floor := pct(rt[0], 50)
	for i, m := range ms {
		p50 := pct(rt[i], 50)
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s |\n", m.label, p50, pct(rt[i], 99), p50-floor, ratio.Blocks(rt[i], rt[0], blocks),
			pct(server[i], 50), pct(server[i], 99))
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
