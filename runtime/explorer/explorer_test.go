package explorer_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/runtime/explorer"
)

// Every route answers the page or its asset with the security headers; the
// page loads nothing but its own script and style.
func TestHandlerServesThePageUnderItsPolicy(t *testing.T) {
	mux := http.NewServeMux()
	for _, r := range explorer.Routes {
		mux.Handle("GET "+r, explorer.Handler())
	}
	for path, kind := range map[string]string{
		"/": "text/html", "/search?q=x": "text/html", "/framework/a/snapshot/b/standard/c%2Fd": "text/html",
		"/app.js": "text/javascript", "/app.css": "text/css",
	} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		h := rec.Header()
		if rec.Code != 200 || !strings.HasPrefix(h.Get("Content-Type"), kind) || !strings.Contains(h.Get("Content-Security-Policy"), "script-src 'self'") ||
			h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: %d %v", path, rec.Code, h)
		}
		if kind == "text/html" {
			body := rec.Body.String()
			if strings.Contains(body, "http://") || strings.Contains(body, "https://") || strings.Count(body, "<script") != 1 || strings.Contains(body, "<script>") {
				t.Errorf("%s: the page loads something other than its own script", path)
			}
		}
	}
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/elsewhere", nil))
	if rec.Code != 404 {
		t.Errorf("/elsewhere: %d", rec.Code)
	}
}

// The MCP App is the same page, self-contained: style and script inline,
// nothing loaded from elsewhere, and the host transport selected.
func TestAppHTMLIsSelfContained(t *testing.T) {
	page := string(explorer.AppHTML())
	if !strings.Contains(page, `data-transport="host"`) || strings.Contains(page, `src="/app.js"`) || strings.Contains(page, `href="/app.css"`) ||
		!strings.Contains(page, "startInHost") || !strings.Contains(page, ".facts {") || strings.Count(page, "<script") != 1 {
		t.Errorf("the App's page is not self-contained:\n%.500s", page)
	}
	if strings.Contains(page, "http://") || strings.Contains(page, "https://") {
		t.Error("the App's page names an outside address")
	}
}
