// Command httpbench measures kgmcp's Streamable HTTP entry point against an
// empty go-sdk server (stateless, JSON responses, the SDK's own handler) with
// one constant tool (bench/internal/baseline) in the same run: requests per
// second and p50/p99 latency at several concurrencies, for ping (the
// transport and guard alone) and for kgmcp's get_standard on the shipped
// mathematics sample against the constant tool answering the very result
// kgmcp gave (captured once before measuring: the same bytes on the wire).
//
//	go run ./bench/httpbench [-duration 4s] [-rounds 4] [-clients 8,32] [-gogc 400]
//
// The two sides are interleaved: each row's time per side is cut into
// -rounds slices, run A/B, B/A, A/B, … with the same client code and
// settings. Both servers run at the same GC target (-gogc, default kgmcp's
// own 400; "" leaves each at its default: kgmcp 400, the empty server 100).
// KGMCP_BENCH_FLAGS adds kgmcp flags and KGMCP_BENCH_ENV environment entries
// (space-separated, e.g. GOGC=100, applied after -gogc) to the kgmcp process
// only. Peak resident memory of both processes is reported at the end.
//
// Compare the ratios within one run.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kgc-project/kgc/bench/internal/baseline"
	"github.com/kgc-project/kgc/bench/internal/benchbin"

	"github.com/kgc-project/kgc/internal/pkggen"
)

func main() {
	duration := flag.Duration("duration", 4*time.Second, "measuring time per row and side")
	rounds := flag.Int("rounds", 4, "slices each side's time is cut into, alternating the sides")
	clients := flag.String("clients", "8,32", "concurrent clients, comma-separated")
	gogc := flag.String("gogc", "400", "GOGC for both servers; empty: each its default")
	serveEmpty := flag.String("serve-empty", "", "(internal) serve the empty go-sdk server on this address")
	constant := flag.String("constant", "", "(internal) the empty server's constant tool result file")
	flag.Parse()
	if *serveEmpty != "" {
		fmt.Fprintln(os.Stderr, baseline.ServeHTTP(*serveEmpty, *constant))
		os.Exit(1)
	}
	if err := run(*duration, *rounds, *clients, *gogc); err != nil {
		fmt.Fprintln(os.Stderr, "httpbench:", err)
		os.Exit(1)
	}
}

func run(duration time.Duration, rounds int, clients, gogc string) error {
	if rounds < 2 {
		return fmt.Errorf("-rounds must be at least 2, so that each side runs first once")
	}
	tmp, err := os.MkdirTemp("", "httpbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bins, err := benchbin.Build(tmp, "kgc", "kgmcp")
	if err != nil {
		return err
	}
	kgc, kgmcp, images := bins[0], bins[1], filepath.Join(tmp, "images")
	pkgs, _ := filepath.Glob("packages/*/*")
	if out, err := exec.Command(kgc, append([]string{"build", "--profiles", "profiles", "-o", images}, pkgs...)...).CombinedOutput(); err != nil {
		return fmt.Errorf("kgc build: %v\n%s", err, out)
	}
	var gcEnv []string
	if gogc != "" {
		gcEnv = []string{"GOGC=" + gogc}
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	kg := exec.Command(kgmcp, append(append([]string{"--http", "127.0.0.1:" + port}, strings.Fields(os.Getenv("KGMCP_BENCH_FLAGS"))...), images)...)
	kg.Env = append(append(os.Environ(), gcEnv...), strings.Fields(os.Getenv("KGMCP_BENCH_ENV"))...)
	if err := kg.Start(); err != nil {
		return err
	}
	defer func() { kg.Process.Signal(os.Interrupt); kg.Wait() }()
	kgURL := "http://127.0.0.1:" + port + "/mcp"
	if err := await(kgURL); err != nil {
		return err
	}
	spec := pkggen.Shipped()[1]
	getStandard := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_standard","arguments":{"request":{"frameworkId":"` +
		spec.FrameworkID + `","identifier":{"identifierType":"node_id","nodeId":"` + pkggen.NodeID(spec, 0, 0, 0, 0) + `"}}}}}`
	_, answer, err := post(http.DefaultClient, kgURL, getStandard)
	if err != nil {
		return fmt.Errorf("kgmcp get_standard: %w", err)
	}
	result, err := baseline.ResultOf(answer)
	if err != nil {
		return err
	}
	resultFile := filepath.Join(tmp, "constant.json")
	if err := os.WriteFile(resultFile, result, 0o644); err != nil {
		return err
	}

	// The empty go-sdk server, in its own process like kgmcp: the same SDK
	// handler options, one constant tool.
	self, err := os.Executable()
	if err != nil {
		return err
	}
	emptyPort, err := freePort()
	if err != nil {
		return err
	}
	em := exec.Command(self, "-serve-empty", "127.0.0.1:"+emptyPort, "-constant", resultFile)
	em.Env = append(os.Environ(), gcEnv...)
	if err := em.Start(); err != nil {
		return err
	}
	defer func() { em.Process.Kill(); em.Wait() }()
	emptyURL := "http://127.0.0.1:" + emptyPort + "/mcp"
	if err := await(emptyURL); err != nil {
		return err
	}
	constantCall := `{"jsonrpc":"2.0","id":1,` + baseline.CallBody[1:]
	_, constAnswer, err := post(http.DefaultClient, emptyURL, constantCall)
	if err != nil {
		return fmt.Errorf("constant tool: %w", err)
	}

	gc := "each server at its default GC target (kgmcp 400, the empty server 100)"
	if gogc != "" {
		gc = "GOGC=" + gogc + " for both servers"
	}
	if e := os.Getenv("KGMCP_BENCH_ENV"); e != "" {
		gc += "; kgmcp also " + e
	}
	var served []string
	for _, p := range pkgs {
		served = append(served, filepath.Base(p))
	}
	fmt.Printf("kgmcp serves %s; get_standard of node %s (%s)\n", strings.Join(served, " and "), pkggen.NodeID(spec, 0, 0, 0, 0), spec.FrameworkID)
	fmt.Printf("stateless Streamable HTTP, JSON responses; %s per row and side in %d interleaved slices; %s; get_standard answer %d bytes, constant tool %d bytes\n\n",
		duration, rounds, gc, len(answer), len(constAnswer))
	fmt.Println("| request (kgmcp / empty go-sdk server) | clients | empty go-sdk req/s | p50 | p99 | kgmcp req/s | p50 | p99 | kgmcp / empty (req/s): pooled (min–median–max of the slice pairs) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, c := range strings.Split(clients, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil || n < 1 {
			return fmt.Errorf("bad -clients %q", clients)
		}
		for _, r := range []struct{ name, kgBody, emptyBody string }{
			{"ping / ping", pingBody, pingBody},
			{"get_standard / constant tool (same answer)", getStandard, constantCall},
		} {
			var e, k samples
			for i := 0; i < rounds; i++ {
				// A/B, then B/A: neither side always runs first.
				order := []func() error{
					func() error { return e.load(emptyURL, r.emptyBody, n, duration/time.Duration(rounds)) },
					func() error { return k.load(kgURL, r.kgBody, n, duration/time.Duration(rounds)) },
				}
				if i%2 == 1 {
					order[0], order[1] = order[1], order[0]
				}
				for _, f := range order {
					if err := f(); err != nil {
						return fmt.Errorf("%s: %w", r.name, err)
					}
				}
			}
			fmt.Printf("| %s | %d | %.0f | %s | %s | %.0f | %s | %s | %.2f (%s) |\n", r.name, n, e.rate(), e.at(50), e.at(99), k.rate(), k.at(50), k.at(99),
				k.rate()/e.rate(), sliceRatios(k, e))
		}
	}
	fmt.Printf("\npeak resident memory (VmHWM): empty go-sdk server %s, kgmcp %s\n", peakRSS(em.Process.Pid), peakRSS(kg.Process.Pid))
	return nil
}

// await waits until url answers a ping.
func await(u string) error {
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, _, err := post(http.DefaultClient, u, pingBody); err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer on %s", u)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// peakRSS reads a process's peak resident set size from /proc.
func peakRSS(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.Atoi(f[1])
			return fmt.Sprintf("%.1f MB", float64(kb)/1024)
		}
	}
	return "?"
}

