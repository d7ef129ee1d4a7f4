package serve

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// stdioTransport is MCP over newline-delimited JSON on a reader and a writer,
// built on the SDK's IO transport with what that lacks:
//
//   - every line is checked first (checkFrame): a line that is not JSON-RPC is
//     answered -32700/-32600 and the session goes on (the SDK would end it);
//   - at most maxInFlight calls are read and not yet answered: past that the
//     transport stops reading, so a client that floods the pipe is held back
//     by the pipe instead of growing the server's memory;
//   - when the input ends or stop is closed, reading stops and the calls
//     already read are answered (for at most drainTimeout) before the session
//     ends;
//   - an SDK error without a JSON-RPC code (code 0, e.g. a call before
//     initialize) is sent with a proper code;
//   - a call cancelled by notifications/cancelled while in flight is not
//     answered, and a batch's notifications are passed on after it, one by
//     one (calls.go);
//   - a logging/setLevel whose level is not a string is answered -32602
//     naming the levels (checkParams).
type stdioTransport struct {
	in           io.Reader
	out          io.Writer
	maxInFlight  int
	stop         <-chan struct{}
	drainTimeout time.Duration
	log          *slog.Logger
	// srv, when set, answers the plainest calls of an initialized session
	// itself (stdiodirect.go).
	srv *mcpserver.Server
	// conn is the connection once Connect made it (its counters, for tests).
	conn *stdioConn
}

// Connect implements mcp.Transport.
func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	pr, pw := io.Pipe()
	out := &lockedWriter{w: t.out}
	inner, err := (&mcp.IOTransport{Reader: pr, Writer: out, MaxLineLength: maxRequestBytes + 1}).Connect(ctx)
	if err != nil {
		return nil, err
	}
	c := &stdioConn{inner: inner, out: out, calls: newCounter(t.maxInFlight), table: newCallTable(),
		drainTimeout: t.drainTimeout, log: t.log, ctx: context.WithoutCancel(ctx), direct: stdioDirect{srv: t.srv},
		jobs: make(chan func()), closed: make(chan struct{})}
	t.conn = c
	go pump(t.in, pw, out, c, t.log)
	if t.stop != nil {
		go func() {
			<-t.stop
			c.stopped.Store(true)
			pw.CloseWithError(io.EOF)
		}()
	}
	return c, nil
}

// pump copies the lines of in that pass checkFrame and checkParams to w and
// answers the others on out. A batch is passed on without its notifications,
// which follow it one by one (splitBatch); pump records the batch's calls in
// c's table, and sets c.batches once it passes on a batch. It closes w when
// in ends.
func pump(in io.Reader, w *io.PipeWriter, out io.Writer, c *stdioConn, log *slog.Logger) {
	br := bufio.NewReaderSize(in, 64<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case len(line)+len(chunk) > maxRequestBytes:
			// Discard the rest of an over-long line without buffering it.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			log.Warn("stdio: refused an over-long line", "limit", maxRequestBytes)
			out.Write(append(errorReply(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: a line over 1 MiB; no request is that long"), '\n'))
			line = line[:0]
		case errors.Is(err, bufio.ErrBufferFull):
			line = append(line, chunk...)
			continue
		default:
			frame := chunk
			if len(line) > 0 {
				line = append(line, chunk...)
				frame = line
			}
			if ok, reply := checkFrame(frame); ok {
				// A single message is read once, for all that follows.
				var m message
				var merr error = errBatch
				if !isBatch(frame) {
					m, merr = parseMessage(bytes.TrimSpace(frame))
				}
				if !deliver(w, out, frame, m, merr, c) {
					return
				}
			} else if reply != nil {
				log.Warn("stdio: refused a message", "reply", string(reply))
				out.Write(append(reply, '\n'))
			}
			line = line[:0]
		}
		if err != nil {
			w.Close()
			return
		}
	}
}

// deliver answers a checked frame itself (stdiodirect.go), refuses it
// (checkParams), or passes it on to the SDK; false when the SDK's side of
// the pipe is closed.
func deliver(w io.Writer, out io.Writer, frame []byte, m message, merr error, c *stdioConn) bool {
	if merr == nil {
		if c.answer(m, out) {
			return true
		}
		if refusal := checkParams(m); refusal != nil {
			out.Write(append(refusal, '\n'))
			return true
		}
	}
	return passOn(w, out, frame, m, merr, c)
}

// errBatch stands for the message of a frame that is a batch.
var errBatch = errors.New("a batch")

// passOn writes a frame to the SDK's side of the pipe, a batch as splitBatch
// splits it, after claiming its calls' ids in c's table; a call whose id is
// in use is answered on out instead. m is the frame's message, or merr why
// there is none (errBatch: it is a batch). false when the pipe is closed.
func passOn(w io.Writer, out io.Writer, frame []byte, m message, merr error, c *stdioConn) bool {
	lines := [][]byte{frame}
	var claimed []jsonrpc.ID
	if merr == errBatch {
		batch, notes, ids, refused := splitBatch(frame, c.table)
		for _, r := range refused {
			out.Write(append(r, '\n'))
		}
		lines = lines[:0]
		if batch != nil {
			c.batches.Store(true)
			lines = append(lines, batch)
			claimed = ids
		}
		for _, n := range notes {
			lines = append(lines, n)
		}
	} else if merr == nil && m.isCall() {
		if id, ok := wireID(m.ID); ok {
			if !c.table.claim(id, false) {
				out.Write(append(duplicateReply(m.ID), '\n'))
				return true
			}
			claimed = []jsonrpc.ID{id}
			c.direct.sawCall(m.Method, id)
		}
	} else if merr == nil && m.Method != "" {
		c.direct.sawNotification(m.Method)
	}
	for i, l := range lines {
		if _, err := w.Write(l); err != nil {
			if i == 0 {
				c.table.release(claimed)
			}
			return false
		}
		if l[len(l)-1] != '\n' {
			if _, err := w.Write([]byte{'\n'}); err != nil {
				return false
			}
		}
	}
	return true
}

// stdioConn counts the calls read and not yet answered, keeps them in a
// table for cancellation (calls.go), and writes successful responses itself
// (responseLine) until the client sends a batch.
type stdioConn struct {
	inner        mcp.Connection
	out          io.Writer // the writer inner writes to, whole lines at a time
	batches      atomic.Bool
	calls        *counter
	table        *callTable
	answerMu     sync.Mutex // held while a response is checked and written
	drainTimeout time.Duration
	log          *slog.Logger
	ctx          context.Context // the session's, never cancelled: the calls answered directly run on it
	stopped      atomic.Bool     // reading was stopped (stop): no call is answered directly any more
	direct       stdioDirect
	jobs         chan func()   // to an idle direct worker (stdiodirect.go)
	closed       chan struct{} // closed by Close
	closeOnce    sync.Once
}

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.inner.Read(ctx)
		if err != nil {
			c.stopped.Store(true)
			// Answer what was read before letting the SDK end the session: it
			// drops the responses of calls still running once reading stops.
			drain, cancel := context.WithTimeout(ctx, c.drainTimeout)
			c.calls.waitZero(drain)
			cancel()
			return nil, err
		}
		req, ok := msg.(*jsonrpc.Request)
		switch {
		case !ok:
		case req.IsCall():
			if err := c.calls.acquire(ctx); err != nil {
				return nil, err
			}
		case req.Method == "notifications/cancelled":
			if !c.table.cancel(req.Params) {
				c.log.Debug("stdio: a cancellation of a batched call ignored (the batch is answered whole)")
				continue
			}
		}
		return msg, nil
	}
}

