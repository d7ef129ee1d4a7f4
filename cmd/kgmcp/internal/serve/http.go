package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/runtime/explorer"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// httpLimits bound what one client can hold of the HTTP server. MCP over
// stateless Streamable HTTP with JSON responses has no long-lived streams: a
// request is one POST and its answer, so every connection phase can be timed.
type httpLimits struct {
	// MaxConnections bounds open client connections (see connLimiter).
	MaxConnections int `json:"maxConnections"`
	// ReadHeader, Read, Write and Idle are the http.Server timeouts: headers,
	// the whole request with its body, writing the answer, and a keep-alive
	// connection waiting for its next request.
	ReadHeader duration `json:"readHeaderTimeout"`
	Read       duration `json:"readTimeout"`
	Write      duration `json:"writeTimeout"`
	Idle       duration `json:"idleTimeout"`
	// ResponseBudget bounds the bytes of the answers to one HTTP request
	// (a batch shares it).
	ResponseBudget int64 `json:"responseBudgetBytes"`
	// Shutdown bounds the graceful stop: requests in progress are answered
	// for at most this long.
	Shutdown duration `json:"shutdownTimeout"`
	// BodyGrace and MinBodyRate bound how long a request body may take to
	// arrive: BodyGrace plus its length at MinBodyRate bytes a second
	// (bodyrate.go); MinBodyRate 0 leaves only the read timeout.
	BodyGrace   duration `json:"bodyGrace"`
	MinBodyRate int64    `json:"minBodyRateBytesPerSecond"`
}

// defaultHTTPLimits are the documented defaults.
func defaultHTTPLimits() httpLimits {
	return httpLimits{
		MaxConnections: 512,
		ReadHeader:     duration(10 * time.Second),
		Read:           duration(30 * time.Second),
		Write:          duration(60 * time.Second),
		Idle:           duration(30 * time.Second),
		ResponseBudget: 8 << 20,
		Shutdown:       duration(10 * time.Second),
		BodyGrace:      duration(5 * time.Second),
		MinBodyRate:    64 << 10,
	}
}

// newHandler returns the HTTP handler: stateless Streamable HTTP at /mcp behind
// cross-origin protection (a foreign Origin gets 403; the SDK's DNS-rebinding
// guard refuses a foreign Host on loopback), the frame checks and the
// per-request response budget, and GET /health (200 {"status":"ok"} once the
// images are verified; 503 with "starting" before, "refused" if they were not
// acceptable).
func newHandler(srv *mcpserver.Server, allowedOrigins []string, budget int64, log *slog.Logger) (http.Handler, error) {
	return handler(srv, allowedOrigins, budget, log, nil, httpExtras{})
}

// httpExtras are the HTTP endpoint's options beyond the protocol: API keys,
// metrics, a per-caller rate limit (each nil: off).
type httpExtras struct {
	keys    *keyFile
	metrics *metrics
	limiter *rateLimiter
	oauth   *oauthConfig // with jwks: OAuth access tokens (oauth.go)
	jwks    *jwks
	// metricsApart: the metrics are served on their own listener
	// (--metrics-listen), not at /metrics beside /mcp.
	metricsApart bool
}

// handler is newHandler whose /health also reports a reload abandoned at its
// timeout (503 {"status":"reload_stuck","detail":…}) while problem says one
// was; nil: no reloads.
func handler(srv *mcpserver.Server, allowedOrigins []string, budget int64, log *slog.Logger, problem func() string, x httpExtras) (http.Handler, error) {
	return handlerWith(srv, allowedOrigins, budget, log, problem, x, false)
}

