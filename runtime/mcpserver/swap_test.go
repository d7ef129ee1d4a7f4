package mcpserver_test

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

func mapped(t *testing.T, dir string) bool {
	t.Helper()
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skip("SKIP: no /proc/self/maps to check mappings with")
	}
	return strings.Contains(string(b), dir)
}

func text(res *mcp.CallToolResult, err error) string {
	if err != nil {
		return "protocol error: " + err.Error()
	}
	s := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		return "tool error: " + s
	}
	return s
}

// Swapping the image set under 32 concurrent clients: no call fails, every
// answer is exactly the old set's or the new set's, the old images are
// unmapped once the calls on them return, a cursor of the old catalog is
// refused, and a refused new set leaves the old one serving.
func TestSwapUnderLoad(t *testing.T) {
	t.Parallel()
	oldDir := imgtest.Images(t, nil, nil)
	extra := pkggen.Shipped()[0]
	extra.FrameworkID = "kgc-swap-extra"
	newDir := imgtest.Images(t, []pkggen.Spec{extra}, nil)
	open := func(dir string) *catalog.Catalog {
		paths, _ := catalog.Paths([]string{dir})
		cat, err := catalog.Open(paths, catalog.PolicyFail, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cat
	}
	srv := mcpserver.New(open(oldDir), mcpserver.Options{MaxConcurrentCalls: 64})
	cs := connect(t, srv)
	ctx := context.Background()
	// A fresh params value per call: the SDK writes into it.
	get := func() string {
		return text(cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_frameworks", Arguments: req(map[string]any{})}))
	}
	oldAnswer := get()
	first, _ := call(t, cs, "list_frameworks", req(map[string]any{"limit": 1}))
	oldCursor, _ := first["nextCursor"].(string)
	if oldCursor == "" {
		t.Fatal("no cursor on the first page")
	}

	var stop atomic.Bool
	var calls atomic.Int64
	var wg sync.WaitGroup
	answers := make([]map[string]int, 32)
	for i := range answers {
		answers[i] = map[string]int{}
		wg.Add(1)
		go func(m map[string]int) {
			defer wg.Done()
			for !stop.Load() {
				m[get()]++
				calls.Add(1)
			}
		}(answers[i])
	}
	for calls.Load() < 200 { // the clients are running
		runtime.Gosched()
	}
	retired, err := srv.Swap(ctx, catalog.Loaded(open(newDir)))
	if err != nil {
		t.Fatal(err)
	}
	newAnswer := get()
	before := calls.Load()
	<-retired
	for calls.Load() < before+200 { // and go on with the new set
		runtime.Gosched()
	}
	if mapped(t, oldDir) {
		t.Error("the old images are still mapped after the calls on them returned")
	}
	stop.Store(true)
	wg.Wait()
	if newAnswer == oldAnswer || !strings.Contains(newAnswer, "kgc-swap-extra") {
		t.Fatalf("the new set is not served: %.200s", newAnswer)
	}
	for _, m := range answers {
		for a, n := range m {
			if a != oldAnswer && a != newAnswer {
				t.Fatalf("%d answers are neither the old nor the new set's: %.300s", n, a)
			}
		}
	}
	if got := errorText(t, cs, "list_frameworks", req(map[string]any{"limit": 1, "cursor": oldCursor})); !strings.HasPrefix(got, "invalid_cursor") {
		t.Errorf("a cursor of the replaced catalog: %s", got)
	}

	l, settle := catalog.NewLoading()
	settle(nil, errors.New("checksum mismatch"))
	if _, err := srv.Swap(ctx, l); !errors.Is(err, mcpserver.ErrSwapRefused) {
		t.Errorf("a refused set: %v", err)
	}
	if got := get(); got != newAnswer {
		t.Errorf("after a refused swap the answer changed: %.200s", got)
	}
	<-srv.Close()
	if mapped(t, newDir) {
		t.Error("Close left the images mapped")
	}
}
