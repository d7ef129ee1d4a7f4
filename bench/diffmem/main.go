// Command diffmem measures what `kgc diff` keeps in memory: it loads two
// snapshots (package directories, through the gate, or .kgimg images) the
// way kgc diff does, one after the other, and prints the live heap the
// compact old snapshot holds (bytes per node), the peak heap in use over the
// whole comparison, and the time.
//
//	go run ./bench/genpkg -standards 100000 -out /tmp/a
//	go run ./bench/genpkg -standards 101000 -out /tmp/b
//	go run ./bench/diffmem -profiles /tmp/a/profiles /tmp/a/packages/*/* /tmp/b/packages/*/*
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/kgc-project/kgc/compiler/diff"
	"github.com/kgc-project/kgc/compiler/gate"
)

func live() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func main() {
	profiles := flag.String("profiles", "profiles", "profile root for package inputs")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: diffmem [-profiles DIR] OLD NEW")
		os.Exit(2)
	}
	var peak uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				close(done)
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	opts := gate.Options{ProfileRoot: *profiles}
	base := live()
	start := time.Now()
	a, err := diff.Load(flag.Arg(0), opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "diffmem:", err)
		os.Exit(1)
	}
	loadA := time.Since(start)
	kept := live() - base
	b, err := diff.Load(flag.Arg(1), opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "diffmem:", err)
		os.Exit(1)
	}
	both := live() - base
	r, err := diff.Compare(a, b)
	if err != nil {
		fmt.Fprintln(os.Stderr, "diffmem:", err)
		os.Exit(1)
	}
	if err := diff.Write(io.Discard, r, diff.FormatJSON); err != nil {
		fmt.Fprintln(os.Stderr, "diffmem:", err)
		os.Exit(1)
	}
	total := time.Since(start)
	close(stop)
	<-done
	n := len(a.Nodes) + len(b.Nodes)
	fmt.Printf("old: %d nodes, %d edges, loaded in %v; compact snapshot %d MiB live (%.0f bytes/node)\n",
		len(a.Nodes), len(a.Edges), loadA.Round(time.Millisecond), kept>>20, float64(kept)/float64(len(a.Nodes)))
	fmt.Printf("both snapshots: %d MiB live (%.0f bytes/node)\n", both>>20, float64(both)/float64(n))
	fmt.Printf("report: %d added, %d removed, %d changed standards; whole run %v; peak heap in use %d MiB\n",
		r.Summary.StandardsAdded, r.Summary.StandardsRemoved, r.Summary.StandardsChanged, total.Round(time.Millisecond), peak>>20)
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
}
