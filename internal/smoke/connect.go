package smoke

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ExitTimeout is how long a server over stdio has to exit once its input
// is closed.
const ExitTimeout = 15 * time.Second

func client() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "kgc-smoke", Version: "1"}, nil)
}

// Stdio starts argv, smokes it over its stdin/stdout, then closes its input
// and requires a clean exit (status 0 within ExitTimeout). The server's
// stderr goes to stderr.
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
	cs, err := client().Connect(ctx, &mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
	if err != nil {
		cmd.Process.Kill()
		<-exited
		return nil, fmt.Errorf("handshake with %s: %w", target, err)
	}
	s := Run(ctx, cs, target)
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
	case <-time.After(ExitTimeout):
		cmd.Process.Kill()
		<-exited
		s.fail("the server did not exit within %s of its input closing", ExitTimeout)
	}
	s.CleanExit = &clean
	if len(s.Failures) > 0 {
		s.Status = "failed"
	}
	return s, nil
}

// HTTP smokes a running server at its Streamable HTTP endpoint (…/mcp).
func HTTP(ctx context.Context, endpoint string) (*Summary, error) {
	cs, err := client().Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return nil, fmt.Errorf("handshake with %s: %w", endpoint, err)
	}
	defer cs.Close()
	return Run(ctx, cs, endpoint), nil
}
