package query

import (
	"sort"
	"strings"

	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/runtime/prompt"
)

// MaxCompletions bounds the values of one completion answer (the MCP limit).
const MaxCompletions = 100

// Completion is the answer to a completion request: at most MaxCompletions
// values, how many matched in all, and whether more exist.
type Completion struct {
	Values  []string
	Total   int
	HasMore bool
}

// commonLanguages are offered for output_language beside the catalog's own.
var commonLanguages = []string{"ar", "en", "es", "fr", "ha", "hi", "ig", "pt", "rw", "sw", "ta", "yo", "zh"}

// CompletePromptArgument completes one argument of a prompt from the
// catalog: framework IDs, snapshot IDs (of the framework named in the
// arguments given so far, when there is one), local grade and stage labels of
// that framework's profiles, output languages, and fixed choices. Values that
// start with what was typed come first, then those that contain it, each
// group in a fixed order; JSON-valued (list, selector) arguments get none.
func (s *Service) CompletePromptArgument(promptName, argName, typed string, given map[string]string) (*Completion, error) {
	d, ok := prompt.Lookup(promptName)
	if !ok {
		return nil, ErrUnknownPrompt
	}
	a, ok := d.Arg(argName)
	if !ok {
		return nil, jsonschema.Fail(argName, "%s takes no argument of that name", promptName)
	}
	var values []string
	ordered := false
	switch a.Complete {
	case prompt.CompleteFramework:
		if a.Kind == prompt.Framework {
			values = s.frameworkIDs()
		}
	case prompt.CompleteSnapshot:
		if a.Kind == prompt.Snapshot {
			values = s.snapshotIDs(given[a.FrameworkArg])
		}
	case prompt.CompleteGrade:
		if a.Kind == prompt.Text {
			values = s.gradeLabels(given[a.FrameworkArg])
		}
	case prompt.CompleteLanguage:
		values = s.languages()
	case prompt.CompleteChoice:
		values, ordered = a.Enum, true
	}
	return own(s, complete(values, typed, ordered), nil)
}

// CompleteResourceArgument completes a resource template's framework_id or
// snapshot_id (of the framework_id given so far).
func (s *Service) CompleteResourceArgument(argName, typed string, given map[string]string) *Completion {
	var values []string
	switch argName {
	case "framework_id":
		values = s.frameworkIDs()
	case "snapshot_id":
		values = s.snapshotIDs(given["framework_id"])
	}
	c, _ := own(s, complete(values, typed, false), nil)
	return c
}

func (s *Service) frameworkIDs() []string {
	out := make([]string, 0, len(s.cat.Frameworks))
	for _, f := range s.cat.Frameworks {
		out = append(out, f.ID)
	}
	return out
}

// snapshotIDs are the snapshots of one framework, or of every framework.
func (s *Service) snapshotIDs(framework string) []string {
	var out []string
	for _, f := range s.cat.Frameworks {
		if framework != "" && f.ID != framework {
			continue
		}
		for _, snap := range f.Snapshots {
			out = append(out, snap.SnapshotID)
		}
	}
	return out
}

// gradeLabels are the local grade and stage labels of one framework's
// profiles (every framework's when none is given).
func (s *Service) gradeLabels(framework string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(l string) {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	for _, p := range s.cat.Packages {
		if framework != "" && p.FrameworkID() != framework {
			continue
		}
		for _, g := range p.Profile().GradeMappings {
			add(g.LocalLabel)
		}
		for _, st := range p.Profile().EducationStageMappings {
			add(st.LocalLabel)
		}
	}
	return out
}

// languages are the catalog's languages and a few common tags.
func (s *Service) languages() []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range commonLanguages {
		seen[l] = true
		out = append(out, l)
	}
	for _, p := range s.cat.Packages {
		for _, l := range append(append([]string{}, p.Manifest.Framework.Languages...), p.Profile().LanguagePolicy.Languages...) {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	return out
}

// complete ranks the values matching typed: prefix matches, then substring
// matches (case-insensitive), each group sorted unless ordered, cut to
// MaxCompletions.
func complete(values []string, typed string, ordered bool) *Completion {
	t := strings.ToLower(strings.TrimSpace(typed))
	var prefix, inner []string
	for _, v := range values {
		lv := strings.ToLower(v)
		switch {
		case strings.HasPrefix(lv, t):
			prefix = append(prefix, v)
		case strings.Contains(lv, t):
			inner = append(inner, v)
		}
	}
	if !ordered {
		sort.Strings(prefix)
		sort.Strings(inner)
	}
	all := append(prefix, inner...)
	out := &Completion{Values: all, Total: len(all)}
	if len(all) > MaxCompletions {
		out.Values, out.HasMore = all[:MaxCompletions], true
	}
	if out.Values == nil {
		out.Values = []string{}
	}
	return out
}
