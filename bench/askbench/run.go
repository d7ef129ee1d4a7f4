package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Report statuses.
const (
	statusOK     = "ok"
	statusFailed = "failed" // a call failed or a value could not be extracted
	statusSkip   = "skip"   // no corpus: nothing measured
)

// report is the whole replay, as printed by -json.
type report struct {
	Status          string           `json:"status"`
	Reason          string           `json:"reason,omitempty"`
	Corpus          string           `json:"corpus"`
	Images          []string         `json:"images,omitempty"`
	KgmcpFlags      []string         `json:"kgmcpFlags"`
	ProtocolVersion string           `json:"protocolVersion"`
	ToolCount       int              `json:"toolCount"`
	ToolListBytes   int              `json:"toolListBytes"` // name, title, description, inputSchema of every tool, compact JSON
	ToolBytes       map[string]int   `json:"toolBytes"`     // the same, per tool
	Questions       []questionResult `json:"questions"`
	Totals          totals           `json:"totals"`
}

// totals sums the questions.
type totals struct {
	Calls           int `json:"calls"`
	TextBytes       int `json:"textBytes"`
	StructuredBytes int `json:"structuredBytes"`
	FactsFound      int `json:"factsFound"`
	FactsRequired   int `json:"factsRequired"`
	NeededBecause   int `json:"neededBecauseCalls"`
	Failures        int `json:"failures"`
}

// run builds the binaries and images, serves them and replays the script.
// A missing corpus is a report with status skip, not an error.
func run(corpus string, kgmcpFlags []string) (*report, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	if !filepath.IsAbs(corpus) {
		corpus = filepath.Join(root, corpus)
	}
	rep := &report{Corpus: corpus, KgmcpFlags: append([]string{}, kgmcpFlags...), ProtocolVersion: protocolVersion, Questions: []questionResult{}}
	pkgs, missing := corpusPackages(corpus)
	if _, err := os.Stat(corpus); err != nil {
		rep.Status = statusSkip
		rep.Reason = fmt.Sprintf("no corpus at %s (its four derived packages, profiles and prompts are needed); nothing measured", corpus)
		return rep, nil
	}
	if len(missing) > 0 {
		rep.Status = statusSkip
		rep.Reason = fmt.Sprintf("the corpus at %s lacks %s; nothing measured", corpus, strings.Join(missing, ", "))
		return rep, nil
	}
	tmp, err := os.MkdirTemp("", "askbench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	kgc, kgmcp := filepath.Join(tmp, "kgc"), filepath.Join(tmp, "kgmcp")
	for _, b := range [][2]string{{kgc, "./cmd/kgc"}, {kgmcp, "./cmd/kgmcp"}} {
		cmd := exec.Command("go", "build", "-o", b[0], b[1])
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build %s: %v\n%s", b[1], err, out)
		}
	}
	images := filepath.Join(tmp, "images")
	args := append([]string{"build", "--profiles", filepath.Join(corpus, "profiles"), "--prompts", filepath.Join(corpus, "prompts"), "-o", images}, pkgs...)
	if out, err := exec.Command(kgc, args...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("kgc build: %v\n%s", err, out)
	}
	for _, s := range corpusSnapshots {
		rep.Images = append(rep.Images, s+".kgimg")
	}

	c, err := startClient(kgmcp, append(append([]string{}, kgmcpFlags...), images)...)
	if err != nil {
		return nil, err
	}
	tools, err := c.listTools()
	if err != nil {
		c.close()
		return nil, err
	}
	b, err := json.Marshal(tools)
	if err != nil {
		c.close()
		return nil, err
	}
	rep.ToolCount, rep.ToolListBytes = len(tools), len(b)
	rep.ToolBytes = map[string]int{}
	for _, t := range tools {
		b, _ := json.Marshal(t)
		rep.ToolBytes[t.Name] = len(b)
	}
	results, err := replay(c, script)
	if cerr := c.close(); err == nil && cerr != nil {
		err = fmt.Errorf("kgmcp: %v (stderr: %.500s)", cerr, c.stderr.String())
	}
	if err != nil {
		return nil, err
	}
	rep.Questions = results
	for _, q := range results {
		t := &rep.Totals
		t.Calls += q.Calls
		t.TextBytes += q.TextBytes
		t.StructuredBytes += q.StructuredBytes
		t.FactsFound += q.FactsFound
		t.FactsRequired += q.FactsRequired
		t.Failures += len(q.Failures)
		for _, s := range q.Steps {
			if s.Needed != "" {
				t.NeededBecause++
			}
		}
	}
	rep.Status = statusOK
	if rep.Totals.Failures > 0 {
		rep.Status = statusFailed
	}
	return rep, nil
}

// corpusPackages returns the four package directories under
// corpus/derived/graph_packages, and what is missing of them, the profiles and
// the prompt configs.
func corpusPackages(corpus string) (pkgs, missing []string) {
	for _, s := range corpusSnapshots {
		fw, _, _ := strings.Cut(s, "@")
		dir := filepath.Join(corpus, "derived", "graph_packages", fw, s)
		if _, err := os.Stat(filepath.Join(dir, "package_manifest.json")); err != nil {
			missing = append(missing, "derived/graph_packages/"+fw+"/"+s)
		}
		pkgs = append(pkgs, dir)
	}
	for _, d := range []string{"profiles", "prompts"} {
		if info, err := os.Stat(filepath.Join(corpus, d)); err != nil || !info.IsDir() {
			missing = append(missing, d)
		}
	}
	return pkgs, missing
}

// moduleRoot finds the directory of this module's go.mod, from the working
// directory up (go run runs from anywhere in the module, go test from the
// package directory).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module github.com/kgc-project/kgc\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("not inside the kgc module (no go.mod of github.com/kgc-project/kgc above %s)", dir)
		}
		dir = parent
	}
}
