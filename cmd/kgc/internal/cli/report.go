package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/schema/finding"
)

// findingFormat is a finding output format.
type findingFormat string

// Output formats.
const (
	formatText          findingFormat = "text"
	formatJSON          findingFormat = "json"
	formatGitHubActions findingFormat = "github-actions"
)

var formats = []findingFormat{formatText, formatJSON, formatGitHubActions}

func formatList() string {
	s := make([]string, len(formats))
	for i, f := range formats {
		s[i] = string(f)
	}
	return strings.Join(s, "|")
}

func parseFormat(s string) (findingFormat, error) {
	for _, f := range formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown --error-format %q (want %s)", s, formatList())
}

// packageReport is one package's (or, for check-profile, one profile's)
// outcome in JSON output.
type packageReport struct {
	Dir string `json:"dir,omitempty"`
	// Path, ProfileID, ProfileVersion and PromptConfig describe a profile
	// checked by check-profile (Dir is then empty).
	Path            string            `json:"path,omitempty"`
	ProfileID       string            `json:"profileId,omitempty"`
	ProfileVersion  string            `json:"profileVersion,omitempty"`
	PromptConfig    string            `json:"promptConfig,omitempty"`
	FrameworkID     string            `json:"frameworkId,omitempty"`
	SnapshotID      string            `json:"snapshotId,omitempty"`
	GraphPackageID  string            `json:"graphPackageId,omitempty"`
	IsValid         bool              `json:"isValid"`
	Error           string            `json:"error,omitempty"`
	ErrorCount      int               `json:"errorCount"`
	WarningCount    int               `json:"warningCount"`
	Findings        []finding.Finding `json:"findings"`
	FindingsOmitted int               `json:"findingsOmitted"`
	// FindingCounts counts every finding by code, shown or not.
	FindingCounts map[finding.Code]int `json:"findingCounts"`
	Image         *imageReport         `json:"image,omitempty"`
	// label names the entry in the text summary (default: the snapshot ID,
	// else the directory's base name) and where its location (default Dir).
	label, where string
}

// imageReport describes an image written by kgc build.
type imageReport struct {
	Path   string `json:"path"`
	Sha256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

type reporter struct {
	env      cmdEnv
	format   findingFormat
	max      int
	packages []*packageReport
	// key is the JSON output's top-level key ("packages", or "profiles"),
	// verb what could not be done to an entry that failed ("validate").
	key, verb string
}

func newReporter(env cmdEnv, format findingFormat, max int) *reporter {
	return &reporter{env: env, format: format, max: max, key: "packages", verb: "validate"}
}

func (r *reporter) failure(dir string, err error) {
	pr := &packageReport{Dir: dir, Error: err.Error(), Findings: []finding.Finding{}}
	if r.key == "profiles" {
		pr.Dir, pr.Path = "", dir
	}
	r.packages = append(r.packages, pr)
	if r.format != formatJSON {
		fmt.Fprintf(r.env.Stderr, "kgc: %s: could not %s: %v\n", dir, r.verb, err)
	}
}

// cannotRun reports an error that stops the whole command before any package
// is read (a missing profile root): one line on stderr, and in JSON every
// package with the error. It returns ExitFailure.
func (r *reporter) cannotRun(command string, dirs []string, err error) int {
	fmt.Fprintf(r.env.Stderr, "kgc %s: %v\n", command, err)
	if r.format == formatJSON {
		for _, dir := range dirs {
			r.packages = append(r.packages, &packageReport{Dir: dir, Error: err.Error(), Findings: []finding.Finding{}})
		}
		r.finish()
	}
	return ExitFailure
}

// result reports a gate result whose findings are package-relative (validate,
// build): each is printed under the package directory.
func (r *reporter) result(res *gate.Result) *packageReport { return r.resultAt(res, nil) }

// resultAt reports a result whose findings locate maps to findings with a
// path to print as it is (pack's refusals name the user's files,
// check-profile the files given); nil is result.
func (r *reporter) resultAt(res *gate.Result, locate func(finding.Finding) finding.Finding) *packageReport {
	items := res.Findings.Items()
	pr := &packageReport{Dir: res.Dir, IsValid: res.Valid(), ErrorCount: res.Findings.Errors(), FindingCounts: res.Findings.CountsByCode()}
	pr.WarningCount = res.Findings.Len() - pr.ErrorCount
	if m := res.Manifest; m != nil {
		pr.FrameworkID, pr.SnapshotID, pr.GraphPackageID = m.FrameworkID, m.SnapshotID, m.GraphPackageID
	}
	shown := items
	if r.max > 0 && len(shown) > r.max {
		shown = shown[:r.max]
	}
	if locate != nil {
		for i := range shown {
			shown[i] = locate(shown[i])
		}
	}
	pr.Findings = shown
	if pr.Findings == nil {
		pr.Findings = []finding.Finding{}
	}
	pr.FindingsOmitted = res.Findings.Len() - len(shown)
	r.packages = append(r.packages, pr)
	if r.format == formatJSON {
		return pr
	}
	w := r.env.Stdout
	for _, f := range shown {
		r.printFinding(w, res.Dir, f, locate != nil)
	}
	if pr.FindingsOmitted > 0 {
		fmt.Fprintf(w, "%s: %d more findings not shown (raise --max-findings); all findings by code: %s\n", res.Dir, pr.FindingsOmitted, countList(pr.FindingCounts))
	}
	return pr
}

// summary prints the one-line verdict for a package (text and github-actions).
func (r *reporter) summary(pr *packageReport) {
	if r.format == formatJSON || pr.Error != "" {
		return
	}
	id, where := pr.label, pr.where
	if id == "" {
		id = pr.SnapshotID
	}
	if id == "" {
		id = filepath.Base(pr.Dir)
	}
	if where == "" {
		where = pr.Dir
	}
	if pr.IsValid {
		extra := ""
		if pr.WarningCount > 0 {
			extra = fmt.Sprintf(", %d warning(s)", pr.WarningCount)
		}
		if pr.Image != nil {
			fmt.Fprintf(r.env.Stdout, "ok   %s → %s %s (%d bytes%s)\n", id, pr.Image.Path, pr.Image.Sha256, pr.Image.Bytes, extra)
			return
		}
		fmt.Fprintf(r.env.Stdout, "ok   %s (%s%s)\n", id, where, extra)
		return
	}
	fmt.Fprintf(r.env.Stdout, "FAIL %s (%s): %d error(s), %d warning(s)\n", id, where, pr.ErrorCount, pr.WarningCount)
}

// countList prints counts by code, most frequent first, then by code.
func countList(counts map[finding.Code]int) string {
	codes := make([]finding.Code, 0, len(counts))
	for c := range counts {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool {
		if counts[codes[i]] != counts[codes[j]] {
			return counts[codes[i]] > counts[codes[j]]
		}
		return codes[i] < codes[j]
	})
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%s=%d", c, counts[c])
	}
	return strings.Join(parts, ", ")
}

