package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// Request ids a client gets wrong (issue 20, items 3–5): a batch with two
// calls of one id, an id reused while its call runs, and "id": null. Each
// gets a -32600 answer with the id, and the session goes on.

const dupMessage = "already in use by a call not yet answered"

func TestStdioDuplicateIDsAreRefusedAndTheSessionGoesOn(t *testing.T) {
	c := startStdio(t, shippedImages(t))
	c.send(t, initLine, initializedLine)
	c.next(t)

	// A batch with a duplicate id ended the session (exit 1, "duplicate
	// message ID").
	c.send(t, `[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":7,"method":"ping"}]`)
	var sawResult, sawRefusal bool
	for !sawResult || !sawRefusal {
		line := c.nextRaw(t)
		switch {
		case strings.HasPrefix(line, "["):
			var batch []map[string]any
			if err := json.Unmarshal([]byte(line), &batch); err != nil || len(batch) != 1 || batch[0]["id"] != 7.0 || batch[0]["result"] == nil {
				t.Fatalf("the batch's answer: %s", line)
			}
			sawResult = true
		default:
			m := decodeLine(t, line)
			if errCode(m) != -32600 || m["id"] != 7.0 || !strings.Contains(errMessage(m), dupMessage) {
				t.Fatalf("the duplicate's answer: %s", line)
			}
			sawRefusal = true
		}
	}

	// "id": null was taken for a notification and never answered.
	c.send(t, `{"jsonrpc":"2.0","id":null,"method":"ping"}`)
	if m := c.next(t); errCode(m) != -32600 || m["id"] != nil || !strings.Contains(errMessage(m), "must not be null") {
		t.Fatalf("id null: %v", m)
	}

	// 200 calls with one id, written at once: each is answered, by its
	// result or by a refusal; 63 of them went unanswered, each holding an
	// in-flight slot, so closing stdin then waited the whole drain.
	const n = 200
	call := `{"name":"search_standards","arguments":{"request":{"query":"read","limit":100}}}`
	lines := make([]string, n)
	for i := range lines {
		lines[i] = rpc(1, "tools/call", call)
	}
	c.send(t, lines...)
	results, refusals := 0, 0
	for results+refusals < n {
		m := c.next(t)
		switch {
		case m["id"] != 1.0:
			t.Fatalf("unexpected answer: %.200v", m)
		case m["result"] != nil:
			results++
		case errCode(m) == -32600 && strings.Contains(errMessage(m), dupMessage):
			refusals++
		default:
			t.Fatalf("unexpected answer: %.200v", m)
		}
	}
	if results == 0 || refusals == 0 {
		t.Errorf("%d results and %d refusals: the reuse was not exercised", results, refusals)
	}
	c.send(t, rpc(2, "ping", `{}`))
	if m := c.next(t); m["id"] != 2.0 || m["result"] == nil {
		t.Fatalf("a call after the duplicates: %v", m)
	}
	start := time.Now()
	c.in.Close()
	if err := c.cmd.Wait(); err != nil {
		t.Errorf("exit after EOF: %v\n%s", err, tail(c.stderr.String()))
	}
	// No slot is held: the session ends without waiting out the 10 s drain.
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("closing stdin took %v: a call is still counted in flight", d)
	}
}

func TestHTTPBatchWithADuplicateIDAnswersBoth(t *testing.T) {
	s := startHTTP(t, shippedImages(t))
	status, body, err := s.post(t, `[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":7,"method":"ping"}]`)
	if err != nil || status != 200 {
		t.Fatalf("status %d: %v %s", status, err, body)
	}
	var batch []map[string]any
	if err := json.Unmarshal([]byte(body), &batch); err != nil || len(batch) != 2 {
		t.Fatalf("want two answers: %s", body)
	}
	if batch[0]["result"] == nil || errCode(batch[1]) != -32600 || !strings.Contains(errMessage(batch[1]), dupMessage) {
		t.Errorf("answers: %s", body)
	}
	status, body, _ = s.post(t, `{"jsonrpc":"2.0","id":null,"method":"ping"}`)
	if status != 400 || !strings.Contains(body, "must not be null") {
		t.Errorf("id null: %d %s", status, body)
	}
	// A URI with a control character in a batch: "not found" (the SDK's
	// Go-quoted data emptied the whole answer), and the batch's other answer.
	status, body, _ = s.post(t, `[{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"kgfegmcp://catalog\u0001"}},{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
		protocolHeader, "2025-03-26")
	batch = nil
	if err := json.Unmarshal([]byte(body), &batch); status != 200 || err != nil || len(batch) != 2 {
		t.Fatalf("batch with a control character in a URI: %d %s", status, body)
	}
	for _, m := range batch {
		if (m["id"] == 1.0 && errCode(m) != -32002) || (m["id"] == 2.0 && m["result"] == nil) {
			t.Errorf("batch with a control character in a URI: %s", body)
		}
	}
}

// nextRaw reads one response line as it is.
func (c *stdioChild) nextRaw(t *testing.T) string {
	t.Helper()
	if !c.out.Scan() {
		t.Fatalf("kgmcp closed stdout: %v\n%s", c.out.Err(), tail(c.stderr.String()))
	}
	return c.out.Text()
}

func decodeLine(t *testing.T, line string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("not JSON: %.300q", line)
	}
	return m
}

func errMessage(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	s, _ := e["message"].(string)
	return s
}

// TestAnswersFollowTheNegotiatedProtocol: a resource that is not there is
// -32002 up to protocol 2025-11-25 and -32602 after it (SEP-2164), whether
// no template matches its address (the SDK's answer) or a template's address
// names no record (kgc's); a client of a protocol before 2025-06-18, which
// has no outputSchema, lists tools without one.
func TestAnswersFollowTheNegotiatedProtocol(t *testing.T) {
	s := startHTTP(t, shippedImages(t))
	for _, c := range []struct {
		version string
		code    float64
		outputs bool
	}{{"2024-11-05", -32002, false}, {"2025-03-26", -32002, false}, {"2025-06-18", -32002, true}, {"2025-11-25", -32002, true}} {
		for _, uri := range []string{"kgfegmcp://nowhere", "kgfegmcp://framework/kgc-sample-mathematics-grades-1-3/snapshot/kgc-sample-mathematics-grades-1-3%402026%2Be2a8ceb6a0e6/standard/none"} {
			status, body, err := s.post(t, `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"`+uri+`"}}`, protocolHeader, c.version)
			var m map[string]any
			if err != nil || status != 200 || json.Unmarshal([]byte(body), &m) != nil || errCode(m) != c.code {
				t.Errorf("%s, %s: %d %s, want code %v", c.version, uri, status, body, c.code)
			}
		}
		_, body, _ := s.post(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, protocolHeader, c.version)
		if n := strings.Count(body, `"outputSchema"`); (n == 20) != c.outputs || (n == 0) == c.outputs {
			t.Errorf("%s: %d output schemas in the tool list", c.version, n)
		}
	}
	// The protocol after 2025-11-25 says which version each request speaks.
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}`
	status, body, _ := s.post(t, `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"kgfegmcp://nowhere",`+meta+`}}`, protocolHeader, "2026-07-28", "Mcp-Method", "resources/read", "Mcp-Name", "kgfegmcp://nowhere")
	var m map[string]any
	if json.Unmarshal([]byte(body), &m) != nil || errCode(m) != -32602 {
		t.Errorf("2026-07-28: %d %s, want -32602", status, body)
	}
}
