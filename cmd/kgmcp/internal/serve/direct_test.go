package serve

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/transcript"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// directServers serves the shipped samples twice over loopback HTTP, from
// one mcpserver.Server: with the direct answers (kgmcp as shipped) and with
// every request left to the SDK.
func directServers(t *testing.T) (srv *mcpserver.Server, kgmcp, sdk string) {
	t.Helper()
	paths, _ := catalog.Paths([]string{imgtest.Images(t, nil, nil)})
	cat, err := catalog.Open(paths, catalog.PolicyFail, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv = mcpserver.New(cat, mcpserver.Options{})
	urls := make([]string, 2)
	for i, sdkOnly := range []bool{false, true} {
		h, err := handlerWith(srv, nil, defaultHTTPLimits().ResponseBudget, slog.New(slog.DiscardHandler), nil, httpExtras{}, sdkOnly)
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(h)
		t.Cleanup(ts.Close)
		urls[i] = ts.URL + "/mcp"
	}
	return srv, urls[0], urls[1]
}

// exchange is one POST's answer, as a client sees it.
type exchange struct {
	status                      int
	contentType, cache, session string
	chunked                     bool
	body                        string
}

func postWith(t *testing.T, url, body string, header map[string]string) exchange {
	t.Helper()
	r, _ := http.NewRequest("POST", url, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		if v == "" {
			r.Header.Del(k)
		} else {
			r.Header.Set(k, v)
		}
	}
	if h, ok := header["Host"]; ok {
		r.Host = h
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return exchange{resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"), resp.Header.Get("Mcp-Session-Id"),
		len(resp.TransferEncoding) > 0, string(b)}
}

// transcriptRequests are the request and response lines of the golden
// transcripts of the samples.
func transcriptRequests(t *testing.T) (requests, responses []string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(imgtest.RepoRoot(t), "cmd", "kgmcp", "testdata", "transcripts", "samples", "*.txtar"))
	if len(files) < 50 {
		t.Fatalf("%d transcripts", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := transcript.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		requests, responses = append(requests, tr.Request), append(responses, tr.Response)
	}
	return requests, responses
}

// TestDirectAnswersAreTheSDKs: every request of the golden transcripts, and
// requests built to sit on each side of what kgmcp answers itself, get the
// same status, headers and body bytes from kgmcp as from the SDK alone; the
// direct answers are byte for byte the transcripts' (stdio) responses; and
// the plain ping and tools/call requests are in fact answered directly.
func TestDirectAnswersAreTheSDKs(t *testing.T) {
	t.Parallel()
	srv, kgmcp, sdk := directServers(t)
	requests, responses := transcriptRequests(t)
	const get = `{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"get_framework","arguments":{"request":{"frameworkId":"kgc-sample-mathematics-grades-1-3"}}}}`
	v1118 := map[string]string{"Mcp-Protocol-Version": "2025-11-25"}
	v0618 := map[string]string{"Mcp-Protocol-Version": "2025-06-18"}
	type probe struct {
		body   string
		header map[string]string
		direct bool
	}
	probes := []probe{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, v0618, true},
		{`{"jsonrpc":"2.0","id":"p","method":"ping","params":{}}`, v1118, true},
		{`{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}`, v1118, true},
		{`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, v1118, false},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, v1118, false},
		{`{"jsonrpc":"2.0","id":-1,"method":"ping"}`, v1118, true},
		{`{"jsonrpc":"2.0","id":"<&>","method":"ping"}`, v1118, true}, // encoded by jsonrpc.EncodeMessage, as the SDK does
		{`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":1}}}`, v1118, true},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":"t","other":1}}}`, v1118, false},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":1.5}}}`, v1118, false},
		{`{"jsonrpc":"2.0","id":24,"method":"tools/call","params":{"name":"get_framework","arguments":{"request":{"frameworkId":"kgc-sample-mathematics-grades-1-3"}},"_meta":{"progressToken":"p-24"}}}`, v1118, true},
		{`{"jsonrpc":"2.0","id":25,"method":"tools/call","params":{"name":"get_framework","arguments":{},"_meta":{"progressToken":{"x":1}}}}`, v1118, false},
		{`{"jsonrpc":"2.0","id":26,"method":"tools/call","params":{"name":"get_framework","arguments":{},"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t"}}}}`, v1118, false},
		{`{"id":1,"jsonrpc":"2.0","method":"ping"}`, v1118, true},
		{strings.Replace(get, "%s", "2", 1), v0618, true},
		{strings.Replace(get, "%s", `"g"`, 1), v1118, true},
		{strings.Replace(get, "%s", "3", 1), map[string]string{"Mcp-Protocol-Version": "2025-03-26"}, true},
		{strings.Replace(get, "%s", "4", 1), map[string]string{"Mcp-Protocol-Version": "2024-11-05"}, true},
		{strings.Replace(get, "%s", "5", 1), map[string]string{"Mcp-Protocol-Version": ""}, true},
		{strings.Replace(get, "%s", "5", 1), map[string]string{"Mcp-Protocol-Version": "2099-01-01"}, false},
		{strings.Replace(get, "%s", "6", 1), map[string]string{"Mcp-Protocol-Version": "2026-07-28"}, false},
		{strings.Replace(get, "%s", "7", 1), map[string]string{"Mcp-Protocol-Version": "2025-11-25", "Mcp-Session-Id": "abc"}, false},
		{strings.Replace(get, "%s", "8", 1), map[string]string{"Mcp-Protocol-Version": "2025-11-25", "Mcp-Method": "tools/call"}, false},
		{strings.Replace(get, "%s", "9", 1), map[string]string{"Mcp-Protocol-Version": "2025-11-25", "Host": "evil.example:80"}, false},
		{strings.Replace(get, "%s", "10", 1), map[string]string{"Mcp-Protocol-Version": "2025-11-25", "Host": "localhost"}, true},
		{strings.Replace(get, "%s", "11", 1), map[string]string{"Mcp-Protocol-Version": "2025-11-25", "Accept": "application/json"}, false},
		{strings.Replace(get, "%s", "12", 1), map[string]string{"Mcp-Protocol-Version": "2025-11-25", "Accept": "*/*"}, true},
		{strings.Replace(get, "%s", "13", 1), map[string]string{"Mcp-Protocol-Version": "2025-11-25", "Content-Type": "text/plain"}, false},
		{strings.Replace(get, "%s", "14", 1), map[string]string{"Mcp-Protocol-Version": "2025-11-25", "Content-Type": "application/json; charset=utf-8"}, true},
		{`[` + strings.Replace(get, "%s", "15", 1) + `]`, v1118, false},
		{`{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`, v1118, false},
		{`{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"get_framework"}}`, v1118, true},
		{`{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"get_framework","arguments":{"request":{"frameworkId":"nope"}}}}`, v1118, true},
		{`{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":"search_standards","arguments":{"request":{"mode":"text","query":"count","limit":1.0}}}}`, v1118, true},
		{`{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"search_standards","arguments":{ "request" : {"mode":"text","query":"co\u0075nt <b>","limit":2} }}}`, v1118, true},
		{`{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"get_framework","arguments":[]}}`, v1118, false},
		{`{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"get_framework","arguments":{},"_meta":{}}}`, v1118, false},
		{`{"jsonrpc":"2.0","id":23,"method":"tools/list"}`, v1118, false},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, v1118, false},
	}
	built := len(probes)
	for _, r := range requests {
		// direct here only says which answers to hold to the transcript.
		probes = append(probes, probe{body: r, header: v1118, direct: strings.Contains(r, `"method":"tools/call"`) || strings.Contains(r, `"method":"ping"`)})
	}
	directs := 0
	for i, p := range probes {
		a, b := postWith(t, kgmcp, p.body, p.header), postWith(t, sdk, p.body, p.header)
		if a != b {
			t.Errorf("%.120s: kgmcp answers\n%+.600v\nthe SDK alone\n%+.600v", p.body, a, b)
		}
		req := httptest.NewRequest("POST", "http://127.0.0.1/mcp", strings.NewReader(p.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range p.header {
			if v == "" {
				req.Header.Del(k)
			} else {
				req.Header.Set(k, v)
			}
		}
		if h, ok := p.header["Host"]; ok {
			req.Host = h
		}
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}))
		if _, ok := direct(srv, req, []byte(p.body)); i < built && ok != p.direct {
			t.Errorf("%.120s: answered directly %v, want %v", p.body, ok, p.direct)
		} else if ok {
			directs++
		}
		if i >= built && p.direct && a.status == http.StatusOK {
			if a.body != responses[i-built] {
				t.Errorf("%.120s: the HTTP answer differs from the transcript's\n got: %.300s\nwant: %.300s", p.body, a.body, responses[i-built])
			}
		}
	}
	t.Logf("%d of %d requests answered directly", directs, len(probes))
	if directs < len(requests)/2 {
		t.Errorf("only %d of %d requests answered directly", directs, len(probes))
	}
}
