// Command rawbench measures what an MCP server itself costs per call, with a
// client that does not decode: raw JSON-RPC lines over the stdio pipes, timed
// from the request written to the response line read. It runs three servers
// at once and interleaves them call by call (each round calls every side of a
// row in turn, the order rotating from round to round, the same client code
// and pipes for all):
//
//   - kgmcp, on one package of the corpus (Nigeria Mathematics P1–3 with
//     learning components; the shipped mathematics sample without the corpus);
//   - the reference @modelcontextprotocol/server-memory, on the same graph
//     exported to its entity/relation file;
//   - an empty go-sdk server with one constant tool (bench/internal/baseline)
//     answering exactly the get_standard result kgmcp gave (captured once
//     before measuring): what the SDK alone costs to carry the same answer.
//
// The two Go servers run at the same GC target (-gogc, default kgmcp's own
// 400; "" leaves each at its default). A row that claims 25 hits fails the
// run unless the answer carries 25.
//
//	go run ./bench/rawbench [-corpus DIR] [-calls 200]
//	go run ./bench/rawbench -image big.kgimg [-calls 50]
//
// With -image, only kgmcp is measured, serving that one image (e.g. the
// million-standard synthetic one, bench/README.md): ping, and 25-hit text
// searches for a common term and a two-term query, interleaved with ping.
//
// server-memory is installed from bench/peers (pinned) on first use; node and
// npm are needed. Compare the ratios within one run.
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

	"github.com/kgc-project/kgc/bench/internal/baseline"
	"github.com/kgc-project/kgc/bench/internal/benchbin"
	"github.com/kgc-project/kgc/internal/corpus"
)

func main() {
	corpus := flag.String("corpus", corpus.Dir(), "corpus root (default: $KGC_CORPUS, else beside the module)")
	calls := flag.Int("calls", 200, "calls measured per request and side")
	image := flag.String("image", "", "measure kgmcp alone serving this image")
	gogc := flag.String("gogc", "400", "GOGC for both Go servers (kgmcp and the constant server); empty: each its default")
	serveConstant := flag.String("serve-constant", "", "(internal) serve the constant go-sdk server over stdio with this result file")
	flag.Parse()
	if *serveConstant != "" {
		if err := baseline.ServeStdio(*serveConstant); err != nil {
			fmt.Fprintln(os.Stderr, "constant:", err)
			os.Exit(1)
		}
		return
	}
	var err error
	if *image != "" {
		err = runImage(*image, *calls, *gogc)
	} else {
		err = run(*corpus, *calls, *gogc)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "rawbench:", err)
		os.Exit(1)
	}
}

// searchHits is what the search rows claim and assert.
const searchHits = 25

