// Command mcpbench measures kgmcp as a host sees it: the real binary, spawned
// over stdio, driven by the Go SDK client.
//
//	go run ./bench/mcpbench [-corpus DIR] [-spawns 30] [-calls 300] [-blocks 5]
//
// It builds bin/kgc and bin/kgmcp into a temp dir, compiles the shipped packages
// and every complete corpus package into images, then reports
//
//   - spawn-to-first-response: from exec to the initialize result, against the
//     same binary's process start alone (kgmcp --version), alternating spawn
//     by spawn (the order swapping every spawn, after one warm-up of each);
//   - per-tool round trips (p50/p99) against ping, the transport floor,
//     interleaved: each round calls every request once, so the floor and the
//     tools are measured under the same conditions; round trip minus the ping
//     p50 estimates the server-side cost.
//
// The ratios (ready / process start, round trip / ping) are taken per block
// of the interleaved spawns or rounds (-blocks, default 5): the median of the
// blocks' ratios with their minimum and maximum (bench/internal/ratio).
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
	"github.com/kgc-project/kgc/bench/internal/ratio"
	"github.com/kgc-project/kgc/internal/corpus"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	corpus := flag.String("corpus", corpus.Dir(), "corpus root (its derived packages are added when present) (default: $KGC_CORPUS, else beside the module)")
	spawns := flag.Int("spawns", 30, "start-ups measured")
	calls := flag.Int("calls", 300, "calls measured per tool request")
	blocks := flag.Int("blocks", 5, "blocks of spawns and of rounds the ratios are taken over (median, min, max)")
	flag.Parse()
	if *blocks < 1 || *spawns < *blocks || *calls < *blocks {
		fmt.Fprintln(os.Stderr, "mcpbench: -blocks must be between 1 and -spawns and -calls")
		os.Exit(2)
	}
	if err := run(*corpus, *spawns, *calls, *blocks); err != nil {
		fmt.Fprintln(os.Stderr, "mcpbench:", err)
		os.Exit(1)
	}
}

func run(corpus string, spawns, calls, blocks int) error {
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
	fmt.Printf("start-up: %d spawns each after one warm-up, alternating (the order swapping every spawn)\n\n", spawns)
	fmt.Println("| start-up (stdio) | p50 | p99 |")
	fmt.Println("|---|---|---|")
	fmt.Printf("| spawn to first response (initialize result) | %s | %s |\n", pct(ready, 50), pct(ready, 99))
	fmt.Printf("| baseline: process start alone (`kgmcp --version`) | %s | %s |\n", pct(bare, 50), pct(bare, 99))
	fmt.Printf("\nready / process start: %s (median (min–max) over %d blocks of %s; pooled p50s: %.2f×)\n\n",
		ratio.Blocks(ready, bare, blocks), blocks, ratio.BlockSize(spawns, blocks)+" spawns", float64(pct(ready, 50))/float64(pct(bare, 50)))
	return perTool(kgmcp, images, calls, blocks)
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

// startups measures exec → initialize result, and exec → exit of --version,
// n of each after one warm-up of each, alternating spawn by spawn, the order
// swapping every spawn so that neither always goes first; the samples are
// returned in the order taken (ready[i] and bare[i] from the same round).
func startups(bin, images string, n int) (ready, bare []time.Duration, err error) {
	serve := func() (time.Duration, error) {
		start := time.Now()
		cmd := exec.Command(bin, images)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpbench", Version: "1"}, nil).
			Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			return 0, fmt.Errorf("connect: %w", err)
		}
		d := time.Since(start)
		cs.Close()
		return d, nil
	}
	version := func() (time.Duration, error) {
		start := time.Now()
		if err := exec.Command(bin, "--version").Run(); err != nil {
			return 0, fmt.Errorf("kgmcp --version: %w", err)
		}
		return time.Since(start), nil
	}
	for i := -1; i < n; i++ { // round -1: the warm-up
		var r, b time.Duration
		var err error
		if i%2 == 0 {
			if r, err = serve(); err == nil {
				b, err = version()
			}
		} else {
			if b, err = version(); err == nil {
				r, err = serve()
			}
		}
		if err != nil {
			return nil, nil, err
		}
		if i >= 0 {
			ready, bare = append(ready, r), append(bare, b)
		}
	}
	return ready, bare, nil
}

func pct(d []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))].Round(time.Microsecond)
}
