package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// testServer serves the shipped samples over HTTP with the given limits and
// returns the base URL; the server stops when the test ends.
func testServer(t *testing.T, lim httpLimits) string {
	t.Helper()
	dir := imgtest.Images(t, nil, nil)
	paths, _ := catalog.Paths([]string{dir})
	cat, err := catalog.Open(paths, catalog.PolicyFail, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cfg := config{Transport: "http", HTTPAddr: addr, InvalidImagePolicy: "fail", MaxConcurrentCalls: 8, MaxInFlight: 8, HTTP: lim}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		done <- serve(ctx, cfg, catalog.Loaded(cat), nil, io.Discard, io.Discard, slog.New(slog.DiscardHandler))
	}()
	t.Cleanup(func() { cancel(); <-done })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if resp, err := http.Get("http://" + addr + "/health"); err == nil {
			resp.Body.Close()
			return "http://" + addr
		}
		if time.Now().After(deadline) {
			t.Fatal("server did not come up")
		}
	}
}

func post(t *testing.T, base, body string) (int, string) {
	t.Helper()
	r, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := (&http.Client{Timeout: 20 * time.Second}).Do(r)
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Slow request bodies hold a connection only until the read timeout: with
// every connection taken by a client trickling its body, a legitimate call is
// answered once the timeout frees one.
func TestSlowBodiesAreTimedOut(t *testing.T) {
	lim := defaultHTTPLimits()
	lim.MaxConnections, lim.Read, lim.ReadHeader = 4, duration(300*time.Millisecond), duration(300*time.Millisecond)
	base := testServer(t, lim)
	addr := strings.TrimPrefix(base, "http://")
	closed := make(chan error, 4)
	for i := 0; i < 4; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{", addr)
		go func() {
			for {
				if _, err := c.Write([]byte(" ")); err != nil {
					closed <- err
					return
				}
				time.Sleep(50 * time.Millisecond)
			}
		}()
	}
	status, body := post(t, base, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_capabilities","arguments":{}}}`)
	if status != 200 || !strings.Contains(body, "serverName") {
		t.Fatalf("a call behind 4 slow bodies: %d %.200s", status, body)
	}
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("no slow body was cut off")
	}
}

// A batch shares one response budget: the calls whose answers would overrun
// it get a JSON-RPC error instead, the others their answers.
func TestResponseBudgetPerRequest(t *testing.T) {
	lim := defaultHTTPLimits()
	lim.ResponseBudget = 256 << 10
	base := testServer(t, lim)
	// Each answer is about 100 KB on the wire: two fit, eight do not.
	call := `{"name":"search_learning_progressions","arguments":{"request":{"frameworkId":"kgc-sample-mathematics-grades-1-3","limit":20}}}`
	parts := make([]string, 8)
	for i := range parts {
		parts[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, i+1, call)
	}
	status, body := post(t, base, "["+strings.Join(parts, ",")+"]")
	var answers []struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &answers); status != 200 || err != nil || len(answers) != 8 {
		t.Fatalf("batch: %d %v %.300s", status, err, body)
	}
	var ok, refused, size int
	for _, a := range answers {
		switch {
		case a.Result != nil:
			ok++
			size += len(a.Result)
		case a.Error != nil && a.Error.Code == -32000 && strings.Contains(a.Error.Message, "response_budget_exceeded"):
			refused++
		default:
			t.Errorf("answer: %+v", a)
		}
	}
	if ok == 0 || refused == 0 {
		t.Errorf("%d answered, %d refused: want both", ok, refused)
	}
	if size > 2*int(lim.ResponseBudget) { // text + structured copy counted once each
		t.Errorf("%d bytes of answers over a %d-byte budget", size, lim.ResponseBudget)
	}
	// A single call within the budget is answered.
	if status, body := post(t, base, parts[0]); status != 200 || strings.Contains(body, "budget") {
		t.Errorf("one call: %d %.200s", status, body)
	}
}

// /health is a readiness probe: 503 "starting" while the images are being
// verified, 200 "ok" once they are, 503 "refused" if they were not
// acceptable.
func TestHealthFollowsTheVerification(t *testing.T) {
	get := func(h http.Handler) (int, string) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/health", nil))
		return w.Code, w.Body.String()
	}
	handler := func(l *catalog.Loading) http.Handler {
		h, err := newHandler(mcpserver.NewLoading(l, mcpserver.Options{}), nil, 1<<20, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	l, settle := catalog.NewLoading()
	h := handler(l)
	if code, body := get(h); code != 503 || body != `{"status":"starting"}` {
		t.Errorf("while verifying: %d %s", code, body)
	}
	settle(nil, errors.New("checksum mismatch"))
	if code, body := get(h); code != 503 || body != `{"status":"refused"}` {
		t.Errorf("after a refusal: %d %s", code, body)
	}
	dir := imgtest.Images(t, nil, nil)
	paths, _ := catalog.Paths([]string{dir})
	cat, err := catalog.Open(paths, catalog.PolicyFail, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	if code, body := get(handler(catalog.Loaded(cat))); code != 200 || body != `{"status":"ok"}` {
		t.Errorf("verified: %d %s", code, body)
	}
}

// At debug level each HTTP request is one log line (methods, status, size,
// time), and the SDK's per-request session lines are gone.
func TestOneDebugLinePerHTTPRequest(t *testing.T) {
	var buf strings.Builder
	log := slog.New(slog.NewTextHandler(&lockedWriter{w: &buf}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cat := imgtest.Catalog(t, imgtest.Images(t, nil, nil))
	h, err := newHandler(mcpserver.New(cat, mcpserver.Options{Logger: log}), nil, 1<<20, log)
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_capabilities","arguments":{}}}`} {
		r := httptest.NewRequest("POST", "http://127.0.0.1/mcp", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 200 {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `msg="http request" methods=ping status=200`) ||
		!strings.Contains(lines[1], `methods="tools/call get_capabilities" status=200`) {
		t.Errorf("debug log:\n%s", buf.String())
	}
}
