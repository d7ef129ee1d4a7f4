// Command rawbench measures what an MCP server itself costs per call, with a
// client that does not decode: raw JSON-RPC lines over the stdio pipes, timed
// from the request written to the response line read. Against the reference
// @modelcontextprotocol/server-memory it runs, for each graph, three kinds of
// server at once:
//
//   - kgmcp, serving the graph's package compiled into an image;
//   - server-memory, on the same graph exported to its entity/relation file
//     (one entity per node, the description as its observation; one relation
//     per relationship, the label as its type);
//   - empty go-sdk servers with one constant tool (bench/internal/baseline),
//     each answering exactly a result kgmcp gave (captured once before
//     measuring): what the SDK alone costs to carry the same answer.
//
// The graphs, smallest first: the shipped mathematics sample; with the corpus,
// Nigeria Mathematics P1–3 with learning components (the default graph of
// earlier runs) and CBSE Science IX–X; and a synthetic package of -synthetic
// standards (internal/pkggen, as bench/genpkg writes it). server-memory reads
// and parses its whole file on every call, so its cost grows with the graph
// while kgmcp's does not: the ratios are per graph, and the graph table names
// each one's nodes, relationships and file bytes.
//
// Every server of every graph runs at once, and the calls are interleaved:
// each round calls every side of every row once, the sides' order rotating
// from round to round. The rows, per graph:
//
//   - ping on every side (the transport floor);
//   - a text search for one word on both sides, each answering every match:
//     kgmcp's search_standards with its limit set to its match count (at most
//     100), server-memory's search_nodes (unbounded). The word is chosen from
//     the graph's descriptions so that the two counts are as close as the
//     graph allows (equal where it can, then nearest 25): kgmcp matches
//     standards by token, server-memory every entity (learning components
//     too) by substring. Where no word has at most 100 items on both sides
//     (the synthetic graph's vocabulary is small), the row is a 25-hit page
//     against server-memory's unbounded answer, and says so. Both counts are
//     asserted, and the per-item column divides each side by its count;
//   - get_standard of one standards item against open_nodes of its entity;
//
// and on the Nigeria graph the row earlier runs reported: a 25-hit page for
// "numbers" against search_nodes "numbers", whose answer is unbounded (85
// entities there), so its ratio compares answers of different sizes (the
// per-item column divides each side by its item count).
//
// Each row but the last also runs against an empty go-sdk server answering
// kgmcp's answer of that row (for ping, its own ping). Ratios are of p50s,
// taken per block of rounds (-blocks, default 5): the median of the blocks'
// ratios with their minimum and maximum. The Go servers
// run at the same GC target (-gogc, default kgmcp's own 400; "" leaves each at
// its default). A row that names a count fails the run unless the answer has
// it, and an error answer (JSON-RPC error or isError) fails the run.
//
//	go run ./bench/rawbench [-corpus DIR] [-calls 200] [-graphs sample,nigeria,cbse,synthetic] [-synthetic 5000]
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
	"github.com/kgc-project/kgc/bench/internal/ratio"
	"github.com/kgc-project/kgc/internal/corpus"
	"github.com/kgc-project/kgc/internal/pkggen"
)

func main() {
	corpus := flag.String("corpus", corpus.Dir(), "corpus root (default: $KGC_CORPUS, else beside the module)")
	calls := flag.Int("calls", 200, "calls measured per request and side")
	blocks := flag.Int("blocks", 5, "blocks of rounds the ratios are taken over (median, min, max)")
	graphs := flag.String("graphs", "sample,nigeria,cbse,synthetic", "graphs to measure (sample, nigeria, cbse: corpus; synthetic)")
	synthetic := flag.Int("synthetic", 5000, "standards of the synthetic graph (internal/pkggen; with learning components, about twice as many nodes)")
	image := flag.String("image", "", "measure kgmcp alone serving this image")
	gogc := flag.String("gogc", "400", "GOGC for the Go servers (kgmcp and the constant servers); empty: each its default")
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
	} else if *blocks < 1 || *calls < *blocks {
		err = fmt.Errorf("-blocks must be between 1 and -calls")
	} else {
		err = run(*corpus, strings.Split(*graphs, ","), *synthetic, *calls, *blocks, *gogc)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "rawbench:", err)
		os.Exit(1)
	}
}

