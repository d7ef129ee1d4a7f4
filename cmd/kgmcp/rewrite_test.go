package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestInPlaceRewriteUnderReaders rewrites a served image in place (truncate,
// then write: what `cp new.kgimg served.kgimg` does) 200 times while 16
// clients read its raw resources, with the modification check off so every
// read touches the changing mapping. The server must not die: a raw resource
// used to hand the SDK a slice of the mapping, which faulted after the
// handler's fault guard had returned (SIGBUS). Every rewrite waits for a read
// to land on it; with a resource's text pointing into the mapping past the
// guard (an unsafe.String of the uncloned bytes), the server died in 10 of 10
// runs at 100 rewrites and 10 of 10 at 200.
func TestInPlaceRewriteUnderReaders(t *testing.T) {
	r := newRewriteRig(t)
	s := startHTTP(t, "--watch-interval", "0", r.dir)
	stop := make(chan struct{})
	var reads, answered atomic.Int64
	var wg sync.WaitGroup
	for c := 0; c < 16; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				uri := r.uris[(c+i)%len(r.uris)]
				if _, _, err := s.post(t, rpc(i, "resources/read", `{"uri":"`+uri+`"}`), protocolHeader, "2025-11-25"); err == nil {
					answered.Add(1)
				}
				reads.Add(1)
			}
		}(c)
	}
	for i := 0; i < 200; i++ {
		r.rewrite(t, i)
		// Let reads land on every version of the file.
		for want := reads.Load() + 1; reads.Load() < want; {
			if _, gone := s.exited(); gone {
				break
			}
			runtime.Gosched()
		}
	}
	close(stop)
	wg.Wait()
	if err, gone := s.exited(); gone {
		t.Fatalf("kgmcp died under in-place rewrites (%d reads): %v\n%s", reads.Load(), err, tail(s.stderr.String()))
	}
	if answered.Load() == 0 {
		t.Fatalf("no read was answered")
	}
	t.Logf("%d reads (%d answered) during 200 in-place rewrites", reads.Load(), answered.Load())
}

// TestInPlaceRewriteWithdrawsThePackage: with the check on (the default), an
// image modified in place is noticed and its package withdrawn: its resources
// and tools answer catalog_error instead of serving bytes nobody verified,
// while the other images go on being served.
func TestInPlaceRewriteWithdrawsThePackage(t *testing.T) {
	r := newRewriteRig(t)
	s := startHTTP(t, "--watch-interval", "50ms", r.dir)
	if _, body, err := s.post(t, rpc(1, "resources/read", `{"uri":"`+r.uris[0]+`"}`), protocolHeader, "2025-11-25"); err != nil || !strings.Contains(body, `\"snapshotId\"`) {
		t.Fatalf("manifest before the rewrite: %v %.300s", err, body)
	}
	// The same bytes, written in place: still a modification nobody verified.
	if err := os.WriteFile(r.path, r.orig, 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, body, err := s.post(t, rpc(1, "resources/read", `{"uri":"`+r.uris[0]+`"}`), protocolHeader, "2025-11-25")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(body, "catalog_error") && strings.Contains(body, "modified in place") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the rewritten package is still served: %.300s\n%s", body, grepLog(s.stderr.String(), "level=ERROR", "level=WARN"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The watcher withdraws the package, then logs it: the log line may
	// follow the first refused read by a moment.
	for !strings.Contains(s.stderr.String(), "package withdrawn") {
		if time.Now().After(deadline) {
			t.Errorf("no log of the withdrawal: %s", tail(s.stderr.String()))
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	_, body, _ := s.post(t, rpc(2, "tools/call", `{"name":"get_framework","arguments":{"request":{"frameworkId":"`+r.framework+`"}}}`), protocolHeader, "2025-11-25")
	if !strings.Contains(body, "catalog_error") {
		t.Errorf("a tool still reads the withdrawn package: %.300s", body)
	}
	_, body, err := s.post(t, rpc(3, "tools/call", `{"name":"get_framework","arguments":{"request":{"frameworkId":"kgc-sample-mathematics-grades-1-3"}}}`), protocolHeader, "2025-11-25")
	if err != nil || !strings.Contains(body, `"snapshotId":"kgc-sample-mathematics-grades-1-3@`) || strings.Contains(body, `"isError":true`) {
		t.Errorf("the untouched image is no longer served: %v %.300s", err, body)
	}
	// Replacing by rename, the supported way, is not a modification of the
	// mapped file: the other package stays served.
	other, _ := filepath.Glob(filepath.Join(r.dir, "kgc-sample-mathematics*.kgimg"))
	b, _ := os.ReadFile(other[0])
	tmp := other[0] + ".new"
	os.WriteFile(tmp, b, 0o644)
	if err := os.Rename(tmp, other[0]); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // several check intervals
	_, body, _ = s.post(t, rpc(4, "tools/call", `{"name":"get_framework","arguments":{"request":{"frameworkId":"kgc-sample-mathematics-grades-1-3"}}}`), protocolHeader, "2025-11-25")
	if strings.Contains(body, "catalog_error") {
		t.Errorf("a rename was taken for an in-place modification: %.300s", body)
	}
}

// rewriteRig is a directory of the shipped images and the URIs of the raw
// resources of one of them.
type rewriteRig struct {
	dir, path, framework string
	orig, other          []byte
	uris                 []string
}

func newRewriteRig(t *testing.T) *rewriteRig {
	const snap = "kgc-sample-english-grades-1-2@2026+7890a91a44f0"
	r := &rewriteRig{dir: shippedImages(t), framework: "kgc-sample-english-grades-1-2"}
	r.path = filepath.Join(r.dir, snap+".kgimg")
	var err error
	if r.orig, err = os.ReadFile(r.path); err != nil {
		t.Fatal(err)
	}
	other, _ := filepath.Glob(filepath.Join(r.dir, "kgc-sample-mathematics*.kgimg"))
	if r.other, err = os.ReadFile(other[0]); err != nil {
		t.Fatal(err)
	}
	base := "kgfegmcp://framework/" + r.framework + "/snapshot/" + strings.NewReplacer("@", "%40", "+", "%2B").Replace(snap)
	r.uris = []string{base + "/manifest", base + "/interpretation-profile", base + "/validation", base + "/artifact/nodes"}
	return r
}

// rewrite writes version i of the file in place: the original, another image,
// or a truncated prefix of it.
func (r *rewriteRig) rewrite(t *testing.T, i int) {
	content := r.orig
	if i%2 == 0 {
		content = r.other[:len(r.other)/(1+i%3)]
	}
	if err := os.WriteFile(r.path, content, 0o644); err != nil {
		t.Fatal(err)
	}
}

// tail returns the last few KB of a log for failure messages.
func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

// grepLog returns the log lines holding any of the words.
func grepLog(log string, words ...string) string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		for _, w := range words {
			if strings.Contains(l, w) {
				out = append(out, l)
				break
			}
		}
	}
	return tail(strings.Join(out, "\n"))
}
