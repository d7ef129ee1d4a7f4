package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// stdioChild is kgmcp over stdio driven with raw lines.
type stdioChild struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Scanner
	stderr *lockedBuffer
}

func startStdio(t *testing.T, args ...string) *stdioChild {
	t.Helper()
	c := &stdioChild{stderr: &lockedBuffer{}}
	c.cmd = exec.Command(binary, args...)
	c.cmd.Stderr = c.stderr
	var err error
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.out = bufio.NewScanner(stdout)
	c.out.Buffer(nil, 32<<20)
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.cmd.Process.Kill(); c.cmd.Wait() })
	return c
}

func (c *stdioChild) send(t *testing.T, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(c.in, l+"\n"); err != nil {
			t.Fatalf("writing to kgmcp: %v\n%s", err, tail(c.stderr.String()))
		}
	}
}

// next reads one response line.
func (c *stdioChild) next(t *testing.T) map[string]any {
	t.Helper()
	if !c.out.Scan() {
		t.Fatalf("kgmcp closed stdout: %v\n%s", c.out.Err(), tail(c.stderr.String()))
	}
	var m map[string]any
	if err := json.Unmarshal(c.out.Bytes(), &m); err != nil || m["jsonrpc"] != "2.0" {
		t.Fatalf("not a JSON-RPC line: %.300q", c.out.Text())
	}
	return m
}

// peakRSS is the child's high-water resident set (VmHWM), in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("SKIP: no /proc here to read the peak RSS: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

const initLine = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
const initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

// TestStdioBadLinesGetErrorsAndTheSessionGoesOn: every line that is not an
// acceptable JSON-RPC message gets its JSON-RPC error (the SDK alone ended the
// session on the first), and the session serves normally afterwards.
func TestStdioBadLinesGetErrorsAndTheSessionGoesOn(t *testing.T) {
	c := startStdio(t, shippedImages(t))
	cases := []struct {
		line string
		code float64
		id   any
	}{
		{`garbage{`, -32700, nil},
		{`{"jsonrpc":"2.0","id":99999999999999999999,"method":"ping"}`, -32600, nil},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, nil},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, nil},
		{`{"jsonrpc":"1.0","id":7,"method":"ping"}`, -32600, 7.0},
		{`{"jsonrpc":"2.0","id":"s","method":5}`, -32600, "s"},
		{`[]`, -32600, nil},
		{`[1,2]`, -32600, nil},
		{`"just a string"`, -32600, nil},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/list"}`, -32600, 8.0}, // before initialize: was code 0
		{`{"jsonrpc":"2.0","id":"long","method":"ping","params":{"pad":"` + strings.Repeat("x", 2<<20) + `"}}`, -32600, nil},
		{"[" + strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"ping"},`, 16) + `{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, nil},
	}
	for _, tc := range cases {
		c.send(t, tc.line)
		m := c.next(t)
		if errCode(m) != tc.code || m["id"] != tc.id {
			t.Errorf("%.60q: got %v", tc.line, m)
		}
	}
	c.send(t, initLine, initializedLine, `{"jsonrpc":"2.0","id":9007199254740992,"method":"tools/call","params":{"name":"get_capabilities","arguments":{}}}`)
	if m := c.next(t); m["id"] != "init" || m["result"] == nil {
		t.Fatalf("initialize after bad lines: %v", m)
	}
	m := c.next(t)
	if m["id"] != 9007199254740992.0 || m["result"] == nil {
		t.Fatalf("a call after bad lines: %.300v", m)
	}
	// The largest exact ID is echoed exactly.
	if !strings.Contains(c.out.Text(), `"id":9007199254740992`) {
		t.Errorf("id not echoed exactly: %.100s", c.out.Text())
	}
	c.in.Close()
	if err := c.cmd.Wait(); err != nil {
		t.Errorf("exit after EOF: %v", err)
	}
}