// handlerWith is handler; sdkOnly leaves every request to the SDK (the
// direct answers' tests compare the two).
func handlerWith(srv *mcpserver.Server, allowedOrigins []string, budget int64, log *slog.Logger, problem func() string, x httpExtras, sdkOnly bool) (http.Handler, error) {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.MCP() },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: mcpserver.SDKLogger(log)})
	cop := http.NewCrossOriginProtection()
	for _, o := range allowedOrigins {
		if err := cop.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("--allow-origin %q: %w", o, err)
		}
	}
	mux := http.NewServeMux()
	var answer func(*http.Request, []byte) http.Handler
	if !sdkOnly {
		answer = func(r *http.Request, body []byte) http.Handler {
			if d, ok := direct(srv, r, body); ok {
				return serveDirect(srv, d)
			}
			return nil
		}
	}
	var mcpHandler http.Handler = checkBody(h, answer, budget, log)
	if x.limiter != nil {
		mcpHandler = limitRate(x.limiter, x.metrics, mcpHandler)
	}
	switch {
	case x.oauth != nil:
		mcpHandler = x.oauth.protect(mux, x.jwks, x.keys, log, mcpHandler)
	case x.keys != nil:
		mcpHandler = requireKey(x.keys, log, mcpHandler)
	}
	mux.Handle("/mcp", cop.Handler(mcpHandler))
	if x.metrics != nil && !x.metricsApart {
		mux.Handle("GET /metrics", x.metrics.handler(srv))
	}
	// The read-only browser view (runtime/explorer) calls /mcp from the
	// same origin, which the cross-origin protection lets through.
	page := explorer.Handler()
	for _, route := range explorer.Routes {
		mux.Handle("GET "+route, page)
	}
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		select {
		case <-srv.Loading().Done():
		default:
			// Still verifying the images: not ready for traffic yet.
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"status":"starting"}`)
			return
		}
		if _, err := srv.Loading().Result(); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"status":"refused"}`)
			return
		}
		if problem != nil {
			if p := problem(); p != "" {
				// The old images still serve, but new ones cannot be loaded:
				// an orchestrator should replace the process.
				b, _ := json.Marshal(map[string]string{"status": "reload_stuck", "detail": p})
				w.WriteHeader(http.StatusServiceUnavailable)
				w.Write(b)
				return
			}
		}
		io.WriteString(w, `{"status":"ok"}`)
	})
	return mux, nil
}

// checkBody refuses a body over maxRequestBytes (413) before reading it, and
// a body that is not acceptable JSON-RPC (checkFrame) with its JSON-RPC
// error (400); it answers what kgmcp answers itself (screenHTTP, and the
// plain requests direct gives a handler for, when direct is not nil) and
// gives each request its response budget.
func checkBody(next http.Handler, direct func(*http.Request, []byte) http.Handler, budget int64, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > maxRequestBytes {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBytes))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			} else {
				http.Error(w, "failed to read the request body", http.StatusBadRequest)
			}
			return
		}
		if ok, reply := checkFrame(body); !ok && reply != nil {
			log.Warn("http: refused a message", "reply", string(reply))
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write(reply)
			return
		}
		r = r.WithContext(mcpserver.WithResponseBudget(r.Context(), budget))
		r.Body = io.NopCloser(bytes.NewReader(body))
		h := next
		if s, changed := screenHTTP(body, r.Header.Get("Mcp-Protocol-Version")); changed {
			h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.serve(w, r, next) })
		} else if direct != nil {
			if d := direct(r, body); d != nil {
				h = d
			}
		}
		if !log.Enabled(r.Context(), slog.LevelDebug) {
			h.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r)
		log.Debug("http request", "methods", rpcMethods(body), "status", sw.status, "bytes", sw.bytes, "micros", time.Since(start).Microseconds())
	})
}

// statusWriter records a response's status and size, for the debug line.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) { w.status = code; w.ResponseWriter.WriteHeader(code) }

func (w *statusWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Flush passes a flush on (SSE streams).
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// rpcMethods names the JSON-RPC methods (and tool names) of a request body,
// for the debug line.
func rpcMethods(body []byte) string {
	type msg struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
			URI  string `json:"uri"`
		} `json:"params"`
	}
	var batch []msg
	if err := json.Unmarshal(body, &batch); err != nil {
		var one msg
		json.Unmarshal(body, &one)
		batch = []msg{one}
	}
	names := make([]string, len(batch))
	for i, m := range batch {
		names[i] = m.Method
		if n := m.Params.Name + m.Params.URI; n != "" {
			names[i] += " " + n
		}
	}
	return strings.Join(names, ",")
}

