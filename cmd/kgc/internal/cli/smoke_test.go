package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
)

// hostileServer answers MCP over HTTP as a server may that means harm:
// initialize with answer (an SSE stream or JSON whose body is huge when
// huge says so), and lists whose names hold terminal escapes.
func hostileServer(t *testing.T, huge string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&m) != nil {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		reply := func(result string) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":`+result+`}`)
		}
		// endless writes 512 MiB of x (generated, never held) after prefix.
		endless := func(prefix string) {
			io.WriteString(w, prefix)
			chunk := []byte(strings.Repeat("x", 1<<20))
			for range 512 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}
		switch {
		case m.Method == "initialize" && huge == "json":
			w.Header().Set("Content-Type", "application/json")
			endless(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"`)
		case m.Method == "initialize" && huge == "sse":
			w.Header().Set("Content-Type", "text/event-stream")
			endless("event: message\ndata: ")
		case m.Method == "initialize":
			reply(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"prompts":{},"resources":{}},"serverInfo":{"name":"evil","version":"1"}}`)
		case m.Method == "tools/list" && huge == "tools":
			w.Header().Set("Content-Type", "application/json")
			endless(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"tools":[{"name":"`)
		case m.Method == "tools/list":
			reply(`{"tools":[]}`)
		case m.Method == "prompts/list":
			reply(`{"prompts":[{"name":"evil\u001b[2J\u001b]0;pwned\u0007"}]}`)
		case m.Method == "resources/list":
			reply(`{"resources":[{"uri":"kgfegmcp://catalog\u009b31m","name":"c"}]}`)
		case m.Method == "resources/templates/list":
			reply(`{"resourceTemplates":[]}`)
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"error":{"code":-32601,"message":"no"}}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestSmokeBoundsWhatAHostileServerSends: a 512 MiB initialize result, SSE
// line or tools list ran smoke out of memory (1.6–2.4 GB within seconds);
// smoke reads at most 64 MiB of an answer, then fails.
func TestSmokeBoundsWhatAHostileServerSends(t *testing.T) {
	imgtest.Heavy(t) // 3 x 64 MiB over loopback
	for _, huge := range []string{"json", "sse", "tools"} {
		t.Run(huge, func(t *testing.T) {
			srv := hostileServer(t, huge)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			code, _, stderr := run(t, "smoke", "--timeout", "60s", "--url", srv.URL)
			runtime.ReadMemStats(&after)
			// The SDK bounds an SSE event itself (16 MiB): it ends the call.
			if code != exitFindings || (huge != "sse" && !strings.Contains(stderr, "64 MiB")) {
				t.Errorf("exit %d, %q", code, stderr)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 600<<20 {
				t.Errorf("smoke allocated %d MB", alloc>>20)
			}
		})
	}
}

// TestSmokeEscapesAServersNames: the prompt names and URIs a server lists
// reach smoke's failures with their terminal escapes escaped.
func TestSmokeEscapesAServersNames(t *testing.T) {
	srv := hostileServer(t, "")
	code, stdout, stderr := run(t, "smoke", "--timeout", "60s", "--url", srv.URL)
	if code != exitFindings || !strings.Contains(stderr, `evil\x1b[2J\x1b]0;pwned\x07`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if strings.ContainsAny(stdout+stderr, "\x1b\x07\u009b") {
		t.Errorf("raw controls written:\n%q\n%q", stdout, stderr)
	}
}
