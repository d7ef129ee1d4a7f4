// Command all regenerates the figures of bench/README.md: it runs every
// harness and in-process benchmark the README quotes, with the settings the
// README states, one after the other, and prints each one's tables under the
// README section they belong to (go test benchmark lines become a table).
// The in-process benchmarks run three times (go test -count 3) and each value
// is given as min–median–max over the runs. The in-process pairs whose ratio
// the README quotes (the gate against its baseline, mcpserver.New against an
// empty go-sdk server) are not run with -count, which runs one benchmark's
// runs back to back and then the other's: their test binary is built once
// and each side runs alone (-test.count 1), the two alternating pair by pair
// (-pairs times, default 5, the order swapping every pair), each side's
// values min–median–max over its runs and the ratio of their ns/op as
// the median (min–max) of the pairs' ratios (bench/internal/ratio).
//
//	go run ./bench/all                 # the default set (under 7 minutes on 2 cores, 2026-12-06)
//	go run ./bench/all -list           # what would run, with the commands
//	go run ./bench/all -only 'rawbench|httpbench'
//	go run ./bench/all -large          # also the 10,000-image and million-standard figures (GBs, an hour)
//
// A step that fails is reported (and the command exits 1 at the end) but does
// not stop the others; a harness fails when a row does not measure what it
// claims (a "25-hit" search that does not return 25 hits). Run it from the
// repository root; -corpus points at the corpus (internal/corpus: $KGC_CORPUS, else beside the module).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kgc-project/kgc/bench/internal/ratio"
	"github.com/kgc-project/kgc/internal/corpus"
)

// step is one command of the README, under the heading it feeds.
type step struct {
	name, section string
	args          []string // go arguments
	large         bool     // needs the large synthetic inputs (-large)
	env           []string
	pair          *pair // in-process A/B benchmarks run interleaved (args unused)
}

// pair is two benchmarks of one package measured against each other: the
// package's test binary runs one side at a time, the sides alternating.
type pair struct {
	pkg          string // ./compiler/gate
	a, b         string // -test.bench patterns matching one benchmark each
	benchtime    string
	bBenchtime   string // b's, when not benchtime (a side of microseconds needs more iterations to time)
	benchmem     bool
	aName, bName string // the ratio's terms, as the README names them
}

// args returns the test binary's arguments that run one side once.
func (p *pair) args(pattern string) []string {
	benchtime := p.benchtime
	if pattern == p.b && p.bBenchtime != "" {
		benchtime = p.bBenchtime
	}
	args := []string{"-test.run", "^$", "-test.bench", pattern, "-test.benchtime", benchtime, "-test.count", "1"}
	if p.benchmem {
		args = append(args, "-test.benchmem")
	}
	return args
}

// binary is the test binary's file name.
func (p *pair) binary() string { return filepath.Base(p.pkg) + ".test" }

// command is the pair's commands, as a shell runs them from the repository
// root (bench/all runs the binary from its own temporary directory and swaps
// the order every pair: A B, then B A, …).
func (p *pair) command(pairs int) string {
	bin := "/tmp/" + p.binary()
	return fmt.Sprintf("go test -c -o %s %s && cd %s && for i in $(seq %d); do\n  %s %s   # A\n  %s %s   # B\ndone",
		bin, p.pkg, p.pkg, pairs, bin, quote(p.args(p.a)), bin, quote(p.args(p.b)))
}

