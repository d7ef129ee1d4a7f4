// Package finding defines the validation gate's findings: the Finding record, its
// severity, and the closed registry of finding codes (registry.go). Codes are API:
// they appear in `kgc validate` output and in validation reports, and are never
// renamed, only deprecated.
package finding

import (
	"fmt"
	"github.com/kgc-project/kgc/internal/jsonv"
	"sort"
)

// Severity says whether a finding refuses the package.
type Severity string

// Severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Code is a stable snake_case finding code from the registry.
type Code string

// Finding is one problem found in a package, a profile or a prompt config.
type Finding struct {
	Code     Code     `json:"code"`
	Severity Severity `json:"severity"`
	Stage    Stage    `json:"stage"`
	// Artifact is the artifact's logical name (e.g. "nodes", "manifest",
	// "profile"), when the finding is about one artifact.
	Artifact string `json:"artifactName,omitempty"`
	// Path is the file path relative to the package (or the profile root for
	// profiles and prompt configs).
	Path string `json:"path,omitempty"`
	// Line is the 1-based physical line for JSONL records.
	Line int `json:"line,omitempty"`
	// Record is the identifier of the record the finding is about.
	Record string `json:"recordId,omitempty"`
	// Field is the JSON path within the document or record.
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// New makes a finding with the registered severity and stage of code.
func New(code Code, format string, args ...any) Finding {
	r := Lookup(code)
	return Finding{Code: code, Severity: r.Severity, Stage: r.Stage, Message: fmt.Sprintf(format, args...)}
}

// At sets the artifact and path.
func (f Finding) At(artifact, path string) Finding {
	f.Artifact, f.Path = artifact, path
	return f
}

// WithStage overrides the stage (generic document codes arise in every stage).
func (f Finding) WithStage(s Stage) Finding { f.Stage = s; return f }

// OnLine sets the line.
func (f Finding) OnLine(line int) Finding { f.Line = line; return f }

// For sets the record ID.
func (f Finding) For(record string) Finding { f.Record = record; return f }

// In sets the field path.
func (f Finding) In(field string) Finding { f.Field = field; return f }

// List is an ordered collection of findings.
type List struct {
	items []Finding
}

// Add appends findings.
func (l *List) Add(fs ...Finding) { l.items = append(l.items, fs...) }

// Items returns the findings in gate order: by stage, then in the order each
// stage reported them (which every stage keeps deterministic).
func (l *List) Items() []Finding {
	out := append([]Finding(nil), l.items...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Stage.order() < out[j].Stage.order() })
	return out
}

// Len returns the number of findings.
func (l *List) Len() int { return len(l.items) }

// Errors returns the number of error-severity findings.
func (l *List) Errors() int {
	n := 0
	for _, f := range l.items {
		if f.Severity == Error {
			n++
		}
	}
	return n
}

// HasCode reports whether any finding has code.
func (l *List) HasCode(code Code) bool {
	for _, f := range l.items {
		if f.Code == code {
			return true
		}
	}
	return false
}

// FromIssues converts decoding issues into findings of one document.
func FromIssues(list []jsonv.Issue, stage Stage, artifact, path string) []Finding {
	out := make([]Finding, 0, len(list))
	for _, is := range list {
		f := New(Code(is.Code), "%s", is.Message).WithStage(stage).At(artifact, path).In(is.Path)
		out = append(out, f)
	}
	return out
}
