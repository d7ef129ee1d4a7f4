package main

import (
	"bufio"
	"bytes"
	"context"
	bin "encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kgmcp-test-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "kgmcp")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building kgmcp: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// shippedImages builds the sample packages into a temp dir.
func shippedImages(t *testing.T) string { return imgtest.Images(t, nil, nil) }

func callText(t *testing.T, cs *mcp.ClientSession, name string, args any) (map[string]any, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		return nil, text
	}
	// The structured content is the result; the text is for the model.
	var out map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || text == "" {
		t.Fatalf("%s: %v (text %d bytes)", name, err, len(text))
	}
	return out, text
}

// exercise runs the same checks over any connected session.
func exercise(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) < 7 {
		t.Fatalf("tools/list: %v %d", err, len(tools.Tools))
	}
	out, _ := callText(t, cs, "list_frameworks", map[string]any{"request": map[string]any{}})
	if out["returnedCount"].(float64) != 2 {
		t.Errorf("list_frameworks: %v", out["returnedCount"])
	}
	out, _ = callText(t, cs, "get_framework", map[string]any{"request": map[string]any{"frameworkId": "kgc-sample-mathematics-grades-1-3"}})
	snap := out["framework"].(map[string]any)["snapshotId"].(string)
	if _, txt := callText(t, cs, "get_framework", map[string]any{"request": map[string]any{"frameworkId": "x-y-z"}}); !strings.HasPrefix(txt, "framework_not_found") {
		t.Errorf("unknown framework: %s", txt)
	}
	if _, txt := callText(t, cs, "list_frameworks", map[string]any{"request": map[string]any{"limit": 0}}); !strings.HasPrefix(txt, "Input validation error") {
		t.Errorf("bad limit: %s", txt)
	}
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "kgfegmcp://catalog"})
	if err != nil || !strings.Contains(res.Contents[0].Text, snap) {
		t.Errorf("catalog: %v", err)
	}
}

func TestStdioWithTheGoClient(t *testing.T) {
	dir := shippedImages(t)
	for _, version := range []string{"2025-11-25", ""} {
		t.Run("protocol "+version, func(t *testing.T) {
			cmd := exec.Command(binary, dir)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(),
				&mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatalf("connect: %v\n%s", err, stderr.String())
			}
			exercise(t, cs)
			cs.Close()
			if !strings.Contains(stderr.String(), "catalog ready") {
				t.Errorf("no start-up log on stderr: %q", stderr.String())
			}
		})
	}
}

// TestStdoutCarriesOnlyJSONRPC drives the binary with raw lines and checks every
// stdout line is a JSON-RPC message.
func TestStdoutCarriesOnlyJSONRPC(t *testing.T) {
	dir := shippedImages(t)
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_capabilities","arguments":{}}}`,
	}, "\n") + "\n"
	cmd := exec.Command(binary, dir)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Write([]byte(in))
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 16<<20)
	got := 0
	for got < 2 && sc.Scan() {
		var msg map[string]any
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil || msg["jsonrpc"] != "2.0" {
			t.Fatalf("stdout line is not JSON-RPC: %q", sc.Text())
		}
		if _, ok := msg["id"]; ok {
			got++
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit on stdin EOF: %v", err)
	}
	if got != 2 {
		t.Errorf("got %d responses", got)
	}
}

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func TestHTTPWithTheGoClient(t *testing.T) {
	dir := shippedImages(t)
	base := startHTTP(t, dir).base
	resp, err := http.Get(base + "/health")
	if err != nil {
		t.Fatal(err)
	}
	b := new(bytes.Buffer)
	b.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || strings.TrimSpace(b.String()) != `{"status":"ok"}` {
		t.Fatalf("/health: %d %q", resp.StatusCode, b.String())
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, cs)
	cs.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	for name, hdr := range map[string]map[string]string{
		"foreign origin": {"Origin": "https://evil.example"},
		"foreign host":   {"Host": "evil.example"},
	} {
		r, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range hdr {
			if k == "Host" {
				r.Host = v
			} else {
				r.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s: status %d, want 403", name, resp.StatusCode)
		}
	}
	// An oversized body is refused before it is read, and the server goes on.
	huge := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_capabilities","arguments":{"x":"` + strings.Repeat("a", 2<<20) + `"}}}`
	r, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(huge))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	resp, err = http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("2 MiB body: status %d, want 413", resp.StatusCode)
	}
	if resp, err := http.Get(base + "/health"); err != nil || resp.StatusCode != 200 {
		t.Errorf("health after an oversized body: %v", err)
	}
}

