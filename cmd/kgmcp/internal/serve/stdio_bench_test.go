package serve

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// BenchmarkStdioCall is the whole server over its stdio transport, driven by
// a client that does not decode (a raw JSON-RPC line written, the answer line
// read): time and allocations per call are the server's, SDK included.
//
//	go test ./cmd/kgmcp/internal/serve -run '^$' -bench StdioCall -benchmem
func BenchmarkStdioCall(b *testing.B) {
	dir := imgtest.Images(b, nil, nil)
	spec := pkggen.Shipped()[1]
	calls := map[string]string{
		"ping": `{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		"get_standard": `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_standard","arguments":{"request":{"frameworkId":"` +
			spec.FrameworkID + `","identifier":{"identifierType":"node_id","nodeId":"` + pkggen.NodeID(spec, 0, 0, 0, 0) + `"}}}}}`,
		"search_standards": `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_standards","arguments":{"request":{"frameworkIds":["` +
			spec.FrameworkID + `"],"mode":"text","query":"appropriate","match":{"matchMode":"tokens","operator":"any"},"limit":25}}}}`,
	}
	for _, name := range []string{"ping", "get_standard", "search_standards"} {
		b.Run(name, func(b *testing.B) {
			cat := imgtest.Catalog(b, dir) // serve closes it when the session ends
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			cfg := config{MaxConcurrentCalls: 8, MaxInFlight: 8, HTTP: defaultHTTPLimits(), GCPercent: DefaultGCPercent}
			done := make(chan int)
			go func() {
				done <- serve(context.Background(), cfg, catalog.Loaded(cat), inR, outW, io.Discard, slog.New(slog.DiscardHandler))
			}()
			defer func() { inW.Close(); <-done; outR.Close() }()
			out := bufio.NewReaderSize(outR, 1<<20)
			roundTrip := func(line string) string {
				if _, err := io.WriteString(inW, line+"\n"); err != nil {
					b.Fatal(err)
				}
				resp, err := out.ReadString('\n')
				if err != nil {
					b.Fatal(err)
				}
				return resp
			}
			roundTrip(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`)
			io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
			if resp := roundTrip(calls[name]); !strings.Contains(resp, `"id":2,"result"`) || strings.Contains(resp, `"isError":true`) ||
				name == "search_standards" && !strings.Contains(resp, `"returnedCount":25`) {
				b.Fatalf("not the answer the row names (a success; 25 hits for the search): %.300s", resp)
			}
			time.Sleep(10 * time.Millisecond)
			b.ReportAllocs()
			b.ResetTimer()
			var n int
			for b.Loop() {
				n = len(roundTrip(calls[name]))
			}
			b.ReportMetric(float64(n), "bytes/answer")
		})
	}
}
