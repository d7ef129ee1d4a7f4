// Command startbench measures kgmcp's start-up over stdio against catalogs of
// growing size, interleaved with an empty go-sdk server in the same run.
//
//	go run ./bench/startbench [-images 10,100,1000] [-spawns 20] [-blocks 5] [-keep DIR] [-base BIN]
//
// Each catalog holds n clone images made by the project's own generator: the
// English sample re-minted under n framework IDs, each its own framework,
// snapshot and profile. A start-up is timed from exec to the initialize
// result read back over the stdio pipe (a raw JSON-RPC line; the client does
// not decode more than it needs), then the first call a host makes
// (list_frameworks, which needs every image's catalog part: read and verified
// at start in image format 3, the rest of each image on first use) from exec
// to its answer. Right after that answer the process's anonymous and
// file-backed resident memory are read from /proc; then a federated 25-hit
// text search is timed (it selects every framework's current snapshot, so
// it also verifies the rest of every image on its first use), and the run
// fails unless it answers 25 hits. The empty go-sdk server is this command
// re-executed with -serve-empty: the same SDK, the same transport, one
// constant tool (its first call). For each catalog
// the servers (the empty one, kgmcp, and -base when given) are spawned in
// turn, spawn by spawn, the order rotating, after one warm-up spawn each.
// "ready / empty" and "first call / empty" divide kgmcp's median by the empty
// server's over the same rounds, block by block: the spawns are cut into
// -blocks consecutive blocks (default 5: 4 spawns a block at -spawns 20), and
// each ratio is the median of the blocks' ratios with their minimum and
// maximum (bench/internal/ratio).
//
// Compare the figures within one run.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kgc-project/kgc/bench/internal/baseline"
	"github.com/kgc-project/kgc/bench/internal/benchbin"
	"github.com/kgc-project/kgc/bench/internal/ratio"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
)

func main() {
	sizes := flag.String("images", "10,100,1000", "catalog sizes measured (comma-separated)")
	spawns := flag.Int("spawns", 20, "start-ups measured per catalog")
	blocks := flag.Int("blocks", 5, "blocks of spawns the ratios to the empty server are taken over (median, min, max)")
	keep := flag.String("keep", "", "build the catalogs under this directory and keep them (reused when present)")
	flags := flag.String("kgmcp-flags", "", "extra kgmcp flags (space-separated)")
	bin := flag.String("kgmcp", "", "measure this kgmcp binary instead of building ./cmd/kgmcp")
	base := flag.String("base", "", "also measure this kgmcp binary (a baseline build), alternating with the other, in the same run")
	serveEmpty := flag.Bool("serve-empty", false, "(internal) serve the empty go-sdk server (one constant tool) over stdio")
	flag.Parse()
	if *serveEmpty {
		if err := baseline.ServeStdio(""); err != nil {
			fmt.Fprintln(os.Stderr, "empty:", err)
			os.Exit(1)
		}
		return
	}
	if *blocks < 1 || *spawns < *blocks {
		fmt.Fprintln(os.Stderr, "startbench: -blocks must be between 1 and -spawns")
		os.Exit(2)
	}
	if err := run(*sizes, *spawns, *blocks, *keep, *bin, *base, strings.Fields(*flags)); err != nil {
		fmt.Fprintln(os.Stderr, "startbench:", err)
		os.Exit(1)
	}
}

