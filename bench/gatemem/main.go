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
	profiles := flag.String("profiles", "", "")
	memprof := flag.String("memprofile", "", "")
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
