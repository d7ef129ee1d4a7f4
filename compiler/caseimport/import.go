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
)

// Report says what was imported and, with counts, everything that was not.
type Report struct {
	Written        bool      `json:"written"`
	OutputDir      string    `json:"outputDir,omitempty"`
	Files          []string  `json:"files"`
	CaseVersion    string    `json:"caseVersion,omitempty"`
	DocumentID     string    `json:"documentIdentifier,omitempty"`
	Title          string    `json:"title,omitempty"`
	FrameworkID    string    `json:"frameworkId,omitempty"`
	ProfileVersion string    `json:"profileVersion,omitempty"`
	VersionToken   string    `json:"versionToken,omitempty"`
	Findings       []Finding `json:"findings"`
	// Warnings say what was read differently from how it was written (the
	// import goes on): a sequenceNumber written as a string.
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
		Duplicates int `json:"duplicates"`
		// ExternalEndpoints counts associations (not carried) with one end
		// outside the package, such as exactMatchOf another framework.
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
	Rights                 *Rights        `json:"rights,omitempty"`
	Next                   []string       `json:"next,omitempty"`
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

// Run imports the CFPackage files (or directories of them) into out. With
// findings the report lists them all and nothing is written; an error means
// the import could not run (the output directory in the way, a write failed).
func Run(files []string, out string, o Options) (*Report, error) {
	rep := &Report{Files: []string{}, Findings: []Finding{}, Warnings: []Finding{}, CarriedAssociations: map[string]int{}, NotCarriedAssociations: map[string]int{},
		NotCarriedFields: map[string]int{}, NotCarriedDefinitions: map[string]int{}, StatementTypes: []TypeSummary{}, Grades: []string{}, CodePatterns: []string{}}
	if err := checkOut(out); err != nil {
		return nil, err
	}
	in, fnd := read(files)
	rep.Files = append(rep.Files, in.files...)
	if in.doc == nil {
		rep.Findings = fnd
		return rep, nil
	}
	rep.CaseVersion = in.version
	rep.DocumentID, rep.Title = str(in.doc.raw, "identifier"), str(in.doc.raw, "title")
	m, f := build(in, rep)
	in.items, in.assocs = nil, nil // converted into the model
	fnd = append(fnd, f...)
	if len(fnd) > 0 {
		rep.Findings = fnd
		return rep, nil
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
		return rep, nil
	}
	p, f := m.derive(order, o)
	if len(f) > 0 {
		rep.Findings = f
		return rep, nil
	}
	rep.FrameworkID, rep.ProfileVersion, rep.VersionToken, rep.Rights = p.frameworkID, p.profileVersion, p.versionToken, &p.rights
	prof, err := marshal(p.profile)
	if err != nil {
		return nil, err
	}
	if len(prof) > gate.MaxProfileBytes {
		rep.Findings = []Finding{{Code: CodeProfileSize, File: in.doc.file, ID: m.docID, Message: fmt.Sprintf(
			"the starter profile would be %d bytes, over the %d-byte (8 MiB) limit kgc pack and the gate hold a profile to (%d statement types)",
			len(prof), gate.MaxProfileBytes, len(p.profile.StatementTypes))}}
		return rep, nil
	}
	spec, err := marshal(map[string]string{"jurisdictionType": p.jurisdictionType, "nodes": "export/nodes.jsonl", "relationships": "export/relationships.jsonl",
		"profileId": p.frameworkID, "profileVersion": p.profileVersion, "versionToken": p.versionToken, "outputRoot": "packages"})
	if err != nil {
		return nil, err
	}
	err = writeAll(out, func(w *stager) error {
		if err := w.file("export/nodes.jsonl", func(nw io.Writer) error {
			return w.file("export/relationships.jsonl", func(rw io.Writer) error { return m.exports(order, p, nw, rw) })
		}); err != nil {
			return err
		}
		if err := w.bytes(filepath.ToSlash(filepath.Join("profiles", p.frameworkID, p.profileVersion, "profile.json")), prof); err != nil {
			return err
		}
		return w.bytes("pack-spec.json", spec)
	})
	if err != nil {
		return nil, err
	}
	rep.Written, rep.OutputDir = true, out
	rep.Next = []string{"cd " + out, "kgc check-profile profiles/" + p.frameworkID + "/" + p.profileVersion + "/profile.json",
		"kgc pack --profiles profiles --spec pack-spec.json", "kgc build --profiles profiles -o images packages/*/*", "kgmcp images"}
	return rep, nil
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
func (m *model) rights(p *derived) Rights {
	d := m.in.doc.raw
	lic, _ := link(d, "licenseURI")
	title, text := lic.Title, ""
	for _, o := range m.in.defs["CFLicenses"] {
		if id := str(o.raw, "identifier"); id != "" && (id == lic.Identifier || str(o.raw, "uri") == lic.URI) {
			title = firstNonEmpty(str(o.raw, "title"), title)
			text = str(o.raw, "licenseText") + " " + str(o.raw, "description")
		}
	}
	r := Rights{SourceLicense: firstNonEmpty(title, "not stated in the CASE package"), AllowGeneratedDerivatives: "review_required", ReviewStatus: "unreviewed"}
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
