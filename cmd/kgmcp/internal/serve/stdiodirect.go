package serve

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// Over stdio, as over HTTP (direct.go), kgmcp answers the plainest requests
// itself: the SDK decodes a line three times, dispatches it through its
// session and encodes the answer, which for get_standard was a third of the
// call (bench/README.md, "stdio direct answers"). Once the session is
// initialized — the SDK has answered this client's initialize with a
// protocol version of directVersions and the client has sent
// notifications/initialized — a line that is one ping, or one call of a
// known tool with nothing but its name and arguments (and a progress
// token, which hosts send with every call), is answered through
// mcpserver.Direct (the same middleware, slots and tool handler) and written
// by the connection's Write, as the SDK's answers are: the same bytes
// (the golden transcripts replay unchanged), the same in-flight bound, the
// same id table and cancellation (a cancelled call's context ends and its
// answer is dropped). Anything else, and everything before initialization,
// goes to the SDK.

// stdioDirect is what a stdio connection knows to answer calls itself.
type stdioDirect struct {
	srv *mcpserver.Server // nil: every line goes to the SDK

	mu       sync.Mutex
	initID   *jsonrpc.ID  // the initialize call, until the SDK answers it
	version  string       // the protocol version the SDK agreed
	on       atomic.Bool  // version in directVersions, and notifications/initialized seen after its answer
	answered atomic.Int64 // calls answered directly
}

// sawCall notes a single call passed on to the SDK.
func (d *stdioDirect) sawCall(method string, id jsonrpc.ID) {
	if d.srv == nil || method != "initialize" {
		return
	}
	d.mu.Lock()
	d.initID = &id
	d.mu.Unlock()
}

// sawNotification notes a single notification passed on to the SDK.
func (d *stdioDirect) sawNotification(method string) {
	if d.srv == nil || method != "notifications/initialized" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.version != "" {
		_, known := directVersions[d.version]
		d.on.Store(known)
	}
}

// sawResponse notes a response of the SDK's: the answer to initialize names
// the protocol version.
func (d *stdioDirect) sawResponse(resp *jsonrpc.Response) {
	if d.srv == nil || d.on.Load() || !resp.ID.IsValid() {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.initID == nil || *d.initID != resp.ID {
		return
	}
	d.initID = nil
	if resp.Error != nil {
		return
	}
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(resp.Result, &r) == nil && r.ProtocolVersion != "" {
		d.version = r.ProtocolVersion
	}
}

// answer answers a single message itself when it may (one that passed
// checkFrame), and reports whether it did. The
// call's id is claimed in the table (a duplicate is refused on out) and
// holds an in-flight slot until its answer is written.
func (c *stdioConn) answer(m message, out io.Writer) bool {
	d := &c.direct
	if !d.on.Load() || c.stopped.Load() || !m.isCall() || (m.Method != "ping" && m.Method != "tools/call") {
		return false
	}
	req, ok := directBody(d.srv, m.raw, m.ID)
	if !ok {
		return false
	}
	req.links = directVersions[d.version]
	ctx, cancel := context.WithCancel(c.ctx)
	if !c.table.claimDirect(req.id, cancel) {
		cancel()
		out.Write(append(duplicateReply(m.ID), '\n'))
		return true
	}
	if err := c.calls.acquire(c.ctx); err != nil {
		c.table.release([]jsonrpc.ID{req.id})
		cancel()
		return false
	}
	d.answered.Add(1)
	c.work(func() {
		defer cancel()
		result, err := d.srv.Direct(ctx, req.method, req.name, req.args, req.links)
		c.Write(c.ctx, &jsonrpc.Response{ID: req.id, Result: result, Error: err})
	})
	return true
}

// work runs f on an idle direct worker, or on a new one. Workers wait for
// the next call until the connection closes: a goroutine's stack grows to
// what a call needs once, where a goroutine a call was copying its stack as
// it grew on every call (a tenth of a get_standard call). There are at most
// as many as calls were ever in flight at once (--max-in-flight).
func (c *stdioConn) work(f func()) {
	select {
	case c.jobs <- f:
	default:
		go func() {
			for {
				f()
				select {
				case f = <-c.jobs:
				case <-c.closed:
					return
				}
			}
		}()
	}
}
