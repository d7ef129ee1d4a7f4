package serve

import (
	"context"
	"io"
	"net"
	"net/http"
	"time"
)

// Slow bodies. The read timeout (30 s) bounds a whole request, but a flood
// of connections trickling their bodies and reopening whenever cut held every
// connection slot: 600 of them against --max-connections 512 made 3 of 5
// legitimate calls fail over 120 s and 2 take 25–28 s. Two defences:
//
//   - a body must arrive at a minimum rate: by BodyGrace plus its length
//     (Content-Length, else maxRequestBytes) at MinBodyRate after the
//     request starts, or the connection is cut (a 1 KB call gets 5 s, the
//     largest body 21 s; legitimate calls arrive in milliseconds);
//   - at the connection limit, when no connection is idle, the connection
//     that has been reading its request longest is closed to admit the new
//     one (connLimiter); a connection whose body has arrived is being
//     answered and is never closed for room.

// connKey is the context key of a request's *limitedConn (ConnContext).
type connKey struct{}

// withConn is the http.Server ConnContext hook.
func withConn(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// bodyDeadline wraps next: a POST's body is read under the minimum-rate
// deadline; once it has arrived, the connection's read deadline is the read
// timeout's again and connLimiter no longer counts it as reading.
func bodyDeadline(next http.Handler, lim httpLimits) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || lim.MinBodyRate <= 0 {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		size := r.ContentLength
		if size < 0 || size > maxRequestBytes {
			size = maxRequestBytes
		}
		d := time.Duration(lim.BodyGrace) + time.Duration(size)*time.Second/time.Duration(lim.MinBodyRate)
		if read := time.Duration(lim.Read); read > 0 && d > read {
			d = read
		}
		rc := http.NewResponseController(w)
		rc.SetReadDeadline(start.Add(d))
		lc, _ := r.Context().Value(connKey{}).(*limitedConn)
		r.Body = &arrivingBody{ReadCloser: r.Body, arrived: func() {
			if lim.Read > 0 {
				rc.SetReadDeadline(start.Add(time.Duration(lim.Read)))
			} else {
				rc.SetReadDeadline(time.Time{})
			}
			if lc != nil {
				lc.l.bodyRead(lc)
			}
		}}
		next.ServeHTTP(w, r)
	})
}

// arrivingBody calls arrived once, when its body has been read to the end.
type arrivingBody struct {
	io.ReadCloser
	arrived func()
}

func (b *arrivingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && b.arrived != nil {
		b.arrived()
		b.arrived = nil
	}
	return n, err
}
