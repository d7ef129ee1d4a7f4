package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// kgerrFile declares the domain codes.
const kgerrFile = "runtime/kgerr/kgerr.go"

// domainCode is one constant of runtime/kgerr.
type domainCode struct {
	constName, value, doc string
}

// domainCodes reads the code constants of runtime/kgerr from its source, so
// that a code added there appears here (and fails the test until it has a
// meaning).
func domainCodes(root string) ([]domainCode, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(root, kgerrFile), nil, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	var out []domainCode
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				v, err := strconv.Unquote(lit.Value)
				if err != nil {
					return nil, err
				}
				doc := ""
				if vs.Doc != nil {
					doc = strings.TrimSpace(vs.Doc.Text())
				}
				out = append(out, domainCode{constName: name.Name, value: v, doc: doc})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].value < out[j].value })
	if len(out) == 0 {
		return nil, fmt.Errorf("%s declares no code", kgerrFile)
	}
	return out, nil
}

// raiserDirs are the trees searched for uses of each code.
var raiserDirs = []string{"cmd", "compiler", "runtime", "schema"}

// codeRaisers maps each code to the packages (directories) whose non-test
// sources use its constant.
func codeRaisers(root string, codes []domainCode) (map[string][]string, error) {
	res := map[string]*regexp.Regexp{}
	for _, c := range codes {
		res[c.value] = regexp.MustCompile(`\bkgerr\.` + c.constName + `\b`)
	}
	found := map[string]map[string]bool{}
	for _, d := range raiserDirs {
		err := filepath.WalkDir(filepath.Join(root, d), func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			rel = filepath.ToSlash(rel)
			for v, re := range res {
				if re.Match(b) {
					if found[v] == nil {
						found[v] = map[string]bool{}
					}
					found[v][rel] = true
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out := map[string][]string{}
	for v, dirs := range found {
		out[v] = sortedKeys(dirs)
	}
	return out, nil
}

func errorsPage(trs []*transcript, domain []domainCode, raisers map[string][]string) ([]byte, error) {
	p := newPage("Errors")
	p.para("What kgmcp answers when a request cannot be served: the domain error codes of `%s`, input validation errors, "+
		"the fixed text of unexpected failures, and the JSON-RPC error codes. Generated from the code and the golden transcripts "+
		"(`%s`). The validation gate's findings (what `kgc validate` and `kgc build` report about a package) are a separate "+
		"registry: [findings.md](../findings.md), or `kgc validate --list-rules`.", kgerrFile, transcriptDir)

	p.line("## How an error reaches the client")
	p.line("")
	p.table([]string{"request", "domain error or input error", "unexpected failure"}, [][]string{
		{"`tools/call`", "a result with `isError: true` and one text block holding the error text", "`isError` result, `internal_error: …` (fixed text)"},
		{"`resources/read`", "a resource that is not there (`resource_not_found`, `framework_not_found`, `standard_not_found`, any `*_not_found`, or an address no template matches): JSON-RPC -32002 for protocols up to 2025-11-25, -32602 after (SEP-2164); every other code -32602; `data.uri` is the URI sent", "JSON-RPC -32603, fixed text"},
		{"`prompts/get`", "JSON-RPC error -32602 whose message is the error text", "JSON-RPC -32603, fixed text"},
		{"`completion/complete`", "JSON-RPC error -32602", "JSON-RPC -32603"},
	})
	p.para("A domain error's text is `<code>: <message>`, or `<code>: <message>. Next action: <hint>.` when there is a way on " +
		"(`runtime/kgerr` ends the message with a full stop before the hint). Structured details stay in the server's log.")

	p.line("## Domain error codes")
	p.line("")
	var index []string
	for _, c := range domain {
		index = append(index, "["+code(c.value)+"](#"+c.value+")")
	}
	p.para("%s.", strings.Join(index, ", "))
	for _, c := range domain {
		meaning := codeMeanings[c.value]
		if meaning == "" {
			return nil, fmt.Errorf("code %s has no meaning in codeMeanings", c.value)
		}
		p.linef("### %s", c.value)
		p.line("")
		p.para("%s", meaning)
		where := "no package (declared only)"
		if dirs := raisers[c.value]; len(dirs) > 0 {
			where = codes(dirs)
		}
		p.para("Constant %s; used in %s.", code("kgerr."+c.constName), where)
	}
	p.para("Which tool can answer which code is listed with each tool in [tools.md](tools.md).")

	p.line("## Input validation error")
	p.line("")
	p.para("A request that breaks its schema is refused before anything is read: `%s: <path>: <what>`, where the path names the "+
		"field from the arguments (`request.limit`, `request.match.matchMode`, `arguments` for the arguments object itself). Tools answer it "+
		"as an `isError` result; prompts and completion as JSON-RPC -32602, with the argument's name as the path. Also input errors (not "+
		"domain errors): a search query with no letters or digits, or blank after normalisation; a value repeated after normalisation; "+
		"`frameworkId or snapshotId is required`; a workflow name that is not a single-framework prompt. From the golden transcripts:", inputValidation)
	for _, tr := range trs {
		if t := tr.errorText(); errorCode(t) == inputValidation {
			p.linef("- [%s](../../%s/%s): %s", tr.file, transcriptDir, tr.file, code(cutText(t, 240)))
		}
	}
	p.line("")

	p.line("## Unexpected failures")
	p.line("")
	p.para("A panic or a fault on a mapped image inside a handler never reaches the client as such: it is logged with an incident ID and answered with a fixed text.")
	var fixed [][]string
	for _, f := range fixedTexts {
		fixed = append(fixed, []string{f.boundary, code(f.text)})
	}
	p.table([]string{"boundary", "text"}, fixed)

	p.line("## JSON-RPC error codes")
	p.line("")
	var rpc [][]string
	for _, c := range jsonrpcCodes {
		rpc = append(rpc, []string{strconv.FormatInt(c.code, 10), c.name, c.when, code(c.dir)})
	}
	p.table([]string{"code", "name", "when", "enforced in"}, rpc)
	p.para("From the golden transcripts:")
	for _, tr := range trs {
		if tr.res.Error != nil {
			p.linef("- [%s](../../%s/%s): %d %s", tr.file, transcriptDir, tr.file, tr.res.Error.Code, code(cutText(tr.res.Error.Message, 200)))
		}
	}
	p.line("")

	p.line("## HTTP transport")
	p.line("")
	p.para("Over Streamable HTTP (`kgmcp --http`), before JSON-RPC: a foreign `Origin` or `Host` is 403, a request body over 1 MiB is 413, " +
		"and `GET /health` is 503 (`{\"status\":\"starting\"}`) until the catalog is verified, then 200. The README's *kgmcp* section has the timeouts " +
		"and connection limits, and [docs/reliability.md](../reliability.md) the test of each bound.")
	return p.Bytes(), nil
}
