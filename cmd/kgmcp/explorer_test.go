package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The browser explorer (runtime/explorer) is tested in a real browser:
// Debian's chromium, headless, loads the pages kgmcp --http serves, runs
// their script against the server's /mcp, and the tests read the DOM it
// dumps (what a person sees, as text) and compare screenshots.

var updateScreens = flag.Bool("update-screens", false, "rewrite the explorer's reference screenshots (docs/explorer.png, testdata/explorer/*.png)")

const mathsFW = "kgc-sample-mathematics-grades-1-3"

// chromium returns the browser, or skips visibly (make test installs it:
// tools/install-renderers.sh).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "chromium (Debian's chromium) is not installed: the explorer was not tested in a browser; make test installs it (tools/install-renderers.sh)"
	if p := os.Getenv("KGC_SKIP_LOG"); p != "" {
		if f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
			fmt.Fprintf(f, "SKIP %s (kgmcp): %s\n", t.Name(), msg)
			f.Close()
		}
	}
	t.Skip("SKIP: " + msg)
	return ""
}

// browse loads url in headless chromium and returns the DOM once the page's
// calls have been answered (virtual time: the page's own clock runs only
// while it is not waiting for the network).
func browse(t *testing.T, url string, extra ...string) string {
	t.Helper()
	args := append([]string{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--user-data-dir=" + t.TempDir(), "--virtual-time-budget=15000"}, extra...)
	out, err := exec.Command(chromium(t), append(args, "--dump-dom", url)...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom %s: %v", url, err)
	}
	return string(out)
}

// browseLoaded loads url in headless chromium and returns the DOM once the
// page has loaded (real time: a page that waits for something holds its
// load).
func browseLoaded(t *testing.T, url string) string {
	t.Helper()
	out, err := exec.Command(chromium(t), "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--user-data-dir="+t.TempDir(), "--dump-dom", url).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom %s: %v", url, err)
	}
	return string(out)
}

// screenshot takes a w×h screenshot of url (after its calls have been
// answered, in virtual time; or, loaded, once the page has loaded).
func screenshot(t *testing.T, url string, w, h int, loaded ...bool) image.Image {
	t.Helper()
	file := filepath.Join(t.TempDir(), "shot.png")
	args := []string{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(), "--force-device-scale-factor=1", fmt.Sprintf("--window-size=%d,%d", w, h), "--screenshot=" + file, url}
	if len(loaded) == 0 || !loaded[0] {
		args = append([]string{"--virtual-time-budget=15000"}, args...)
	}
	if out, err := exec.Command(chromium(t), args...).CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, out)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// mainText is the text of the page's <main>, tags removed.
func mainText(dom string) string {
	i, j := strings.Index(dom, "<main"), strings.Index(dom, "</main>")
	if i < 0 || j < i {
		return ""
	}
	return regexp.MustCompile(`<[^>]*>`).ReplaceAllString(dom[i:j], "\n")
}

func standardURL(base, fw, snap, node string) string {
	return base + "/framework/" + url.PathEscape(fw) + "/snapshot/" + url.PathEscape(snap) + "/standard/" + url.PathEscape(node)
}

func mathsSnapshot(t *testing.T, dir string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, mathsFW+"@*.kgimg"))
	if len(m) != 1 {
		t.Fatalf("no mathematics image in %s", dir)
	}
	return strings.TrimSuffix(filepath.Base(m[0]), ".kgimg")
}

