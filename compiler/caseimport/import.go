package caseimport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/schema/profile"
	"github.com/kgc-project/kgc/schema/rights"
)

// Report says what was imported and, with counts, everything that was not:
// each CFDocument of the input is one Document, imported or refused on its
// own.
type Report struct {
	// Written says at least one document was written into OutputDir.
	Written   bool     `json:"written"`
	OutputDir string   `json:"outputDir,omitempty"`
	Files     []string `json:"files"`
	// Findings are about the input as a whole (a file unreadable, not JSON,
	// not CASE, over a limit; a bad option): with any, nothing is written.
	Findings []Finding `json:"findings"`
	// Documents are the CFDocuments read, in the order first read.
	Documents []*Document `json:"documents"`
	// Refused counts the documents not written for their findings.
	Refused int      `json:"refused"`
	Next    []string `json:"next,omitempty"`
}

// Document says what was imported of one CFDocument and, with counts,
// everything that was not.
type Document struct {
	Written bool `json:"written"`
	// Exports is the directory of its exports under the output directory
	// (export, or export/<frameworkId> when the input holds several).
	Exports        string    `json:"exports,omitempty"`
	CaseVersion    string    `json:"caseVersion,omitempty"`
	DocumentID     string    `json:"documentIdentifier,omitempty"`
	Title          string    `json:"title,omitempty"`
	FrameworkID    string    `json:"frameworkId,omitempty"`
	ProfileVersion string    `json:"profileVersion,omitempty"`
	VersionToken   string    `json:"versionToken,omitempty"`
	Findings       []Finding `json:"findings"`
	// Warnings say what was read differently from how it was written (the
	// import goes on): a record repeated member for member, a sequenceNumber
	// written as a string.
	Warnings []Finding `json:"warnings"`
	Items    struct {
		Read    int `json:"read"`
		Carried int `json:"carried"`
		// Untyped items have no CFItemType: their statement type is
		// "Level N", N their depth. Orphans have no isChildOf and hang
		// under the framework as unresolved root fallbacks, as do
		// MixedRootFallbacks (directly under the document, though their
		// type otherwise sits under items).
		Untyped int `json:"untyped"`
		// Duplicates are records repeated member for member, kept once.
		Duplicates         int `json:"duplicates"`
		Orphans            int `json:"orphans"`
		MixedRootFallbacks int `json:"mixedRootFallbacks"`
	} `json:"items"`
	Associations struct {
		Read       int `json:"read"`
		Carried    int `json:"carried"`
		NotCarried int `json:"notCarried"`
		// Publisher counts the associations carried as publisher relations
		// (the rest of Carried is the hasChild hierarchy).
		Publisher  int `json:"publisher"`
		Duplicates int `json:"duplicates"`
		// ExternalEndpoints counts associations with one end outside the
		// package, such as exactMatchOf another framework.
		ExternalEndpoints int `json:"externalEndpoints"`
	} `json:"associations"`
	CarriedAssociations    map[string]int `json:"carriedAssociations"`
	NotCarriedAssociations map[string]int `json:"notCarriedAssociations"`
	NotCarriedFields       map[string]int `json:"notCarriedFields"`
	NotCarriedDefinitions  map[string]int `json:"notCarriedDefinitions"`
	RootFallbacks          int            `json:"rootFallbacks"`
	StatementTypes         []TypeSummary  `json:"statementTypes"`
	Grades                 []string       `json:"grades"`
	CodedItems             int            `json:"codedItems"`
	CodePatterns           []string       `json:"codePatterns"`
	Rights                 *rights.Policy `json:"rights,omitempty"`
}

// TypeSummary is one statement type of the starter profile.
type TypeSummary struct {
	StatementType           string `json:"statementType"`
	NormalizedStatementType string `json:"normalizedStatementType"`
	Items                   int    `json:"items"`
	Root                    bool   `json:"root"`
}

// ErrOutputExists is returned when the output directory exists and is not
// empty: kgc never writes into or over an existing import.
var ErrOutputExists = errors.New("the output directory exists and is not empty")

