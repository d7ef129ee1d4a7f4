// Package examples_test runs the walkthrough of examples/README.md exactly as
// a user would: every command of its sh blocks, in order, as written, in a
// scratch copy of the repository layout, so the page cannot drift from what
// kgc and kgmcp do.
package examples_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kgc-project/kgc/internal/imgtest"
)

const (
	// example is the example's directory, relative to examples/.
	example = "lakeside-science"
	// frameworkID is the example framework's ID.
	frameworkID = "lakeside-primary-science-grades-3-4"
	// readmeAddr is the HTTP address the README serves on; the test
	// substitutes a free port.
	readmeAddr = "127.0.0.1:8765"
)

// snapshotRe matches the example's snapshot IDs wherever the README names one.
var snapshotRe = regexp.MustCompile(regexp.QuoteMeta(frameworkID) + `@2025\+[0-9a-f]{12}`)

// result is what one command did.
type result struct {
	code           int
	stdout, stderr string
}

// walk holds the state of one run of the walkthrough.
type walk struct {
	t        *testing.T
	repo     string // the repository root
	dir      string // the scratch directory the commands run in
	addr     string // the free address that replaces readmeAddr
	snapshot string // the snapshot ID the README names
	pack     string // the pack command, run again at the end
	server   *exec.Cmd
}

// step is what the test expects of one README command: the command starts
// with prefix, and check judges what it did.
type step struct {
	prefix string
	run    func(w *walk, command string) // nil: run the command with sh and check it
	check  func(w *walk, r result)
}

// steps lists the README's commands in order. A command added, removed or
// reordered in the README fails the test until this list says what to expect
// of it.
var steps = []step{
	{prefix: "make build", run: (*walk).makeBuild},
	{prefix: "./bin/kgc check-profile ", check: func(w *walk, r result) {
		w.expect(r.code == 0 && strings.HasPrefix(r.stdout, "ok "), "check-profile", r)
	}},
	{prefix: "./bin/kgc pack ", check: func(w *walk, r result) {
		s := w.packSummary(r)
		w.expect(s.Outcome == "created", "pack: outcome "+s.Outcome, r)
		c := s.Counts
		if c.FrameworkNodes != 1 || c.ItemNodes != 18 || c.LearningComponentNodes != 4 || c.Relationships != 29 ||
			c.SupportsRelationships != 11 || c.AdditionalCounts.CodedItems != 12 {
			w.t.Errorf("pack counts %+v, want 1 framework, 18 items (12 coded standards), 4 components, 29 relationships (11 supports)", c)
		}
	}},
	{prefix: "./bin/kgc validate ", check: func(w *walk, r result) {
		w.expect(r.code == 0 && strings.HasPrefix(r.stdout, "ok   "+w.snapshot+" "), "validate", r)
	}},
	{prefix: "./bin/kgc build ", check: func(w *walk, r result) {
		w.expect(r.code == 0, "build", r)
		if _, err := os.Stat(filepath.Join(w.dir, "build", "examples", "images", w.snapshot+".kgimg")); err != nil {
			w.t.Errorf("build wrote no image: %v", err)
		}
	}},
	{prefix: "./bin/kgc verify ", check: func(w *walk, r result) {
		w.expect(r.code == 0 && strings.HasPrefix(r.stdout, "ok ") && strings.Contains(r.stdout, w.snapshot+".kgimg"), "verify", r)
	}},
	{prefix: "./bin/kgc smoke -- ./bin/kgmcp ", check: (*walk).smokePassed},
	{prefix: "printf ", check: (*walk).searchAnswered},
	{prefix: "./bin/kgmcp --http ", run: (*walk).serve},
	{prefix: "./bin/kgc smoke --url ", check: (*walk).smokePassed},
}

// The README's walkthrough, run as written: build, check the profile, pack,
// validate, build, verify, smoke kgmcp over stdio, ask search_standards over
// stdio, serve over HTTP and smoke that; then packing the same exports again
// is existing_identical.
func TestWalkthrough(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the walkthrough is written for a POSIX shell")
	}
	w := &walk{t: t, repo: imgtest.RepoRoot(t), dir: t.TempDir(), addr: freeAddr(t)}
	readme := readREADME(t)
	w.snapshot = readmeSnapshot(t, readme)
	if err := os.CopyFS(filepath.Join(w.dir, "examples", example), os.DirFS(filepath.Join(w.repo, "examples", example))); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.stopServer)

	commands := shellCommands(readme)
	for i, c := range commands {
		if i >= len(steps) || !strings.HasPrefix(c, steps[i].prefix) {
			t.Fatalf("README command %d is not what the test expects (%q…):\n%s", i+1, steps[min(i, len(steps)-1)].prefix, c)
		}
	}
	if len(commands) != len(steps) {
		t.Fatalf("the README has %d commands, the test expects %d:\n%s", len(commands), len(steps), strings.Join(commands, "\n"))
	}
	for i, c := range commands {
		start := time.Now()
		if steps[i].run != nil {
			steps[i].run(w, c)
		} else {
			steps[i].check(w, w.sh(c))
		}
		t.Logf("%s… (%v)", steps[i].prefix, time.Since(start).Round(time.Millisecond))
		if strings.HasPrefix(c, "./bin/kgc pack ") {
			w.pack = c
		}
		if t.Failed() {
			t.FailNow()
		}
	}

	// Packing the same exports again changes nothing.
	before := treeOf(t, filepath.Join(w.dir, "build", "examples", "packages"))
	r := w.sh(w.pack)
	if s := w.packSummary(r); s.Outcome != "existing_identical" {
		t.Errorf("packing again: outcome %q, want existing_identical", s.Outcome)
	}
	if after := treeOf(t, filepath.Join(w.dir, "build", "examples", "packages")); after != before {
		t.Error("packing again changed the packages")
	}
}