// Write writes a message of the SDK's. A response is written under
// answerMu, and dropped if its call was cancelled: the check is made once the
// answers ahead of it are written, so a cancellation that arrives while the
// answer waits for the output (a client slow to read) is still honoured.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, isResp := msg.(*jsonrpc.Response)
	if !isResp {
		return c.inner.Write(ctx, msg)
	}
	defer c.calls.release()
	c.direct.sawResponse(resp)
	var line []byte
	if resp.Error != nil && wireCode(resp.Error) == 0 {
		fixed := *resp
		fixed.Error = &jsonrpc.Error{Code: codeFor(resp.Error.Error()), Message: resp.Error.Error()}
		msg = &fixed
	} else if !c.batches.Load() {
		line, _ = responseLine(resp)
	}
	c.answerMu.Lock()
	defer c.answerMu.Unlock()
	if c.table.finish(resp.ID) {
		c.log.Debug("stdio: call cancelled by the client; not answered", "id", resp.ID.Raw())
		return nil
	}
	if line == nil {
		return c.inner.Write(ctx, msg)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err := c.out.Write(line)
	return err
}

// wireCode is the JSON-RPC code err would be sent with (0 when it has none).
func wireCode(err error) int64 {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we.Code
	}
	return 0
}

// codeFor gives an SDK error sent without a code its JSON-RPC code.
func codeFor(message string) int64 {
	if strings.Contains(message, "invalid during session initialization") {
		return jsonrpc.CodeInvalidRequest
	}
	return jsonrpc.CodeInvalidParams
}

// Close closes the connection and lets its idle direct workers go.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.inner.Close()
}

func (c *stdioConn) SessionID() string { return "" }

// lockedWriter serialises whole-message writes from the SDK and the pump.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// counter is a counting semaphore that can also wait for zero.
type counter struct {
	mu      sync.Mutex
	n, max  int
	changed chan struct{} // closed and replaced on every release
}

func newCounter(max int) *counter { return &counter{max: max, changed: make(chan struct{})} }

func (c *counter) acquire(ctx context.Context) error {
	for {
		c.mu.Lock()
		if c.n < c.max {
			c.n++
			c.mu.Unlock()
			return nil
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (c *counter) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n > 0 {
		c.n--
	}
	close(c.changed)
	c.changed = make(chan struct{})
}

func (c *counter) waitZero(ctx context.Context) {
	for {
		c.mu.Lock()
		n, ch := c.n, c.changed
		c.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
	}
}
