package serve

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Cancellation over stdio. MCP: the receiver of notifications/cancelled
// SHOULD NOT answer the cancelled request. The SDK cancels the handler's
// context but still answers the call (with "context canceled", which went out
// as -32602, or with whatever the handler returned), so the stdio connection
// keeps a table of the calls it has read and not yet answered, marks a call
// cancelled when a cancellation names it while it is in flight, and drops its
// answer. A call that came in a JSON-RPC batch is the exception: the SDK
// writes a batch's answers once every call in it is answered, so dropping
// one would hold back the whole batch for ever; its cancellation is not
// passed on to the SDK (MCP lets a receiver ignore a cancellation of a
// request that cannot be cancelled) and the batch is answered whole.

// callState is what the table knows of a call in flight.
type callState uint8

const (
	callPlain     callState = iota // a single call
	callBatched                    // a call that came in a batch
	callCancelled                  // a single call cancelled by the client
)

// callTable is the calls of a stdio session passed on to the SDK and not yet
// answered, by id. pump claims an id before it passes a call on, so a second
// call with the id of one in flight is refused there (the SDK ended the
// session on a duplicate id in a batch, and silently dropped one reused
// across lines while the first ran, leaking its in-flight slot). Its size is
// bounded by the calls read ahead of their answers (--max-in-flight, plus
// one batch of at most maxBatch).
type callTable struct {
	mu       sync.Mutex
	inFlight map[jsonrpc.ID]callState
	cancels  map[jsonrpc.ID]context.CancelFunc // of the calls kgmcp answers itself (stdiodirect.go)
}

func newCallTable() *callTable {
	return &callTable{inFlight: make(map[jsonrpc.ID]callState), cancels: make(map[jsonrpc.ID]context.CancelFunc)}
}

// claimDirect is claim for a call kgmcp answers itself: a cancellation that
// names it ends its context with cancel.
func (t *callTable) claimDirect(id jsonrpc.ID, cancel context.CancelFunc) bool {
	if !t.claim(id, false) {
		return false
	}
	t.mu.Lock()
	t.cancels[id] = cancel
	t.mu.Unlock()
	return true
}

// claim records a call about to be passed on; false (nothing recorded) when
// a call with its id is in flight.
func (t *callTable) claim(id jsonrpc.ID, batched bool) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, busy := t.inFlight[id]; busy {
		return false
	}
	t.inFlight[id] = callPlain
	if batched {
		t.inFlight[id] = callBatched
	}
	return true
}

// release forgets claims of calls that were not passed on after all.
func (t *callTable) release(ids []jsonrpc.ID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, id := range ids {
		delete(t.inFlight, id)
		delete(t.cancels, id)
	}
}

// cancel handles a notifications/cancelled read: it marks the call it names
// cancelled if it is in flight, and reports whether the notification goes on
// to the SDK (false: it names a batched call, and is ignored). A cancellation
// of a call unknown or already answered goes on, and the SDK ignores it.
func (t *callTable) cancel(params json.RawMessage) (passOn bool) {
	id, ok := cancelledID(params)
	if !ok {
		return true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch state, ok := t.inFlight[id]; {
	case !ok:
		return true
	case state == callBatched:
		return false
	default:
		t.inFlight[id] = callCancelled
		if cancel := t.cancels[id]; cancel != nil {
			cancel()
		}
		return true
	}
}

// finish records a call answered, and reports whether its answer is dropped
// (the client cancelled it).
func (t *callTable) finish(id jsonrpc.ID) (drop bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	state, ok := t.inFlight[id]
	delete(t.inFlight, id)
	delete(t.cancels, id)
	return ok && state == callCancelled
}

// duplicateReply is the answer to a call whose id is already in use.
func duplicateReply(id json.RawMessage) []byte {
	return errorReply(id, jsonrpc.CodeInvalidRequest,
		"Invalid Request: id "+truncate(id, 40)+" is already in use by a call not yet answered; give each call in flight its own id")
}

// splitBatch splits a batch frame (that passed checkFrame) into the batch the
// SDK is handed, without its notifications (nil when nothing else remains),
// and the notifications, passed on after it as single messages: the SDK's
// stdio transport counts a notification in a batch as a call awaiting an
// answer, so such a batch was never answered and the next one ended the
// session. Each call's id is claimed in t; a call whose id is taken (by a
// call in flight or earlier in the batch) is left out and answered in
// refused. ids are the calls kept.
func splitBatch(frame []byte, t *callTable) (batch []byte, notes []json.RawMessage, ids []jsonrpc.ID, refused [][]byte) {
	var raws []json.RawMessage
	if json.Unmarshal(frame, &raws) != nil {
		return frame, nil, nil, nil
	}
	var kept []json.RawMessage
	for _, raw := range raws {
		m, err := parseMessage(raw)
		switch {
		case err != nil:
			kept = append(kept, raw)
		case m.Method != "" && !m.isCall():
			notes = append(notes, raw)
		default:
			if id, ok := wireID(m.ID); ok && m.isCall() {
				if !t.claim(id, true) {
					refused = append(refused, duplicateReply(m.ID))
					continue
				}
				ids = append(ids, id)
			}
			kept = append(kept, raw)
		}
	}
	if len(kept) > 0 {
		batch, _ = json.Marshal(kept)
	}
	return batch, notes, ids, refused
}