func run(corpus string, calls int, gogc string) error {
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
	// "numbers" matches more than 25 items of the Nigeria package ("number"
	// matches 10: the index does not stem).
	query := "numbers"
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
	env := os.Environ()
	if gogc != "" {
		env = append(env, "GOGC="+gogc)
	}

	search := request{"search_standards text " + fmt.Sprintf("%q", query) + ", 25 hits", `{"method":"tools/call","params":{"name":"search_standards","arguments":{"request":{"mode":"text","query":"` + query +
		`","match":{"matchMode":"tokens","operator":"any"},"limit":25,"snapshotIds":["` + snap + `"]}}}}`,
		func(line []byte) error { return baseline.WantHits("kgmcp search_standards", line, searchHits) }}
	getStandard := request{"get_standard", `{"method":"tools/call","params":{"name":"get_standard","arguments":{"request":{"frameworkId":"` + fw + `","snapshotId":"` + snap +
		`","identifier":{"identifierType":"node_id","nodeId":"` + node.id + `"}}}}}`, nil}
	ping := request{"ping", `{"method":"ping"}`, nil}
	var memCount int
	rows := []row{
		{ping, ping, ping},
		{search, request{"search_nodes " + fmt.Sprintf("%q", query), `{"method":"tools/call","params":{"name":"search_nodes","arguments":{"query":"` + query + `"}}}`,
			func(line []byte) error {
				var err error
				memCount, err = entities(line)
				return err
			}}, request{}},
		{getStandard, request{"open_nodes (one entity)", `{"method":"tools/call","params":{"name":"open_nodes","arguments":{"names":["` + node.name() + `"]}}}`, nil},
			request{"constant tool (get_standard's answer)", baseline.CallBody, nil}},
	}

	kcmd := exec.Command(kgmcp, images)
	kcmd.Env = env
	kg, err := start(kcmd)
	if err != nil {
		return fmt.Errorf("kgmcp: %w", err)
	}
	defer kg.close()
	// The constant server answers with kgmcp's get_standard result.
	line, err := kg.roundTrip(getStandard.body)
	if err != nil {
		return fmt.Errorf("kgmcp get_standard: %w", err)
	}
	result, err := baseline.ResultOf(line)
	if err != nil {
		return err
	}
	resultFile := filepath.Join(tmp, "constant.json")
	if err := os.WriteFile(resultFile, result, 0o644); err != nil {
		return err
	}
	mcmd := exec.Command("node", memory)
	mcmd.Env = append(os.Environ(), "MEMORY_FILE_PATH="+memFile)
	mem, err := start(mcmd)
	if err != nil {
		return fmt.Errorf("server-memory: %w", err)
	}
	defer mem.close()
	self, err := os.Executable()
	if err != nil {
		return err
	}
	ccmd := exec.Command(self, "-serve-constant", resultFile)
	ccmd.Env = env
	cst, err := start(ccmd)
	if err != nil {
		return fmt.Errorf("constant server: %w", err)
	}
	defer cst.close()

	begin := time.Now()
	res, err := interleave([]*server{kg, mem, cst}, rows, calls)
	if err != nil {
		return err
	}
	gc := "each Go server at its default GC target"
	if gogc != "" {
		gc = "GOGC=" + gogc + " for kgmcp and the constant server"
	}
	fmt.Printf("graph: %s (%d nodes, %d hasChild); %d calls per request and side after 20 warm-up rounds, interleaved call by call (%s, %s); search_nodes %q returns %d entities\n\n",
		snap, len(g.nodes), len(g.edges), calls, gc, time.Since(begin).Round(time.Second), query, memCount)
	fmt.Println("| request | kgmcp p50 | p99 | bytes | server-memory request | p50 | p99 | bytes | kgmcp / server-memory (p50) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for i, r := range rows {
		a, b := res[i][0], res[i][1]
		fmt.Printf("| %s | %s | %s | %d | %s | %s | %s | %d | %.2f× |\n", r[0].name, pct(a.times, 50), pct(a.times, 99), a.bytes,
			r[1].name, pct(b.times, 50), pct(b.times, 99), b.bytes, ratio(a, b))
	}
	fmt.Println()
	fmt.Println("| request | kgmcp p50 | p99 | bytes | empty go-sdk server request | p50 | p99 | bytes | kgmcp / go-sdk (p50) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for i, r := range rows {
		if r[2].body == "" {
			continue
		}
		a, c := res[i][0], res[i][2]
		fmt.Printf("| %s | %s | %s | %d | %s | %s | %s | %d | %.2f× |\n", r[0].name, pct(a.times, 50), pct(a.times, 99), a.bytes,
			r[2].name, pct(c.times, 50), pct(c.times, 99), c.bytes, ratio(a, c))
	}
	return nil
}

func ratio(a, b sample) float64 { return float64(pct(a.times, 50)) / float64(pct(b.times, 50)) }

