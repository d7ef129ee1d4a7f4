package serve

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// BenchmarkHTTPPing serves ping through kgmcp's HTTP handler and through the
// SDK's bare stateless handler of an empty server, in process (no sockets):
// what kgmcp's own HTTP layers cost per request.
//
//	go test ./cmd/kgmcp/internal/serve -run '^$' -bench HTTPPing
func BenchmarkHTTPPing(b *testing.B) {
	srv := mcpserver.New(imgtest.Catalog(b, imgtest.Images(b, nil, nil)), mcpserver.Options{})
	kg, err := newHandler(srv, nil, defaultHTTPLimits().ResponseBudget, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	empty := mcp.NewServer(&mcp.Implementation{Name: "empty", Version: "1"}, nil)
	bare := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return empty }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	for _, h := range []struct {
		name string
		h    http.Handler
	}{{"kgmcp", kg}, {"empty-go-sdk", bare}} {
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					r := httptest.NewRequest("POST", "http://127.0.0.1/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
					r.Header.Set("Content-Type", "application/json")
					r.Header.Set("Accept", "application/json, text/event-stream")
					w := httptest.NewRecorder()
					h.h.ServeHTTP(w, r)
					if w.Code != 200 {
						b.Fatalf("%d %s", w.Code, w.Body)
					}
				}
			})
		})
	}
}

// BenchmarkHTTPPingSockets serves ping over real loopback connections (8
// keep-alive clients): the SDK's bare handler on a plain http.Server, kgmcp's
// handler on a plain http.Server, and kgmcp's handler behind its connection
// limiter and timeouts, as serveHTTP runs it.
func BenchmarkHTTPPingSockets(b *testing.B) {
	srv := mcpserver.New(imgtest.Catalog(b, imgtest.Images(b, nil, nil)), mcpserver.Options{})
	lim := defaultHTTPLimits()
	kg, err := newHandler(srv, nil, lim.ResponseBudget, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	empty := mcp.NewServer(&mcp.Implementation{Name: "empty", Version: "1"}, nil)
	bare := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return empty }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	serve := func(b *testing.B, h http.Handler, limited bool) string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		hs := &http.Server{Handler: h}
		var l net.Listener = ln
		if limited {
			cl := newConnLimiter(ln, lim.MaxConnections)
			hs = &http.Server{Handler: h, ReadHeaderTimeout: time.Duration(lim.ReadHeader), ReadTimeout: time.Duration(lim.Read),
				WriteTimeout: time.Duration(lim.Write), IdleTimeout: time.Duration(lim.Idle), MaxHeaderBytes: 64 << 10, ConnState: cl.connState}
			l = cl
		}
		go hs.Serve(l)
		b.Cleanup(func() { hs.Close() })
		return "http://" + ln.Addr().String() + "/mcp"
	}
	for _, c := range []struct {
		name    string
		h       http.Handler
		limited bool
	}{{"empty-go-sdk", bare, false}, {"kgmcp-handler", kg, false}, {"kgmcp-limited", kg, true}} {
		b.Run(c.name, func(b *testing.B) {
			url := serve(b, c.h, c.limited)
			tr := &http.Transport{MaxIdleConnsPerHost: 8, MaxConnsPerHost: 8}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			b.SetParallelism(4)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					r, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
					r.Header.Set("Content-Type", "application/json")
					r.Header.Set("Accept", "application/json, text/event-stream")
					resp, err := client.Do(r)
					if err != nil {
						b.Fatal(err)
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			})
		})
	}
}
