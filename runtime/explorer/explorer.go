// Package explorer is the read-only browser view of a kgmcp server's
// curricula (kgmcp --http serves it at /): one small, self-contained page
// (HTML, a script and a style sheet, embedded; no CDN, no external font)
// that reads the catalog, a framework's top level, a standard's place,
// children, publisher relations, learning components and generated
// progressions, and search, through the server's own MCP tools at /mcp.
// Deep links follow the kgfegmcp:// addresses:
// /framework/{id}/snapshot/{snapshot}/standard/{node} is the standard's
// page (…/learning-component/{node} a learning component's), and
// /?uri=<a kgfegmcp:// address> leads to it. Every value from a
// package is put into the page as text; a strict Content-Security-Policy
// lets only the page's own script and style run.
package explorer

import (
	"embed"
	"net/http"
	"strconv"
	"strings"
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

// AppURI is the address of the explorer as an MCP App (the MCP Apps
// extension, io.modelcontextprotocol/ui), and AppMIMEType its media type.
const (
	AppURI      = "ui://kgc/explorer"
	AppMIMEType = "text/html;profile=mcp-app"
)

// AppHTML is the explorer as one self-contained document for an MCP host:
// the page with its style and script inlined and data-transport="host", so
// that it talks to the host over postMessage (the host proxies its tool
// calls) and follows its links as #/… routes.
func AppHTML() []byte {
	page := string(mustRead("app/index.html"))
	page = strings.Replace(page, `<html lang="en">`, `<html lang="en" data-transport="host">`, 1)
	page = strings.Replace(page, `<link rel="stylesheet" href="/app.css">`, "<style>\n"+string(mustRead("app/app.css"))+"</style>", 1)
	page = strings.Replace(page, `<script src="/app.js" defer></script>`, "", 1)
	page = strings.Replace(page, "</body>", "<script>\n"+string(mustRead("app/app.js"))+"</script>\n</body>", 1)
	return []byte(page)
}

func mustRead(name string) []byte {
	b, err := app.ReadFile(name)
	if err != nil {
		panic("explorer: " + err.Error())
	}
	return b
}