func run(sizes string, spawns, blocks int, keep, bin, base string, flags []string) error {
	tmp, err := os.MkdirTemp("", "startbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	root := keep
	if root == "" {
		root = tmp
	}
	kgmcp := bin
	if kgmcp == "" {
		bins, err := benchbin.Build(tmp, "kgmcp")
		if err != nil {
			return err
		}
		kgmcp = bins[0]
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Printf("catalogs of n clone images of the shipped English sample (%s re-minted under n framework IDs); "+
		"%d spawns per server and catalog after one warm-up spawn each, interleaved spawn by spawn (the order rotating); the empty server is measured in each catalog's rounds; "+
		"ratios to it: median (min–max) over %d blocks of %s\n\n",
		pkggen.Shipped()[0].FrameworkID, spawns, blocks, ratio.BlockSize(spawns, blocks)+" spawns")
	fmt.Println("| server | images | ready p50 | ready p99 | ready / empty | first call p50 | first call p99 | first call / empty | RssAnon | RssFile | federated search p50 | its bytes |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("bad -images entry %q", f)
		}
		dir, err := clones(root, n)
		if err != nil {
			return err
		}
		args := append(append([]string{}, flags...), dir)
		type side struct {
			name string
			cmd  *exec.Cmd
			kg   bool // a kgmcp: its federated search must answer 25 hits
			m    *measurement
		}
		sides := []*side{{name: "empty go-sdk server", cmd: exec.Command(self, "-serve-empty")}}
		if base != "" {
			sides = append(sides, &side{name: "kgmcp, base", cmd: exec.Command(base, args...), kg: true})
		}
		sides = append(sides, &side{name: "kgmcp", cmd: exec.Command(kgmcp, args...), kg: true})
		for _, s := range sides {
			s.m = &measurement{}
			if _, err := spawn(s.cmd, s.kg); err != nil { // warm-up
				return fmt.Errorf("%s, %d images: %w", s.name, n, err)
			}
		}
		// Interleave the servers spawn by spawn, rotating the order, so
		// that none always runs on a warmer page cache or a quieter machine.
		for i := 0; i < spawns; i++ {
			for k := range sides {
				s := sides[(k+i)%len(sides)]
				one, err := spawn(s.cmd, s.kg)
				if err != nil {
					return fmt.Errorf("%s, %d images: %w", s.name, n, err)
				}
				s.m.add(one)
			}
		}
		// Ratios per block of rounds, on the spawns in the order taken.
		empty := sides[0].m
		for _, s := range sides {
			readyR, firstR := "—", "—"
			if s.m != empty {
				readyR = ratio.Blocks(s.m.ready, empty.ready, blocks).String()
				firstR = ratio.Blocks(s.m.first, empty.first, blocks).String()
			}
			images := "0"
			if s.kg {
				images = fmt.Sprintf("%d (%.1f MB)", n, float64(dirBytes(dir))/1e6)
			}
			s.m.sorted().row(s.name, images, readyR, firstR, s.m == empty)
		}
	}
	return nil
}

// dirBytes is the total size of a directory's files.
func dirBytes(dir string) int64 {
	var n int64
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			n += info.Size()
		}
	}
	return n
}

// clones builds (or reuses) a directory of n clone images under root.
func clones(root string, n int) (string, error) {
	dir := filepath.Join(root, "clones-"+strconv.Itoa(n))
	if entries, err := os.ReadDir(dir); err == nil && len(entries) == n {
		return dir, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	src := filepath.Join(root, "src-"+strconv.Itoa(n))
	defer os.RemoveAll(src)
	// One generator per CPU; image i is written by worker i mod workers, into
	// its own source tree, and kept when present (a build can be resumed).
	workers := runtime.GOMAXPROCS(0)
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func(w int) {
			errs <- func() error {
				for i := w; i < n; i += workers {
					out := filepath.Join(dir, fmt.Sprintf("%04d.kgimg", i))
					if _, err := os.Stat(out); err == nil {
						continue
					}
					spec := pkggen.Shipped()[0]
					spec.FrameworkID = fmt.Sprintf("kgc-clone-%04d", i)
					wsrc := filepath.Join(src, strconv.Itoa(w), strconv.Itoa(i))
					pkgs, profiles := filepath.Join(wsrc, "packages"), filepath.Join(wsrc, "profiles")
					if err := os.MkdirAll(pkgs, 0o755); err != nil {
						return err
					}
					if err := os.MkdirAll(profiles, 0o755); err != nil {
						return err
					}
					gen, err := pkggen.Write(spec, pkgs, profiles)
					if err != nil {
						return err
					}
					data, _, err := imgtest.Compile(gen.PackageDir, profiles, "")
					if err != nil {
						return err
					}
					if err := os.WriteFile(out+".tmp", data, 0o644); err != nil {
						return err
					}
					if err := os.Rename(out+".tmp", out); err != nil {
						return err
					}
					if err := os.RemoveAll(wsrc); err != nil {
						return err
					}
				}
				return nil
			}()
		}(w)
	}
	var first error
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return dir, first
}

type measurement struct {
	ready, first  []time.Duration
	search        []time.Duration // a federated search after the first call
	searchBytes   int
	anon, fileRSS []int // kB
}

// firstCall is a host's usual first call after the handshake: kgmcp's is
// the first page of list_frameworks, which reads every package's catalog part; the empty
// server's is its constant tool (a success too: an error answer, such as
// an unknown tool's, would be timed as if it were the work).
const firstCall = `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_frameworks","arguments":{"request":{}}}}` + "\n"