// printFinding prints one finding at its location: its path under the
// package directory dir (a profile's or prompt config's relative to its
// root), or, asIs, its path as it is.
func (r *reporter) printFinding(w io.Writer, dir string, f finding.Finding, asIs bool) {
	loc := dir
	switch {
	case f.Path == "":
	case asIs, f.Artifact == "profile" || f.Artifact == "promptConfig":
		loc = f.Path
	default:
		loc = filepath.Join(dir, filepath.FromSlash(f.Path))
	}
	if f.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, f.Line)
	}
	detail := ""
	if f.Record != "" {
		detail += " [record " + f.Record + "]"
	}
	if f.Field != "" {
		detail += " [field " + f.Field + "]"
	}
	if r.format == formatGitHubActions {
		level := "error"
		if f.Severity == finding.Warning {
			level = "warning"
		}
		props := "file=" + ghEscapeProp(loc)
		if f.Line > 0 {
			props = "file=" + ghEscapeProp(strings.TrimSuffix(loc, fmt.Sprintf(":%d", f.Line))) + fmt.Sprintf(",line=%d", f.Line)
		}
		fmt.Fprintf(w, "::%s %s,title=%s::%s\n", level, props, ghEscapeProp(string(f.Code)), ghEscapeData(f.Message+detail))
		return
	}
	fmt.Fprintf(w, "%s: %s %s: %s%s\n", loc, f.Severity, f.Code, f.Message, detail)
}

func ghEscapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghEscapeProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

func (r *reporter) finish() {
	if r.format == formatJSON {
		enc := json.NewEncoder(r.env.Stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		_ = enc.Encode(map[string]any{r.key: r.packages})
		return
	}
	for _, pr := range r.packages {
		r.summary(pr)
	}
}

func printRules(w io.Writer, format findingFormat) int {
	if format == formatJSON {
		type rule struct {
			Code     finding.Code     `json:"code"`
			Stage    finding.Stage    `json:"stage"`
			Severity finding.Severity `json:"severity"`
			Summary  string           `json:"summary"`
		}
		out := make([]rule, 0, len(finding.Rules))
		for _, r := range finding.Rules {
			out = append(out, rule{r.Code, r.Stage, r.Severity, r.Summary})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		_ = enc.Encode(map[string]any{"rules": out})
		return exitOK
	}
	for _, r := range finding.Rules {
		fmt.Fprintf(w, "%-40s %-8s %-13s %s\n", r.Code, r.Severity, r.Stage, r.Summary)
	}
	return exitOK
}