// Run imports the CFPackage files (or directories of them) into out: every
// CFDocument they hold (files of one document are merged) as its own
// framework. Findings about the input as a whole stop the import (nothing is
// written); a document with findings is refused and named, the others are
// written. An error means the import could not run (the output directory in
// the way, a write failed).
func Run(files []string, out string, o Options) (*Report, error) {
	rep := &Report{Files: []string{}, Findings: []Finding{}, Documents: []*Document{}}
	if err := checkOut(out); err != nil {
		return nil, err
	}
	docs, read, fnd := read(files)
	rep.Files = append(rep.Files, read...)
	fnd = append(fnd, checkOptions(o)...)
	if len(docs) > 1 && o.FrameworkID != "" {
		fnd = append(fnd, Finding{Code: codeInvalidValue, Where: "--framework-id", Message: fmt.Sprintf(
			"--framework-id names one framework; the input holds %d CFDocuments (each is imported as its own framework, its ID from its title)", len(docs))})
	}
	rep.Findings = append(rep.Findings, fnd...)
	multi := len(docs) > 1
	var plans []*plan
	byFramework := map[string]*Document{}
	for _, in := range docs {
		d, pl, err := importDocument(in, o)
		if err != nil {
			return nil, err
		}
		rep.Documents = append(rep.Documents, d)
		if pl != nil {
			if prev := byFramework[d.FrameworkID]; prev != nil {
				d.Findings = append(d.Findings, Finding{Code: codeInvalidValue, File: in.doc.file, ID: d.DocumentID, Message: fmt.Sprintf(
					"its framework ID %s (from its title) is also CFDocument %s's: import them separately with --framework-id", d.FrameworkID, prev.DocumentID)})
				pl = nil
			} else {
				byFramework[d.FrameworkID] = d
			}
		}
		if pl == nil {
			rep.Refused++
			continue
		}
		pl.exports = "export"
		if multi {
			pl.exports = "export/" + d.FrameworkID
		}
		d.Written, d.Exports = true, pl.exports
		plans = append(plans, pl)
	}
	if len(plans) == 0 || len(rep.Findings) > 0 { // findings about the input: nothing is written
		for _, d := range rep.Documents {
			d.Written, d.Exports = false, ""
		}
		return rep, nil
	}
	var specs []map[string]string
	for _, pl := range plans {
		specs = append(specs, pl.spec())
	}
	var specJSON []byte
	var err error
	if multi {
		specJSON, err = marshal(specs)
	} else {
		specJSON, err = marshal(specs[0])
	}
	if err != nil {
		return nil, err
	}
	err = writeAll(out, func(w *stager) error {
		for _, pl := range plans {
			if err := pl.write(w); err != nil {
				return err
			}
		}
		return w.bytes("pack-spec.json", specJSON)
	})
	if err != nil {
		for _, d := range rep.Documents {
			d.Written = false
		}
		return nil, err
	}
	rep.Written, rep.OutputDir = true, out
	rep.Next = []string{"cd " + out}
	for _, pl := range plans {
		rep.Next = append(rep.Next, "kgc check-profile "+pl.profilePath())
	}
	rep.Next = append(rep.Next, "kgc pack --profiles profiles --spec pack-spec.json", "kgc build --profiles profiles -o images packages/*/*", "kgmcp images")
	return rep, nil
}

// plan is what one accepted document writes.
type plan struct {
	m       *model
	order   []*item
	p       *derived
	profile []byte
	exports string // directory of the exports under the output
}

func (pl *plan) profilePath() string {
	return filepath.ToSlash(filepath.Join("profiles", pl.p.frameworkID, pl.p.profileVersion, "profile.json"))
}

// spec is the document's pack spec (paths relative to the output).
func (pl *plan) spec() map[string]string {
	s := map[string]string{"jurisdictionType": pl.p.jurisdictionType, "nodes": pl.exports + "/nodes.jsonl", "relationships": pl.exports + "/relationships.jsonl",
		"profileId": pl.p.frameworkID, "profileVersion": pl.p.profileVersion, "versionToken": pl.p.versionToken, "outputRoot": "packages"}
	if pl.p.createdAt != "" {
		s["createdAt"] = pl.p.createdAt // when the publisher last changed the framework
	}
	if len(pl.m.pubs) > 0 {
		s["publisherRelations"] = pl.exports + "/publisher_relations.jsonl"
	}
	return s
}

// write writes the document's exports and profile.
func (pl *plan) write(w *stager) error {
	if err := w.file(pl.exports+"/nodes.jsonl", func(nw io.Writer) error {
		return w.file(pl.exports+"/relationships.jsonl", func(rw io.Writer) error { return pl.m.exports(pl.order, pl.p, nw, rw) })
	}); err != nil {
		return err
	}
	if len(pl.m.pubs) > 0 {
		if err := w.file(pl.exports+"/publisher_relations.jsonl", pl.m.writePublisher); err != nil {
			return err
		}
	}
	return w.bytes(pl.profilePath(), pl.profile)
}