// TestStdioFloodIsHeldBack: 4,000 calls written at once by a client that
// reads no answer yet. The server reads at most --max-in-flight calls ahead of
// its answers, so the client's writes stall on the pipe instead of the server
// holding every pending call (1.27 GB before the cap); once the client reads,
// every call is answered, and the peak RSS stays bounded. (The writes stall
// after 600 to 850 calls; without the cap all 4,000 would be read.)
func TestStdioFloodIsHeldBack(t *testing.T) {
	c := startStdio(t, shippedImages(t))
	c.send(t, initLine, initializedLine)
	c.next(t)
	const n = 4000
	call := `{"name":"get_framework","arguments":{"request":{"frameworkId":"kgc-sample-mathematics-grades-1-3"}}}`
	var written atomic.Int64
	go func() {
		for i := 1; i <= n; i++ {
			if _, err := io.WriteString(c.in, rpc(i, "tools/call", call)+"\n"); err != nil {
				return
			}
			written.Add(1)
		}
	}()
	// Wait until the writer stops making progress: the pipe is full.
	for last := int64(-1); ; {
		time.Sleep(300 * time.Millisecond)
		w := written.Load()
		if w == last || w == n {
			break
		}
		last = w
	}
	if w := written.Load(); w >= n/2 {
		t.Fatalf("the server read %d of %d calls without answering any: no backpressure", w, n)
	} else {
		t.Logf("the client's writes stalled after %d calls", w)
	}
	seen := make(map[float64]bool, n)
	for len(seen) < n {
		m := c.next(t)
		if m["result"] == nil {
			t.Fatalf("call failed: %.300v", m)
		}
		seen[m["id"].(float64)] = true
	}
	rss := peakRSS(t, c.cmd.Process.Pid)
	t.Logf("peak RSS after %d pipelined calls: %.1f MB", n, float64(rss)/1e6)
	if rss > 100<<20 {
		t.Errorf("peak RSS %d bytes over 100 MiB", rss)
	}
	c.in.Close()
	if err := c.cmd.Wait(); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// TestStdioStopAnswersWhatWasRead: SIGTERM stops the reading; the calls
// already read are answered, then kgmcp exits 0.
func TestStdioStopAnswersWhatWasRead(t *testing.T) {
	c := startStdio(t, shippedImages(t))
	c.send(t, initLine, initializedLine)
	c.next(t)
	for i := 1; i <= 200; i++ {
		c.send(t, rpc(i, "tools/call", `{"name":"get_capabilities","arguments":{}}`))
	}
	c.next(t) // the server is answering
	c.cmd.Process.Signal(syscall.SIGTERM)
	got := 1
	for c.out.Scan() {
		var m map[string]any
		if err := json.Unmarshal(c.out.Bytes(), &m); err != nil || m["result"] == nil {
			t.Fatalf("a broken answer while stopping: %.200q", c.out.Text())
		}
		got++
	}
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("kgmcp did not exit after SIGTERM")
	}
	t.Logf("%d of 200 calls answered after SIGTERM", got)
}

// TestStdioBatchesUnderTheOlderProtocol: kgmcp writes successful responses
// itself (the SDK's encoder would compact them again), except in a session
// that sends batches, whose responses the SDK assembles into one array line.
// Under protocol 2025-03-26 a batch is answered as a batch, and the single
// calls before and after it as single lines.
func TestStdioBatchesUnderTheOlderProtocol(t *testing.T) {
	t.Parallel()
	c := startStdio(t, shippedImages(t))
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if m := c.next(t); m["id"] != float64(1) {
		t.Fatalf("initialize: %v", m)
	}
	call := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"list_frameworks","arguments":{"request":{}}}}`
	c.send(t, fmt.Sprintf(call, 2))
	if m := c.next(t); m["id"] != float64(2) || m["result"] == nil {
		t.Fatalf("single call before the batch: %v", m)
	}
	c.send(t, `[`+fmt.Sprintf(call, 3)+`,{"jsonrpc":"2.0","id":"p","method":"ping"}]`)
	if !c.out.Scan() {
		t.Fatalf("no answer to the batch: %s", tail(c.stderr.String()))
	}
	var batch []map[string]any
	if err := json.Unmarshal(c.out.Bytes(), &batch); err != nil || len(batch) != 2 {
		t.Fatalf("the batch's answer is not an array of two: %v %.300s", err, c.out.Text())
	}
	ids := map[any]bool{batch[0]["id"]: true, batch[1]["id"]: true}
	if !ids[float64(3)] || !ids["p"] || batch[0]["result"] == nil || batch[1]["result"] == nil {
		t.Fatalf("batch answers: %.500s", c.out.Text())
	}
	c.send(t, fmt.Sprintf(call, 4))
	if m := c.next(t); m["id"] != float64(4) || m["result"] == nil {
		t.Fatalf("single call after the batch: %v", m)
	}
}

// TestStdioURIsWithControlCharactersAreNotFound: the SDK builds the data of
// its "Resource not found" with Go quoting ({"uri":%q}), which writes a
// control character, DEL, a non-printable rune or invalid UTF-8 as escapes
// JSON lacks (\x01, \U000e0001); the answer failed to marshal and ended the
// session. Each is answered "not found" with the URI as sent, and the session
// goes on.
func TestStdioURIsWithControlCharactersAreNotFound(t *testing.T) {
	t.Parallel()
	c := startStdio(t, shippedImages(t))
	c.send(t, initLine, initializedLine)
	if m := c.next(t); m["id"] != "init" {
		t.Fatalf("initialize: %v", m)
	}
	uris := []string{`kgfegmcp://catalog\u0001`, `\u0000`, `kgfegmcp://catalog\u007f`, `file:///x\u0001`,
		`kgfegmcp://x\udb40\udc01`, `kgfegmcp://x\u0007\u000b`, `kgfegmcp://catalog\u0085`}
	for i, u := range uris {
		c.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":"%s"}}`, i, u))
		m := c.next(t)
		var want string
		json.Unmarshal([]byte(`"`+u+`"`), &want)
		data, _ := m["error"].(map[string]any)["data"].(map[string]any)
		if m["id"] != float64(i) || errCode(m) != -32002 || data["uri"] != want { // 2025-11-25 names -32002
			t.Errorf("%s: %v", u, m)
		}
	}
	c.send(t, `{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	if m := c.next(t); m["id"] != "after" || m["result"] == nil {
		t.Fatalf("ping after the bad URIs: %v", m)
	}
}