func steps(corpus, big, clones string) []step {
	// In-process benchmarks run three times (-count 3): each figure is
	// min–median–max over the runs.
	gotest := func(pkg, bench, benchtime string, more ...string) []string {
		return append([]string{"test", pkg, "-run", "^$", "-bench", bench, "-benchtime", benchtime, "-count", "3"}, more...)
	}
	bigImage := "$(ls " + big + "/img/*.kgimg)"
	return []step{
		{name: "gate", section: "The validation gate", pair: &pair{pkg: "./compiler/gate", a: "^BenchmarkGate$", b: "^BenchmarkGateBaseline$",
			benchtime: "20x", aName: "Gate", bName: "GateBaseline"}},
		{name: "kgimg", section: "Images: open + verify against the gate, and accessors", args: gotest("./kgimg", ".", "2s")},
		{name: "mcpbench", section: "kgmcp as a host sees it: start-up and per-tool latency", args: []string{"run", "./bench/mcpbench", "-corpus", corpus, "-spawns", "20", "-calls", "200"}},
		{name: "progression", section: "Learning progressions: traversal and paths at their budgets", args: gotest("./runtime/progression", "ProgressionCompute", "2s")},
		{name: "encoding", section: "Result encoding: typed results against maps (issue 9)", args: gotest("./runtime/query", "ResultEncoding", "1s", "-benchmem")},
		{name: "tools", section: "Result encoding: typed results against maps (issue 9)", args: gotest("./runtime/mcpserver", "Tools", "200x", "-benchmem")},
		{name: "federated", section: "Federated search at scale (issue 11)", args: gotest("./runtime/query", "FederatedSearch", "10x")},
		{name: "newserver", section: "Server construction (issue 11, goal 2: schemas encoded once)", pair: &pair{pkg: "./runtime/mcpserver",
			// The empty server takes a few µs: 200 of them are timed in under
			// a millisecond, so it runs 20,000 (some 50 ms; kgmcp 200, some 250 ms).
			a: "^BenchmarkNewServer$/^kgmcp$", b: "^BenchmarkNewServer$/^empty-go-sdk$", benchtime: "200x", bBenchtime: "20000x", benchmem: true,
			aName: "kgmcp mcpserver.New", bName: "empty go-sdk server"}},
		// 20 spawns: the ratios to the empty server are taken over 5 blocks
		// of 4 spawns (at 10, blocks of 2 would each be a pair of spawns).
		{name: "startbench", section: "Catalog start-up (issue 11, goal 1)", args: []string{"run", "./bench/startbench", "-images", "10,100,1000", "-spawns", "20"}},
		{name: "catalogopen", section: "Catalog start-up (issue 11, goal 1)", args: gotest("./runtime/query", "CatalogOpen", "5x", "-benchmem")},
		{name: "checksum", section: "10,000 images: start-up and cursor digests (issue 24)", args: gotest("./kgimg/format", "Checksum", "1s")},
		{name: "rawbench", section: "Server cost over stdio against server-memory (issue 11, goal 2)", args: []string{"run", "./bench/rawbench", "-corpus", corpus, "-calls", "200"}},
		{name: "stdiocall", section: "Server cost over stdio against server-memory (issue 11, goal 2)", args: gotest("./cmd/kgmcp/internal/serve", "StdioCall", "3000x", "-benchmem")},
		{name: "httpbench", section: "HTTP against an empty go-sdk server (issue 11, goal 5)", args: []string{"run", "./bench/httpbench", "-duration", "4s", "-rounds", "4", "-clients", "8,32", "-gogc", "400"}},
		{name: "httpping", section: "HTTP against an empty go-sdk server (issue 11, goal 5)", args: gotest("./cmd/kgmcp/internal/serve", "HTTPPing", "3s")},
		{name: "askbench", section: "Model use (askbench)", args: []string{"run", "./bench/askbench", "-corpus", corpus}},

		// -large: inputs of gigabytes, built once and kept (resumable).
		{name: "startbench-10000", section: "10,000 images: start-up and cursor digests (issue 24)", large: true,
			args: []string{"run", "./bench/startbench", "-images", "10000", "-spawns", "4", "-keep", clones}},
		{name: "start", section: "10,000 images: start-up and cursor digests (issue 24)", large: true,
			args: gotest("./runtime/query", "Start$", "2x"), env: []string{"KGC_BENCH_CLONES=" + clones, "KGC_BENCH_SIZES=1000,10000"}},
		{name: "cursordigests", section: "10,000 images: start-up and cursor digests (issue 24)", large: true,
			args: gotest("./runtime/query", "CursorDigests", "1s"), env: []string{"KGC_BENCH_CLONES=" + clones}},
		{name: "genbig", section: "Text search at a million standards (issue 11, goal 4)", large: true,
			args: []string{"sh", "-c", "test -d " + big + "/img || { go run ./bench/genpkg -standards 1000000 -progression-strands 10 -components=false -out " + big +
				" && go build -o " + big + "/bin/ ./cmd/kgc && " + big + "/bin/kgc build --profiles " + big + "/profiles -o " + big + "/img " + big + "/packages/*/*; }"}},
		{name: "compilebig", section: "Compiling a million standards (issue 24)", large: true,
			args: []string{"sh", "-c", "go build -o " + big + "/bin/ ./cmd/kgc && du -sb " + big + "/packages/*/* && " +
				"/usr/bin/time -f '%e s, %M KB peak RSS' " + big + "/bin/kgc build --profiles " + big + "/profiles -o " + big + "/img-timed " + big + "/packages/*/* 2>&1"}},
		{name: "largetext", section: "Text search at a million standards (issue 11, goal 4)", large: true,
			args: []string{"sh", "-c", "KGC_BENCH_IMAGE=" + bigImage + " go test ./runtime/query -run '^$' -bench LargeTextSearch -benchtime 20x"}},
		{name: "rawbench-image", section: "Text search at a million standards (issue 11, goal 4)", large: true,
			args: []string{"sh", "-c", "go run ./bench/rawbench -image " + bigImage + " -calls 50"}},
		{name: "progression-big", section: "Learning progressions: traversal and paths at their budgets", large: true,
			args: []string{"sh", "-c", "KGC_BENCH_IMAGE=" + bigImage + " go test ./runtime/progression -run '^$' -bench ProgressionCompute -benchtime 2s"}},
	}
}

