package serve

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The HTTP side of screening (screen.go). A POST is one message or, before
// protocol 2025-06-18, a batch. A single message kgmcp answers itself is
// answered without the SDK. From a batch, kgmcp takes out the calls it
// answers, a call repeating the id of an earlier call of the batch (answered
// -32600), the notifications the server does not know, and the
// notifications/cancelled naming a call of the same batch (a batched call
// cannot be cancelled: the batch is answered whole, and MCP lets a receiver
// ignore a cancellation it cannot honour; the SDK answered the call with
// code 0 "context canceled"), hands the rest to the SDK and adds its own
// answers to the SDK's.

// Protocol versions whose rules differ (the MCP-Protocol-Version header;
// none means 2025-03-26).
const (
	versionNoBatches = "2025-06-18" // JSON-RPC batches are refused from here on
	versionSEP2575   = "2026-07-28" // protocol errors carry an HTTP status (SEP-2575)
)

// screened is what becomes of one HTTP body.
type screened struct {
	forward []byte   // the body handed to the SDK; nil: none
	answers [][]byte // the responses kgmcp gives itself
	batch   bool
	status  int // the HTTP status of a single message's own answer
}

// screenHTTP screens a body that passed checkFrame; changed is false when the
// body goes to the SDK as it is.
func screenHTTP(body []byte, version string) (s screened, changed bool) {
	body = bytes.TrimSpace(body)
	if !isBatch(body) {
		m, err := parseMessage(body)
		if err != nil || m.Method == "" {
			return s, false
		}
		if !m.isCall() {
			if serverMethods[m.Method] {
				return s, false
			}
			return s, true // an unknown notification: accepted, no answer
		}
		e := preAnswer(m, true)
		if e == nil {
			return s, false
		}
		s.answers = [][]byte{errorReply(m.ID, int(e.Code), e.Message)}
		s.status = statusOf(e, version)
		return s, true
	}
	if version != "" && version >= versionNoBatches {
		return s, false // the SDK refuses the batch
	}
	var raws []json.RawMessage
	if json.Unmarshal(body, &raws) != nil {
		return s, false
	}
	msgs := make([]message, len(raws))
	calls := make(map[jsonrpc.ID]bool)
	for i, raw := range raws {
		m, err := parseMessage(raw)
		if err != nil {
			return s, false
		}
		msgs[i] = m
		if id, ok := wireID(m.ID); ok && m.isCall() {
			calls[id] = true
		}
	}
	s.batch = true
	var kept []json.RawMessage
	seen := make(map[jsonrpc.ID]bool)
	for _, m := range msgs {
		if id, ok := wireID(m.ID); ok && m.isCall() {
			if seen[id] {
				// The SDK answered only one of two calls with the same id.
				s.answers = append(s.answers, duplicateReply(m.ID))
				changed = true
				continue
			}
			seen[id] = true
		}
		switch {
		case m.Method == "notifications/cancelled":
			if id, ok := cancelledID(m.params()); ok && calls[id] {
				changed = true
				continue
			}
		case m.Method != "" && !m.isCall() && !serverMethods[m.Method]:
			changed = true
			continue
		default:
			if e := preAnswer(m, true); e != nil {
				s.answers = append(s.answers, errorReply(m.ID, int(e.Code), e.Message))
				changed = true
				continue
			}
		}
		kept = append(kept, m.raw)
	}
	if len(kept) > 0 {
		s.forward, _ = json.Marshal(kept)
	}
	return s, changed
}

// statusOf is the HTTP status of a protocol error answered by kgmcp: as the
// SDK sends it, 200 before protocol 2026-07-28, then 404 for -32601 and 400
// for -32602 (SEP-2575).
func statusOf(e *jsonrpc.Error, version string) int {
	if version < versionSEP2575 {
		return http.StatusOK
	}
	switch e.Code {
	case jsonrpc.CodeMethodNotFound:
		return http.StatusNotFound
	case jsonrpc.CodeInvalidParams:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// serve answers the request: kgmcp's own answers, the SDK's for what was
// forwarded, or both together.
func (s screened) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	switch {
	case s.forward == nil && len(s.answers) == 0:
		w.WriteHeader(http.StatusAccepted)
	case s.forward == nil:
		status := s.status
		if s.batch {
			status = http.StatusOK
		}
		writeAnswers(w, status, s.answers, s.batch)
	case len(s.answers) == 0:
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(s.forward)), int64(len(s.forward))
		next.ServeHTTP(w, r)
	default:
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(s.forward)), int64(len(s.forward))
		rec := &recorder{header: make(http.Header)}
		next.ServeHTTP(rec, r)
		s.merge(w, rec)
	}
}

// merge adds kgmcp's answers to the SDK's answer to the rest of a batch: to
// its array, or as the whole answer when the rest needed none (202). Any
// other answer (the SDK refused the rest) is passed on as it is.
func (s screened) merge(w http.ResponseWriter, rec *recorder) {
	var theirs []json.RawMessage
	switch {
	case rec.status == http.StatusAccepted:
		writeAnswers(w, http.StatusOK, s.answers, true)
	case rec.status == http.StatusOK && json.Unmarshal(rec.body.Bytes(), &theirs) == nil:
		for _, a := range s.answers {
			theirs = append(theirs, a)
		}
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		b, _ := json.Marshal(theirs)
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		w.WriteHeader(http.StatusOK)
		w.Write(b)
	default:
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		w.Write(rec.body.Bytes())
	}
}

// writeAnswers writes kgmcp's own answers: one object, or an array for a
// batch.
func writeAnswers(w http.ResponseWriter, status int, answers [][]byte, batch bool) {
	body := answers[0]
	if batch {
		raws := make([]json.RawMessage, len(answers))
		for i, a := range answers {
			raws[i] = a
		}
		body, _ = json.Marshal(raws)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}

// recorder holds the SDK's answer to the rest of a batch until kgmcp's
// answers are added to it.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}
