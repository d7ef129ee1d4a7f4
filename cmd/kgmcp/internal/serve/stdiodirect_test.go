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
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// stdioSession runs one stdio session of srv with the direct answers on or
// off, sends each line and reads its answer (a line without an id gets
// none), and returns the answers and how many calls were answered directly.
func stdioSession(t *testing.T, srv *mcpserver.Server, direct bool, lines []string) (answers []string, directs int64) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr := &stdioTransport{in: inR, out: outW, maxInFlight: 8, drainTimeout: 5 * time.Second, log: slog.New(slog.DiscardHandler)}
	if direct {
		tr.srv = srv
	}
	done := make(chan error, 1)
	go func() { done <- srv.MCP().Run(context.Background(), tr); outW.Close() }()
	out := bufio.NewReaderSize(outR, 1<<20)
	for _, l := range lines {
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(l, `"id"`) {
			continue
		}
		a, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("%.100s: %v", l, err)
		}
		answers = append(answers, a)
	}
	inW.Close()
	<-done
	return answers, tr.conn.direct.answered.Load()
}

// The answers kgmcp gives itself over stdio are the SDK's, byte for byte:
// every request of the golden transcripts, and lines on each side of what
// is answered directly, through a session with the direct answers and one
// without; and before the session is initialized nothing is answered
// directly.
func TestStdioDirectAnswersAreTheSDKs(t *testing.T) {
	t.Parallel()
	paths, _ := catalog.Paths([]string{imgtest.Images(t, nil, nil)})
	cat, err := catalog.Open(paths, catalog.PolicyFail, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	srv := mcpserver.New(cat, mcpserver.Options{})
	const get = `{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"get_framework","arguments":{"request":{"frameworkId":"kgc-sample-mathematics-grades-1-3"}}}}`
	call := func(id string) string { return strings.Replace(get, "%s", id, 1) }
	for _, version := range []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"} {
		lines := []string{
			call("0"), // before initialize: the SDK's refusal
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
			call("2"), // before notifications/initialized
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			call("3"), call(`"s"`), call(`"<&>"`),
			`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":5,"method":"ping","params":{"_meta":{"progressToken":1}}}`,
			`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_framework"}}`,
			`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"get_framework","arguments":{"request":{"frameworkId":"nope"}}}}`,
			`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"get_framework","arguments":[]}}`,
			`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"get_framework","arguments":{},"_meta":{"progressToken":"p"}}}`,
			`{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"get_framework","arguments":{},"_meta":{"progressToken":"p","x":1}}}`,
			`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"search_standards","arguments":{ "request" : {"mode":"text","query":"co\u0075nt <b>","limit":2} }}}`,
			`{"jsonrpc":"2.0","id":12,"method":"tools/list"}`,
		}
		if version == "2025-11-25" {
			requests, _ := transcriptRequests(t)
			lines = append(lines, requests...)
		}
		direct, directs := stdioSession(t, srv, true, lines)
		sdk, none := stdioSession(t, srv, false, lines)
		if none != 0 || len(direct) != len(sdk) {
			t.Fatalf("%s: %d answers directly, %d without (%d answered directly there)", version, len(direct), len(sdk), none)
		}
		for i := range direct {
			if direct[i] != sdk[i] {
				t.Errorf("%s: answer %d: kgmcp\n%.400s\nthe SDK\n%.400s", version, i, direct[i], sdk[i])
			}
		}
		// ids 3, "s", "<&>", 4, 5, 7, 8, 10 and 11 are plain: three
		// get_framework calls, two pings (one with a progress token),
		// get_framework without arguments, with an unknown framework and with
		// a progress token, a search; 0 and 2 (before initialization),
		// no_such_tool, the array arguments, the _meta with more than a
		// progress token and tools/list are the SDK's.
		if want := int64(9); version != "2025-11-25" && directs != want {
			t.Errorf("%s: %d calls answered directly, want %d", version, directs, want)
		}
		t.Logf("%s: %d of %d lines answered directly", version, directs, len(lines))
	}
}
