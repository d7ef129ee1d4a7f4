package serve

import (
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// metrics are what an operator scrapes at GET /metrics (Prometheus text
// format, HTTP only): requests by method, name and outcome, their durations,
// errors by code, requests being handled and waiting, the catalog's
// generation, reloads by outcome, packages served and withdrawn, rate-limit
// refusals. Written by hand: a few counters do not need a client library.
type metrics struct {
	mu        sync.Mutex
	calls     map[[3]string]uint64 // method, name, outcome
	errors    map[string]uint64    // code
	durations map[[2]string]*histogram
	reloads   map[string]uint64     // outcome
	verifies  map[string]*histogram // outcome (ok, failed): first-use image verifications
	limited   atomic.Uint64
	gen       atomic.Int64
	audit     *slog.Logger // an audit line per request, when not nil
}

// buckets are the duration histograms' upper bounds, in seconds.
var buckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

type histogram struct {
	counts []uint64 // per bucket, then +Inf
	sum    float64
	n      uint64
}

func newHistogram() *histogram { return &histogram{counts: make([]uint64, len(buckets)+1)} }

func (h *histogram) add(d time.Duration) {
	sec := d.Seconds()
	h.counts[sort.SearchFloat64s(buckets, sec)]++
	h.sum += sec
	h.n++
}

// write writes h as the series of metric name with the labels (a
// comma-separated `k="v"` list).
func (h *histogram) write(w io.Writer, name, labels string) {
	sep := ""
	if labels != "" {
		sep = ","
	}
	var cum uint64
	for i, b := range buckets {
		cum += h.counts[i]
		fmt.Fprintf(w, "%s_bucket{%s%sle=%q} %d\n", name, labels, sep, strconv.FormatFloat(b, 'g', -1, 64), cum)
	}
	cum += h.counts[len(buckets)]
	fmt.Fprintf(w, "%s_bucket{%s%sle=\"+Inf\"} %d\n", name, labels, sep, cum)
	fmt.Fprintf(w, "%s_sum{%s} %g\n", name, labels, h.sum)
	fmt.Fprintf(w, "%s_count{%s} %d\n", name, labels, h.n)
}

func newMetrics(audit *slog.Logger) *metrics {
	return &metrics{calls: map[[3]string]uint64{}, errors: map[string]uint64{}, durations: map[[2]string]*histogram{}, reloads: map[string]uint64{}, verifies: map[string]*histogram{}, audit: audit}
}

// names bounds the label values a client can create: a tool, prompt or
// resource name kgmcp does not serve is counted as "other", a resource by
// its kind.
func nameLabel(method, name string) string {
	switch method {
	case "tools/call", "prompts/get":
		if len(name) > 64 || strings.ContainsAny(name, "\"\\\n{}") {
			return "other"
		}
		return name
	case "resources/read":
		if strings.HasPrefix(name, "kgfegmcp://") {
			return "kgfegmcp"
		}
		if strings.HasPrefix(name, "ui://") {
			return "ui"
		}
		return "other"
	}
	return ""
}

// observe records one request (mcpserver.Options.Observe).
func (m *metrics) observe(o mcpserver.Observation) {
	name := nameLabel(o.Method, o.Name)
	m.mu.Lock()
	m.calls[[3]string{o.Method, name, o.Outcome}]++
	if o.Code != "" {
		m.errors[o.Code]++
	}
	h := m.durations[[2]string{o.Method, name}]
	if h == nil {
		h = newHistogram()
		m.durations[[2]string{o.Method, name}] = h
	}
	h.add(o.Duration)
	m.mu.Unlock()
	if m.audit != nil && o.Method != "ping" {
		m.audit.Info("audit", "caller", o.Caller, "method", o.Method, "name", o.Name, "outcome", o.Outcome, "code", o.Code, "micros", o.Duration.Microseconds())
	}
}

// verified records a first-use image verification (catalog.Loading.ObserveVerification).
func (m *metrics) verified(d time.Duration, err error) {
	outcome := "ok"
	if err != nil {
		outcome = "failed"
	}
	m.mu.Lock()
	h := m.verifies[outcome]
	if h == nil {
		h = newHistogram()
		m.verifies[outcome] = h
	}
	h.add(d)
	m.mu.Unlock()
}

// reloaded records a reload's outcome (ok, refused, abandoned).
func (m *metrics) reloaded(outcome string) {
	m.mu.Lock()
	m.reloads[outcome]++
	m.mu.Unlock()
	if outcome == "ok" {
		m.gen.Add(1)
	}
}

// handler serves the metrics.
func (m *metrics) handler(srv *mcpserver.Server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		m.write(w, srv)
	})
}