// serveHTTP serves until ctx ends, then stops gracefully: no new connections,
// and the requests in progress answered until grace ends.
func serveHTTP(ctx, grace context.Context, cfg config, srv *mcpserver.Server, log *slog.Logger, stderr io.Writer) int {
	lim := cfg.HTTP
	var keys *keyFile
	if cfg.APIKeyFile != "" {
		var err error
		if keys, err = loadKeyFile(cfg.APIKeyFile, log); err != nil {
			fmt.Fprintln(stderr, "kgmcp: refusing to start:", err)
			return exitUsage
		}
		go keys.onHangup(ctx)
		log.Info("api keys required on /mcp", "path", cfg.APIKeyFile, "keys", len(*keys.keys.Load()))
	}
	x := httpExtras{keys: keys}
	if cfg.OAuthResource != "" || len(cfg.OAuthIssuers) > 0 || cfg.OAuthJWKSFile != "" || cfg.OAuthJWKSURL != "" {
		oc := oauthConfig{resource: cfg.OAuthResource, issuers: cfg.OAuthIssuers, jwksFile: cfg.OAuthJWKSFile, jwksURL: cfg.OAuthJWKSURL}
		if err := checkOAuth(oc); err != nil {
			fmt.Fprintln(stderr, "kgmcp: refusing to start:", err)
			return exitUsage
		}
		set, err := loadJWKS(oc, log)
		if err != nil {
			fmt.Fprintln(stderr, "kgmcp: refusing to start: the JWKS ("+oc.jwksFile+oc.jwksURL+"):", err)
			return exitUsage
		}
		x.oauth, x.jwks = &oc, set
		log.Info("oauth access tokens required on /mcp", "resource", oc.resource, "issuers", strings.Join(oc.issuers, " "), "metadata", oc.metadataURL())
	}
	if cfg.Metrics {
		x.metrics = cfg.metrics
		x.metricsApart = cfg.MetricsListen != ""
	}
	if cfg.RateLimit > 0 {
		burst := float64(cfg.RateBurst)
		if burst == 0 {
			burst = max(1, 2*cfg.RateLimit)
		}
		x.limiter = &rateLimiter{rate: cfg.RateLimit, burst: burst, buckets: map[string]*bucket{}}
	}
	h, err := handler(srv, cfg.AllowedOrigins, lim.ResponseBudget, log, cfg.reloadProblem, x)
	if err != nil {
		fmt.Fprintln(stderr, "kgmcp:", err)
		return exitUsage
	}
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		fmt.Fprintln(stderr, "kgmcp:", err)
		return exitUsage
	}
	cl := newConnLimiter(ln, lim.MaxConnections)
	hs := &http.Server{
		Handler:           bodyDeadline(h, lim),
		ConnContext:       withConn,
		ReadHeaderTimeout: time.Duration(lim.ReadHeader),
		ReadTimeout:       time.Duration(lim.Read),
		WriteTimeout:      time.Duration(lim.Write),
		IdleTimeout:       time.Duration(lim.Idle),
		MaxHeaderBytes:    64 << 10,
		ConnState:         cl.connState,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 2)
	if x.metricsApart {
		mln, err := net.Listen("tcp", cfg.MetricsListen)
		if err != nil {
			ln.Close()
			fmt.Fprintln(stderr, "kgmcp: --metrics-listen:", err)
			return exitUsage
		}
		ms := metricsServer(x.metrics, srv, log)
		defer ms.Close() // a scrape in progress needs no grace
		log.Info("serving metrics", "addr", mln.Addr().String(), "endpoint", "/metrics")
		go func() { served <- fmt.Errorf("metrics: %w", ms.Serve(mln)) }()
	}
	log.Info("serving Streamable HTTP", "addr", ln.Addr().String(), "endpoint", "/mcp")
	go func() { served <- hs.Serve(cl) }()
	select {
	case err := <-served:
		log.Error("http server", "error", err.Error())
		return exitRefused
	case <-ctx.Done():
	}
	log.Info("stopping: answering the requests in progress", "timeout", lim.Shutdown.String())
	if err := hs.Shutdown(grace); err != nil {
		log.Warn("graceful stop incomplete: connections still open", "error", err.Error())
	}
	return exitOK
}

// metricsServer serves GET /metrics alone (--metrics-listen), with tight
// timeouts: a scraper sends one small request.
func metricsServer(m *metrics, srv *mcpserver.Server, log *slog.Logger) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.handler(srv))
	return &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
}
