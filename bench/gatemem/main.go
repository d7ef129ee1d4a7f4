// Command gatemem measures the validation gate's memory: it runs the gate
// over one package directory and prints whether it passed, its findings, the
// time and the peak heap in use (docs/validation.md, "Memory");
// -memprofile writes a heap profile after the run.
//
//	go run ./bench/gatemem -profiles PROFILES PACKAGE_DIR
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/kgc-project/kgc/compiler/gate"
)

func main() {
	profiles := flag.String("profiles", "", "profile root")
	memprof := flag.String("memprofile", "", "write a heap profile to this file")
	flag.Parse()
	var peak uint64
	stop := make(chan struct{})
	done := make(chan struct{})
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
	t := time.Now()
	res, err := gate.Run(flag.Arg(0), gate.Options{ProfileRoot: *profiles})
	el := time.Since(t)
	close(stop)
	<-done
	if err != nil {
		panic(err)
	}
	fmt.Println("valid", res.Valid(), "findings", res.Findings.Len(), "time", el, "peak HeapInuse MB", peak>>20)
	if *memprof != "" {
		runtime.GC()
		f, _ := os.Create(*memprof)
		pprof.WriteHeapProfile(f)
		f.Close()
	}
	runtime.KeepAlive(res)
}