func main() {
	corpus := flag.String("corpus", corpus.Dir(), "corpus root (default: $KGC_CORPUS, else beside the module)")
	only := flag.String("only", "", "run only the steps whose name matches this regular expression")
	large := flag.Bool("large", false, "also the steps that need the 10,000-image catalog and the million-standard image (built under -big and -clones when missing)")
	big := flag.String("big", "/tmp/kgc-bench-big", "where the million-standard package and image are built (-large)")
	clones := flag.String("clones", "/tmp/kgc-bench-clones", "where the 10,000 clone images are built (-large)")
	list := flag.Bool("list", false, "print the steps and their commands, run nothing")
	pairs := flag.Int("pairs", 5, "pairs of runs of the in-process A/B steps (gate, newserver), the order alternating")
	flag.Parse()
	if *pairs < 1 {
		fmt.Fprintln(os.Stderr, "all: -pairs must be at least 1")
		os.Exit(2)
	}
	re, err := regexp.Compile(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "all: -only:", err)
		os.Exit(2)
	}
	var failed []string
	section := ""
	begin := time.Now()
	for _, s := range steps(*corpus, *big, *clones) {
		if (s.large && !*large) || !re.MatchString(s.name) {
			continue
		}
		var name, line string
		var args []string
		if s.pair != nil {
			line = s.pair.command(*pairs)
		} else {
			name, args = "go", s.args
			if args[0] == "sh" {
				name, args = "sh", args[1:]
			}
			line = strings.Join(append(s.env, name+" "+quote(args)), " ")
		}
		if *list {
			fmt.Printf("%-18s %s\n", s.name, strings.ReplaceAll(line, "\n", "\n"+strings.Repeat(" ", 19)))
			continue
		}
		if s.section != section {
			section = s.section
			fmt.Printf("\n## %s\n", section)
		}
		fmt.Printf("\n### %s\n\n```sh\n%s\n```\n\n", s.name, line)
		start := time.Now()
		var err error
		if s.pair != nil {
			err = runPair(s.pair, *pairs)
		} else {
			err = runStep(name, args, s.env, line)
		}
		if err != nil {
			failed = append(failed, s.name)
			fmt.Printf("\n**%s failed: %v**\n", s.name, err)
		}
		fmt.Printf("\n(%s: %s)\n", s.name, time.Since(start).Round(time.Second))
	}
	if *list {
		return
	}
	fmt.Printf("\nall: %s", time.Since(begin).Round(time.Second))
	if len(failed) > 0 {
		fmt.Printf("; failed: %s\n", strings.Join(failed, ", "))
		os.Exit(1)
	}
	fmt.Println()
}