// The README names every field the exports, the detailed documents and the
// profile use, so a field added to the example cannot go undocumented.
func TestReadmeNamesEveryField(t *testing.T) {
	readme := readREADME(t)
	dir := filepath.Join(imgtest.RepoRoot(t), "examples", example)
	fields := map[string]bool{}
	for _, name := range []string{"as_nodes_lakeside_science.jsonl", "as_relationships_lakeside_science.jsonl"} {
		b, err := os.ReadFile(filepath.Join(dir, "export", name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			var rec map[string]json.RawMessage
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			addKeys(fields, rec)
			var props map[string]string
			if err := json.Unmarshal(rec["properties"], &props); err != nil {
				t.Fatalf("%s: properties: %v", name, err)
			}
			addKeys(fields, props)
		}
	}
	var framework map[string]any
	readJSON(t, filepath.Join(dir, "export", "detailed", "as_standards_framework.json"), &framework)
	addKeys(fields, framework)
	var provenance map[string]map[string]any
	readJSON(t, filepath.Join(dir, "export", "detailed", "as_entity_provenance.json"), &provenance)
	for _, entry := range provenance {
		addKeys(fields, entry)
	}
	var profile map[string]any
	readJSON(t, filepath.Join(dir, "profiles", frameworkID, "1.0", "profile.json"), &profile)
	addKeys(fields, profile)

	var missing []string
	for f := range fields {
		if !strings.Contains(readme, "`"+f+"`") {
			missing = append(missing, f)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("examples/README.md does not name these fields (as `field`): %v", missing)
	}
}

// makeBuild runs the Makefile's build recipe, as `make build` would, with
// bin/ in the scratch directory instead of the repository's.
func (w *walk) makeBuild(command string) {
	t := w.t
	if command != "make build" {
		t.Fatalf("the README builds with %q; the test knows only `make build`", command)
	}
	recipe := makeRecipe(t, filepath.Join(w.repo, "Makefile"), "build")
	if len(recipe) == 0 {
		t.Fatal("the Makefile has no build recipe")
	}
	bin := filepath.Join(w.dir, "bin") + "/"
	for _, line := range recipe {
		line = strings.ReplaceAll(line, "$(GO)", "go")
		line = strings.ReplaceAll(line, " bin/", " "+bin)
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir = w.repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
	}
	for _, b := range []string{"kgc", "kgmcp"} {
		if _, err := os.Stat(bin + b); err != nil {
			t.Fatalf("make build made no bin/%s: %v", b, err)
		}
	}
}

// sh runs a README command with sh in the scratch directory.
func (w *walk) sh(command string) result {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", strings.ReplaceAll(command, readmeAddr, w.addr))
	cmd.Dir = w.dir
	cmd.Env = cleanEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
	if err != nil && r.code <= 0 {
		w.t.Fatalf("%s: %v\n%s", command, err, r.stderr)
	}
	return r
}

// expect reports a failed step with what the command printed.
func (w *walk) expect(ok bool, what string, r result) {
	w.t.Helper()
	if !ok {
		w.t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", what, r.code, r.stdout, r.stderr)
	}
}

// packSummary is kgc pack's JSON summary, checked against the README's
// snapshot ID.
type packSummary struct {
	Outcome, FrameworkID, SnapshotID string
	Counts                           struct {
		FrameworkNodes, ItemNodes, LearningComponentNodes, Relationships, SupportsRelationships int
		AdditionalCounts                                                                        struct{ CodedItems int }
	}
}

func (w *walk) packSummary(r result) packSummary {
	w.t.Helper()
	var s packSummary
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil || r.code != 0 {
		w.t.Fatalf("pack: exit %d, %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	if s.FrameworkID != frameworkID || s.SnapshotID != w.snapshot {
		w.t.Errorf("pack made %s (%s); the README names %s", s.SnapshotID, s.FrameworkID, w.snapshot)
	}
	return s
}

// smokePassed checks kgc smoke's summary.
func (w *walk) smokePassed(r result) {
	w.t.Helper()
	var s struct {
		Status   string
		Failures []any
	}
	json.Unmarshal([]byte(r.stdout), &s)
	w.expect(r.code == 0 && s.Status == "passed" && len(s.Failures) == 0, "smoke", r)
}

// searchAnswered checks the answer to the README's search_standards call:
// request 2 answered without error, its text naming the magnets standard.
func (w *walk) searchAnswered(r result) {
	w.t.Helper()
	w.expect(r.code == 0, "ask", r)
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var msg struct {
			ID     int
			Error  any
			Result struct {
				IsError bool
				Content []struct{ Type, Text string }
			}
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			w.t.Fatalf("kgmcp wrote a line that is not JSON: %v\n%s", err, line)
		}
		if msg.ID != 2 {
			continue
		}
		if msg.Error != nil || msg.Result.IsError || len(msg.Result.Content) == 0 {
			w.t.Fatalf("search_standards failed: %s", line)
		}
		text := msg.Result.Content[0].Text
		for _, want := range []string{"LPS.3.PS.2", "Compare how magnets attract or repel each other", w.snapshot} {
			if !strings.Contains(text, want) {
				w.t.Errorf("search_standards' text does not name %q:\n%s", want, text)
			}
		}
		return
	}
	w.expect(false, "ask: no answer to request 2", r)
}

// serve starts the README's HTTP server in the background and waits until
// its health check says it is ready.
func (w *walk) serve(command string) {
	t := w.t
	cmd := exec.Command("sh", "-c", "exec "+strings.ReplaceAll(command, readmeAddr, w.addr))
	cmd.Dir = w.dir
	cmd.Env = cleanEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.server = cmd
	client := &http.Client{Transport: &http.Transport{Proxy: nil}, Timeout: time.Second}
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		resp, err := client.Get("http://" + w.addr + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
	}
	t.Fatalf("kgmcp --http never became ready:\n%s", stderr.String())
}

// stopServer stops the HTTP server, if one was started, as Ctrl-C would.
func (w *walk) stopServer() {
	if w.server == nil {
		return
	}
	w.server.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- w.server.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			w.t.Errorf("kgmcp --http did not stop cleanly: %v", err)
		}
	case <-time.After(15 * time.Second):
		w.server.Process.Kill()
		<-done
		w.t.Error("kgmcp --http did not stop on SIGINT")
	}
}