func (m *metrics) write(w io.Writer, srv *mcpserver.Server) {
	m.mu.Lock()
	defer m.mu.Unlock()
	esc := func(s string) string { return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) }
	fmt.Fprintln(w, "# HELP kgmcp_requests_total Requests handled, by method, name (tool, prompt, resource kind) and outcome (ok, tool_error, error).")
	fmt.Fprintln(w, "# TYPE kgmcp_requests_total counter")
	for _, k := range sortedKeys(m.calls, func(k [3]string) string { return k[0] + k[1] + k[2] }) {
		fmt.Fprintf(w, "kgmcp_requests_total{method=%q,name=%q,outcome=%q} %d\n", esc(k[0]), esc(k[1]), esc(k[2]), m.calls[k])
	}
	fmt.Fprintln(w, "# HELP kgmcp_request_errors_total Failed requests by error code (a kgc code such as framework_not_found, or a JSON-RPC error number).")
	fmt.Fprintln(w, "# TYPE kgmcp_request_errors_total counter")
	for _, k := range sortedKeys(m.errors, func(k string) string { return k }) {
		fmt.Fprintf(w, "kgmcp_request_errors_total{code=%q} %d\n", esc(k), m.errors[k])
	}
	fmt.Fprintln(w, "# HELP kgmcp_request_duration_seconds Time from a request entering the server to its result, by method and name.")
	fmt.Fprintln(w, "# TYPE kgmcp_request_duration_seconds histogram")
	for _, k := range sortedKeys(m.durations, func(k [2]string) string { return k[0] + k[1] }) {
		m.durations[k].write(w, "kgmcp_request_duration_seconds", fmt.Sprintf("method=%q,name=%q", esc(k[0]), esc(k[1])))
	}
	handling, waiting := srv.Load()
	fmt.Fprintln(w, "# HELP kgmcp_requests_in_flight Requests being handled now.")
	fmt.Fprintln(w, "# TYPE kgmcp_requests_in_flight gauge")
	fmt.Fprintf(w, "kgmcp_requests_in_flight %d\n", handling)
	fmt.Fprintln(w, "# HELP kgmcp_requests_waiting Requests waiting for a slot (--max-concurrent-calls).")
	fmt.Fprintln(w, "# TYPE kgmcp_requests_waiting gauge")
	fmt.Fprintf(w, "kgmcp_requests_waiting %d\n", waiting)
	fmt.Fprintln(w, "# HELP kgmcp_catalog_generation How many image sets have been swapped in since start (0: the first).")
	fmt.Fprintln(w, "# TYPE kgmcp_catalog_generation gauge")
	fmt.Fprintf(w, "kgmcp_catalog_generation %d\n", m.gen.Load())
	fmt.Fprintln(w, "# HELP kgmcp_reloads_total Reloads of the image set by outcome (ok, refused, abandoned).")
	fmt.Fprintln(w, "# TYPE kgmcp_reloads_total counter")
	for _, k := range sortedKeys(m.reloads, func(k string) string { return k }) {
		fmt.Fprintf(w, "kgmcp_reloads_total{outcome=%q} %d\n", esc(k), m.reloads[k])
	}
	served, withdrawn, unverified := 0, 0, 0
	if cat := srv.Catalog(); cat != nil {
		for _, p := range cat.Packages {
			switch {
			case p.Withdrawn() != nil:
				withdrawn++
			case p.Img.Lazy() && !p.Img.Verified():
				unverified++
			default:
				served++
			}
		}
	}
	fmt.Fprintln(w, "# HELP kgmcp_packages Packages of the catalog by state: verified (whole), unverified (catalog part only; verified on first use), withdrawn (failed verification or modified in place).")
	fmt.Fprintln(w, "# TYPE kgmcp_packages gauge")
	fmt.Fprintf(w, "kgmcp_packages{state=\"verified\"} %d\n", served)
	fmt.Fprintf(w, "kgmcp_packages{state=\"unverified\"} %d\n", unverified)
	fmt.Fprintf(w, "kgmcp_packages{state=\"withdrawn\"} %d\n", withdrawn)
	fmt.Fprintln(w, "# HELP kgmcp_image_verification_seconds First-use verifications of format 3 images (the payload's checksum, structure and stored text, run when a request first reads the package), by outcome (ok, failed: the package is withdrawn).")
	fmt.Fprintln(w, "# TYPE kgmcp_image_verification_seconds histogram")
	for _, k := range sortedKeys(m.verifies, func(k string) string { return k }) {
		m.verifies[k].write(w, "kgmcp_image_verification_seconds", fmt.Sprintf("outcome=%q", k))
	}
	fmt.Fprintln(w, "# HELP kgmcp_rate_limited_total Requests refused with 429 by the per-caller rate limit.")
	fmt.Fprintln(w, "# TYPE kgmcp_rate_limited_total counter")
	fmt.Fprintf(w, "kgmcp_rate_limited_total %d\n", m.limited.Load())
}

func sortedKeys[K comparable, V any](m map[K]V, str func(K) string) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return str(keys[i]) < str(keys[j]) })
	return keys
}

// rateLimiter is a token bucket per caller (--rate-limit): rate requests a
// second, bursts of burst.
type rateLimiter struct {
	rate, burst float64
	mu          sync.Mutex
	buckets     map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// maxCallers bounds the callers tracked: past it the idlest are forgotten.
const maxCallers = 10000

// allow takes a token for caller, or says how long until one is there.
func (l *rateLimiter) allow(caller string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[caller]
	if b == nil {
		if len(l.buckets) >= maxCallers {
			for k, v := range l.buckets {
				if now.Sub(v.last).Seconds()*l.rate >= l.burst { // full again: nothing lost
					delete(l.buckets, k)
				}
			}
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[caller] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

// limitRate refuses, with 429 and Retry-After, a caller (its API key, else
// its address) past the limiter's rate.
func limitRate(l *rateLimiter, m *metrics, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		caller := mcpserver.CallerOf(r.Context())
		if caller == "" {
			caller = "addr:" + clientAddr(r)
		}
		ok, wait := l.allow(caller, time.Now())
		if !ok {
			if m != nil {
				m.limited.Add(1)
			}
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":"rate_limited","error_description":"too many requests from this caller; retry after the seconds Retry-After gives"}`)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// clientAddr is the request's remote host (without the port).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
