// Command rawbench measures what an MCP server itself costs per call, with a
// client that does not decode: raw JSON-RPC lines over the stdio pipes, timed
// from the request written to the response line read. It runs kgmcp and the
// reference @modelcontextprotocol/server-memory side by side in one run, on
// the same graph (the corpus's Nigeria package with learning components, or
// the shipped mathematics sample without the corpus), exported to
// server-memory's entity/relation file.
//
//	go run ./bench/rawbench [-corpus ../shared/corpus] [-calls 300]
//	go run ./bench/rawbench -image big.kgimg [-calls 50]
//
// With -image, only kgmcp is measured, serving that one image (e.g. the
// million-standard synthetic one, bench/README.md): ping, and 25-hit text
// searches for a common term and a two-term query, each against ping.
//
// server-memory is installed from bench/peers (pinned) on first use; node and
// npm are needed. Nothing is asserted: compare the ratios within one run.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/kgc-project/kgc/bench/internal/benchbin"
)

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "corpus root")
	calls := flag.Int("calls", 300, "calls measured per request")
	image := flag.String("image", "", "measure kgmcp alone serving this image")
	flag.Parse()
	var err error
	if *image != "" {
		err = runImage(*image, *calls)
	} else {
		err = run(*corpus, *calls)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "rawbench:", err)
		os.Exit(1)
	}
}

func run(corpus string, calls int) error {
	tmp, err := os.MkdirTemp("", "rawbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bins, err := benchbin.Build(tmp, "kgc", "kgmcp")
	if err != nil {
		return err
	}
	kgc, kgmcp, images := bins[0], bins[1], filepath.Join(tmp, "images")
	pkg, profiles, prompts := filepath.Join(corpus, "derived", "graph_packages", "nigeria-nerdc-mathematics-primary-1-3",
		"nigeria-nerdc-mathematics-primary-1-3@undated+3f35e11c6624"), filepath.Join(corpus, "profiles"), filepath.Join(corpus, "prompts")
	query := "number"
	if _, err := os.Stat(pkg); err != nil {
		fmt.Printf("corpus: none at %s; measuring the shipped mathematics sample\n", corpus)
		matches, _ := filepath.Glob("packages/kgc-sample-mathematics-grades-1-3/*")
		if len(matches) != 1 {
			return fmt.Errorf("no shipped mathematics sample")
		}
		pkg, profiles, prompts, query = matches[0], "profiles", "", "time"
	}
	args := []string{"build", "--profiles", profiles, "-o", images}
	if prompts != "" {
		args = append(args, "--prompts", prompts)
	}
	if out, err := exec.Command(kgc, append(args, pkg)...).CombinedOutput(); err != nil {
		return fmt.Errorf("kgc build: %v\n%s", err, out)
	}
	g, err := readGraph(pkg)
	if err != nil {
		return err
	}
	memFile := filepath.Join(tmp, "memory.jsonl")
	if err := g.writeMemory(memFile); err != nil {
		return err
	}
	memory, err := installPeers()
	if err != nil {
		return err
	}
	snap := filepath.Base(pkg)
	fw := strings.SplitN(snap, "@", 2)[0]
	node := g.nodes[len(g.nodes)/2]
	fmt.Printf("graph: %s (%d nodes, %d hasChild); %d calls each\n\n", snap, len(g.nodes), len(g.edges), calls)

	kg := []request{
		{"ping", `{"method":"ping"}`},
		{"search_standards text, 25 hits", `{"method":"tools/call","params":{"name":"search_standards","arguments":{"request":{"mode":"text","query":"` + query +
			`","match":{"matchMode":"tokens","operator":"any"},"limit":25,"snapshotIds":["` + snap + `"]}}}}`},
		{"get_standard", `{"method":"tools/call","params":{"name":"get_standard","arguments":{"request":{"frameworkId":"` + fw + `","snapshotId":"` + snap +
			`","identifier":{"identifierType":"node_id","nodeId":"` + node.id + `"}}}}}`},
	}
	mem := []request{
		{"ping", `{"method":"ping"}`},
		{"search_nodes", `{"method":"tools/call","params":{"name":"search_nodes","arguments":{"query":"` + query + `"}}}`},
		{"open_nodes", `{"method":"tools/call","params":{"name":"open_nodes","arguments":{"names":["` + node.name() + `"]}}}`},
	}
	a, err := measure(exec.Command(kgmcp, images), kg, calls)
	if err != nil {
		return fmt.Errorf("kgmcp: %w", err)
	}
	cmd := exec.Command("node", memory)
	cmd.Env = append(os.Environ(), "MEMORY_FILE_PATH="+memFile)
	b, err := measure(cmd, mem, calls)
	if err != nil {
		return fmt.Errorf("server-memory: %w", err)
	}
	fmt.Println("| request | kgmcp p50 | p99 | bytes | server-memory request | p50 | p99 | bytes | kgmcp / server-memory (p50) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for i := range kg {
		fmt.Printf("| %s | %s | %s | %d | %s | %s | %s | %d | %.2f× |\n", kg[i].name, pct(a[i].times, 50), pct(a[i].times, 99), a[i].bytes,
			mem[i].name, pct(b[i].times, 50), pct(b[i].times, 99), b[i].bytes, float64(pct(a[i].times, 50))/float64(pct(b[i].times, 50)))
	}
	return nil
}

// runImage measures kgmcp alone on one image: ping and two text searches.
func runImage(image string, calls int) error {
	tmp, err := os.MkdirTemp("", "rawbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bins, err := benchbin.Build(tmp, "kgmcp")
	if err != nil {
		return err
	}
	search := func(query, operator string) string {
		return `{"method":"tools/call","params":{"name":"search_standards","arguments":{"request":{"mode":"text","query":"` + query +
			`","match":{"matchMode":"tokens","operator":"` + operator + `"},"limit":25}}}}`
	}
	reqs := []request{
		{"ping", `{"method":"ping"}`},
		{"search_standards \"number\" (any), 25 hits", search("number", "any")},
		{"search_standards \"count number\" (all), 25 hits", search("count number", "all")},
	}
	start := time.Now()
	res, err := measure(exec.Command(bins[0], image), reqs, calls)
	if err != nil {
		return fmt.Errorf("kgmcp: %w", err)
	}
	fmt.Printf("image: %s; %d calls each (run %s)\n\n", image, calls, time.Since(start).Round(time.Millisecond))
	fmt.Println("| request | p50 | p99 | bytes | p50 − ping p50 |")
	fmt.Println("|---|---|---|---|---|")
	ping := pct(res[0].times, 50)
	for i, r := range reqs {
		fmt.Printf("| %s | %s | %s | %d | %s |\n", r.name, pct(res[i].times, 50), pct(res[i].times, 99), res[i].bytes, pct(res[i].times, 50)-ping)
	}
	return nil
}

type request struct{ name, body string }

type sample struct {
	times []time.Duration
	bytes int
}

// measure starts a server over stdio, initializes it with raw lines, and
// times each request calls times (after 20 warm-up calls), round-robin.
func measure(cmd *exec.Cmd, reqs []request, calls int) ([]sample, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { in.Close(); cmd.Wait() }()
	out := bufio.NewReaderSize(outPipe, 1<<20)
	id := 0
	roundTrip := func(body string) (int, error) {
		id++
		line := `{"jsonrpc":"2.0","id":` + fmt.Sprint(id) + `,` + body[1:] + "\n"
		if _, err := io.WriteString(in, line); err != nil {
			return 0, err
		}
		// The answer's id, before another member or closing the object.
		key := `"id":` + fmt.Sprint(id)
		wantA, wantB := []byte(key+`,`), []byte(key+`}`)
		for {
			resp, err := out.ReadBytes('\n')
			if err != nil {
				return 0, err
			}
			if bytes.Contains(resp, wantA) || bytes.Contains(resp, wantB) {
				if bytes.Contains(resp, []byte(`"error":{`)) || bytes.Contains(resp, []byte(`"isError":true`)) {
					return 0, fmt.Errorf("error answer: %.300s", resp)
				}
				return len(resp), nil
			}
		}
	}
	if _, err := roundTrip(`{"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"rawbench","version":"1"}}}`); err != nil {
		return nil, err
	}
	if _, err := io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		return nil, err
	}
	res := make([]sample, len(reqs))
	for i := 0; i < 20+calls; i++ {
		for j, r := range reqs {
			start := time.Now()
			n, err := roundTrip(r.body)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.name, err)
			}
			if i >= 20 {
				res[j].times = append(res[j].times, time.Since(start))
				res[j].bytes = n
			}
		}
	}
	return res, nil
}

