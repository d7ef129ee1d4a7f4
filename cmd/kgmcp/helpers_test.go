package main

import (
	"bytes"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer collects a child's stderr while tests read it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// httpServer is a kgmcp child serving HTTP on a loopback port.
type httpServer struct {
	base   string
	cmd    *exec.Cmd
	stderr *lockedBuffer
	done   chan error // receives Wait's result once the child exits
}

// startHTTP starts kgmcp --http on a free loopback port with extra arguments
// and waits until /health says it is ready (200: the images are verified).
// The child is killed when the test ends.
func startHTTP(t *testing.T, args ...string) *httpServer {
	t.Helper()
	return startHTTPAt(t, freePort(t), args...)
}

// startHTTPAt is startHTTP on addr.
func startHTTPAt(t *testing.T, addr string, args ...string) *httpServer {
	t.Helper()
	s := &httpServer{base: "http://" + addr, stderr: &lockedBuffer{}, done: make(chan error, 1)}
	s.cmd = exec.Command(binary, append([]string{"--http", addr}, args...)...)
	s.cmd.Stderr = s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.done <- s.cmd.Wait() }()
	t.Cleanup(func() {
		s.cmd.Process.Kill()
		<-s.done
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		if resp, err := http.Get(s.base + "/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		select {
		case err := <-s.done:
			t.Fatalf("kgmcp exited before serving: %v\n%s", err, s.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("kgmcp did not come up: %s", s.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// exited reports whether the child has exited (and with what).
func (s *httpServer) exited() (error, bool) {
	select {
	case err := <-s.done:
		s.done <- err
		return err, true
	default:
		return nil, false
	}
}

// post sends one raw JSON-RPC body to /mcp (no protocol-version header unless
// given) and returns the status and body.
func (s *httpServer) post(t testing.TB, body string, header ...string) (int, string, error) {
	r, err := http.NewRequest("POST", s.base+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// rpc is one JSON-RPC request line.
func rpc(id int, method, params string) string {
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method + `","params":` + params + `}`
}

const protocolHeader = "MCP-Protocol-Version"
