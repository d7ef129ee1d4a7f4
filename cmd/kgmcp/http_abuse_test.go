package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// batch builds a JSON-RPC batch of n tools/call messages.
func batch(n int, call string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = rpc(i+1, "tools/call", call)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

const lpCall = `{"name":"search_learning_progressions","arguments":{"request":{"frameworkId":"kgc-sample-mathematics-grades-1-3","limit":100}}}`

// TestHTTPBatchesAreBounded: without an MCP-Protocol-Version header (protocol
// 2025-03-26) the SDK accepts JSON-RPC batches. A 5,000-call batch (it once
// cost 3.36 GB and 20 s) is refused at once with a JSON-RPC error; a batch at
// the limit is answered in full; other bad bodies get JSON-RPC errors too.
func TestHTTPBatchesAreBounded(t *testing.T) {
	s := startHTTP(t, shippedImages(t))
	body := batch(5000, lpCall)
	status, reply, err := s.post(t, body)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if json.Unmarshal([]byte(reply), &m); status != 400 || errCode(m) != -32600 || !strings.Contains(reply, "over the limit of 16") {
		t.Fatalf("5,000-call batch of %d bytes: %d %.300s", len(body), status, reply)
	}
	status, reply, err = s.post(t, batch(16, lpCall))
	var answers []map[string]any
	if err != nil || status != 200 || json.Unmarshal([]byte(reply), &answers) != nil || len(answers) != 16 {
		t.Fatalf("16-call batch: %v %d %.300s", err, status, reply)
	}
	for _, a := range answers {
		if a["result"] == nil {
			t.Errorf("batch answer: %.200v", a)
		}
	}
	for body, code := range map[string]float64{
		`{"jsonrpc":"2.0","id":1,"method":`:                            -32700,
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`:                 -32600,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"1.0"}]`: -32600,
	} {
		status, reply, _ := s.post(t, body, protocolHeader, "2025-03-26")
		var m map[string]any
		if json.Unmarshal([]byte(reply), &m); status != 400 || errCode(m) != code {
			t.Errorf("%.50s: %d %.200s", body, status, reply)
		}
	}
	rss := peakRSS(t, s.cmd.Process.Pid)
	t.Logf("peak RSS after the batches: %.1f MB", float64(rss)/1e6)
	if rss > 100<<20 {
		t.Errorf("peak RSS %d bytes over 100 MiB", rss)
	}
}

// openFDs counts the child's open descriptors.
func openFDs(t *testing.T, pid int) int {
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Skipf("SKIP: no /proc here to count descriptors: %v", err)
	}
	return len(ents)
}

// TestHTTPIdleConnectionsCannotStarveAClient: 200 connections that send
// nothing and 50 idle keep-alive connections fill a server limited to 16
// connections; a legitimate request is still answered (the longest-waiting
// idle connection makes room), and the server never holds more sockets than
// the limit.
func TestHTTPIdleConnectionsCannotStarveAClient(t *testing.T) {
	s := startHTTP(t, "--max-connections", "16", shippedImages(t))
	base := openFDs(t, s.cmd.Process.Pid)
	addr := strings.TrimPrefix(s.base, "http://")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < 50; i++ { // idle keep-alive: one request, then nothing
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "GET /health HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		go bufio.NewReader(c).ReadString('}')
	}
	for i := 0; i < 200; i++ { // silent
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for i := 0; i < 5; i++ {
		status, body, err := s.post(t, rpc(1, "tools/call", `{"name":"get_capabilities","arguments":{}}`), protocolHeader, "2025-11-25")
		if err != nil || status != 200 || !strings.Contains(body, "serverName") {
			t.Fatalf("a legitimate call among 250 idle connections: %v %d %.200s", err, status, body)
		}
	}
	if n := openFDs(t, s.cmd.Process.Pid); n > base+17 { // the limit, plus one accepted while making room
		t.Errorf("%d descriptors open (%d at rest): over the 16-connection limit", n, base)
	}
}

// TestHTTPStopAnswersRequestsInProgress: SIGTERM while a request's body is
// still arriving. The server stops accepting, lets the request finish, answers
// it completely (its handler reads the images, so they must still be mapped),
// and exits 0 (it used to exit 15 ms later, unmapping the images under the
// handlers, and the client got an empty reply).
func TestHTTPStopAnswersRequestsInProgress(t *testing.T) {
	s := startHTTP(t, shippedImages(t))
	addr := strings.TrimPrefix(s.base, "http://")
	body := rpc(1, "tools/call", lpCall)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n%s: 2025-11-25\r\nContent-Length: %d\r\n\r\n%s",
		addr, protocolHeader, len(body), body[:len(body)/2])
	time.Sleep(100 * time.Millisecond) // the server has the headers: the connection is active
	s.cmd.Process.Signal(syscall.SIGTERM)
	time.Sleep(100 * time.Millisecond) // the stop has begun
	if _, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		t.Errorf("a new connection was accepted after SIGTERM")
	}
	c.Write([]byte(body[len(body)/2:]))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("answer after SIGTERM: %v %v\n%s", resp, err, tail(s.stderr.String()))
	}
	buf, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("truncated answer: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(buf, &m); err != nil || m["result"] == nil || strings.Contains(string(buf), "internal_error") {
		t.Fatalf("answer after SIGTERM: %v %.300s", err, buf)
	}
	select {
	case err := <-s.done:
		s.done <- err
		if err != nil {
			t.Errorf("exit after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("kgmcp did not exit after SIGTERM")
	}
	if log := s.stderr.String(); !strings.Contains(log, "stopping") || strings.Contains(log, "incomplete") {
		t.Errorf("stop log: %s", tail(log))
	}
}
