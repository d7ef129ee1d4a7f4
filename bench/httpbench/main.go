// Command httpbench measures kgmcp's Streamable HTTP entry point against an
// empty go-sdk server (stateless, JSON responses, the SDK's own handler) in
// the same run: requests per second and p50/p99 latency at several
// concurrencies, for ping (the transport and guard alone) and for kgmcp's
// get_standard on the shipped mathematics sample.
//
//	go run ./bench/httpbench [-duration 3s] [-clients 8,32]
//
// KGMCP_BENCH_FLAGS adds kgmcp flags and KGMCP_BENCH_ENV environment entries
// (space-separated, e.g. GOGC=100) to the kgmcp process only. Peak resident
// memory of both processes is reported at the end.
//
// Nothing is asserted: compare the ratios within one run.
package main

import (
	"bytes"
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

	"github.com/kgc-project/kgc/bench/internal/benchbin"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/pkggen"
)

func main() {
	duration := flag.Duration("duration", 3*time.Second, "measuring time per row")
	clients := flag.String("clients", "8,32", "concurrent clients, comma-separated")
	serveEmpty := flag.String("serve-empty", "", "(internal) serve the empty go-sdk server on this address")
	flag.Parse()
	if *serveEmpty != "" {
		empty := mcp.NewServer(&mcp.Implementation{Name: "empty", Version: "1"}, nil)
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return empty }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
		fmt.Fprintln(os.Stderr, http.ListenAndServe(*serveEmpty, h))
		os.Exit(1)
	}
	if err := run(*duration, *clients); err != nil {
		fmt.Fprintln(os.Stderr, "httpbench:", err)
		os.Exit(1)
	}
}

func run(duration time.Duration, clients string) error {
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
	port, err := freePort()
	if err != nil {
		return err
	}
	kg := exec.Command(kgmcp, append(append([]string{"--http", "127.0.0.1:" + port}, strings.Fields(os.Getenv("KGMCP_BENCH_FLAGS"))...), images)...)
	kg.Env = append(os.Environ(), strings.Fields(os.Getenv("KGMCP_BENCH_ENV"))...)
	if err := kg.Start(); err != nil {
		return err
	}
	defer func() { kg.Process.Signal(os.Interrupt); kg.Wait() }()
	kgURL := "http://127.0.0.1:" + port + "/mcp"

	// The empty go-sdk server, in its own process like kgmcp: the same SDK
	// handler options, no tools.
	self, err := os.Executable()
	if err != nil {
		return err
	}
	emptyPort, err := freePort()
	if err != nil {
		return err
	}
	em := exec.Command(self, "-serve-empty", "127.0.0.1:"+emptyPort)
	if err := em.Start(); err != nil {
		return err
	}
	defer func() { em.Process.Kill(); em.Wait() }()
	emptyURL := "http://127.0.0.1:" + emptyPort + "/mcp"

	for _, u := range []string{kgURL, emptyURL} {
		for deadline := time.Now().Add(10 * time.Second); ; {
			if _, _, err := post(http.DefaultClient, u, pingBody); err == nil {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("no answer on %s", u)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	spec := pkggen.Shipped()[1]
	getStandard := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_standard","arguments":{"request":{"frameworkId":"` +
		spec.FrameworkID + `","identifier":{"identifierType":"node_id","nodeId":"` + pkggen.NodeID(spec, 0, 0, 0, 0) + `"}}}}}`

	fmt.Printf("stateless Streamable HTTP, JSON responses, %s per row\n\n", duration)
	fmt.Println("| request | clients | empty go-sdk req/s | p50 | p99 | kgmcp req/s | p50 | p99 | kgmcp / empty |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, c := range strings.Split(clients, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil || n < 1 {
			return fmt.Errorf("bad -clients %q", clients)
		}
		// Alternating halves, so neither server always runs first.
		e1, err := load(emptyURL, pingBody, n, duration/2)
		if err != nil {
			return fmt.Errorf("empty server: %w", err)
		}
		k1, err := load(kgURL, pingBody, n, duration/2)
		if err != nil {
			return fmt.Errorf("kgmcp: %w", err)
		}
		k2, err := load(kgURL, pingBody, n, duration/2)
		if err != nil {
			return fmt.Errorf("kgmcp: %w", err)
		}
		e2, err := load(emptyURL, pingBody, n, duration/2)
		if err != nil {
			return fmt.Errorf("empty server: %w", err)
		}
		e, k := e1.merge(e2), k1.merge(k2)
		fmt.Printf("| ping | %d | %.0f | %s | %s | %.0f | %s | %s | %.2f |\n", n, e.rate, e.p50, e.p99, k.rate, k.p50, k.p99, k.rate/e.rate)
		g, err := load(kgURL, getStandard, n, duration)
		if err != nil {
			return fmt.Errorf("kgmcp get_standard: %w", err)
		}
		fmt.Printf("| get_standard (kgmcp only) | %d | | | | %.0f | %s | %s | |\n", n, g.rate, g.p50, g.p99)
	}
	fmt.Printf("\npeak resident memory (VmHWM): empty go-sdk server %s, kgmcp %s\n", peakRSS(em.Process.Pid), peakRSS(kg.Process.Pid))
	return nil
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
	if resp.StatusCode != 200 || bytes.Contains(b, []byte(`"error":{`)) {
		return resp.StatusCode, b, fmt.Errorf("status %d: %.200s", resp.StatusCode, b)
	}
	return resp.StatusCode, b, err
}

type result struct {
	rate     float64
	p50, p99 time.Duration
}

// merge averages two halves' rates and keeps the worse percentiles.
func (r result) merge(o result) result {
	return result{rate: (r.rate + o.rate) / 2, p50: max(r.p50, o.p50), p99: max(r.p99, o.p99)}
}

// load runs n clients, each posting body in a loop over its own keep-alive
// connection, for d; it reports requests per second and latency.
func load(url, body string, n int, d time.Duration) (result, error) {
	tr := &http.Transport{MaxIdleConnsPerHost: n, MaxConnsPerHost: n}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var mu sync.Mutex
	var all []time.Duration
	var firstErr error
	var wg sync.WaitGroup
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
			all = append(all, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return result{}, firstErr
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	at := func(p int) time.Duration { return all[min(len(all)-1, len(all)*p/100)].Round(time.Microsecond) }
	return result{rate: float64(len(all)) / d.Seconds(), p50: at(50), p99: at(99)}, nil
}