// searchHits is what the 25-hit search rows claim and assert.
const searchHits = 25

// gspec is one graph to measure.
type gspec struct {
	key, title             string
	pkg, profiles, prompts string
	// legacy is the query of the row earlier runs reported on this graph: a
	// 25-hit page against server-memory's unbounded answer ("" for none).
	legacy string
}

// specs returns the graphs asked for that exist, and a note for those that
// do not.
func specs(corpus string, keys []string, synthetic int, tmp string) ([]gspec, []string, error) {
	var out []gspec
	var notes []string
	for _, key := range keys {
		switch key {
		case "sample":
			matches, _ := filepath.Glob("packages/kgc-sample-mathematics-grades-1-3/*@*")
			if len(matches) != 1 {
				return nil, nil, fmt.Errorf("no shipped mathematics sample (run from the repository root)")
			}
			out = append(out, gspec{key: key, title: "shipped mathematics sample", pkg: matches[0], profiles: "profiles"})
		case "nigeria", "cbse":
			dir, title, legacy := "nigeria-nerdc-mathematics-primary-1-3/nigeria-nerdc-mathematics-primary-1-3@undated+3f35e11c6624",
				"Nigeria Mathematics P1–3 + learning components", "numbers"
			if key == "cbse" {
				dir, title, legacy = "india-cbse-science-learning-framework-classes-9-10/india-cbse-science-learning-framework-classes-9-10@undated+92cd5087f7e0",
					"CBSE Science IX–X", ""
			}
			pkg := filepath.Join(corpus, "derived", "graph_packages", filepath.FromSlash(dir))
			if _, err := os.Stat(pkg); err != nil {
				notes = append(notes, fmt.Sprintf("%s: no corpus package at %s", key, pkg))
				continue
			}
			out = append(out, gspec{key: key, title: title, pkg: pkg, profiles: filepath.Join(corpus, "profiles"),
				prompts: filepath.Join(corpus, "prompts"), legacy: legacy})
		case "synthetic":
			if synthetic <= 0 {
				continue
			}
			root := filepath.Join(tmp, "synthetic")
			for _, d := range []string{"packages", "profiles"} {
				if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
					return nil, nil, err
				}
			}
			w, err := pkggen.Write(pkggen.Synthetic(synthetic), filepath.Join(root, "packages"), filepath.Join(root, "profiles"))
			if err != nil {
				return nil, nil, err
			}
			out = append(out, gspec{key: key, title: fmt.Sprintf("synthetic, %d standards (pkggen)", synthetic), pkg: w.PackageDir,
				profiles: filepath.Join(root, "profiles")})
		default:
			return nil, nil, fmt.Errorf("-graphs: unknown graph %q", key)
		}
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("no graph to measure (%s)", strings.Join(notes, "; "))
	}
	return out, notes, nil
}

// subject is one graph being measured: its servers and what was chosen.
type subject struct {
	gspec
	snap, fw         string
	g                *graph
	memBytes, imgLen int
	node             gnode
	// The text search row: its word, kgmcp's limit and total matches,
	// server-memory's entities and relations, and whether kgmcp's page is
	// every match (else 25 of more).
	like             string
	kgLimit, kgTotal int
	likeN, likeRels  int
	complete         bool
	kg, mem          *server
	consts           []*server
}

func (s *subject) close() {
	for _, c := range append([]*server{s.kg, s.mem}, s.consts...) {
		if c != nil {
			c.close()
		}
	}
}

func searchBody(query string, limit int, snap string) string {
	return `{"method":"tools/call","params":{"name":"search_standards","arguments":{"request":{"mode":"text","query":"` + query +
		`","match":{"matchMode":"tokens","operator":"any"},"limit":` + fmt.Sprint(limit) + `,"snapshotIds":["` + snap + `"]}}}}`
}

func searchNodesBody(query string) string {
	return `{"method":"tools/call","params":{"name":"search_nodes","arguments":{"query":"` + query + `"}}}`
}

