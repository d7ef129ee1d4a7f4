// Package serve is kgmcp's command line: configuration from flags and the
// environment, start-up (open and verify every image, build the catalog), and
// the stdio and Streamable HTTP transports. Logs go to stderr only.
package serve

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// Exit codes.
const (
	exitOK      = 0
	exitRefused = 1 // an image could not be accepted, or none could
	exitUsage   = 2
)

// config is the effective configuration (--print-config shows it).
type config struct {
	Images                 []string `json:"images"`
	Transport              string   `json:"transport"`
	HTTPAddr               string   `json:"httpAddr,omitempty"`
	InvalidImagePolicy     string   `json:"invalidImagePolicy"`
	MaxResourceBytes       int64    `json:"maxResourceBytes"`
	MaxResourceSourceBytes int64    `json:"maxResourceSourceBytes"`
	LogLevel               string   `json:"logLevel"`
	AllowedOrigins         []string `json:"allowedOrigins"`
	// WatchInterval is how often the image files are checked for in-place
	// modification (0 turns the check off).
	WatchInterval duration `json:"watchInterval"`
	// ReloadOnChange reloads the image set (as SIGHUP does) when the image
	// files change, checked every WatchInterval.
	ReloadOnChange bool `json:"reloadOnChange"`
	// ReloadTimeout bounds a reload: one that has not opened and verified
	// the new images by then is abandoned (the old ones stay in service) and
	// /health answers 503 "reload_stuck" until a later reload finishes.
	ReloadTimeout duration `json:"reloadTimeout"`
	// reloadProblem is what /health reports about reloads (reloader.problem).
	reloadProblem func() string
	// metrics are the metrics and audit log (nil: neither).
	metrics *metrics
	// MaxConcurrentCalls bounds the requests handled at once in the process.
	MaxConcurrentCalls int `json:"maxConcurrentCalls"`
	// MaxInFlight bounds the calls a stdio client may have sent and not yet
	// had answered; past it kgmcp stops reading until one is answered.
	MaxInFlight int `json:"maxInFlight"`
	// HTTP holds the HTTP server's bounds (its Shutdown timeout also bounds a
	// stdio stop).
	HTTP httpLimits `json:"limits"`
	// CPUProfile, when set, receives a CPU profile of the whole run (for
	// benchmarking; written when the server stops).
	CPUProfile string `json:"cpuProfile,omitempty"`
	// GCPercent is the garbage collector's target (as GOGC; -1 turns it off).
	GCPercent int `json:"gcPercent"`
	// APIKeyFile, when set, names the file of the API keys /mcp requires
	// (keys.go); HTTP only.
	APIKeyFile string `json:"apiKeyFile,omitempty"`
	// OAuthResource, OAuthIssuers and OAuthJWKSFile make /mcp an OAuth
	// protected resource (oauth.go); HTTP only.
	OAuthResource string   `json:"oauthResource,omitempty"`
	OAuthIssuers  []string `json:"oauthIssuers,omitempty"`
	OAuthJWKSFile string   `json:"oauthJwksFile,omitempty"`
	OAuthJWKSURL  string   `json:"oauthJwksUrl,omitempty"`
	// Metrics serves GET /metrics (metrics.go); HTTP only. MetricsListen,
	// when set, serves them on that address only (not beside /mcp).
	Metrics       bool   `json:"metrics"`
	MetricsListen string `json:"metricsListen,omitempty"`
	// Audit logs an audit line per request (caller, method, name, outcome).
	Audit bool `json:"audit"`
	// RateLimit is the requests a second one caller may make over HTTP (a
	// key, or a client address without keys); 0: no limit. RateBurst is the
	// most at once.
	RateLimit float64 `json:"rateLimit,omitempty"`
	RateBurst int     `json:"rateBurst,omitempty"`
	// TextFormat is what a tool result's text block holds: readable (the
	// compact text of textview for the discovery, standards, component and
	// comparison tools) or json (every result's canonical JSON, as the
	// reference sends it).
	TextFormat string `json:"textFormat"`
}