var emptyFirstCall = `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + `{"jsonrpc":"2.0","id":2,` + baseline.CallBody[1:] + "\n"

// federatedSearch is a 25-hit text search over every framework's current
// snapshot: its cost must not grow with the catalog.
const federatedSearch = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_standards","arguments":{"request":` +
	`{"mode":"text","query":"reading sentences","match":{"matchMode":"tokens","operator":"any"},"limit":25}}}}` + "\n"

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"startbench","version":"1"}}}` + "\n"

// spawn starts proto's command once: exec to the initialize result (ready),
// then the first call (list_frameworks for kgmcp, the constant tool for the
// empty server), resident memory, and for kgmcp a federated 25-hit search,
// whose answer must carry 25 hits. Every answer timed must be a success.
func spawn(proto *exec.Cmd, kg bool) (*measurement, error) {
	m := &measurement{}
	cmd := exec.Command(proto.Path, proto.Args[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) (*measurement, error) {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf(format+"\n%s", append(args, stderr.String())...)
	}
	if _, err := stdin.Write([]byte(initialize)); err != nil {
		return fail("%v", err)
	}
	r := bufio.NewReaderSize(stdout, 1<<16)
	line, err := r.ReadString('\n')
	d := time.Since(start)
	if err != nil || !strings.Contains(line, `"id":1`) {
		return fail("no initialize result (%v): %q", err, line)
	}
	call := emptyFirstCall
	if kg {
		call = firstCall
	}
	if _, err := stdin.Write([]byte(call)); err != nil {
		return fail("%v", err)
	}
	line, err = r.ReadString('\n')
	first := time.Since(start)
	if err != nil || !strings.Contains(line, `"id":2`) {
		return fail("no answer to the first call (%v): %.200q", err, line)
	}
	if err := baseline.WantSuccess("the first call", []byte(line)); err != nil {
		return fail("%v", err)
	}
	anon, file := rss(cmd.Process.Pid)
	var searched time.Duration
	if kg {
		sent := time.Now()
		if _, err := stdin.Write([]byte(federatedSearch)); err != nil {
			return fail("%v", err)
		}
		line, err = r.ReadString('\n')
		searched = time.Since(sent)
		if err != nil || !strings.Contains(line, `"id":3`) {
			return fail("no answer to the search (%v): %.200q", err, line)
		}
		if err := baseline.WantHits("federated search", []byte(line), 25); err != nil {
			return fail("%v", err)
		}
		m.searchBytes = len(line)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("exit: %v\n%s", err, stderr.String())
	}
	m.ready = append(m.ready, d)
	m.first = append(m.first, first)
	m.search = append(m.search, searched)
	m.anon = append(m.anon, anon)
	m.fileRSS = append(m.fileRSS, file)
	return m, nil
}

func (m *measurement) add(o *measurement) {
	m.ready = append(m.ready, o.ready...)
	m.first = append(m.first, o.first...)
	m.search = append(m.search, o.search...)
	m.searchBytes = o.searchBytes
	m.anon = append(m.anon, o.anon...)
	m.fileRSS = append(m.fileRSS, o.fileRSS...)
}

// sorted returns a copy of m with every series sorted (m keeps the spawns'
// order, which the block ratios follow).
func (m *measurement) sorted() *measurement {
	durs := func(d []time.Duration) []time.Duration {
		s := append([]time.Duration(nil), d...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s
	}
	ints := func(v []int) []int { s := append([]int(nil), v...); sort.Ints(s); return s }
	return &measurement{ready: durs(m.ready), first: durs(m.first), search: durs(m.search), searchBytes: m.searchBytes,
		anon: ints(m.anon), fileRSS: ints(m.fileRSS)}
}

// rss reads RssAnon and RssFile (kB) of a process.
func rss(pid int) (anon, file int) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		v, _ := strconv.Atoi(f[1])
		switch f[0] {
		case "RssAnon:":
			anon = v
		case "RssFile:":
			file = v
		}
	}
	return anon, file
}

// row prints a sorted measurement with its ratios to the empty server.
func (m *measurement) row(name, images, readyRatio, firstRatio string, empty bool) {
	search, bytes := "—", "—"
	if !empty {
		search, bytes = round(pct(m.search, 50)).String(), strconv.Itoa(m.searchBytes)
	}
	fmt.Printf("| %s | %s | %s | %s | %s | %s | %s | %s | %.1f MB | %.1f MB | %s | %s |\n", name, images, round(pct(m.ready, 50)), round(pct(m.ready, 99)),
		readyRatio, round(pct(m.first, 50)), round(pct(m.first, 99)), firstRatio,
		float64(m.anon[len(m.anon)/2])/1024, float64(m.fileRSS[len(m.fileRSS)/2])/1024, search, bytes)
}

func round(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	i := (len(d)*p + 99) / 100
	return d[min(max(i-1, 0), len(d)-1)]
}