// A person opens a standard's page: its statement and facts, the path to it
// in the breadcrumb, what is above and under it, and the three kinds of
// related fact apart: the publisher's relations, the generated learning
// components, the generated progression edges (each labelled as such).
func TestExplorerShowsAStandardInABrowser(t *testing.T) {
	chromium(t)
	dir := shippedImages(t)
	srv := startHTTP(t, dir)
	snap := mathsSnapshot(t, dir)
	spec := pkggen.Shipped()[1]
	dom := browse(t, standardURL(srv.base, mathsFW, snap, pkggen.NodeID(spec, 0, 0, 0, 0)))
	if !strings.Contains(dom, `data-state="ready"`) {
		t.Fatalf("the page did not render:\n%.2000s", dom)
	}
	text := mainText(dom)
	for _, want := range []string{"M1.1.1.1 · Indicator", "Count counting and whole numbers, step 1 of 3, in GRADE ONE.",
		"kgfegmcp://framework/" + mathsFW + "/snapshot/", "Above", "M1.1.1 Demonstrate understanding of counting",
		"Publisher relations", "The publisher asserts none for this standard.",
		"Learning components", "generated decomposition", "(confidence 0.95)",
		"Learning progressions (generated)", "Generated edges (llm_inferred)", "builds towards", "related to"} {
		if !strings.Contains(text, want) {
			t.Errorf("the standard's page does not show %q:\n%s", want, text)
		}
	}
	// Keyboard and screen reader: a language, a skip link to the main
	// landmark, a labelled search field, a labelled breadcrumb with the
	// current page marked, one h1 and a heading per section.
	for _, want := range []string{`<html lang="en"`, `<a class="skip" href="#main">`, `<label for="q">`, `aria-label="Breadcrumb"`, `aria-current="page"`, `<main id="main"`} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Count(dom, "<h1") != 1 || strings.Count(dom, "<section") != strings.Count(dom, "<h2") {
		t.Errorf("%d h1, %d sections, %d h2", strings.Count(dom, "<h1"), strings.Count(dom, "<section"), strings.Count(dom, "<h2"))
	}
	// A learning component the page links to has its own page, back to the
	// standards it supports.
	comp := regexp.MustCompile(`href="(/framework/[^"]*/learning-component/[^"]*)"`).FindStringSubmatch(dom)
	if comp == nil {
		t.Fatal("the standard's page links no learning component")
	}
	if text := mainText(browse(t, srv.base+comp[1])); !strings.Contains(text, "Learning component") || !strings.Contains(text, "Supports") ||
		!strings.Contains(text, "M1.1.1.1 Count counting and whole numbers") {
		t.Errorf("the learning component's page:\n%s", text)
	}
	crumbs := dom[strings.Index(dom, `<nav id="crumbs"`):strings.Index(dom, "</nav>")]
	for _, want := range []string{"Catalog", "kgc Sample Mathematics Curriculum, Grades 1–3", "GRADE ONE", "Strand 1: Addition and subtraction", "M1.1.1 Demonstrate"} {
		if !strings.Contains(crumbs, want) {
			t.Errorf("the breadcrumb lacks %q: %s", want, crumbs)
		}
	}
	// First paint: the page's own clock when its main content was drawn.
	m := regexp.MustCompile(`data-rendered-ms="(\d+)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatal("no render time recorded")
	}
	ms, _ := strconv.Atoi(m[1])
	t.Logf("first paint of the standard's page at %d ms of page time", ms)
}

// The framework page lists the top level in curriculum order, each a link;
// a kgfegmcp:// address given as ?uri= leads to its page; search lists
// candidates with their place.
func TestExplorerNavigatesAndFollowsCitations(t *testing.T) {
	chromium(t)
	dir := shippedImages(t)
	srv := startHTTP(t, dir)
	snap := mathsSnapshot(t, dir)
	dom := browse(t, srv.base+"/framework/"+mathsFW+"/snapshot/"+url.PathEscape(snap))
	text := mainText(dom)
	one, two, three := strings.Index(text, "GRADE ONE"), strings.Index(text, "GRADE TWO"), strings.Index(text, "GRADE THREE")
	if one < 0 || !(one < two && two < three) || !strings.Contains(text, "Ordered by grade.") {
		t.Errorf("the framework page's top level is not GRADE ONE, TWO, THREE in order:\n%s", text)
	}

	spec := pkggen.Shipped()[1]
	node := pkggen.NodeID(spec, 1, 0, 0, 1)
	cite := "kgfegmcp://framework/" + mathsFW + "/snapshot/" + url.PathEscape(snap) + "/standard/" + node
	dom = browse(t, srv.base+"/?uri="+url.QueryEscape(cite))
	if text := mainText(dom); !strings.Contains(text, "M2.1.1.2 · Indicator") {
		t.Errorf("?uri=%s did not lead to the standard's page:\n%.1500s", cite, text)
	}
	dom = browse(t, srv.base+"/?uri="+url.QueryEscape("https://example.org/x"))
	if !strings.Contains(dom, `data-state="error"`) || !strings.Contains(mainText(dom), "is not one") {
		t.Errorf("a foreign address: %.800s", mainText(dom))
	}

	dom = browse(t, srv.base+"/search?q="+url.QueryEscape("whole number"))
	text = mainText(dom)
	if !strings.Contains(text, "Search: whole number") || !strings.Contains(text, "M1.1.1 Demonstrate understanding of counting and whole numbers") ||
		!strings.Contains(text, "not alignments") {
		t.Errorf("search:\n%.2000s", text)
	}

	dom = browse(t, srv.base+"/")
	if text := mainText(dom); !strings.Contains(text, "Frameworks (2)") || !strings.Contains(text, "kgc Sample English Curriculum, Grades 1–2") {
		t.Errorf("the catalog:\n%s", text)
	}
}

// Statements are shown as text: markup, script and bidi controls a package
// holds never become part of the page, and inline emphasis shows its words.
func TestExplorerRendersHostileStatementsAsText(t *testing.T) {
	chromium(t)
	f := pkgtest.Sample(t, mathsFW)
	hostile := `<img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script> a **bold** *n* & "q" ` + "\u202eevil\u2066"
	f.Records(t, "delivery/nodes.jsonl", func(rec map[string]any) []map[string]any {
		if p := rec["properties"].(map[string]any); p["statementCode"] == "M1.1.1.1" {
			p["description"] = hostile
		}
		return []map[string]any{rec}
	})
	f.Seal(t)
	dir := t.TempDir()
	data, res := imgtest.Build(t, f.Dir, f.Profiles, "")
	if err := os.WriteFile(filepath.Join(dir, res.Manifest.SnapshotID+".kgimg"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startHTTP(t, dir)
	spec := pkggen.Shipped()[1]
	dom := browse(t, standardURL(srv.base, mathsFW, res.Manifest.SnapshotID, pkggen.NodeID(spec, 0, 0, 0, 0)))
	if !strings.Contains(dom, `data-state="ready"`) {
		t.Fatalf("the page did not render:\n%.2000s", dom)
	}
	if strings.Contains(dom, "pwned</title>") || strings.Contains(dom, "<img") || strings.Count(dom, "<script") != 1 {
		t.Errorf("a statement's markup became part of the page:\n%.3000s", dom)
	}
	if !strings.Contains(dom, "&lt;img src=x onerror=") || !strings.Contains(dom, "&lt;script&gt;") || !strings.Contains(dom, " a bold n &amp; ") ||
		!strings.Contains(dom, "\u202eevil\u2066") {
		t.Errorf("the statement is not shown as its text:\n%.3000s", mainText(dom))
	}
}

// What a person sees, on a desktop and on a phone, compared with the
// reference screenshots (-update-screens rewrites them; docs/explorer.png is
// the README's).
func TestExplorerScreenshots(t *testing.T) {
	chromium(t)
	dir := shippedImages(t)
	srv := startHTTP(t, dir)
	page := standardURL(srv.base, mathsFW, mathsSnapshot(t, dir), pkggen.NodeID(pkggen.Shipped()[1], 0, 0, 0, 0))
	for _, c := range []struct {
		name string
		w, h int
		ref  string
	}{
		{"desktop", 1280, 900, "../../docs/explorer.png"},
		{"phone", 390, 844, "testdata/explorer/phone.png"},
	} {
		got := screenshot(t, page, c.w, c.h)
		if *updateScreens {
			var b bytes.Buffer
			png.Encode(&b, got)
			os.MkdirAll(filepath.Dir(c.ref), 0o755)
			if err := os.WriteFile(c.ref, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		f, err := os.Open(c.ref)
		if err != nil {
			t.Fatalf("%s: %v (-update-screens writes it)", c.name, err)
		}
		want, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if d := difference(got, want); d > 0.02 {
			t.Errorf("%s: %.1f%% of the pixels differ from %s (a browser or font update can do that: look at the page, then -update-screens)", c.name, 100*d, c.ref)
		}
	}
}

// difference is the share of pixels of a and b whose colour differs by
// more than a few levels (1 when the sizes differ).
func difference(a, b image.Image) float64 {
	if a.Bounds() != b.Bounds() {
		return 1
	}
	r := a.Bounds()
	diff := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if absDiff(r1, r2)+absDiff(g1, g2)+absDiff(b1, b2) > 3*8<<8 {
				diff++
			}
		}
	}
	return float64(diff) / float64(r.Dx()*r.Dy())
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// The App inside a host: a minimal host harness (testdata/explorer/host.html)
// that speaks the MCP Apps extension's postMessage protocol shows the App
// kgmcp serves to a client declaring the extension (read over stdio), for a
// traverse_learning_progressions call named by statement code; the App asks
// the host for the standard's page through tools/call and draws it.
func TestExplorerAppInsideAHost(t *testing.T) {
	chromium(t)
	dir := shippedImages(t)
	ctx := context.Background()
	caps := &mcp.ClientCapabilities{Extensions: map[string]any{"io.modelcontextprotocol/ui": map[string]any{"mimeTypes": []any{"text/html;profile=mcp-app"}}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "0"}, &mcp.ClientOptions{Capabilities: caps}).
		Connect(ctx, &mcp.CommandTransport{Command: exec.Command(binary, dir)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var appURI string
	for _, tool := range tools.Tools {
		if ui, ok := tool.Meta["ui"].(map[string]any); ok && tool.Name == "traverse_learning_progressions" {
			appURI, _ = ui["resourceUri"].(string)
		}
	}
	if appURI == "" {
		t.Fatal("traverse_learning_progressions links no App")
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: appURI})
	if err != nil {
		t.Fatal(err)
	}
	srv := startHTTP(t, dir)
	target, _ := url.Parse(srv.base)
	harness, err := os.ReadFile("testdata/explorer/host.html")
	if err != nil {
		t.Fatal(err)
	}
	app, _ := json.Marshal(map[string]any{"html": rr.Contents[0].Text, "tool": "traverse_learning_progressions",
		"arguments": map[string]any{"request": map[string]any{"frameworkId": mathsFW, "identifier": map[string]any{"identifierType": "statement_code", "statementCode": "M1.1.1.1"}}}})
	page := bytes.Replace(harness, []byte("APP_JSON"), bytes.ReplaceAll(app, []byte("</"), []byte(`<\/`)), 1)
	mux := http.NewServeMux()
	mux.Handle("/mcp", httputil.NewSingleHostReverseProxy(target))
	mux.HandleFunc("/host", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	// The harness's load waits on /wait, which answers once the App says
	// it has drawn its page (/done), or after 30 s.
	done := make(chan struct{}, 1)
	mux.HandleFunc("/done", func(http.ResponseWriter, *http.Request) {
		select {
		case done <- struct{}{}:
		default:
		}
	})
	mux.HandleFunc("/wait", func(w http.ResponseWriter, _ *http.Request) {
		select {
		case <-done:
		case <-time.After(30 * time.Second):
		}
		w.Header().Set("Content-Type", "image/gif")
		w.Write([]byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"))
	})
	host := httptest.NewServer(mux)
	defer host.Close()

	dom := browseLoaded(t, host.URL+"/host")
	log := dom[strings.Index(dom, `<ol id="log">`):]
	for _, want := range []string{"initialize 2026-01-26", "proxied get_standard_context", "rendered: M1.1.1.1 · Indicator",
		"proxied get_publisher_relations", "proxied get_learning_components_for_standard", "proxied get_standard_progressions"} {
		if !strings.Contains(log, want) {
			t.Errorf("the App inside the host: no %q in its log:\n%.1500s", want, log)
		}
	}
	got := screenshot(t, host.URL+"/host", 1040, 800, true)
	ref := "testdata/explorer/app-in-host.png"
	if *updateScreens {
		var b bytes.Buffer
		png.Encode(&b, got)
		if err := os.WriteFile(ref, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(ref)
	if err != nil {
		t.Fatalf("%v (-update-screens writes it)", err)
	}
	want, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if d := difference(got, want); d > 0.02 {
		t.Errorf("the App in the host: %.1f%% of the pixels differ from %s", 100*d, ref)
	}
}
