package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A sustained slow-body flood (issue 20, item 6): twice as many connections
// as the limit trickle their bodies and reopen whenever cut. Legitimate
// calls, each with a deadline well below the read timeout, are all answered:
// a connection still reading its request is closed to admit a new one, and a
// body slower than the minimum rate is cut after its grace. Before, the
// flood held every slot until the read timeout and calls waited or failed.
func TestSlowBodyFloodDoesNotStarveCallers(t *testing.T) {
	lim := defaultHTTPLimits()
	lim.MaxConnections, lim.Read, lim.BodyGrace = 8, duration(20*time.Second), duration(300*time.Millisecond)
	base := testServer(t, lim)
	addr := strings.TrimPrefix(base, "http://")
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var cut atomic.Int64
	for range 2 * lim.MaxConnections {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				c, err := net.Dial("tcp", addr)
				if err != nil {
					time.Sleep(10 * time.Millisecond)
					continue
				}
				fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{", addr)
				for ctx.Err() == nil {
					if _, err := c.Write([]byte(" ")); err != nil {
						cut.Add(1)
						break
					}
					time.Sleep(50 * time.Millisecond)
				}
				c.Close()
			}
		}()
	}
	defer func() { stop(); wg.Wait() }()
	time.Sleep(500 * time.Millisecond) // the flood holds every slot
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_capabilities","arguments":{}}}`
	for i := range 5 {
		r, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(call))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
		resp, err := client.Do(r)
		if err != nil {
			t.Fatalf("call %d behind the flood: %v", i+1, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), "serverName") {
			t.Fatalf("call %d behind the flood: %d %.200s", i+1, resp.StatusCode, b)
		}
	}
	if cut.Load() == 0 {
		t.Error("no trickling connection was cut: the flood was not exercised")
	}
}
