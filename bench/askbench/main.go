// Command askbench replays how a model inside an MCP host uses kgmcp: sixteen
// realistic teacher and curriculum-officer questions over the four complete
// corpus packages, each answered with the tool calls a careful model makes
// after reading the tool list, working only from the text content blocks of
// each result, as Claude Desktop does (it never reads structuredContent).
//
//	go run ./bench/askbench [-corpus DIR] [-json] [-show] [-kgmcp-flags '--text-format json']
//
// It builds kgc and kgmcp, compiles the four packages into images, starts
// kgmcp over stdio and initializes as a host does (protocol 2025-06-18), then
// replays the script (script.go). A call that depends on an earlier result
// takes its value from that result's text with a regular expression; a value
// the text does not hold is a failure (the model could not continue). For
// each question it reports the calls, the bytes of text (what the model
// reads) and of structured content (what it does not), and which of the
// facts a correct, citable answer needs occur in the text; with the size of
// the tool list the model is shown. -show prints every call and its text.
//
// Without the corpus it prints SKIP and exits 0. It exits 1 when a call
// fails or a value cannot be extracted. Nothing is asserted about the
// figures: they are measured, see bench/README.md, "Model use (askbench)".
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/kgc-project/kgc/internal/corpus"
)

func main() {
	corpus := flag.String("corpus", corpus.Dir(), "corpus root (relative paths are taken from the module root) (default: $KGC_CORPUS, else beside the module)")
	asJSON := flag.Bool("json", false, "print the report as JSON")
	show := flag.Bool("show", false, "also print every call's arguments and the text the model reads")
	kgmcpFlags := flag.String("kgmcp-flags", "", "extra kgmcp flags (space-separated), e.g. --text-format json")
	flag.Parse()
	rep, err := run(*corpus, strings.Fields(*kgmcpFlags))
	if err != nil {
		fmt.Fprintln(os.Stderr, "askbench:", err)
		os.Exit(1)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintln(os.Stderr, "askbench:", err)
			os.Exit(1)
		}
	} else {
		printReport(os.Stdout, rep, *show)
	}
	if rep.Status == statusSkip && *asJSON {
		fmt.Fprintln(os.Stderr, "askbench: SKIP:", rep.Reason)
	}
	if rep.Status == statusFailed {
		os.Exit(1)
	}
}