const pingBody = `{"jsonrpc":"2.0","id":1,"method":"ping"}`

func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port, nil
}

func post(c *http.Client, url, body string) (int, []byte, error) {
	r, _ := http.NewRequest("POST", url, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("MCP-Protocol-Version", "2025-06-18")
	resp, err := c.Do(r)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, b, err
	}
	if resp.StatusCode != 200 {
		return resp.StatusCode, b, fmt.Errorf("status %d: %.200s", resp.StatusCode, b)
	}
	// Every answer timed must be a success: a JSON-RPC error, or a tool
	// error (isError), is not the work the row claims.
	return resp.StatusCode, b, baseline.WantSuccess("POST "+url, b)
}

// samples pools the latencies and measuring time of a side's slices.
type samples struct {
	all     []time.Duration
	elapsed time.Duration
	sorted  bool
	rates   []float64 // requests per second, by slice
}

// sliceRatios is a's rate over b's in each slice pair (slice i of both
// sides ran back to back), as "min–median–max" (the median of an even
// count: the mean of the middle two).
func sliceRatios(a, b samples) string {
	rs := make([]float64, 0, len(a.rates))
	for i := range min(len(a.rates), len(b.rates)) {
		rs = append(rs, a.rates[i]/b.rates[i])
	}
	if len(rs) == 0 {
		return "?"
	}
	sort.Float64s(rs)
	med := rs[len(rs)/2]
	if len(rs)%2 == 0 {
		med = (rs[len(rs)/2-1] + rs[len(rs)/2]) / 2
	}
	return fmt.Sprintf("%.2f–%.2f–%.2f", rs[0], med, rs[len(rs)-1])
}

func (s *samples) rate() float64 { return float64(len(s.all)) / s.elapsed.Seconds() }

func (s *samples) at(p int) time.Duration {
	if !s.sorted {
		sort.Slice(s.all, func(i, j int) bool { return s.all[i] < s.all[j] })
		s.sorted = true
	}
	if len(s.all) == 0 {
		return 0
	}
	return s.all[min(len(s.all)-1, len(s.all)*p/100)].Round(time.Microsecond)
}

// load runs n clients, each posting body in a loop over its own keep-alive
// connection, for d, and adds their latencies to s.
func (s *samples) load(url, body string, n int, d time.Duration) error {
	tr := &http.Transport{MaxIdleConnsPerHost: n, MaxConnsPerHost: n}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	before := len(s.all)
	begin := time.Now()
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for ctx.Err() == nil {
				start := time.Now()
				if _, _, err := post(c, url, body); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
				mine = append(mine, time.Since(start))
			}
			mu.Lock()
			s.all = append(s.all, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	d = time.Since(begin)
	s.elapsed += d
	s.rates = append(s.rates, float64(len(s.all)-before)/d.Seconds())
	s.sorted = false
	return firstErr
}