// DefaultGCPercent is kgmcp's garbage-collection target when neither
// --gc-percent nor GOGC says otherwise. The live heap is small (the images are
// mapped, not on the heap) and every request leaves tens of kilobytes of
// garbage in the SDK's JSON handling, so at Go's default of 100 the collector
// runs every few dozen requests and halves HTTP throughput; at 400 the heap
// stays within a few times its live size (bench/README.md, "HTTP").
const DefaultGCPercent = 400

// duration is a time.Duration flag printed as text ("1s").
type duration time.Duration

func (d duration) String() string { return time.Duration(d).String() }

// Set parses a Go duration.
func (d *duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	*d = duration(v)
	return err
}

// MarshalText prints the duration as text.
func (d duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

const usage = `Usage: kgmcp [flags] IMAGE_OR_DIR...

Serves the images (files, or directories of *.kgimg) over MCP: stdio by
default, Streamable HTTP at /mcp (stateless, with GET /health) with --http,
which also serves the read-only browser explorer at / (README, "The
explorer").

Environment (flags win): KGMCP_IMAGES (images when no argument is given,
colon-separated), PORT (HTTP port on 127.0.0.1 when --http is not given and
KGMCP_TRANSPORT=http), KGFEGMCP_INVALID_PACKAGE_POLICY (fail|quarantine),
KGFEGMCP_MAX_RESOURCE_BYTES, KGFEGMCP_MAX_RESOURCE_SOURCE_BYTES,
KGFEGMCP_LOG_LEVEL (debug|info|warn|error), GOGC (--gc-percent).

The images are opened in the background while the server starts; requests
that read a package wait until all of them are (GET /health answers 503 until
then), and a refused image stops the server (exit 1) unless
--invalid-image quarantine. An image of format 3 (kgc build since
2026-12-06) has its header and catalog part verified at start and the rest
on the first request that reads it: an image that fails then is withdrawn
(catalog_error) and the others are served. --check verifies every image
whole. SIGHUP reloads the images (verified off the
request path, swapped in when all pass; a refused set changes nothing), and
so does a change of the image files under --reload-on-change.

Every message is at most 1 MiB and a batch at most 16 messages; the limits,
timeouts and the graceful stop on SIGTERM are in docs/reliability.md.

Exit codes: 0 served and stopped cleanly (or --check passed), 1 an image was
refused or none is acceptable, 2 bad usage or configuration.

Flags:
`

// errShowVersion stops configuration when --version is given.
var errShowVersion = errors.New("version requested")

// Main runs kgmcp and returns its exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	cfg, check, printConfig, err := configure(args, stderr, getenv)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		if errors.Is(err, errShowVersion) {
			fmt.Fprintln(stdout, "kgmcp", version())
			return exitOK
		}
		fmt.Fprintln(stderr, "kgmcp:", err)
		return exitUsage
	}
	if printConfig {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(cfg)
		return exitOK
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: levelOf(cfg.LogLevel)}))
	debug.SetGCPercent(cfg.GCPercent)
	if cfg.CPUProfile != "" {
		f, err := os.Create(cfg.CPUProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(stderr, "kgmcp: --cpuprofile:", err)
			return exitUsage
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	start := time.Now()
	paths, err := catalog.Paths(cfg.Images)
	if err != nil {
		fmt.Fprintln(stderr, "kgmcp:", err)
		return exitRefused
	}
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "kgmcp: refusing to start:", catalog.ErrNoImages)
		return exitRefused
	}
	if check {
		cat, err := catalog.Open(paths, catalog.Policy(cfg.InvalidImagePolicy), log)
		if err != nil {
			fmt.Fprintln(stderr, "kgmcp: refusing to start:", err)
			return exitRefused
		}
		defer cat.Close()
		// --check verifies every image whole: what a server verifies on
		// first use too (Package.Ready), and the stored text.
		refused := len(cat.Refused)
		for _, p := range cat.Packages {
			if err := p.Ready(); err != nil {
				fmt.Fprintf(stdout, "REFUSED  %s: %v\n", p.Path, err)
				refused++
				continue
			}
			if !p.Img.Lazy() {
				if err := p.Img.CheckText(); err != nil {
					fmt.Fprintf(stdout, "REFUSED  %s: %v\n", p.Path, err)
					refused++
					continue
				}
			}
			fmt.Fprintf(stdout, "ok       %s %s\n", p.Path, p.SnapshotID())
		}
		log.Info("catalog checked", "packages", len(cat.Packages), "frameworks", len(cat.Frameworks), "refused", refused, "elapsed", time.Since(start).String())
		for _, a := range cat.Ambiguities() {
			fmt.Fprintf(stdout, "WARNING  %s\n", a)
		}
		for _, r := range cat.Refused {
			fmt.Fprintf(stdout, "REFUSED  %s: %v\n", r.Path, r.Err)
		}
		if refused > 0 {
			return exitRefused
		}
		return exitOK
	}
	// The images are verified in the background while the server starts:
	// requests that read a package wait for the whole catalog (see
	// mcpserver.NewLoading and kgimg/FORMAT.md, "Trust model").
	loading := catalog.Start(ctx, paths, catalog.Policy(cfg.InvalidImagePolicy), log)
	go func() {
		if cat, err := loading.Wait(ctx); err == nil {
			log.Info("catalog ready", "packages", len(cat.Packages), "frameworks", len(cat.Frameworks), "quarantined", len(cat.Refused), "elapsed", time.Since(start).String())
		}
	}()
	return serve(ctx, cfg, loading, stdin, stdout, stderr, log)
}

