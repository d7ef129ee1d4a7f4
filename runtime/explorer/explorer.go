// Package explorer is the read-only browser view of a kgmcp server's
// curricula (kgmcp --http serves it at /): one small, self-contained page
// (HTML, a script and a style sheet, embedded; no CDN, no external font)
// that reads the catalog, a framework's top level, a standard's place,
// children, publisher relations, learning components and generated
// progressions, and search, through the server's own MCP tools at /mcp.
// Deep links follow the kgfegmcp:// addresses:
// /framework/{id}/snapshot/{snapshot}/standard/{node} is the standard's
// page, and /?uri=<a kgfegmcp:// address> leads to it. Every value from a
// package is put into the page as text; a strict Content-Security-Policy
// lets only the page's own script and style run.
package explorer

import (
	"embed"
	"net/http"
	"strconv"
)

//go:embed app/index.html app/app.js app/app.css
var app embed.FS

// Security headers of every answer: only the page's own script, style and
// calls; no framing, no referrer, no sniffing.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Routes are the paths the explorer serves (GET and HEAD): the page at /,
// /search and under /framework/, and its two assets.
var Routes = []string{"/{$}", "/search", "/framework/", "/app.js", "/app.css"}

// Handler serves the explorer's page and assets.
func Handler() http.Handler {
	page := mustRead("app/index.html")
	assets := map[string]struct {
		body []byte
		kind string
	}{
		"/app.js":  {mustRead("app/app.js"), "text/javascript; charset=utf-8"},
		"/app.css": {mustRead("app/app.css"), "text/css; charset=utf-8"},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		body, kind := page, "text/html; charset=utf-8"
		if a, ok := assets[r.URL.Path]; ok {
			body, kind = a.body, a.kind
			h.Set("Cache-Control", "no-cache")
		} else {
			h.Set("Cache-Control", "no-store")
		}
		h.Set("Content-Type", kind)
		h.Set("Content-Length", strconv.Itoa(len(body)))
		if r.Method == http.MethodHead {
			return
		}
		w.Write(body)
	})
}

func mustRead(name string) []byte {
	b, err := app.ReadFile(name)
	if err != nil {
		panic("explorer: " + err.Error())
	}
	return b
}
