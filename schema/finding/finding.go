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

// DefaultKeep is how many findings a List keeps when its Keep is zero. A
// hostile package can hold millions of problems (one 6 MB nodes file gave 3
// million): a List keeps the first findings in gate order and only counts the
// rest, so its memory does not grow with the package.
const DefaultKeep = 10000

// List is an ordered collection of findings that keeps at most Keep of them
// (the first in gate order) and counts every one, by code and severity.
type List struct {
	// Keep is the most findings kept; zero means DefaultKeep.
	Keep int

	items    []Finding
	total    int
	errors   int
	byCode   map[Code]int
	maxStage int // highest stage order among the kept findings
}

func (l *List) keep() int {
	if l.Keep > 0 {
		return l.Keep
	}
	return DefaultKeep
}

// Add records findings.
func (l *List) Add(fs ...Finding) {
	for _, f := range fs {
		l.count(f, 1)
		l.offer(f)
	}
}

func (l *List) count(f Finding, n int) {
	l.total += n
	if f.Severity == Error {
		l.errors += n
	}
	if l.byCode == nil {
		l.byCode = map[Code]int{}
	}
	l.byCode[f.Code] += n
}

// offer keeps f if it is among the first Keep in gate order (by stage, then
// in the order reported). The stages run in order, so once the list is full
// almost every later finding sorts after all kept ones and costs nothing.
func (l *List) offer(f Finding) {
	o := f.Stage.order()
	if len(l.items) < l.keep() {
		l.items = append(l.items, f)
		l.maxStage = max(l.maxStage, o)
		return
	}
	if o >= l.maxStage {
		return
	}
	for i := len(l.items) - 1; i >= 0; i-- {
		if l.items[i].Stage.order() == l.maxStage {
			l.items = append(l.items[:i], l.items[i+1:]...)
			break
		}
	}
	l.items = append(l.items, f)
	l.maxStage = 0
	for _, k := range l.items {
		l.maxStage = max(l.maxStage, k.Stage.order())
	}
}

// Merge adds the findings of o (kept and counted) after those of l.
func (l *List) Merge(o *List) {
	kept := map[Code]int{}
	keptErrors := 0
	for _, f := range o.items {
		l.Add(f)
		kept[f.Code]++
		if f.Severity == Error {
			keptErrors++
		}
	}
	if l.byCode == nil {
		l.byCode = map[Code]int{}
	}
	for c, n := range o.byCode {
		l.byCode[c] += n - kept[c]
	}
	l.total += o.total - len(o.items)
	l.errors += o.errors - keptErrors
}

// Items returns the kept findings in gate order: by stage, then in the order
// each stage reported them (which every stage keeps deterministic).
func (l *List) Items() []Finding {
	out := append([]Finding(nil), l.items...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Stage.order() < out[j].Stage.order() })
	return out
}

// Len returns the number of findings reported, kept or not.
func (l *List) Len() int { return l.total }

// Errors returns the number of error-severity findings reported.
func (l *List) Errors() int { return l.errors }

// HasCode reports whether any finding has code.
func (l *List) HasCode(code Code) bool { return l.byCode[code] > 0 }

// CountsByCode returns how many findings of each code were reported.
func (l *List) CountsByCode() map[Code]int {
	out := make(map[Code]int, len(l.byCode))
	for c, n := range l.byCode {
		out[c] = n
	}
	return out
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
