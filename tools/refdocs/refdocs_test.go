package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/prompt"
	"github.com/kgc-project/kgc/runtime/query"
)

// update rewrites the generated pages instead of comparing them:
//
//	go test ./tools/refdocs -update
var update = flag.Bool("update", false, "rewrite the generated pages of docs/reference")

// TestReferenceDocsCurrent fails when a generated page of docs/reference
// differs from what the generator writes now: a tool, resource, prompt or
// error code changed in the code, or a golden transcript changed, without the
// pages being regenerated.
func TestReferenceDocsCurrent(t *testing.T) {
	imgtest.Heavy(t) // single-threaded computation; make test's race-free pass runs it
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	pages, err := render(root)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := write(root, pages); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, name := range sortedKeys(pages) {
		path := filepath.Join(root, genDir, name)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v; run %s", filepath.Join(genDir, name), err, regenerate)
			continue
		}
		if !bytes.Equal(got, pages[name]) {
			t.Errorf("%s is stale (line %d differs from what the generator writes now); run %s",
				filepath.Join(genDir, name), firstDiff(got, pages[name]), regenerate)
		}
	}
}

// firstDiff is the 1-based line where a and b first differ.
func firstDiff(a, b []byte) int {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(la) && i < len(lb); i++ {
		if !bytes.Equal(la[i], lb[i]) {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

// load reads what the generator reads.
func load(t *testing.T) (string, []*transcript, []domainCode) {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	trs, err := loadTranscripts(filepath.Join(root, transcriptDir))
	if err != nil {
		t.Fatal(err)
	}
	dc, err := domainCodes(root)
	if err != nil {
		t.Fatal(err)
	}
	return root, trs, dc
}

// TestCuratedTablesMatchCode holds the hand-kept tables of curated.go and
// promptspage.go to the code: every domain code has a meaning and every
// meaning a code; every tool has an error list naming only real codes; every
// error a golden transcript shows for a tool or a prompt is in its list; every
// resource row names a served resource; every example file exists.
func TestCuratedTablesMatchCode(t *testing.T) {
	root, trs, dc := load(t)
	known := map[string]bool{}
	for _, c := range dc {
		known[c.value] = true
		if codeMeanings[c.value] == "" {
			t.Errorf("code %s (%s) has no meaning in codeMeanings", c.value, kgerrFile)
		}
	}
	for c := range codeMeanings {
		if !known[c] {
			t.Errorf("codeMeanings explains %s, which %s does not declare", c, kgerrFile)
		}
	}
	lists := map[string][]string{"commonToolErrors": commonToolErrors, "commonPromptErrors": commonPromptErrors}
	for name, l := range toolErrors {
		lists["toolErrors["+name+"]"] = l
	}
	for name, l := range promptErrors {
		lists["promptErrors["+name+"]"] = l
	}
	for where, l := range lists {
		for _, c := range l {
			if !known[c] {
				t.Errorf("%s names %s, which %s does not declare", where, c, kgerrFile)
			}
		}
	}
	served := map[string]bool{}
	for _, tool := range tools() {
		served[tool.Name] = true
		if _, ok := toolErrors[tool.Name]; !ok {
			t.Errorf("tool %s has no error list in toolErrors", tool.Name)
		}
		for _, tr := range toolErrorsSeen(trs, tool.Name) {
			c := errorCode(tr.errorText())
			if c != inputValidation && !contains(toolErrorCodes(tool.Name), c) {
				t.Errorf("%s: %s answers %s, which toolErrors does not list", tr.file, tool.Name, c)
			}
		}
	}
	for name := range toolErrors {
		if !served[name] {
			t.Errorf("toolErrors lists %s, which is not a served tool", name)
		}
	}
	for name, file := range exampleFile {
		if _, err := os.Stat(filepath.Join(root, transcriptDir, file)); err != nil {
			t.Errorf("exampleFile[%s]: %v", name, err)
		}
	}
	prompts := map[string][]string{}
	for _, d := range prompt.Defs() {
		prompts[d.Name] = promptErrorCodes(d)
	}
	for name := range promptErrors {
		if prompts[name] == nil {
			t.Errorf("promptErrors lists %s, which is not a prompt", name)
		}
	}
	for _, tr := range trs {
		if tr.method != "prompts/get" || tr.errorText() == "" {
			continue
		}
		if c := errorCode(tr.errorText()); c != inputValidation && !contains(prompts[tr.name], c) {
			t.Errorf("%s: prompt %s answers %s, which its error list lacks", tr.file, tr.name, c)
		}
	}
	rows := map[string]bool{"catalog": true}
	for _, tmpl := range query.ResourceTemplates() {
		rows[tmpl.Name] = true
	}
	for name := range resourceRows {
		if !rows[name] {
			t.Errorf("resourceRows describes %s, which is not a served resource", name)
		}
	}
}
