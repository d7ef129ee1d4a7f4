package serve

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// connLimiter bounds the open HTTP connections. At the limit it makes room by
// closing the connection that has been waiting for a request (idle
// keep-alive, or accepted and silent) or reading one (headers or body) the
// longest; only when every connection is being answered does Accept wait. So idle, silent or trickling clients cannot
// starve a legitimate one, and the process never holds more than max client
// sockets (slow bodies are also cut by their minimum rate: bodyrate.go).
type connLimiter struct {
	net.Listener
	max int

	mu      sync.Mutex
	open    int
	waiting map[*limitedConn]time.Time // connections waiting for a request, since when
	reading map[*limitedConn]time.Time // connections reading a request, since when
	freed   chan struct{}              // closed and replaced whenever a connection closes
	done    chan struct{}              // closed by Close
	once    sync.Once
}

func newConnLimiter(ln net.Listener, max int) *connLimiter {
	return &connLimiter{Listener: ln, max: max, waiting: map[*limitedConn]time.Time{}, reading: map[*limitedConn]time.Time{}, freed: make(chan struct{}), done: make(chan struct{})}
}

// Close closes the listener and wakes an Accept waiting for room.
func (l *connLimiter) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// Accept accepts the next connection, then makes room for it: it closes the
// connection that has been waiting for or reading its request longest, or,
// when every connection is being answered, waits for one to close (holding
// the new one, so at most max+1 sockets).
func (l *connLimiter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	for l.open >= l.max {
		victim := l.oldestUnanswered()
		freed := l.freed
		l.mu.Unlock()
		if victim != nil {
			victim.Close()
		} else {
			select {
			case <-freed:
			case <-l.done:
				c.Close()
				return nil, net.ErrClosed
			}
		}
		l.mu.Lock()
	}
	l.open++
	lc := &limitedConn{Conn: c, l: l}
	l.waiting[lc] = time.Now()
	l.mu.Unlock()
	return lc, nil
}

// oldestUnanswered removes and returns the connection that has been waiting
// for or reading its request longest (nil when every connection is being
// answered). A connection just accepted is the newest: it is not closed
// before it could send its request while older ones trickle theirs.
func (l *connLimiter) oldestUnanswered() *limitedConn {
	var victim *limitedConn
	var since time.Time
	for _, set := range []map[*limitedConn]time.Time{l.waiting, l.reading} {
		for c, t := range set {
			if victim == nil || t.Before(since) {
				victim, since = c, t
			}
		}
	}
	if victim != nil {
		delete(l.waiting, victim)
		delete(l.reading, victim)
	}
	return victim
}

// bodyRead records that c's request has arrived whole: it is being answered
// and is no longer closed to make room.
func (l *connLimiter) bodyRead(c *limitedConn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.reading, c)
}

// closed releases the slot of c.
func (l *connLimiter) closed(c *limitedConn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.waiting, c)
	delete(l.reading, c)
	l.open--
	close(l.freed)
	l.freed = make(chan struct{})
}

// connState is the http.Server ConnState hook: a connection waits for a
// request when new or idle, and reads one from when it turns active until its
// body has arrived (bodyRead).
func (l *connLimiter) connState(c net.Conn, s http.ConnState) {
	lc, ok := c.(*limitedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch s {
	case http.StateIdle:
		delete(l.reading, lc)
		if !lc.isClosed() {
			l.waiting[lc] = time.Now()
		}
	case http.StateActive:
		delete(l.waiting, lc)
		if !lc.isClosed() {
			l.reading[lc] = time.Now()
		}
	case http.StateHijacked, http.StateClosed:
		delete(l.waiting, lc)
		delete(l.reading, lc)
	}
}

// limitedConn releases its slot once, on the first Close.
type limitedConn struct {
	net.Conn
	l    *connLimiter
	once sync.Once
	mu   sync.Mutex
	done bool
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.mu.Lock()
		c.done = true
		c.mu.Unlock()
		c.l.closed(c)
	})
	return err
}

func (c *limitedConn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done
}
