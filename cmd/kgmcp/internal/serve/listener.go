package serve

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// connLimiter bounds the open HTTP connections. At the limit it makes room by
// closing the connection that has been waiting longest for a request (idle
// keep-alive, or accepted and silent); only when every connection is busy
// with a request does Accept wait. So idle or silent clients cannot starve a
// legitimate one, and the process never holds more than max client sockets
// (slow request bodies are bounded by the read timeout instead).
type connLimiter struct {
	net.Listener
	max int

	mu      sync.Mutex
	open    int
	waiting map[*limitedConn]time.Time // connections waiting for a request, since when
	freed   chan struct{}              // closed and replaced whenever a connection closes
	done    chan struct{}              // closed by Close
	once    sync.Once
}

func newConnLimiter(ln net.Listener, max int) *connLimiter {
	return &connLimiter{Listener: ln, max: max, waiting: map[*limitedConn]time.Time{}, freed: make(chan struct{}), done: make(chan struct{})}
}

// Close closes the listener and wakes an Accept waiting for room.
func (l *connLimiter) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// Accept accepts the next connection, then makes room for it: it closes the
// connection waiting longest for a request, or, when every connection is busy,
// waits for one to close (holding the new one, so at most max+1 sockets).
func (l *connLimiter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	for l.open >= l.max {
		victim := l.oldestWaiting()
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

func (l *connLimiter) oldestWaiting() *limitedConn {
	var victim *limitedConn
	var since time.Time
	for c, t := range l.waiting {
		if victim == nil || t.Before(since) {
			victim, since = c, t
		}
	}
	if victim != nil {
		delete(l.waiting, victim)
	}
	return victim
}

// closed releases the slot of c.
func (l *connLimiter) closed(c *limitedConn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.waiting, c)
	l.open--
	close(l.freed)
	l.freed = make(chan struct{})
}

// connState is the http.Server ConnState hook: a connection waits for a
// request when new or idle, and is busy when active.
func (l *connLimiter) connState(c net.Conn, s http.ConnState) {
	lc, ok := c.(*limitedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch s {
	case http.StateIdle:
		if !lc.isClosed() {
			l.waiting[lc] = time.Now()
		}
	case http.StateActive, http.StateHijacked, http.StateClosed:
		delete(l.waiting, lc)
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