// wantGraph fails unless a server-memory answer has entities entities and
// relations relations.
func wantGraph(what string, entities, relations int) func([]byte) error {
	return func(line []byte) error {
		e, r, err := graphCounts(line)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if e != entities || r != relations {
			return fmt.Errorf("%s: %d entities and %d relations, the row claims %d and %d", what, e, r, entities, relations)
		}
		return nil
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// prepare builds the graph's image and server-memory file, starts its kgmcp
// and server-memory, and chooses the like-for-like query.
func prepare(sp gspec, tmp, kgc, kgmcp, memory string, env []string) (*subject, error) {
	s := &subject{gspec: sp, snap: filepath.Base(sp.pkg)}
	s.fw = strings.SplitN(s.snap, "@", 2)[0]
	dir := filepath.Join(tmp, sp.key)
	images := filepath.Join(dir, "images")
	args := []string{"build", "--profiles", sp.profiles, "-o", images}
	if sp.prompts != "" {
		args = append(args, "--prompts", sp.prompts)
	}
	if out, err := exec.Command(kgc, append(args, sp.pkg)...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s: kgc build: %v\n%s", sp.key, err, out)
	}
	imgs, _ := filepath.Glob(filepath.Join(images, "*.kgimg"))
	for _, img := range imgs {
		if fi, err := os.Stat(img); err == nil {
			s.imgLen += int(fi.Size())
		}
	}
	var err error
	if s.g, err = readGraph(sp.pkg); err != nil {
		return nil, err
	}
	if s.node, err = s.g.standard(); err != nil {
		return nil, fmt.Errorf("%s: %w", sp.key, err)
	}
	memFile := filepath.Join(dir, "memory.jsonl")
	if s.memBytes, err = s.g.writeMemory(memFile); err != nil {
		return nil, err
	}
	kcmd := exec.Command(kgmcp, images)
	kcmd.Env = env
	if s.kg, err = start(kcmd); err != nil {
		return nil, fmt.Errorf("%s: kgmcp: %w", sp.key, err)
	}
	mcmd := exec.Command("node", memory)
	mcmd.Env = append(os.Environ(), "MEMORY_FILE_PATH="+memFile)
	if s.mem, err = start(mcmd); err != nil {
		s.close()
		return nil, fmt.Errorf("%s: server-memory: %w", sp.key, err)
	}
	if err := s.chooseWord(); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// constant starts an empty go-sdk server answering the result of kgmcp's
// answer to body.
func (s *subject) constant(self, tmp, name, body string, env []string) (*server, error) {
	line, err := s.kg.roundTrip(body)
	if err != nil {
		return nil, fmt.Errorf("%s: kgmcp %s: %w", s.key, name, err)
	}
	result, err := baseline.ResultOf(line)
	if err != nil {
		return nil, err
	}
	file := filepath.Join(tmp, s.key, "constant-"+name+".json")
	if err := os.WriteFile(file, result, 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-serve-constant", file)
	cmd.Env = env
	c, err := start(cmd)
	if err != nil {
		return nil, fmt.Errorf("%s: constant server: %w", s.key, err)
	}
	s.consts = append(s.consts, c)
	return c, nil
}

// The sides of a row, in this order; a row may lack the last two.
const (
	sideKgmcp = iota
	sideMemory
	sideConstant
)

func run(corpus string, keys []string, synthetic, calls, blocks int, gogc string) error {
	tmp, err := os.MkdirTemp("", "rawbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bins, err := benchbin.Build(tmp, "kgc", "kgmcp")
	if err != nil {
		return err
	}
	kgc, kgmcp := bins[0], bins[1]
	sps, notes, err := specs(corpus, keys, synthetic, tmp)
	if err != nil {
		return err
	}
	memory, err := installPeers()
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	env := os.Environ()
	if gogc != "" {
		env = append(env, "GOGC="+gogc)
	}
	ping := request{name: "ping", body: `{"method":"ping"}`}
	var subjects []*subject
	defer func() {
		for _, s := range subjects {
			s.close()
		}
	}()
	var rows []row
	for _, sp := range sps {
		s, err := prepare(sp, tmp, kgc, kgmcp, memory, env)
		if err != nil {
			return err
		}
		subjects = append(subjects, s)
		likeName, memName, memAnswer := fmt.Sprintf("search_standards text %q, limit %d (every match)", s.like, s.kgLimit),
			fmt.Sprintf("search_nodes %q (every match)", s.like), plural(s.likeN, "entity", "entities")+", "+plural(s.likeRels, "relation", "relations")
		if !s.complete {
			likeName = fmt.Sprintf("search_standards text %q, %d of %d matches", s.like, s.kgLimit, s.kgTotal)
			memName = fmt.Sprintf("search_nodes %q (unbounded)", s.like)
		}
		like := request{name: likeName, body: searchBody(s.like, s.kgLimit, s.snap), answer: plural(s.kgLimit, "hit", "hits"), items: s.kgLimit,
			check: wantPage(s.key+" search_standards", s.kgLimit, s.complete)}
		get := request{name: "get_standard", answer: "1 record", body: `{"method":"tools/call","params":{"name":"get_standard","arguments":{"request":{"frameworkId":"` + s.fw + `","snapshotId":"` + s.snap +
			`","identifier":{"identifierType":"node_id","nodeId":"` + s.node.id + `"}}}}}`}
		cGet, err := s.constant(self, tmp, "get", get.body, env)
		if err != nil {
			return err
		}
		cSearch, err := s.constant(self, tmp, "search", like.body, env)
		if err != nil {
			return err
		}
		_, nodeRels := s.g.memoryMatches(s.node.name())
		constantReq := func(of request) request {
			return request{name: "constant tool (kgmcp's " + strings.SplitN(of.name, " ", 2)[0] + " answer)", body: baseline.CallBody, answer: of.answer, items: of.items}
		}
		rows = append(rows,
			row{s, []side{{s.kg, ping}, {s.mem, ping}, {cGet, ping}}},
			row{s, []side{{s.kg, like}, {s.mem, request{name: memName, body: searchNodesBody(s.like), answer: memAnswer, items: s.likeN,
				check: wantGraph(s.key+" search_nodes", s.likeN, s.likeRels)}}, {cSearch, constantReq(like)}}},
			row{s, []side{{s.kg, get}, {s.mem, request{name: "open_nodes (that entity)", answer: "1 entity, " + plural(nodeRels, "relation", "relations"),
				body:  `{"method":"tools/call","params":{"name":"open_nodes","arguments":{"names":["` + s.node.name() + `"]}}}`,
				check: wantGraph(s.key+" open_nodes", 1, nodeRels)}}, {cGet, constantReq(get)}}},
		)
		if s.legacy != "" {
			n, rels := s.g.memoryMatches(s.legacy)
			rows = append(rows, row{s, []side{
				{s.kg, request{name: fmt.Sprintf("search_standards text %q, 25 hits (earlier runs' row)", s.legacy), body: searchBody(s.legacy, searchHits, s.snap),
					answer: "25 hits", items: searchHits,
					check: wantPage(s.key+" search_standards", searchHits, false)}},
				{s.mem, request{name: fmt.Sprintf("search_nodes %q (unbounded)", s.legacy), body: searchNodesBody(s.legacy),
					answer: plural(n, "entity", "entities") + ", " + plural(rels, "relation", "relations"), items: n,
					check: wantGraph(s.key+" search_nodes", n, rels)}},
			}})
		}
	}

	begin := time.Now()
	res, err := interleave(rows, calls)
	if err != nil {
		return err
	}
	gc := "each Go server at its default GC target"
	if gogc != "" {
		gc = "GOGC=" + gogc + " for kgmcp and the constant servers"
	}
	for _, n := range notes {
		fmt.Println("not measured:", n)
	}
	fmt.Printf("%d calls per request and side after 20 warm-up rounds, interleaved call by call over every graph and side (%s; run %s); "+
		"ratios of p50s per block of %d rounds: median (min–max) of %d blocks\n\n", calls, gc, time.Since(begin).Round(time.Second), calls/blocks, blocks)
	fmt.Println("| graph | snapshot | nodes | relationships | server-memory file | kgmcp image | get_standard / open_nodes of | text search word: kgmcp matches / server-memory entities |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, s := range subjects {
		rels := fmt.Sprint(len(s.g.edges))
		if len(s.g.edges) != s.g.rels {
			rels += fmt.Sprintf(" (of %d: the others end outside the package)", s.g.rels)
		}
		fmt.Printf("| %s | %s | %d | %s | %d B | %d B | %s | %q: %d / %d |\n", s.title, s.snap, len(s.g.nodes), rels, s.memBytes, s.imgLen,
			s.node.name(), s.like, s.kgTotal, s.likeN)
	}
	fmt.Println()
	fmt.Println("| graph | kgmcp request | answer | bytes | p50 | p99 | server-memory request | answer | bytes | p50 | p99 | kgmcp / server-memory (p50) | per item |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for i, r := range rows {
		a, b := res[i][sideKgmcp], res[i][sideMemory]
		ra, rb := r.sides[sideKgmcp].req, r.sides[sideMemory].req
		perItem := "—"
		if ra.items > 0 && rb.items > 0 {
			perItem = fmt.Sprintf("%.2f×", p50Ratio(a, b)*float64(rb.items)/float64(ra.items))
		}
		fmt.Printf("| %s | %s | %s | %d | %s | %s | %s | %s | %d | %s | %s | %s | %s |\n", r.s.key, ra.name, dash(ra.answer), a.bytes, pct(a.times, 50), pct(a.times, 99),
			rb.name, dash(rb.answer), b.bytes, pct(b.times, 50), pct(b.times, 99), blockRatios(a, b, blocks), perItem)
	}
	fmt.Println()
	fmt.Println("| graph | kgmcp request | bytes | p50 | p99 | empty go-sdk server request | bytes | p50 | p99 | kgmcp / go-sdk (p50) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for i, r := range rows {
		if len(r.sides) <= sideConstant {
			continue
		}
		a, c := res[i][sideKgmcp], res[i][sideConstant]
		fmt.Printf("| %s | %s | %d | %s | %s | %s | %d | %s | %s | %s |\n", r.s.key, r.sides[sideKgmcp].req.name, a.bytes, pct(a.times, 50), pct(a.times, 99),
			r.sides[sideConstant].req.name, c.bytes, pct(c.times, 50), pct(c.times, 99), blockRatios(a, c, blocks))
	}
	return nil
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func p50Ratio(a, b sample) float64 { return float64(pct(a.times, 50)) / float64(pct(b.times, 50)) }

// blockRatios is the ratio of a's median to b's in each of n blocks of
// rounds, as "median× (min–max)" (bench/internal/ratio).
func blockRatios(a, b sample, n int) string { return ratio.Blocks(a.times, b.times, n).String() }

// graphCounts counts the entities and relations of a server-memory answer.
func graphCounts(line []byte) (entities, relations int, err error) {
	var resp struct {
		Result struct {
			Structured struct {
				Entities  []json.RawMessage `json:"entities"`
				Relations []json.RawMessage `json:"relations"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		return 0, 0, err
	}
	return len(resp.Result.Structured.Entities), len(resp.Result.Structured.Relations), nil
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
		return request{name: label, body: `{"method":"tools/call","params":{"name":"search_standards","arguments":{"request":{"mode":"text","query":"` + query +
			`","match":{"matchMode":"tokens","operator":"` + operator + `"},"limit":25}}}}`,
			check: func(line []byte) error { return baseline.WantHits(label, line, searchHits) }}
	}
	reqs := []request{
		{name: "ping", body: `{"method":"ping"}`},
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
		rows[i] = row{sides: []side{{s, r}}}
	}
	begin := time.Now()
	res, err := interleave(rows, calls)
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
// answer (a warm-up call) and fails the run if it says so. answer says what
// the answer holds ("25 hits"), items how many items (0: not a list).
type request struct {
	name, body, answer string
	items              int
	check              func(line []byte) error
}

// side is one server's request of a row.
type side struct {
	srv *server
	req request
}

// row is one request per side (kgmcp first), measured against each other.
type row struct {
	s     *subject
	sides []side
}

type sample struct {
	times []time.Duration // by round
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

// roundTrip writes one request line and reads up to its answer line; an
// error answer (JSON-RPC error or a tool's isError) is an error.
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
// for each row, each side's request once, the sides' order rotating from
// round to round so that none always goes first. It returns the samples by
// row and side.
func interleave(rows []row, calls int) ([][]sample, error) {
	res := make([][]sample, len(rows))
	for i, r := range rows {
		res[i] = make([]sample, len(r.sides))
	}
	for round := 0; round < 20+calls; round++ {
		for i, r := range rows {
			for k := range r.sides {
				j := (k + round) % len(r.sides)
				sd := r.sides[j]
				begin := time.Now()
				line, err := sd.srv.roundTrip(sd.req.body)
				d := time.Since(begin)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", sd.req.name, err)
				}
				if round == 0 && sd.req.check != nil {
					if err := sd.req.check(line); err != nil {
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
