package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kgc-project/kgc/internal/smoke"
)

const englishFW = "kgc-sample-english-grades-1-2"

// keyed is one JSON-RPC call over HTTP with a key header; it returns the
// status and the decoded response (nil when the body is not JSON-RPC).
func keyed(t *testing.T, srv *httpServer, header, value, method, params string) (int, map[string]any) {
	t.Helper()
	var hdr []string
	if header != "" {
		hdr = []string{header, value}
	}
	code, body, err := srv.post(t, rpc(1, method, params), hdr...)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	json.Unmarshal([]byte(body), &out)
	return code, out
}

// An API key file guards /mcp: no key or an unknown one is 401 with
// WWW-Authenticate; a key sees only the frameworks it is granted, and what
// it is not granted answers exactly as a framework the server does not
// serve, through every tool, resource, prompt and completion tried; a key
// granted nothing in particular sees all; keys may be listed by their
// SHA-256 and sent as X-API-Key; the file is read again when it changes.
func TestAPIKeysGrantFrameworks(t *testing.T) {
	dir := shippedImages(t)
	keys := filepath.Join(t.TempDir(), "keys")
	const mathsKey, allKey, hashedKey = "maths-only-key-0123456789", "all-frameworks-key-0123456789", "hashed-key-abcdefghijklmnop"
	sum := sha256.Sum256([]byte(hashedKey))
	file := "# keys of the test\n" + mathsKey + " kgc-sample-math*\n" + allKey + "\nsha256:" + hex.EncodeToString(sum[:]) + " " + englishFW + "\n"
	if err := os.WriteFile(keys, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startHTTP(t, "--api-key-file", keys, dir)

	list := `{"name":"list_frameworks","arguments":{"request":{}}}`
	if code, _ := keyed(t, srv, "", "", "tools/call", list); code != http.StatusUnauthorized {
		t.Errorf("no key: %d, want 401", code)
	}
	r, _ := http.NewRequest("POST", srv.base+"/mcp", strings.NewReader(rpc(1, "tools/call", list)))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Authorization", "Bearer not-a-listed-key-at-all")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer ") {
		t.Errorf("an unknown key: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	if h, err := http.Get(srv.base + "/health"); err != nil || h.StatusCode != 200 {
		t.Errorf("/health needs no key: %v", err)
	}

	bearer := "Authorization"
	count := func(header, key string) float64 {
		_, out := keyed(t, srv, header, key, "tools/call", list)
		sc, _ := out["result"].(map[string]any)["structuredContent"].(map[string]any)
		n, _ := sc["totalMatchingCount"].(float64)
		return n
	}
	if n := count(bearer, "Bearer "+mathsKey); n != 1 {
		t.Errorf("the maths key lists %v frameworks, want 1", n)
	}
	if n := count(bearer, "Bearer "+allKey); n != 2 {
		t.Errorf("the key granting all lists %v, want 2", n)
	}
	if n := count("X-API-Key", hashedKey); n != 1 {
		t.Errorf("the hashed key (X-API-Key) lists %v, want 1", n)
	}

	// What the maths key is not granted answers as what is not served.
	missing := "framework-nobody-serves"
	for _, c := range []struct{ method, params string }{
		{"tools/call", `{"name":"get_framework","arguments":{"request":{"frameworkId":"FW"}}}`},
		{"tools/call", `{"name":"search_standards","arguments":{"request":{"frameworkIds":["FW"],"mode":"text","query":"letters","match":{"matchMode":"tokens","operator":"any"}}}}`},
		{"tools/call", `{"name":"get_framework_statistics","arguments":{"request":{"frameworkId":"FW"}}}`},
		{"prompts/get", `{"name":"student_study_support","arguments":{"framework_id":"FW","grade_or_stage":"GRADE ONE","topic_or_standard":"letters"}}`},
		{"tools/call", `{"name":"compare_framework_evidence","arguments":{"request":{"frameworkIds":["FW","` + mathsFW + `"],"mode":"text","query":"letters","match":{"matchMode":"tokens","operator":"any"}}}}`},
		{"resources/read", `{"uri":"kgfegmcp://framework/FW"}`},
	} {
		_, hidden := keyed(t, srv, bearer, "Bearer "+mathsKey, c.method, strings.ReplaceAll(c.params, "FW", englishFW))
		_, absent := keyed(t, srv, bearer, "Bearer "+mathsKey, c.method, strings.ReplaceAll(c.params, "FW", missing))
		h, a := strings.ReplaceAll(mustJSON(hidden), englishFW, "X"), strings.ReplaceAll(mustJSON(absent), missing, "X")
		if testing.Verbose() {
			t.Logf("%s: %.200s", c.method, h)
		}
		if h != a || !strings.Contains(h, "not") {
			t.Errorf("%s %s: an ungranted framework answers\n%.400s\nan unserved one\n%.400s", c.method, c.params, h, a)
		}
	}
	_, fed := keyed(t, srv, bearer, "Bearer "+mathsKey, "tools/call", `{"name":"search_standards","arguments":{"request":{"mode":"text","query":"understanding","match":{"matchMode":"tokens","operator":"any"},"limit":100}}}`)
	if s := mustJSON(fed); strings.Contains(s, englishFW) || !strings.Contains(s, mathsFW) {
		t.Errorf("a federated search shows an ungranted framework, or not the granted one: %.300s", s)
	}
	_, cat := keyed(t, srv, bearer, "Bearer "+mathsKey, "resources/read", `{"uri":"kgfegmcp://catalog"}`)
	if s := mustJSON(cat); strings.Contains(s, englishFW) || !strings.Contains(s, mathsFW) {
		t.Errorf("the catalog resource shows an ungranted framework: %.300s", s)
	}
	_, comp := keyed(t, srv, bearer, "Bearer "+mathsKey, "completion/complete", `{"ref":{"type":"ref/resource","uri":"kgfegmcp://framework/{framework_id}"},"argument":{"name":"framework_id","value":"kgc"}}`)
	if s := mustJSON(comp); strings.Contains(s, englishFW) || !strings.Contains(s, mathsFW) {
		t.Errorf("completion offers an ungranted framework: %.300s", s)
	}

	// The file changes (a new key, the maths key gone): read again.
	time.Sleep(1100 * time.Millisecond)
	const newKey = "a-new-key-after-rotation-42"
	if err := os.WriteFile(keys+".new", []byte(newKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(keys+".new", keys); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for count(bearer, "Bearer "+newKey) != 2 {
		if time.Now().After(deadline) {
			t.Fatal("the rotated key file was not read again")
		}
		time.Sleep(300 * time.Millisecond)
	}
	if code, _ := keyed(t, srv, bearer, "Bearer "+mathsKey, "tools/call", list); code != http.StatusUnauthorized {
		t.Errorf("a key removed from the file: %d, want 401", code)
	}
}

// A key file that does not read, or one given without --http, stops kgmcp
// at start with a clear message.
func TestAPIKeyFileRefusedAtStart(t *testing.T) {
	dir := shippedImages(t)
	bad := filepath.Join(t.TempDir(), "keys")
	os.WriteFile(bad, []byte("short\nsha256:zz\n"), 0o600)
	if code, _, stderr := run(t, "--http", freePort(t), "--api-key-file", bad, dir); code != 2 ||
		!strings.Contains(stderr, "line 1: a key must be at least 16 characters") || !strings.Contains(stderr, "line 2: sha256: must be followed by 64 hex digits") {
		t.Errorf("a bad key file: %d %q", code, stderr)
	}
	if code, _, stderr := run(t, "--api-key-file", bad, dir); code != 2 || !strings.Contains(stderr, "use it with --http") {
		t.Errorf("a key file over stdio: %d %q", code, stderr)
	}
	if code, _, stderr := run(t, "--http", freePort(t), "--api-key-file", filepath.Join(t.TempDir(), "absent"), dir); code != 2 || !strings.Contains(stderr, "--api-key-file") {
		t.Errorf("an absent key file: %d %q", code, stderr)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// The explorer of a server that requires a key asks for one (and never
// shows a framework without it).
func TestExplorerAsksForAKey(t *testing.T) {
	chromium(t)
	dir := shippedImages(t)
	keys := filepath.Join(t.TempDir(), "keys")
	os.WriteFile(keys, []byte("a-key-for-the-explorer-0001\n"), 0o600)
	srv := startHTTP(t, "--api-key-file", keys, dir)
	dom := browse(t, srv.base+"/")
	if !strings.Contains(dom, `data-state="key"`) || !strings.Contains(dom, "This server needs a key.") || !strings.Contains(dom, `type="password"`) ||
		strings.Contains(dom, "kgc Sample") {
		t.Errorf("the explorer without a key:\n%.1500s", mainText(dom))
	}
}

// What the operator sees: Prometheus metrics (requests by tool and
// outcome, errors by code, durations, packages by state, rate-limit
// refusals), an audit line per request naming the caller's key by its id
// (never the key), and a per-caller rate limit answered 429 with
// Retry-After.
func TestMetricsAuditAndRateLimits(t *testing.T) {
	dir := shippedImages(t)
	keys := filepath.Join(t.TempDir(), "keys")
	const key = "operator-test-key-0123456789"
	os.WriteFile(keys, []byte(key+"\n"), 0o600)
	srv := startHTTP(t, "--api-key-file", keys, "--metrics", "--audit", "--rate-limit", "2", "--rate-burst", "4", dir)
	auth := "Bearer " + key
	keyed(t, srv, "Authorization", auth, "tools/call", `{"name":"list_frameworks","arguments":{"request":{}}}`)
	keyed(t, srv, "Authorization", auth, "tools/call", `{"name":"get_framework","arguments":{"request":{"frameworkId":"no-such-framework"}}}`)
	keyed(t, srv, "Authorization", auth, "tools/call", `{"name":"get_framework","arguments":{"request":{"frameworkId":"`+mathsFW+`"}}}`)
	limited, retry := 0, ""
	for range 8 {
		code, _, _ := srv.post(t, rpc(1, "tools/call", `{"name":"list_frameworks","arguments":{"request":{}}}`), "Authorization", auth)
		if code == http.StatusTooManyRequests {
			limited++
		}
	}
	r, _ := http.NewRequest("POST", srv.base+"/mcp", strings.NewReader(rpc(1, "ping", `{}`)))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Authorization", auth)
	if resp, err := http.DefaultClient.Do(r); err == nil {
		retry = resp.Header.Get("Retry-After")
		resp.Body.Close()
	}
	if limited == 0 || retry == "" {
		t.Errorf("10 calls at once under --rate-limit 2 --rate-burst 4: %d refused, Retry-After %q", limited, retry)
	}
	resp, err := http.Get(srv.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	text := string(b)
	for _, want := range []string{`kgmcp_requests_total{method="tools/call",name="list_frameworks",outcome="ok"}`,
		`kgmcp_requests_total{method="tools/call",name="get_framework",outcome="tool_error"} 1`, `kgmcp_request_errors_total{code="framework_not_found"} 1`,
		`kgmcp_request_duration_seconds_bucket{method="tools/call",name="list_frameworks",le="+Inf"}`, `kgmcp_packages{state="verified"}`,
		`kgmcp_requests_in_flight 0`, `kgmcp_catalog_generation 0`, "kgmcp_rate_limited_total ",
		// get_framework on the maths sample verified its image, the other sample's is verified on first use
		`kgmcp_image_verification_seconds_count{outcome="ok"} 1`, `kgmcp_image_verification_seconds_bucket{outcome="ok",le="+Inf"} 1`,
		`kgmcp_packages{state="verified"} 1`, `kgmcp_packages{state="unverified"} 1`} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s:\n%s", want, text)
		}
	}
	if strings.Contains(text, "kgmcp_rate_limited_total 0") {
		t.Error("the refusals are not counted")
	}
	sum := sha256.Sum256([]byte(key))
	id := "key:" + hex.EncodeToString(sum[:4])
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(srv.stderr.String(), `msg=audit`) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	logs := srv.stderr.String()
	if !strings.Contains(logs, "msg=audit") || !strings.Contains(logs, "caller="+id) || !strings.Contains(logs, "code=framework_not_found") || strings.Contains(logs, key) {
		t.Errorf("the audit log (want the caller %s, never the key):\n%s", id, logs)
	}
}

// kgc smoke --url checks a server that requires a key when given one
// (KGC_SMOKE_TOKEN), and fails without it.
func TestSmokeWithAKey(t *testing.T) {
	dir := shippedImages(t)
	keys := filepath.Join(t.TempDir(), "keys")
	const key = "smoke-test-key-0123456789"
	os.WriteFile(keys, []byte(key+"\n"), 0o600)
	srv := startHTTP(t, "--api-key-file", keys, dir)
	if _, err := smoke.HTTP(context.Background(), srv.base+"/mcp", ""); err == nil {
		t.Error("the smoke passed the handshake without a key")
	}
	s, err := smoke.HTTP(context.Background(), srv.base+"/mcp", key)
	if err != nil || s.Status != "passed" || s.ToolCallCount != 20 {
		t.Errorf("the smoke with the key: %v %+v", err, s)
	}
}

// The TypeScript SDK client with a key: refused without it, and with it
// answered from the frameworks the key is granted.
func TestTypeScriptSDKClientWithAKey(t *testing.T) {
	clients := mcpClients(t)
	dir := shippedImages(t)
	keys := filepath.Join(t.TempDir(), "keys")
	const key = "typescript-client-key-0123456789"
	os.WriteFile(keys, []byte(key+" "+mathsFW+"\n"), 0o600)
	srv := startHTTP(t, "--api-key-file", keys, dir)
	steps := []map[string]any{{"method": "tools/call", "name": "list_frameworks", "arguments": map[string]any{"request": map[string]any{}}}}
	out := probe(t, clients, map[string]any{"transport": "http", "url": srv.base + "/mcp", "bearer": key}, steps)
	if !out.Steps[0].OK || !strings.Contains(string(out.Steps[0].Result), `"totalMatchingCount":1`) || strings.Contains(string(out.Steps[0].Result), englishFW) {
		t.Errorf("with the key: %s %+v", out.Steps[0].Result, out.Steps[0].Error)
	}
	script := filepath.Join(t.TempDir(), "script.json")
	b, _ := json.Marshal(map[string]any{"transport": "http", "url": srv.base + "/mcp", "steps": steps})
	os.WriteFile(script, b, 0o644)
	cmd := exec.Command("node", filepath.Join(clients, "probe.mjs"), script)
	stdout, _ := cmd.Output()
	if !strings.Contains(string(stdout), `"fatal"`) || !strings.Contains(string(stdout), "unauthorized") {
		t.Errorf("without the key the client connected: %.500s", stdout)
	}
}

// --metrics-listen serves the metrics on their own address only: with API
// keys on /mcp, the public port has no /metrics and the metrics port
// answers a scraper without a key, and nothing else.
func TestMetricsOnTheirOwnListener(t *testing.T) {
	dir := shippedImages(t)
	keys := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(keys, []byte("metrics-test-key-0123456789\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	maddr := freePort(t)
	srv := startHTTP(t, "--api-key-file", keys, "--metrics-listen", maddr, dir)
	keyed(t, srv, "Authorization", "Bearer metrics-test-key-0123456789", "tools/call", `{"name":"list_frameworks","arguments":{"request":{}}}`)
	get := func(url string) (int, string) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get(srv.base + "/metrics"); code != http.StatusNotFound {
		t.Errorf("/metrics beside /mcp: %d, want 404", code)
	}
	code, text := get("http://" + maddr + "/metrics")
	if code != http.StatusOK || !strings.Contains(text, `kgmcp_requests_total{method="tools/call",name="list_frameworks",outcome="ok"} 1`) {
		t.Errorf("the metrics listener: %d\n%s", code, text)
	}
	if code, _ := get("http://" + maddr + "/mcp"); code != http.StatusNotFound {
		t.Errorf("/mcp on the metrics listener: %d, want 404", code)
	}
	if code, _ := get("http://" + maddr + "/"); code != http.StatusNotFound {
		t.Errorf("the explorer on the metrics listener: %d, want 404", code)
	}
	port := freePort(t)
	for name, args := range map[string][]string{
		"over stdio":             {"--metrics-listen", freePort(t), dir},
		"on the --http address":  {"--http", port, "--metrics-listen", port, dir},
		"a port that is no port": {"--http", freePort(t), "--metrics-listen", "127.0.0.1:http", dir},
	} {
		if code, _, stderr := run(t, args...); code != 2 || !strings.Contains(stderr, "--metrics-listen") {
			t.Errorf("--metrics-listen %s: %d %q", name, code, stderr)
		}
	}
}
