// Command mcpbench measures kgmcp as a host sees it: the real binary, spawned
// over stdio, driven by the Go SDK client.
//
//	go run ./bench/mcpbench [-corpus DIR] [-spawns 30] [-calls 300]
//
// It builds bin/kgc and bin/kgmcp into a temp dir, compiles the shipped packages
// and every complete corpus package into images, then reports
//
//   - spawn-to-first-response: from exec to the initialize result, against the
//     same binary's process start alone (kgmcp --version), alternating spawn
//     by spawn;
//   - per-tool round trips (p50/p99) against ping, the transport floor,
//     interleaved: each round calls every request once, so the floor and the
//     tools are measured under the same conditions; round trip minus the ping
//     p50 estimates the server-side cost.
//
// A row that names a result size ("25 hits") fails the run unless the first
// call's result has that many; rows whose size the server decides (a page cut
// at the size ceiling) are named after the count measured. Numbers are for
// comparison within one run.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/kgc-project/kgc/bench/internal/benchbin"
	"github.com/kgc-project/kgc/internal/corpus"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	corpus := flag.String("corpus", corpus.Dir(), "corpus root (its derived packages are added when present) (default: $KGC_CORPUS, else beside the module)")
	spawns := flag.Int("spawns", 30, "start-ups measured")
	calls := flag.Int("calls", 300, "calls measured per tool request")
	flag.Parse()
	if err := run(*corpus, *spawns, *calls); err != nil {
		fmt.Fprintln(os.Stderr, "mcpbench:", err)
		os.Exit(1)
	}
}

func run(corpus string, spawns, calls int) error {
	tmp, err := os.MkdirTemp("", "mcpbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bins, err := benchbin.Build(tmp, "kgc", "kgmcp")
	if err != nil {
		return err
	}
	kgc, kgmcp, images := bins[0], bins[1], filepath.Join(tmp, "images")
	shipped, _ := filepath.Glob("packages/*/*")
	if err := build(kgc, images, "profiles", "", shipped); err != nil {
		return err
	}
	derived, _ := filepath.Glob(filepath.Join(corpus, "derived", "graph_packages", "*", "*"))
	if len(derived) == 0 {
		fmt.Printf("corpus: none at %s; measuring the shipped images only\n", corpus)
	} else if err := build(kgc, images, filepath.Join(corpus, "profiles"), filepath.Join(corpus, "prompts"), derived); err != nil {
		return err
	}
	entries, _ := os.ReadDir(images)
	var size int64
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			size += info.Size()
		}
	}
	fmt.Printf("images: %d (%.1f MB)\n\n", len(entries), float64(size)/1e6)
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			fmt.Printf("- %s (%d bytes)\n", e.Name(), info.Size())
		}
	}
	fmt.Println()

	ready, bare, err := startups(kgmcp, images, spawns)
	if err != nil {
		return err
	}
	fmt.Println("| start-up (stdio) | p50 | p99 |")
	fmt.Println("|---|---|---|")
	fmt.Printf("| spawn to first response (initialize result) | %s | %s |\n", pct(ready, 50), pct(ready, 99))
	fmt.Printf("| baseline: process start alone (`kgmcp --version`) | %s | %s |\n", pct(bare, 50), pct(bare, 99))
	fmt.Printf("\nready / process start (p50): %.1f×\n\n", float64(pct(ready, 50))/float64(pct(bare, 50)))
	return perTool(kgmcp, images, calls)
}

func build(kgc, out, profiles, prompts string, pkgs []string) error {
	if len(pkgs) == 0 {
		return nil
	}
	args := []string{"build", "--profiles", profiles, "-o", out}
	if prompts != "" {
		args = append(args, "--prompts", prompts)
	}
	if b, err := exec.Command(kgc, append(args, pkgs...)...).CombinedOutput(); err != nil {
		return fmt.Errorf("kgc build: %v\n%s", err, b)
	}
	return nil
}

// startups measures exec → initialize result, and exec → exit of --version.
func startups(bin, images string, n int) (ready, bare []time.Duration, err error) {
	for i := 0; i < n; i++ {
		start := time.Now()
		cmd := exec.Command(bin, images)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpbench", Version: "1"}, nil).
			Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			return nil, nil, fmt.Errorf("connect: %w", err)
		}
		ready = append(ready, time.Since(start))
		cs.Close()

		start = time.Now()
		if err := exec.Command(bin, "--version").Run(); err != nil {
			return nil, nil, fmt.Errorf("kgmcp --version: %w", err)
		}
		bare = append(bare, time.Since(start))
	}
	return ready, bare, nil
}

func pct(d []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))].Round(time.Microsecond)
}
