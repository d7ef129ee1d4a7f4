// Command refdocs writes the generated pages of docs/reference/ from the code
// itself: the tools (runtime/query), the resources and templates, the prompts
// (runtime/prompt) and the error codes (runtime/kgerr, plus the JSON-RPC codes
// the server answers), each with examples taken from the golden transcripts of
// cmd/kgmcp/testdata/transcripts/samples. Run it from anywhere in the
// repository:
//
//	go run ./tools/refdocs        (or: go generate ./tools/refdocs)
//
// TestReferenceDocsCurrent fails when a generated page differs from what this
// program writes now. The other pages of docs/reference/ are written by hand
// and never touched here.
package main

//go:generate go run .

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// genDir is where the generated pages go, relative to the repository root.
const genDir = "docs/reference"

// regenerate is the command a stale page's test failure names.
const regenerate = "go run ./tools/refdocs (or go test ./tools/refdocs -update)"

func main() {
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "refdocs:", err)
		os.Exit(2)
	}
	pages, err := render(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "refdocs:", err)
		os.Exit(1)
	}
	if err := write(root, pages); err != nil {
		fmt.Fprintln(os.Stderr, "refdocs:", err)
		os.Exit(1)
	}
}

// render returns every generated page by file name.
func render(root string) (map[string][]byte, error) {
	trs, err := loadTranscripts(filepath.Join(root, transcriptDir))
	if err != nil {
		return nil, err
	}
	codes, err := domainCodes(root)
	if err != nil {
		return nil, err
	}
	raisers, err := codeRaisers(root, codes)
	if err != nil {
		return nil, err
	}
	pages := map[string][]byte{}
	if pages["tools.md"], err = toolsPage(trs); err != nil {
		return nil, err
	}
	if pages["resources.md"], err = resourcesPage(trs); err != nil {
		return nil, err
	}
	if pages["prompts.md"], err = promptsPage(trs); err != nil {
		return nil, err
	}
	if pages["errors.md"], err = errorsPage(trs, codes, raisers); err != nil {
		return nil, err
	}
	return pages, nil
}

// write writes every page into docs/reference/.
func write(root string, pages map[string][]byte) error {
	dir := filepath.Join(root, genDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(pages))
	for name := range pages {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), pages[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// repoRoot walks up from the working directory to the directory holding
// go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory: run refdocs inside the repository")
		}
		dir = parent
	}
}
