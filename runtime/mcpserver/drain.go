package mcpserver

import (
	"context"
	"sync"
)

// drainer counts the requests being handled and, once draining, refuses new
// ones and tells when the last one has returned.
type drainer struct {
	mu       sync.Mutex
	n        int
	draining bool
	idle     chan struct{} // closed when n reaches zero while draining
}

// enter admits a request unless the server drains.
func (d *drainer) enter() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.draining {
		return false
	}
	d.n++
	return true
}

func (d *drainer) leave() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.n--
	if d.n == 0 && d.idle != nil {
		close(d.idle)
		d.idle = nil
	}
}

// drain refuses new requests and waits for the admitted ones.
func (d *drainer) drain(ctx context.Context) error {
	d.mu.Lock()
	d.draining = true
	if d.n == 0 {
		d.mu.Unlock()
		return nil
	}
	if d.idle == nil {
		d.idle = make(chan struct{})
	}
	idle := d.idle
	d.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