// runStep runs one command and renders its output.
func runStep(name string, args, env []string, line string) error {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err == nil {
		var results int
		results, err = render(out)
		if werr := cmd.Wait(); err == nil {
			err = werr
		}
		if err == nil && results == 0 && strings.Contains(line, "-bench ") {
			err = fmt.Errorf("no benchmark result: the pattern matches no benchmark in the package")
		}
	}
	return err
}

// runPair builds p's test binary once and runs its two sides alternately,
// pairs times (A B, then B A, …), each run alone with -test.count 1. It
// prints the runs as one table (a row per side, min–median–max over its
// runs) and the ratio of A's ns/op to B's as the median (min–max) over the
// pairs.
func runPair(p *pair, pairs int) error {
	tmp, err := os.MkdirTemp("", "bench-all-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, err := filepath.Abs(filepath.Join(tmp, p.binary()))
	if err != nil {
		return err
	}
	build := exec.Command("go", "test", "-c", "-o", bin, p.pkg)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go test -c %s: %w", p.pkg, err)
	}
	var lines [2][][]string // by side, in run order
	var ns [2][]float64
	for i := 0; i < pairs; i++ {
		for k := 0; k < 2; k++ {
			side := (k + i) % 2
			pattern := p.a
			if side == 1 {
				pattern = p.b
			}
			cmd := exec.Command(bin, p.args(pattern)...)
			cmd.Dir = p.pkg // where go test runs a package's benchmarks
			cmd.Stderr = os.Stderr
			out, err := cmd.Output()
			if err != nil {
				return fmt.Errorf("%s %s: %w", p.binary(), pattern, err)
			}
			f, v, err := oneResult(out)
			if err != nil {
				return fmt.Errorf("%s %s: %w", p.binary(), pattern, err)
			}
			lines[side] = append(lines[side], f)
			ns[side] = append(ns[side], v)
		}
	}
	var table benchTable
	for _, side := range lines {
		for _, f := range side {
			table.add(f)
		}
	}
	table.flush()
	fmt.Printf("\n%s / %s (ns/op): %s over %d interleaved pairs of runs (the order alternating)\n", p.aName, p.bName, ratio.Pairs(ns[0], ns[1]), pairs)
	return nil
}

// oneResult finds the one benchmark line of a test binary's output and its
// ns/op; another count of benchmark lines is an error (the pattern must
// match exactly one benchmark). Other lines than go test's framing are
// printed.
func oneResult(out []byte) ([]string, float64, error) {
	var found [][]string
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		f := strings.Fields(l)
		if len(f) >= 4 && strings.HasPrefix(f[0], "Benchmark") {
			found = append(found, f)
			continue
		}
		if l == "" || l == "PASS" || strings.HasPrefix(l, "goos:") || strings.HasPrefix(l, "goarch:") ||
			strings.HasPrefix(l, "pkg:") || strings.HasPrefix(l, "cpu:") {
			continue
		}
		fmt.Println(l)
	}
	if len(found) != 1 {
		return nil, 0, fmt.Errorf("%d benchmark results, want 1", len(found))
	}
	f := found[0]
	for i := 2; i+1 < len(f); i += 2 {
		if f[i+1] == "ns/op" {
			v, err := strconv.ParseFloat(f[i], 64)
			return f, v, err
		}
	}
	return nil, 0, fmt.Errorf("no ns/op in %q", strings.Join(f, " "))
}