// defaultReloadTimeout is --reload-timeout's default: far longer than any
// image set takes to verify (about a second per 200 MB), far shorter than
// "for ever".
const defaultReloadTimeout = 5 * time.Minute

// serve serves a catalog (settled or still being verified) over the
// configured transport until ctx ends (or, over stdio, the input ends), then
// stops gracefully: it takes no new requests, answers the ones in progress
// for at most the shutdown timeout, and closes the catalog only once no
// handler can read it any more (a stop that times out leaves the images
// mapped to the exiting process). A catalog refused while being verified
// stops the server with exit code 1 ("refusing to start").
func serve(ctx context.Context, cfg config, loading *catalog.Loading, stdin io.Reader, stdout, stderr io.Writer, log *slog.Logger) int {
	serving, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		if _, err := loading.Wait(serving); err != nil && serving.Err() == nil {
			log.Error("catalog refused; stopping", "error", err.Error())
			stop()
		}
	}()
	var m *metrics
	if cfg.Metrics || cfg.Audit {
		var audit *slog.Logger
		if cfg.Audit {
			audit = log.With("log", "audit")
		}
		m = newMetrics(audit)
		cfg.metrics = m
	}
	opts := mcpserver.Options{Version: version(), MaxResourceBytes: cfg.MaxResourceBytes,
		MaxResourceSourceBytes: cfg.MaxResourceSourceBytes, MaxConcurrentCalls: cfg.MaxConcurrentCalls, Logger: log,
		JSONText: cfg.TextFormat == "json"}
	if m != nil {
		opts.Observe = m.observe
		loading.ObserveVerification(m.verified)
	}
	srv := mcpserver.NewLoading(loading, opts)
	go srv.Warm(serving)
	reloads := newReloader(cfg, srv, log)
	if m != nil {
		reloads.outcome = m.reloaded
		reloads.verified = m.verified
	}
	cfg.reloadProblem = reloads.problem
	if cfg.WatchInterval > 0 {
		go reloads.watch(serving)
	}
	go reloads.onHangup(serving)
	// grace ends one shutdown timeout after serving does (or after the session
	// ends by itself): the graceful stop's deadline.
	grace, endGrace := context.WithCancel(context.Background())
	defer endGrace()
	stopGrace := context.AfterFunc(serving, func() { time.AfterFunc(time.Duration(cfg.HTTP.Shutdown), endGrace) })
	defer stopGrace()
	var code int
	if cfg.Transport == "http" {
		code = serveHTTP(serving, grace, cfg, srv, log, stderr)
	} else {
		code = serveStdio(serving, cfg, srv, stdin, stdout, log)
	}
	if stopGrace() {
		time.AfterFunc(time.Duration(cfg.HTTP.Shutdown), endGrace)
	}
	// The input may end before the verification does: the exit code still
	// says whether the images were acceptable (a signal stops the
	// verification instead).
	if _, err := loading.Wait(context.Background()); err != nil && ctx.Err() == nil {
		fmt.Fprintln(stderr, "kgmcp: refusing to start:", err)
		code = exitRefused
	}
	if err := srv.Drain(grace); err != nil {
		log.Warn("stopped with requests still running; the images stay mapped until exit", "error", err.Error())
		return code
	}
	stop() // the watcher and the reloader
	<-srv.Close()
	return code
}