// entities counts the entities of a server-memory search_nodes answer.
func entities(line []byte) (int, error) {
	var resp struct {
		Result struct {
			Structured struct {
				Entities []json.RawMessage `json:"entities"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		return 0, err
	}
	return len(resp.Result.Structured.Entities), nil
}

// runImage measures kgmcp alone on one image: ping and two text searches.
func runImage(image string, calls int, gogc string) error {
	tmp, err := os.MkdirTemp("", "rawbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bins, err := benchbin.Build(tmp, "kgmcp")
	if err != nil {
		return err
	}
	search := func(label, query, operator string) request {
		return request{label, `{"method":"tools/call","params":{"name":"search_standards","arguments":{"request":{"mode":"text","query":"` + query +
			`","match":{"matchMode":"tokens","operator":"` + operator + `"},"limit":25}}}}`,
			func(line []byte) error { return baseline.WantHits(label, line, searchHits) }}
	}
	reqs := []request{
		{"ping", `{"method":"ping"}`, nil},
		search("search_standards \"number\" (any), 25 hits", "number", "any"),
		search("search_standards \"count number\" (all), 25 hits", "count number", "all"),
	}
	cmd := exec.Command(bins[0], image)
	if gogc != "" {
		cmd.Env = append(os.Environ(), "GOGC="+gogc)
	}
	s, err := start(cmd)
	if err != nil {
		return fmt.Errorf("kgmcp: %w", err)
	}
	defer s.close()
	rows := make([]row, len(reqs))
	for i, r := range reqs {
		rows[i] = row{r}
	}
	begin := time.Now()
	res, err := interleave([]*server{s}, rows, calls)
	if err != nil {
		return err
	}
	fmt.Printf("image: %s; %d calls each, round-robin (run %s)\n\n", image, calls, time.Since(begin).Round(time.Millisecond))
	fmt.Println("| request | p50 | p99 | bytes | p50 − ping p50 |")
	fmt.Println("|---|---|---|---|---|")
	ping := pct(res[0][0].times, 50)
	for i, r := range reqs {
		fmt.Printf("| %s | %s | %s | %d | %s |\n", r.name, pct(res[i][0].times, 50), pct(res[i][0].times, 99), res[i][0].bytes, pct(res[i][0].times, 50)-ping)
	}
	return nil
}

// request is one JSON-RPC call; check, when set, is applied to its first
// answer (a warm-up call) and fails the run if it says so.
type request struct {
	name, body string
	check      func(line []byte) error
}

// row holds one request per server, in the servers' order; an empty body
// means that server has no counterpart.
type row []request

type sample struct {
	times []time.Duration
	bytes int
}

// server is one running stdio server with an initialized session.
type server struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

// start starts a server over stdio and initializes it with raw lines.
func start(cmd *exec.Cmd) (*server, error) {
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
	s := &server{cmd: cmd, in: in, out: bufio.NewReaderSize(outPipe, 1<<20)}
	if _, err := s.roundTrip(`{"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"rawbench","version":"1"}}}`); err != nil {
		s.close()
		return nil, err
	}
	if _, err := io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *server) close() { s.in.Close(); s.cmd.Wait() }

// roundTrip writes one request line and reads up to its answer line.
func (s *server) roundTrip(body string) ([]byte, error) {
	s.id++
	line := `{"jsonrpc":"2.0","id":` + fmt.Sprint(s.id) + `,` + body[1:] + "\n"
	if _, err := io.WriteString(s.in, line); err != nil {
		return nil, err
	}
	// The answer's id, before another member or closing the object.
	key := `"id":` + fmt.Sprint(s.id)
	wantA, wantB := []byte(key+`,`), []byte(key+`}`)
	for {
		resp, err := s.out.ReadBytes('\n')
		if err != nil {
			return nil, err
		}
		if bytes.Contains(resp, wantA) || bytes.Contains(resp, wantB) {
			if bytes.Contains(resp, []byte(`"error":{`)) || bytes.Contains(resp, []byte(`"isError":true`)) {
				return nil, fmt.Errorf("error answer: %.300s", resp)
			}
			return resp, nil
		}
	}
}

// interleave runs 20 warm-up rounds and then calls rounds: in each round,
// for each row, each server's request once, the servers' order rotating
// from round to round so that none always goes first. It returns the
// samples by row and server.
func interleave(servers []*server, rows []row, calls int) ([][]sample, error) {
	res := make([][]sample, len(rows))
	for i := range res {
		res[i] = make([]sample, len(servers))
	}
	for round := 0; round < 20+calls; round++ {
		for i, r := range rows {
			for k := range servers {
				j := (k + round) % len(servers)
				if j >= len(r) || r[j].body == "" {
					continue
				}
				begin := time.Now()
				line, err := servers[j].roundTrip(r[j].body)
				d := time.Since(begin)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", r[j].name, err)
				}
				if round == 0 && r[j].check != nil {
					if err := r[j].check(line); err != nil {
						return nil, err
					}
				}
				if round >= 20 {
					res[i][j].times = append(res[i][j].times, d)
					res[i][j].bytes = len(line)
				}
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