// importDocument checks and converts one document: its report, and its plan
// unless it has findings.
func importDocument(in *input, o Options) (*Document, *plan, error) {
	rep := &Document{Findings: []Finding{}, Warnings: []Finding{}, CarriedAssociations: map[string]int{}, NotCarriedAssociations: map[string]int{},
		NotCarriedFields: map[string]int{}, NotCarriedDefinitions: map[string]int{}, StatementTypes: []TypeSummary{}, Grades: []string{}, CodePatterns: []string{}}
	rep.CaseVersion = in.version
	rep.DocumentID, rep.Title = str(in.doc.raw, "identifier"), str(in.doc.raw, "title")
	m, f := build(in, rep)
	in.items, in.assocs = nil, nil // converted into the model
	fnd := append(append([]Finding{}, in.findings...), f...)
	if len(fnd) > 0 {
		rep.Findings = fnd
		return rep, nil, nil
	}
	rep.Associations.ExternalEndpoints = m.externalEP
	for k, v := range in.defs {
		if k != "CFItemTypes" && k != "CFLicenses" && k != "extensions" && len(v) > 0 {
			rep.NotCarriedDefinitions["CFDefinitions."+k] += len(v)
		}
	}
	if in.defs["extensions"] != nil {
		rep.NotCarriedDefinitions["CFDefinitions.extensions"]++
	}
	if in.rubrics > 0 {
		rep.NotCarriedDefinitions["CFRubrics"] = in.rubrics
	}
	for k, v := range in.other {
		rep.NotCarriedDefinitions[k] += v
	}
	order := m.arrange()
	rep.Items.Carried = len(order)
	if f := m.checkDepth(order); len(f) > 0 {
		rep.Findings = f
		return rep, nil, nil
	}
	p := m.derive(order, o)
	rep.FrameworkID, rep.ProfileVersion, rep.VersionToken, rep.Rights = p.frameworkID, p.profileVersion, p.versionToken, &p.rights
	prof, err := profile.Encode(&p.profile)
	if err != nil {
		return nil, nil, err
	}
	if len(prof) > gate.MaxProfileBytes {
		rep.Findings = []Finding{{Code: codeProfileSize, File: in.doc.file, ID: m.docID, Message: fmt.Sprintf(
			"the starter profile would be %d bytes, over the %d-byte (8 MiB) limit kgc pack and the gate hold a profile to (%d statement types)",
			len(prof), gate.MaxProfileBytes, len(p.profile.StatementTypes))}}
		return rep, nil, nil
	}
	return rep, &plan{m: m, order: order, p: p, profile: prof}, nil
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(v)
	return b.Bytes(), err
}

// checkOut refuses an output directory that exists and is not empty.
func checkOut(out string) error {
	if out == "" {
		return errors.New("no output directory")
	}
	ents, err := os.ReadDir(out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", out, err)
	case len(ents) > 0:
		return fmt.Errorf("%s: %w", out, ErrOutputExists)
	}
	return nil
}

// stager writes files into the hidden temp directory of writeAll.
type stager struct{ dir string }

// file creates name and hands fill a buffered writer on it.
func (s *stager) file(name string, fill func(io.Writer) error) error {
	p := filepath.Join(s.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 256<<10)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// bytes writes name whole.
func (s *stager) bytes(name string, b []byte) error {
	return s.file(name, func(w io.Writer) error { _, err := w.Write(b); return err })
}

// writeAll has write fill a hidden temp directory beside out and renames it
// into place, so a reader sees the whole import or none.
func writeAll(out string, write func(*stager) error) (err error) {
	parent := filepath.Dir(filepath.Clean(out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".kgc-import-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := write(&stager{dir: tmp}); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := checkOut(out); err != nil {
		return err
	}
	_ = os.Remove(out) // an empty directory given as the output
	return os.Rename(tmp, out)
}

var urlRe = regexp.MustCompile(`https?://[^\s"'<>)]+`)

// rights derives the rights policy from the CFDocument's licenseURI and its
// CFLicenses entry. Full text is allowed only for a licence recognisably
// open (CC BY, CC0, public domain); the review status is always unreviewed.
func (m *model) rights(p *derived) rights.Policy {
	d := m.in.doc.raw
	lic, _ := link(d, "licenseURI")
	title, text := lic.Title, ""
	for _, o := range m.in.defs["CFLicenses"] {
		if id := str(o.raw, "identifier"); id != "" && (id == lic.Identifier || str(o.raw, "uri") == lic.URI) {
			title = firstNonEmpty(str(o.raw, "title"), title)
			text = str(o.raw, "licenseText") + " " + str(o.raw, "description")
		}
	}
	r := rights.Policy{SourceLicense: firstNonEmpty(title, "not stated in the CASE package"), AllowGeneratedDerivatives: "review_required", ReviewStatus: "unreviewed"}
	all := strings.ToLower(title + " " + text + " " + lic.URI)
	if u := urlRe.FindString(text); u != "" {
		r.LicenseURI = &u
	} else if strings.HasPrefix(lic.URI, "http") {
		u := lic.URI
		r.LicenseURI = &u
	}
	for _, open := range []string{"cc by", "cc-by", "cc0", "creativecommons.org/licenses/by/", "creativecommons.org/publicdomain", "creative commons attribution", "public domain"} {
		if strings.Contains(all, open) && !strings.Contains(all, "-nd") && !strings.Contains(all, "noderiv") {
			r.AllowFullText, r.AllowStandardResources = true, true
			p.openLicence = open
		}
	}
	by := firstNonEmpty(str(d, "publisher"), str(d, "creator"))
	r.AttributionStatement = m.title
	if by != "" {
		r.AttributionStatement += ", published by " + by
	}
	r.AttributionStatement += " (CASE " + m.docID + "; " + r.SourceLicense + ")."
	return r
}