// serveStdio serves one session on stdin/stdout. The session runs on its own
// context: ctx ending only stops the reading, so that the calls already read
// are answered before the session ends.
func serveStdio(ctx context.Context, cfg config, srv *mcpserver.Server, stdin io.Reader, stdout io.Writer, log *slog.Logger) int {
	t := &stdioTransport{in: stdin, out: stdout, maxInFlight: cfg.MaxInFlight, stop: ctx.Done(),
		drainTimeout: time.Duration(cfg.HTTP.Shutdown), log: log, srv: srv}
	if err := srv.MCP().Run(context.WithoutCancel(ctx), t); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		log.Error("stdio session ended", "error", err.Error())
		return exitRefused
	}
	return exitOK
}

func levelOf(s string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return slog.LevelInfo
	}
	return l
}

func configure(args []string, stderr io.Writer, getenv func(string) string) (cfg config, check, printConfig bool, err error) {
	fs := flag.NewFlagSet("kgmcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	envOr := func(k, def string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return def
	}
	var httpAddr string
	var origins stringList
	fs.StringVar(&httpAddr, "http", "", "serve Streamable HTTP on ADDR (host:port; a bare port or :port binds 127.0.0.1)")
	fs.StringVar(&cfg.InvalidImagePolicy, "invalid-image", envOr("KGFEGMCP_INVALID_PACKAGE_POLICY", "fail"), "what to do with an image that does not verify: fail (refuse to start) or quarantine (skip it with a warning)")
	maxBytes, _ := strconv.ParseInt(envOr("KGFEGMCP_MAX_RESOURCE_BYTES", strconv.Itoa(mcpserver.DefaultMaxResourceBytes)), 10, 64)
	maxSource, _ := strconv.ParseInt(envOr("KGFEGMCP_MAX_RESOURCE_SOURCE_BYTES", strconv.Itoa(mcpserver.DefaultMaxResourceSourceBytes)), 10, 64)
	fs.Int64Var(&cfg.MaxResourceBytes, "max-resource-bytes", maxBytes, "largest resource returned, in bytes")
	fs.Int64Var(&cfg.MaxResourceSourceBytes, "max-resource-source-bytes", maxSource, "largest source artifact read, in bytes")
	fs.StringVar(&cfg.TextFormat, "text-format", envOr("KGFEGMCP_TEXT_FORMAT", "readable"), "tool results' text block: readable (compact text for the discovery, standards, component and comparison tools) or json (every result's canonical JSON)")
	fs.StringVar(&cfg.LogLevel, "log-level", envOr("KGFEGMCP_LOG_LEVEL", "info"), "debug, info, warn or error")
	fs.Var(&origins, "allow-origin", "an Origin allowed to call the HTTP endpoint (repeatable; none by default)")
	var issuers stringList
	fs.StringVar(&cfg.OAuthResource, "oauth-resource", envOr("KGMCP_OAUTH_RESOURCE", ""), "this server's resource URI (e.g. https://kgmcp.example/mcp): /mcp then takes OAuth access tokens (JWT) whose audience it is, from --oauth-issuer, signed by a key of --oauth-jwks-file; HTTP only")
	fs.Var(&issuers, "oauth-issuer", "an authorization server whose access tokens are accepted (repeatable; https, or http on loopback)")
	fs.StringVar(&cfg.OAuthJWKSFile, "oauth-jwks-file", envOr("KGMCP_OAUTH_JWKS_FILE", ""), "the JWKS (JSON) of the issuers' signing keys; read again when it changes")
	fs.StringVar(&cfg.OAuthJWKSURL, "oauth-jwks-url", envOr("KGMCP_OAUTH_JWKS_URL", ""), "instead of --oauth-jwks-file: fetch the JWKS from this URL (https, or http on loopback) at start, every 10 minutes, and for a token signed by a key it lacks (at most once a minute); giving it allows kgmcp that network access")
	fs.BoolVar(&cfg.Metrics, "metrics", false, "serve Prometheus metrics at GET /metrics beside /mcp, no key needed (HTTP only)")
	var metricsAddr string
	fs.StringVar(&metricsAddr, "metrics-listen", "", "serve the metrics at GET /metrics on this address (PORT or HOST:PORT; a bare port binds 127.0.0.1) and not beside /mcp: a port the public Service does not expose (implies --metrics)")
	fs.BoolVar(&cfg.Audit, "audit", false, "log an audit line per request: caller (an API key's id, never the key), method, name, outcome, error code, duration")
	fs.Float64Var(&cfg.RateLimit, "rate-limit", 0, "requests a second one caller may make over HTTP (an API key, or a client address); past it 429 with Retry-After; 0: no limit")
	fs.IntVar(&cfg.RateBurst, "rate-burst", 0, "most requests one caller may make at once under --rate-limit (default: twice the rate, at least 1)")
	fs.StringVar(&cfg.APIKeyFile, "api-key-file", envOr("KGMCP_API_KEY_FILE", ""), "require on /mcp a key this file lists (one a line, or sha256:HEX, each optionally followed by the frameworks it grants: IDs or patterns); HTTP only; read again when it changes and on SIGHUP")
	cfg.HTTP = defaultHTTPLimits()
	fs.IntVar(&cfg.HTTP.MaxConnections, "max-connections", cfg.HTTP.MaxConnections, "most open HTTP connections; at the limit the longest-idle one is closed to admit a new one")
	fs.IntVar(&cfg.MaxConcurrentCalls, "max-concurrent-calls", mcpserver.DefaultMaxConcurrentCalls(), "most requests handled at once; more wait for a slot")
	fs.IntVar(&cfg.MaxInFlight, "max-in-flight", 64, "most calls a stdio client may have unanswered; past it kgmcp stops reading its input")
	cfg.WatchInterval = duration(catalog.DefaultWatchInterval)
	cfg.ReloadTimeout = duration(defaultReloadTimeout)
	gc := DefaultGCPercent
	if v := getenv("GOGC"); strings.EqualFold(v, "off") {
		gc = -1
	} else if n, err := strconv.Atoi(v); err == nil {
		gc = n
	}
	fs.IntVar(&cfg.GCPercent, "gc-percent", gc, "garbage-collection target, as GOGC (default 400, or GOGC when set; -1 turns collection off)")
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a CPU profile of the run to this file when the server stops (for benchmarking)")
	fs.Var(&cfg.WatchInterval, "watch-interval", "how often to check that no served image file was modified in place (a modified image's package is withdrawn); 0 turns the check off")
	fs.Var(&cfg.ReloadTimeout, "reload-timeout", "how long a reload may take to open and verify the new images before it is abandoned (the old images stay in service; /health says so)")
	fs.BoolVar(&cfg.ReloadOnChange, "reload-on-change", false, "reload the images (as on SIGHUP) once an image file is added, removed or replaced and then holds still for a --watch-interval")
	fs.BoolVar(&check, "check", false, "open and verify every image whole (text included), print the result and exit")
	fs.BoolVar(&printConfig, "print-config", false, "print the effective configuration and exit")
	showVersion := fs.Bool("version", false, "print the version and exit")
	if err = fs.Parse(args); err != nil {
		return
	}
	if *showVersion {
		return cfg, false, false, errShowVersion
	}
	cfg.Images = fs.Args()
	if len(cfg.Images) == 0 && getenv("KGMCP_IMAGES") != "" {
		cfg.Images = strings.Split(getenv("KGMCP_IMAGES"), ":")
	}
	if len(cfg.Images) == 0 {
		return cfg, false, false, errors.New("no image given (pass image files or directories, or set KGMCP_IMAGES)")
	}
	cfg.Transport = "stdio"
	if httpAddr == "" && strings.EqualFold(getenv("KGMCP_TRANSPORT"), "http") {
		httpAddr = envOr("PORT", "8000")
	}
	if httpAddr != "" {
		cfg.Transport = "http"
		if cfg.HTTPAddr, err = normalizeAddr("--http", httpAddr); err != nil {
			return
		}
	}
	if metricsAddr != "" {
		cfg.Metrics = true
		if cfg.MetricsListen, err = normalizeAddr("--metrics-listen", metricsAddr); err != nil {
			return
		}
	}
	cfg.AllowedOrigins = append([]string{}, origins...)
	cfg.OAuthIssuers = append([]string{}, issuers...)
	switch {
	case cfg.InvalidImagePolicy != "fail" && cfg.InvalidImagePolicy != "quarantine":
		err = fmt.Errorf("--invalid-image must be fail or quarantine, not %q", cfg.InvalidImagePolicy)
	case cfg.TextFormat != "readable" && cfg.TextFormat != "json":
		err = fmt.Errorf("--text-format must be readable or json, not %q", cfg.TextFormat)
	case cfg.HTTP.MaxConnections < 1 || cfg.MaxConcurrentCalls < 1 || cfg.MaxInFlight < 1:
		err = errors.New("--max-connections, --max-concurrent-calls and --max-in-flight must be at least 1")
	case cfg.ReloadTimeout <= 0:
		err = errors.New("--reload-timeout must be above 0")
	case cfg.WatchInterval < 0:
		err = errors.New("--watch-interval must not be negative")
	case cfg.ReloadOnChange && cfg.WatchInterval == 0:
		err = errors.New("--reload-on-change needs a --watch-interval above 0 (how often the files are checked)")
	case (cfg.Metrics || cfg.RateLimit != 0) && cfg.Transport != "http":
		err = errors.New("--metrics, --metrics-listen and --rate-limit apply to the HTTP endpoint: use them with --http")
	case cfg.MetricsListen != "" && cfg.MetricsListen == cfg.HTTPAddr:
		err = fmt.Errorf("--metrics-listen %s is the --http address: give another port (or --metrics to serve them beside /mcp)", cfg.MetricsListen)
	case cfg.RateLimit < 0 || cfg.RateBurst < 0:
		err = errors.New("--rate-limit and --rate-burst must not be negative")
	case (cfg.OAuthResource != "" || len(cfg.OAuthIssuers) > 0 || cfg.OAuthJWKSFile != "" || cfg.OAuthJWKSURL != "") && cfg.Transport != "http":
		err = errors.New("--oauth-resource, --oauth-issuer and --oauth-jwks-file guard the HTTP endpoint: use them with --http")
	case cfg.APIKeyFile != "" && cfg.Transport != "http":
		err = errors.New("--api-key-file guards the HTTP endpoint: use it with --http (over stdio the host that starts kgmcp is the only client)")
	case cfg.MaxResourceBytes <= 0 || cfg.MaxResourceSourceBytes <= 0:
		err = errors.New("resource size limits must be positive")
	case cfg.MaxResourceSourceBytes < cfg.MaxResourceBytes:
		err = errors.New("the source size limit must be at least the returned size limit")
	}
	return
}

// normalizeAddr binds a bare port to 127.0.0.1 (flag names the option, for
// errors).
func normalizeAddr(flag, a string) (string, error) {
	if !strings.Contains(a, ":") {
		a = ":" + a
	}
	host, port, err := net.SplitHostPort(a)
	if err != nil {
		return "", fmt.Errorf("%s %q: %w", flag, a, err)
	}
	if _, err := strconv.Atoi(port); err != nil {
		return "", fmt.Errorf("%s %q: bad port", flag, a)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}
