package main

import (
	"encoding/json"
	"fmt"
	"net"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// Wire behaviour that real MCP clients and the conformance suite rely on:
// unknown methods and notifications, cancellation, logging/setLevel, the
// same over stdio and HTTP.

// nextWithin reads one response line, failing the test if none comes within
// d (a server that never answers must not hang the test).
func (c *stdioChild) nextWithin(t *testing.T, d time.Duration) map[string]any {
	t.Helper()
	line := make(chan []byte, 1)
	go func() {
		if c.out.Scan() {
			line <- append([]byte(nil), c.out.Bytes()...)
		}
		close(line)
	}()
	select {
	case b, ok := <-line:
		if !ok {
			t.Fatalf("kgmcp closed stdout: %v\n%s", c.out.Err(), tail(c.stderr.String()))
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Fatalf("not a JSON-RPC line: %.300q", b)
		}
		return m
	case <-time.After(d):
		t.Fatalf("no answer within %v\n%s", d, tail(c.stderr.String()))
		return nil
	}
}

// stdioAnswer sends one line, then a ping, and returns what kgmcp answered
// to the line (nil for nothing) once the ping's answer arrives. A batch's
// answer is a JSON array, read as one line.
func stdioAnswer(t *testing.T, c *stdioChild, line string, n int) any {
	t.Helper()
	sentinel := fmt.Sprintf("sentinel-%d", n)
	c.send(t, line, `{"jsonrpc":"2.0","id":"`+sentinel+`","method":"ping"}`)
	// The sentinel's answer may overtake the line's (the SDK answers an
	// unknown method on another path than a ping): a line holding a call
	// is waited for past the sentinel.
	wantsAnswer := strings.Contains(line, `"id"`)
	var answer any
	seen := false
	for {
		if seen && (answer != nil || !wantsAnswer) {
			return answer
		}
		got := make(chan []byte, 1)
		go func() {
			if c.out.Scan() {
				got <- append([]byte(nil), c.out.Bytes()...)
			}
			close(got)
		}()
		var b []byte
		select {
		case b = <-got:
			if b == nil {
				t.Fatalf("%.80s: kgmcp closed stdout\n%s", line, tail(c.stderr.String()))
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%.80s: no answer within 10s (the session hangs)\n%s", line, tail(c.stderr.String()))
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("not JSON: %.300q", b)
		}
		if m, ok := v.(map[string]any); ok && m["id"] == sentinel {
			seen = true
			continue
		}
		if answer != nil {
			t.Fatalf("%.80s: two answers: %v and %s", line, answer, b)
		}
		answer = v
	}
}

// sortedByID orders a batch answer by id, so that answers compare whatever
// order the server wrote them in.
func sortedByID(v any) any {
	a, ok := v.([]any)
	if !ok {
		return v
	}
	sort.Slice(a, func(i, j int) bool {
		return fmt.Sprint(a[i].(map[string]any)["id"]) < fmt.Sprint(a[j].(map[string]any)["id"])
	})
	return a
}

const unknownCall = `{"jsonrpc":"2.0","id":1,"method":"no/such","params":{}}`
const unknownNote = `{"jsonrpc":"2.0","method":"notifications/no_such"}`

// TestUnknownMethodsAnswerTheSameOverHTTPAndStdio: a call of a method the
// server does not have is answered -32601 with its id, and a notification it
// does not know is ignored, over stdio and HTTP alike (the SDK's HTTP
// transport answered both with a plain-text 400 "JSON RPC not handled");
// over HTTP the notification is accepted with 202 and no body. Batches
// (protocol 2025-03-26) answer each call and nothing for notifications (a
// stdio batch holding a notification was never answered, and the next one
// ended the session).
func TestUnknownMethodsAnswerTheSameOverHTTPAndStdio(t *testing.T) {
	dir := shippedImages(t)
	h := startHTTP(t, dir)
	c := startStdio(t, dir)
	c.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`, initializedLine)
	c.nextWithin(t, 10*time.Second)
	notFound := func(id any, method string) any {
		return map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32601.0, "message": fmt.Sprintf("method not found: %q", method)}}
	}
	pong := func(id any) any { return map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{}} }
	cases := []struct {
		body string
		want any // nil: no answer (HTTP 202, no body)
	}{
		{unknownCall, notFound(1.0, "no/such")},
		{`{"jsonrpc":"2.0","id":"s","method":"resources/frobnicate"}`, notFound("s", "resources/frobnicate")},
		{unknownNote, nil},
		{`{"jsonrpc":"2.0","method":"notifications/no_such","params":{"x":1}}`, nil},
		{`[` + unknownCall + `,{"jsonrpc":"2.0","id":2,"method":"ping"},` + unknownNote + `]`, []any{notFound(1.0, "no/such"), pong(2.0)}},
		{`[` + unknownNote + `,{"jsonrpc":"2.0","id":3,"method":"ping"}]`, []any{pong(3.0)}},
		{`[{"jsonrpc":"2.0","id":"a","method":"x/y"},{"jsonrpc":"2.0","id":"b","method":"x/z"}]`, []any{notFound("a", "x/y"), notFound("b", "x/z")}},
		{`[` + unknownNote + `,` + initializedLine + `]`, nil},
	}
	for i, tc := range cases {
		status, body, err := h.post(t, tc.body)
		if err != nil {
			t.Fatal(err)
		}
		var got any
		if body != "" {
			if err := json.Unmarshal([]byte(body), &got); err != nil {
				got = body // not JSON: compared as text, and so different
			}
		}
		wantStatus := 200
		if tc.want == nil {
			wantStatus = 202
		}
		if status != wantStatus || !reflect.DeepEqual(sortedByID(got), sortedByID(tc.want)) {
			t.Errorf("HTTP %.80s:\n got %d %.300s\nwant %d %v", tc.body, status, body, wantStatus, tc.want)
		}
		if s := stdioAnswer(t, c, tc.body, i); !reflect.DeepEqual(sortedByID(s), sortedByID(tc.want)) {
			t.Errorf("stdio %.80s:\n got %v\nwant %v", tc.body, s, tc.want)
		}
	}
	// The same under the later protocol versions (single messages only:
	// they have no batches). Under 2026-07-28 the answer's HTTP status is 404
	// (SEP-2575).
	for version, status := range map[string]int{"2025-06-18": 200, "2025-11-25": 200, "2026-07-28": 404} {
		st, body, _ := h.post(t, unknownCall, protocolHeader, version)
		var m map[string]any
		if json.Unmarshal([]byte(body), &m); st != status || errCode(m) != -32601 || m["id"] != 1.0 {
			t.Errorf("%s: unknown call: %d %.300s", version, st, body)
		}
		if st, body, _ := h.post(t, unknownNote, protocolHeader, version); st != 202 || body != "" {
			t.Errorf("%s: unknown notification: %d %.300s", version, st, body)
		}
	}
	if st, body, _ := h.post(t, rpc(9, "tools/call", `{"name":"get_capabilities","arguments":{}}`), protocolHeader, "2025-11-25"); st != 200 || !strings.Contains(body, "serverName") {
		t.Errorf("a call after the unknown ones: %d %.200s", st, body)
	}
}

// cancelled is a notifications/cancelled line for id (JSON).
func cancelled(id string) string {
	return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"user stopped it"}}`
}

// TestCancellingABatchedCall: a call that came in a JSON-RPC batch cannot be
// cancelled (the batch is answered once all its calls are), so its
// cancellation is ignored and the batch answered whole, over stdio and HTTP
// (over HTTP the call was answered with code 0 "context canceled").
func TestCancellingABatchedCall(t *testing.T) {
	dir := shippedImages(t)
	h := startHTTP(t, dir)
	c := startStdio(t, dir)
	c.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`, initializedLine)
	c.nextWithin(t, 10*time.Second)
	for _, body := range []string{
		`[` + rpc(1, "tools/call", lpCall) + `,` + cancelled("1") + `]`,
		`[` + rpc(1, "tools/call", lpCall) + `,` + rpc(2, "ping", `{}`) + `]`,
	} {
		status, reply, err := h.post(t, body)
		var answers []map[string]any
		if err != nil || status != 200 || json.Unmarshal([]byte(reply), &answers) != nil || len(answers) == 0 || answers[0]["result"] == nil {
			t.Errorf("HTTP %.100s: %v %d %.300s", body, err, status, reply)
		}
	}
	// Over stdio the cancellation may also come later, on its own line.
	c.send(t, `[`+rpc(1, "tools/call", lpCall)+`,`+cancelled("1")+`]`)
	if got, ok := stdioBatch(t, c); !ok || len(got) != 1 || got[0]["result"] == nil {
		t.Errorf("stdio batch with its cancellation: %v", got)
	}
	c.send(t, `[`+rpc(2, "tools/call", lpCall)+`]`, cancelled("2"))
	if got, ok := stdioBatch(t, c); !ok || len(got) != 1 || got[0]["result"] == nil {
		t.Errorf("stdio batch cancelled afterwards: %v", got)
	}
}

// stdioBatch reads one line holding a batch's answers.
func stdioBatch(t *testing.T, c *stdioChild) ([]map[string]any, bool) {
	t.Helper()
	got := make(chan []byte, 1)
	go func() {
		if c.out.Scan() {
			got <- append([]byte(nil), c.out.Bytes()...)
		}
		close(got)
	}()
	select {
	case b := <-got:
		var a []map[string]any
		return a, json.Unmarshal(b, &a) == nil
	case <-time.After(10 * time.Second):
		t.Fatalf("no batch answer within 10s\n%s", tail(c.stderr.String()))
		return nil, false
	}
}

// TestHTTPCancellationAndDisconnects: over stateless HTTP every POST is its
// own session, so a notifications/cancelled in a later POST cannot reach the
// call it names: it is accepted (202) and changes nothing. A client that
// disconnects mid-request crashes nothing: its calls run to completion, the
// answer goes nowhere, and the next client is served.
func TestHTTPCancellationAndDisconnects(t *testing.T) {
	s := startHTTP(t, shippedImages(t))
	for _, version := range []string{"", "2025-11-25"} {
		var hdr []string
		if version != "" {
			hdr = []string{protocolHeader, version}
		}
		if status, body, err := s.post(t, cancelled("1"), hdr...); err != nil || status != 202 || body != "" {
			t.Errorf("%q: a lone cancellation: %v %d %.200s", version, err, status, body)
		}
	}
	addr := strings.TrimPrefix(s.base, "http://")
	body := batch(16, lpCall)
	for i := 0; i < 8; i++ {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body)
		conn.Close()
	}
	status, reply, err := s.post(t, rpc(1, "tools/call", `{"name":"get_capabilities","arguments":{}}`), protocolHeader, "2025-11-25")
	if err != nil || status != 200 || !strings.Contains(reply, "serverName") {
		t.Fatalf("a call after 8 clients hung up: %v %d %.200s", err, status, reply)
	}
	if err, exited := s.exited(); exited {
		t.Fatalf("kgmcp exited: %v\n%s", err, tail(s.stderr.String()))
	}
	if log := s.stderr.String(); strings.Contains(log, "panic") || strings.Contains(log, "level=ERROR") {
		t.Errorf("errors logged: %s", tail(log))
	}
}

// loggingLevels are the levels MCP's logging/setLevel accepts.
var loggingLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// TestSetLevelIsChecked: logging/setLevel with a level that is not one of
// MCP's eight, a missing or null level, or a level that is not a string is
// refused with -32602 naming the levels (the SDK accepted any string and a
// missing level); the eight are accepted. Over stdio and HTTP alike.
func TestSetLevelIsChecked(t *testing.T) {
	dir := shippedImages(t)
	h := startHTTP(t, dir)
	c := startStdio(t, dir)
	c.send(t, initLine, initializedLine)
	c.nextWithin(t, 10*time.Second)
	bad := []string{`{"level":"nonsense"}`, `{}`, `{"level":null}`, `{"level":5}`, `{"level":"DEBUG"}`, `{"level":["debug"]}`, `{"level":""}`}
	check := func(where, params string, m map[string]any, wantOK bool) {
		t.Helper()
		if wantOK {
			if m["result"] == nil || m["error"] != nil {
				t.Errorf("%s %s: refused: %v", where, params, m)
			}
			return
		}
		e, _ := m["error"].(map[string]any)
		msg, _ := e["message"].(string)
		if errCode(m) != -32602 {
			t.Errorf("%s %s: want -32602, got %v", where, params, m)
			return
		}
		for _, l := range loggingLevels {
			if !strings.Contains(msg, l) {
				t.Errorf("%s %s: the message does not name %q: %s", where, params, l, msg)
			}
		}
	}
	id := 0
	for _, params := range bad {
		id++
		line := rpc(id, "logging/setLevel", params)
		c.send(t, line)
		m := c.nextWithin(t, 10*time.Second)
		if m["id"] != float64(id) {
			t.Fatalf("stdio %s: answer for another id: %v", params, m)
		}
		check("stdio", params, m, false)
		status, body, err := h.post(t, line, protocolHeader, "2025-11-25")
		var hm map[string]any
		if err != nil || status != 200 || json.Unmarshal([]byte(body), &hm) != nil || hm["id"] != float64(id) {
			t.Errorf("HTTP %s: %v %d %.300s", params, err, status, body)
			continue
		}
		check("HTTP", params, hm, false)
	}
	for _, l := range loggingLevels {
		id++
		line := rpc(id, "logging/setLevel", `{"level":"`+l+`"}`)
		c.send(t, line)
		check("stdio", l, c.nextWithin(t, 10*time.Second), true)
		_, body, _ := h.post(t, line, protocolHeader, "2025-11-25")
		var hm map[string]any
		json.Unmarshal([]byte(body), &hm)
		check("HTTP", l, hm, true)
	}
}
