package smoke

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// exitTimeout is how long a server over stdio has to exit once its input
// is closed.
const exitTimeout = 15 * time.Second

// MaxMessageBytes bounds what smoke reads of one answer: an HTTP response
// body, or a line of a stdio server's output (64 MiB: a kgmcp answer is at
// most its 1 MiB result ceiling, a resource at most 8 MiB before encoding).
// A server that sends more fails the smoke at once, without smoke holding
// it (a hostile server's 2 GB line or tools list ran smoke out of memory).
const MaxMessageBytes = 64 << 20

// ErrMessageTooLarge is the error of an answer over MaxMessageBytes.
var ErrMessageTooLarge = fmt.Errorf("the server sent an answer over %d bytes (64 MiB)", MaxMessageBytes)

// boundedTransport limits every response body to MaxMessageBytes.
type boundedTransport struct {
	base   http.RoundTripper
	bearer string // sent as Authorization: Bearer when not ""
}

func (t boundedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.bearer != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+t.bearer)
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = &boundedBody{rc: resp.Body, left: MaxMessageBytes}
	return resp, nil
}

// boundedBody fails once more than its allowance has been read.
type boundedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, ErrMessageTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *boundedBody) Close() error { return b.rc.Close() }

type readCloser struct {
	io.Reader
	io.Closer
}

// boundedLines fails once a line (up to its line feed) is over
// MaxMessageBytes.
type boundedLines struct {
	r    io.Reader
	line int64 // bytes of the current line so far
}

func (b *boundedLines) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	for _, c := range p[:n] {
		b.line++
		if c == '\n' {
			b.line = 0
		} else if b.line > MaxMessageBytes {
			return 0, ErrMessageTooLarge
		}
	}
	return n, err
}

func client() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "kgc-smoke", Version: "1"}, nil)
}

// Stdio starts argv, smokes it over its stdin/stdout, then closes its input
// and requires a clean exit (status 0 within 15 seconds, exitTimeout). The
// server's stderr goes to stderr.
func Stdio(ctx context.Context, argv []string, stderr io.Writer) (*Summary, error) {
	if len(argv) == 0 {
		return nil, errors.New("no server command given")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	target := strings.Join(argv, " ")
	cs, err := client().Connect(ctx, &mcp.IOTransport{Reader: readCloser{&boundedLines{r: stdout}, stdout}, Writer: stdin}, nil)
	if err != nil {
		cmd.Process.Kill()
		<-exited
		return nil, fmt.Errorf("handshake with %s: %w", target, err)
	}
	s := run(ctx, cs, target)
	// Closing the session closes the server's input: it must answer what it
	// read and exit 0 by itself.
	cs.Close()
	clean := false
	select {
	case err := <-exited:
		clean = err == nil
		if err != nil {
			s.fail("the server did not exit cleanly after its input closed: %v", err)
		}
	case <-time.After(exitTimeout):
		cmd.Process.Kill()
		<-exited
		s.fail("the server did not exit within %s of its input closing", exitTimeout)
	}
	s.CleanExit = &clean
	if len(s.Failures) > 0 {
		s.Status = "failed"
	}
	return s, nil
}

// HTTP smokes a running server at its Streamable HTTP endpoint (…/mcp),
// sending bearer (an API key or an access token) when not "".
func HTTP(ctx context.Context, endpoint, bearer string) (*Summary, error) {
	hc := &http.Client{Transport: boundedTransport{base: http.DefaultTransport, bearer: bearer}}
	cs, err := client().Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return nil, fmt.Errorf("handshake with %s: %w", endpoint, err)
	}
	defer cs.Close()
	return run(ctx, cs, endpoint), nil
}
