package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// Handler returns the HTTP handler: stateless Streamable HTTP at /mcp behind
// cross-origin protection (a foreign Origin gets 403; the SDK's DNS-rebinding
// guard refuses a foreign Host on loopback) and GET /health.
func Handler(srv *mcpserver.Server, allowedOrigins []string, log *slog.Logger) (http.Handler, error) {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.MCP() },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: log})
	cop := http.NewCrossOriginProtection()
	for _, o := range allowedOrigins {
		if err := cop.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("--allow-origin %q: %w", o, err)
		}
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", cop.Handler(limitBody(h)))
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"ok"}`)
	})
	return mux, nil
}

// MaxRequestBytes bounds an HTTP request body: every tool argument is small
// (the largest, a cursor or a URI, is 4,096 characters), so a larger body is
// refused (413) before it is read into memory.
const MaxRequestBytes = 1 << 20

func limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > MaxRequestBytes {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxRequestBytes)
		next.ServeHTTP(w, r)
	})
}

func serveHTTP(ctx context.Context, cfg Config, srv *mcpserver.Server, log *slog.Logger, stderr io.Writer) int {
	h, err := Handler(srv, cfg.AllowedOrigins, log)
	if err != nil {
		fmt.Fprintln(stderr, "kgmcp:", err)
		return exitUsage
	}
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		fmt.Fprintln(stderr, "kgmcp:", err)
		return exitUsage
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	log.Info("serving Streamable HTTP", "addr", ln.Addr().String(), "endpoint", "/mcp")
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shutdown)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("http server", "error", err.Error())
		return exitRefused
	}
	return exitOK
}