func pct(d []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))].Round(time.Microsecond)
}

// installPeers installs the pinned reference servers and returns
// server-memory's entry point.
func installPeers() (string, error) {
	entry := filepath.Join("bench", "peers", "node_modules", "@modelcontextprotocol", "server-memory", "dist", "index.js")
	if _, err := os.Stat(entry); err == nil {
		return entry, nil
	}
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = filepath.Join("bench", "peers")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install in bench/peers (node and npm are needed): %v\n%s", err, out)
	}
	return entry, nil
}

type gnode struct{ id, code, kind, description string }

// name is the node's server-memory entity name: its statement code with the
// node ID (codes repeat), or the node ID.
func (n gnode) name() string {
	if n.code != "" {
		return n.code + " " + n.id
	}
	return n.id
}

type graph struct {
	nodes []gnode
	edges [][2]string
}

// readGraph reads a package's delivery nodes and hasChild relationships.
func readGraph(pkg string) (*graph, error) {
	g := &graph{}
	lines := func(pattern string, each func([]byte) error) error {
		files, _ := filepath.Glob(filepath.Join(pkg, "delivery", pattern))
		if len(files) != 1 {
			return fmt.Errorf("%s: %d files %s", pkg, len(files), pattern)
		}
		f, err := os.Open(files[0])
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			if err := each(sc.Bytes()); err != nil {
				return err
			}
		}
		return sc.Err()
	}
	err := lines("*nodes*.jsonl", func(b []byte) error {
		var rec struct {
			Labels     []string          `json:"labels"`
			Properties map[string]string `json:"properties"`
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			return err
		}
		p := rec.Properties
		g.nodes = append(g.nodes, gnode{id: p["identifier"], code: p["statementCode"], kind: p["statementType"], description: p["description"]})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return g, lines("*relationships*.jsonl", func(b []byte) error {
		var rec struct {
			Label  string `json:"label"`
			Source string `json:"source_identifier"`
			Target string `json:"target_identifier"`
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			return err
		}
		if rec.Label == "hasChild" {
			g.edges = append(g.edges, [2]string{rec.Source, rec.Target})
		}
		return nil
	})
}

// writeMemory writes the graph as server-memory's JSONL file: one entity per
// node (its description as the observation), one relation per hasChild edge.
func (g *graph) writeMemory(path string) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	names := map[string]string{}
	for _, n := range g.nodes {
		names[n.id] = n.name()
		kind := n.kind
		if kind == "" {
			kind = "node"
		}
		if err := enc.Encode(map[string]any{"type": "entity", "name": n.name(), "entityType": kind, "observations": []string{n.description}}); err != nil {
			return err
		}
	}
	for _, e := range g.edges {
		if err := enc.Encode(map[string]any{"type": "relation", "from": names[e[0]], "to": names[e[1]], "relationType": "hasChild"}); err != nil {
			return err
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