// render copies a step's output, turning go test's benchmark lines into a
// table (name, runs and iterations, then every value with its unit), and
// counts them. The runs of one benchmark (go test -count) make one row, each
// value as min–median–max over the runs.
func render(r io.Reader) (int, error) {
	results := 0
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	var table benchTable
	for sc.Scan() {
		l := sc.Text()
		f := strings.Fields(l)
		if len(f) >= 4 && strings.HasPrefix(f[0], "Benchmark") {
			table.add(f)
			results++
			continue
		}
		if strings.HasPrefix(l, "goos:") || strings.HasPrefix(l, "goarch:") || strings.HasPrefix(l, "pkg:") ||
			strings.HasPrefix(l, "cpu:") || l == "PASS" || (len(table.rows) > 0 && strings.HasPrefix(l, "ok ")) {
			continue
		}
		table.flush()
		fmt.Println(l)
	}
	table.flush()
	return results, sc.Err()
}

// benchTable collects consecutive benchmark lines by name, in order.
type benchTable struct {
	rows  []string
	lines map[string][][]string
}

func (t *benchTable) add(f []string) {
	if t.lines == nil {
		t.lines = map[string][][]string{}
	}
	if _, ok := t.lines[f[0]]; !ok {
		t.rows = append(t.rows, f[0])
	}
	t.lines[f[0]] = append(t.lines[f[0]], f)
}

// flush prints the collected rows as a table and empties it.
func (t *benchTable) flush() {
	if len(t.rows) == 0 {
		return
	}
	fmt.Println("| benchmark | runs | iterations | measurements (min–median–max over the runs) |")
	fmt.Println("|---|---|---|---|")
	for _, name := range t.rows {
		runs := t.lines[name]
		iters := make([]string, len(runs))
		for i, f := range runs {
			iters[i] = f[1]
		}
		var m []string
		for i := 2; i+1 < len(runs[0]); i += 2 {
			vals := make([]string, 0, len(runs))
			for _, f := range runs {
				if i+1 < len(f) && f[i+1] == runs[0][i+1] {
					vals = append(vals, f[i])
				}
			}
			unit := runs[0][i+1]
			if unit == "ns/op" {
				vals, unit = scaleNanos(vals)
			}
			m = append(m, spread(vals)+" "+unit)
		}
		fmt.Printf("| %s | %d | %s | %s |\n", name, len(runs), spread(iters), strings.Join(m, ", "))
	}
	t.rows, t.lines = nil, nil
}

// scaleNanos writes nanoseconds in the unit that suits their median (ns,
// µs, ms or s), to three significant digits.
func scaleNanos(vals []string) ([]string, string) {
	xs := make([]float64, len(vals))
	for i, v := range vals {
		xs[i], _ = strconv.ParseFloat(v, 64)
	}
	sorted := append([]float64(nil), xs...)
	sort.Float64s(sorted)
	unit, div := "ns/op", 1.0
	switch med := sorted[(len(sorted)-1)/2]; {
	case med >= 1e9:
		unit, div = "s/op", 1e9
	case med >= 1e6:
		unit, div = "ms/op", 1e6
	case med >= 1e3:
		unit, div = "µs/op", 1e3
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.FormatFloat(x/div, 'g', 3, 64)
		if x/div >= 1000 {
			out[i] = strconv.FormatFloat(x/div, 'f', 0, 64)
		}
	}
	return out, unit
}

// spread is "v" when every value is the same, else "min–median–max" (the
// lower median of an even count).
func spread(vals []string) string {
	if len(vals) == 0 {
		return "?"
	}
	s := append([]string(nil), vals...)
	num := func(v string) float64 { x, _ := strconv.ParseFloat(v, 64); return x }
	sort.SliceStable(s, func(i, j int) bool { return num(s[i]) < num(s[j]) })
	if s[0] == s[len(s)-1] {
		return s[0]
	}
	return s[0] + "–" + s[(len(s)-1)/2] + "–" + s[len(s)-1]
}

func quote(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if strings.ContainsAny(a, " $'|()*;&") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}
