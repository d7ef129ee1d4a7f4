package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/kgc-project/kgc/runtime/query"
	kgrender "github.com/kgc-project/kgc/runtime/render"
	"github.com/kgc-project/kgc/runtime/uri"
	"github.com/kgc-project/kgc/schema/manifest"
)

// listedResource is one entry of resources/list, as the golden transcript
// holds it.
type listedResource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	MIMEType    string `json:"mimeType"`
}

// fixedResources are the fixed resources kgmcp lists (resources/list),
// from the golden transcript of that call.
func fixedResources(trs []*transcript) ([]listedResource, error) {
	for _, tr := range trs {
		if tr.method != "resources/list" || !tr.ok() {
			continue
		}
		var out []listedResource
		for _, raw := range tr.res.Result.Resources {
			var r listedResource
			if err := json.Unmarshal(raw, &r); err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	}
	return nil, fmt.Errorf("no resources/list transcript")
}

// templatePattern turns a URI template into a regexp matching its URIs.
func templatePattern(tmpl string) *regexp.Regexp {
	parts := regexp.MustCompile(`\{[a-z_]+\}`).Split(tmpl, -1)
	for i, s := range parts {
		parts[i] = regexp.QuoteMeta(s)
	}
	return regexp.MustCompile("^" + strings.Join(parts, "[^/]+") + "$")
}

// resourceMeta is the ResourceMetadata (_meta) of a resource read.
type resourceMeta struct {
	ResourceKind   string `json:"resourceKind"`
	Representation string `json:"representation"`
	MimeType       string `json:"mimeType"`
}

// resourceExample is the first successful resources/read transcript of a
// URI the pattern matches.
func resourceExample(trs []*transcript, match func(string) bool) (*transcript, resourceMeta, error) {
	for _, tr := range trs {
		if tr.method != "resources/read" || !tr.ok() || !match(tr.uri) || len(tr.res.Result.Contents) == 0 {
			continue
		}
		var m resourceMeta
		if err := json.Unmarshal(tr.res.Result.Contents[0].Meta, &m); err != nil {
			return nil, m, fmt.Errorf("%s: _meta: %w", tr.file, err)
		}
		return tr, m, nil
	}
	return nil, resourceMeta{}, nil
}

func resourcesPage(trs []*transcript) ([]byte, error) {
	p := newPage("Resources")
	fixed, err := fixedResources(trs)
	if err != nil {
		return nil, err
	}
	tmpls := query.ResourceTemplates()
	p.para("kgmcp serves %d fixed resource(s) and %d resource templates, all under the `kgfegmcp://` scheme. Generated from "+
		"`runtime/query` (`ResourceTemplates`) and `runtime/uri` (`Templates`, `Catalog`), the `resources/list` answer and the resource "+
		"reads of the golden transcripts (`%s`).", len(fixed), len(tmpls), transcriptDir)

	p.line("## Reading rules")
	p.line("")
	p.line("- An address is exact: no query, fragment, port or user info; no empty, `.`, `..` or unreplaced `{placeholder}` segment. " +
		"Identifiers are written percent-encoded as one path segment (only `A–Z a–z 0–9 - . _ ~` stay literal, so a snapshot ID's `@` and " +
		"`+` become `%40` and `%2B`; an ID that is `.` or `..` is written `%2E` or `%2E%2E`), and an address with them left raw reads the " +
		"same resource and is answered under the URI sent. Each segment is decoded exactly once, after the address is split on its literal " +
		"`/`: an identifier holding `/`, `\\` or `%` (the gate accepts any) is reached as `%2F`, `%5C`, `%25`, and `a%252Fb` names the ID " +
		"`a%2Fb`.")
	p.line("- Every read carries `_meta`, the resource metadata: `canonicalUri`, `resourceKind`, `representation` (`deterministic_derived`: " +
		"canonical JSON the server derives, or for `standard_diagram` Mermaid text; `raw_source`: the artifact's exact bytes), `mimeType`, `byteLength`, `contentSha256`, the package " +
		"identity where the resource belongs to one, and `sourceArtifacts` (logical name, SHA-256 and size of each artifact it comes from).")
	p.line("- Content in JSON, NDJSON or `text/*` that is valid UTF-8 is sent as `text` (for a raw artifact, its exact bytes); anything else " +
		"as a base64 `blob`.")
	p.line(fmt.Sprintf("- Size policy: a resource is at most `--max-resource-bytes` (default %d MiB) and a raw artifact also at most "+
		"`--max-resource-source-bytes` (default %d MiB); over either is `resource_access_denied`. `read_evidence` reads any resource in "+
		"windows, for hosts that cannot read resources.", query.DefaultMaxResourceBytes>>20, query.DefaultMaxResourceSourceBytes>>20))
	p.line("- Rights gates (from the package's rights policy): *full text* needs a reviewed policy (`approved` or " +
		"`provisional_operator_approved`) with `allowFullText`; *standard resources* need that and `allowStandardResources`; a raw artifact " +
		"is gated by its exposure class (table at the end). Errors: [errors.md](errors.md) (`resource_not_found` is JSON-RPC -32002, every " +
		"other domain code -32602).")
	p.line("")

	p.line("## Fixed resources")
	p.line("")
	var rows [][]string
	for _, r := range fixed {
		rows = append(rows, []string{code(r.URI), code(r.Name), r.Title, r.MIMEType, r.Description})
	}
	p.table([]string{"URI", "name", "title", "MIME type", "description"}, rows)
	for _, r := range fixed {
		if r.URI != uri.Catalog {
			return nil, fmt.Errorf("fixed resource %s is not uri.Catalog", r.URI)
		}
		if err := resourceSection(p, trs, "catalog", r.URI, r.Description, func(u string) bool { return u == r.URI }); err != nil {
			return nil, err
		}
	}

	p.line("## Templates")
	p.line("")
	rows = nil
	for _, t := range tmpls {
		rows = append(rows, []string{"[" + code(t.Name) + "](" + anchor(t.Name) + ")", code(t.URITemplate), t.Title, t.MIMEType})
	}
	p.table([]string{"name", "URI template", "title", "listed MIME type"}, rows)
	p.para("The listed MIME type is what `resources/templates/list` announces; each read says the actual one in `mimeType` " +
		"(a `manifest_artifact` read is the artifact's own type, below).")
	for _, t := range tmpls {
		re := templatePattern(t.URITemplate)
		if err := resourceSection(p, trs, t.Name, t.URITemplate, t.Description, re.MatchString); err != nil {
			return nil, err
		}
	}

	p.line("## Artifact exposure classes")
	p.line("")
	p.para("Which declared artifacts `manifest_artifact` can serve, and under which rights (`manifest.ExposureOf`, `manifest.Allows`). " +
		"An artifact with no class is never served (`resource_not_found`), whatever its name resembles; the bytes of an artifact are embedded " +
		"in the image only when the package's rights allow its class. A `.jsonl` path is served as `application/x-ndjson`.")
	rows = nil
	names := append(append([]string(nil), manifest.BuiltinNames...), manifest.ShardName(0)+" … "+manifest.ShardName(manifest.ShardCount-1))
	for _, n := range names {
		q := n
		if strings.Contains(n, " … ") {
			q = manifest.ShardName(0)
		}
		class, mime := manifest.ExposureOf(q, "")
		rows = append(rows, []string{code(n), class.String(), mime, exposureGate(class)})
	}
	p.table([]string{"artifact", "exposure class", "MIME type", "served when"}, rows)
	return p.Bytes(), nil
}

func exposureGate(e manifest.Exposure) string {
	switch e {
	case manifest.ExposePublicMetadata:
		return "always"
	case manifest.ExposeFullText:
		return "rights reviewed and `allowFullText`"
	case manifest.ExposeBulkContent:
		return "rights reviewed, `allowFullText`, `allowStandardResources` and `allowBulkResource`"
	}
	return "never"
}

// resourceSection documents one resource or template, with its example.
func resourceSection(p *page, trs []*transcript, name, uri, desc string, match func(string) bool) error {
	row, ok := resourceRows[name]
	if !ok {
		return fmt.Errorf("resource %s has no row in resourceRows", name)
	}
	p.linef("### %s", name)
	p.line("")
	p.para("%s — %s", code(uri), desc)
	p.table([]string{"resourceKind", "representation", "rights gate", "read from", "holds"},
		[][]string{{code(row.kind), code(row.representation), row.gate, row.sources, row.holds}})
	tr, meta, err := resourceExample(trs, match)
	if err != nil {
		return err
	}
	if tr == nil {
		return nil
	}
	if meta.ResourceKind != row.kind || meta.Representation != row.representation {
		return fmt.Errorf("resource %s: %s reads resourceKind %q, representation %q; resourceRows says %q, %q",
			name, tr.file, meta.ResourceKind, meta.Representation, row.kind, row.representation)
	}
	c := tr.res.Result.Contents[0]
	p.para("Example ([%s](../../%s/%s)): %s, `mimeType` %s, sent as %s.", tr.file, transcriptDir, tr.file, code(tr.uri), code(meta.MimeType), sentAs(c.Text, c.Blob))
	if c.Text != "" && (meta.MimeType == "application/json") {
		j, err := trimmedJSON([]byte(c.Text), 40)
		if err == nil {
			p.fence("json", j)
		}
	}
	if c.Text != "" && meta.MimeType == kgrender.MermaidMIME {
		p.fence("mermaid", c.Text)
	}
	return nil
}

func sentAs(text, blob string) string {
	if blob != "" {
		return "a blob"
	}
	if text != "" {
		return "text"
	}
	return "empty text"
}