func run(t *testing.T, args ...string) (int, string, string) {
	cmd := exec.Command(binary, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Stdin = strings.NewReader("")
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return code, stdout.String(), stderr.String()
}

func TestStartupPolicies(t *testing.T) {
	empty := t.TempDir()
	if code, _, stderr := run(t, empty); code != 1 || !strings.Contains(stderr, "no acceptable image") {
		t.Errorf("no images: %d %q", code, stderr)
	}
	if code, _, _ := run(t); code != 2 {
		t.Errorf("no arguments: %d", code)
	}
	if code, stdout, _ := run(t, "--version"); code != 0 || !strings.HasPrefix(stdout, "kgmcp ") {
		t.Errorf("--version: %d %q", code, stdout)
	}
	dir := shippedImages(t)
	matches, _ := filepath.Glob(filepath.Join(dir, "*.kgimg"))
	orig, _ := os.ReadFile(matches[0])
	b := append([]byte(nil), orig...)
	b[bin.LittleEndian.Uint32(b[48:])+bin.LittleEndian.Uint32(b[52:])/2] ^= 1 // inside the catalog part, verified at start
	os.WriteFile(matches[0], b, 0o644)
	if code, _, stderr := run(t, dir); code != 1 || !strings.Contains(stderr, "refusing to start") {
		t.Errorf("corrupt image under fail: %d %q", code, stderr)
	}
	// The images are verified while the server starts: a host that keeps
	// stdin open sees the handshake answered, then the server exit with the
	// refusal; the call it made is refused, never answered from the images.
	cmd := exec.Command(binary, dir)
	stdin, _ := cmd.StdinPipe()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_frameworks","arguments":{"request":{}}}}`+"\n")
	err := cmd.Wait()
	stdin.Close()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(errb.String(), "refusing to start") {
		t.Errorf("corrupt image, stdin left open: %v %q", err, errb.String())
	}
	if strings.Contains(out.String(), `"id":2,"result":{"content":[{"type":"text","text":"{`) {
		t.Errorf("a call was answered from a refused catalog: %s", out.String())
	}
	code, stdout, _ := run(t, "--invalid-image", "quarantine", "--check", dir)
	if code != 1 || !strings.Contains(stdout, "REFUSED") || !strings.Contains(stdout, "ok ") {
		t.Errorf("--check under quarantine: %d %q", code, stdout)
	}
	if code, _, stderr := run(t, "--invalid-image", "quarantine", dir); code != 0 || !strings.Contains(stderr, "image quarantined") {
		t.Errorf("serving under quarantine: %d %q", code, stderr)
	}
	// A corrupt byte outside the catalog part is found by --check, which
	// verifies whole images (a server finds it on the image's first use).
	b = append([]byte(nil), orig...)
	b[len(b)-len(b)/4] ^= 1
	os.WriteFile(matches[0], b, 0o644)
	if code, stdout, _ := run(t, "--check", dir); code != 1 || !strings.Contains(stdout, "REFUSED  "+matches[0]) || !strings.Contains(stdout, "checksum mismatch") {
		t.Errorf("--check, a corrupt payload: %d %q", code, stdout)
	}
	code, stdout, _ = run(t, "--print-config", "--http", "9000", dir)
	var cfg map[string]any
	if json.Unmarshal([]byte(stdout), &cfg); code != 0 || cfg["httpAddr"] != "127.0.0.1:9000" || cfg["invalidImagePolicy"] != "fail" {
		t.Errorf("--print-config: %d %s", code, stdout)
	}
}

// TestStdinClosedAtOnceExitsCleanly: a host that initializes and hangs up at
// once stops kgmcp while the images are still being verified or the query
// layer warmed over them; the images must not be unmapped under that work
// (it once faulted about every other run).
func TestStdinClosedAtOnceExitsCleanly(t *testing.T) {
	t.Parallel()
	images := shippedImages(t)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"
	for i := 0; i < 20; i++ {
		cmd := exec.Command(binary, images)
		cmd.Stdin = strings.NewReader(init)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), `"serverInfo"`) {
			t.Fatalf("run %d: %v\nstdout: %s\nstderr: %.2000s", i, err, out, stderr.String())
		}
	}
}

// TestTwoCurrentSnapshotsAreReportedAtStart: a framework served with two
// current snapshots (the corpus's Nigeria packages) is named at start, in the
// log and by --check, with what tells its snapshots apart, instead of
// showing up later as ambiguous_framework on every unpinned call.
func TestTwoCurrentSnapshotsAreReportedAtStart(t *testing.T) {
	dir := corpusImages(t)
	const want = "nigeria-nerdc-mathematics-primary-1-3 has 2 current snapshots"
	code, stdout, _ := run(t, "--check", dir)
	if code != 0 || !strings.Contains(stdout, "WARNING  framework "+want) || !strings.Contains(stdout, "learning_components") {
		t.Errorf("--check: %d %q", code, stdout)
	}
	if code, _, stderr := run(t, dir); code != 0 || !strings.Contains(stderr, "level=WARN msg=\"framework "+want) {
		t.Errorf("start: %d %q", code, stderr)
	}
	if _, stdout, _ := run(t, "--check", shippedImages(t)); strings.Contains(stdout, "WARNING") {
		t.Errorf("--check warns about the samples: %q", stdout)
	}
}
