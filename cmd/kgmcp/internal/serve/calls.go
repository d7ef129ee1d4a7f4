package serve

import (
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

// callTable is the calls of a stdio session read and not yet answered. Its
// size is bounded by the session's in-flight limit (and, for batched, by the
// batches passed on and not yet read: at most MaxBatch calls each).
type callTable struct {
	mu       sync.Mutex
	batched  map[jsonrpc.ID]int // calls passed on in a batch and not yet read
	inFlight map[jsonrpc.ID]callState
}

func newCallTable() *callTable {
	return &callTable{batched: make(map[jsonrpc.ID]int), inFlight: make(map[jsonrpc.ID]callState)}
}

// addBatch records the ids of the calls of a batch about to be passed on.
func (t *callTable) addBatch(ids []jsonrpc.ID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, id := range ids {
		t.batched[id]++
	}
}

// start records a call read. A second call with the id of one in flight
// changes nothing (the SDK refuses it, with no id).
func (t *callTable) start(id jsonrpc.ID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	state := callPlain
	if n := t.batched[id]; n > 0 {
		state = callBatched
		if n == 1 {
			delete(t.batched, id)
		} else {
			t.batched[id] = n - 1
		}
	}
	if _, ok := t.inFlight[id]; !ok {
		t.inFlight[id] = state
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
	return ok && state == callCancelled
}

// size is the number of calls in flight and batched calls not yet read (for
// tests).
func (t *callTable) size() (inFlight, batched int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.inFlight), len(t.batched)
}

// splitBatch splits a batch frame (that passed checkFrame) into the batch the
// SDK is handed, without its notifications (nil when only notifications
// remain), and the notifications, passed on after it as single messages: the
// SDK's stdio transport counts a notification in a batch as a call awaiting
// an answer, so such a batch was never answered and the next one ended the
// session. ids are the batch's calls.
func splitBatch(frame []byte) (batch []byte, notes []json.RawMessage, ids []jsonrpc.ID) {
	var raws []json.RawMessage
	if json.Unmarshal(frame, &raws) != nil {
		return frame, nil, nil
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
				ids = append(ids, id)
			}
			kept = append(kept, raw)
		}
	}
	if len(kept) > 0 {
		batch, _ = json.Marshal(kept)
	}
	return batch, notes, ids
}