// shellCommands returns the commands of the README's sh blocks in order, a
// command's continuation lines (ending in a backslash) joined to it with
// their newlines, comments and blank lines left out.
func shellCommands(readme string) []string {
	var out []string
	inBlock, cur := false, ""
	for _, line := range strings.Split(readme, "\n") {
		switch {
		case !inBlock && strings.TrimSpace(line) == "```sh":
			inBlock = true
		case inBlock && strings.TrimSpace(line) == "```":
			inBlock = false
		case inBlock:
			if cur == "" && (strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#")) {
				continue
			}
			cur += line
			if strings.HasSuffix(line, "\\") {
				cur += "\n"
				continue
			}
			out = append(out, cur)
			cur = ""
		}
	}
	return out
}

// makeRecipe returns the recipe lines of a Makefile target.
func makeRecipe(t *testing.T, makefile, target string) []string {
	t.Helper()
	b, err := os.ReadFile(makefile)
	if err != nil {
		t.Fatal(err)
	}
	var recipe []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, target+":"):
			in = true
		case in && strings.HasPrefix(line, "\t"):
			recipe = append(recipe, strings.TrimSpace(line))
		case in:
			return recipe
		}
	}
	return recipe
}

// readmeSnapshot returns the one snapshot ID the README names (it may name
// it many times).
func readmeSnapshot(t *testing.T, readme string) string {
	t.Helper()
	ids := map[string]bool{}
	for _, id := range snapshotRe.FindAllString(readme, -1) {
		ids[id] = true
	}
	if len(ids) != 1 {
		t.Fatalf("the README names %d snapshot IDs of %s, want exactly one: %v", len(ids), frameworkID, ids)
	}
	for id := range ids {
		return id
	}
	return ""
}

// cleanEnv is the environment without the variables that would change what
// kgc and kgmcp read.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "KGMCP_") || strings.HasPrefix(kv, "KGFEGMCP_") || strings.HasPrefix(kv, "KGC_PROFILES=") ||
			strings.HasPrefix(kv, "KGC_PROMPTS=") || strings.HasPrefix(kv, "SOURCE_DATE_EPOCH=") || strings.HasPrefix(kv, "PORT=") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// freeAddr returns a loopback address with a port nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// treeOf lists every file under root with its bytes' length and content.
func treeOf(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		fmt.Fprintf(&b, "%s %d %q\n", p, len(data), data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func readREADME(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(imgtest.RepoRoot(t), "examples", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func addKeys[V any](set map[string]bool, m map[string]V) {
	for k := range m {
		set[k] = true
	}
}
