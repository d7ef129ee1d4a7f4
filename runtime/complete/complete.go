// Package complete answers MCP completion requests from the catalog: the
// values a prompt argument or a resource template variable may take
// (framework and snapshot IDs, grade and stage labels, languages, fixed
// choices), those starting with what was typed first, bounded.
package complete

import (
	"sort"
	"strings"

	"github.com/kgc-project/kgc/runtime/catalog"
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

// PromptArgument completes the prompt argument a from cat: framework IDs,
// snapshot IDs (of the framework named in the arguments given so far, when
// there is one), local grade and stage labels of that framework's profiles,
// output languages, and fixed choices. Values that start with what was
// typed come first, then those that contain it, each group in a fixed
// order; JSON-valued (list, selector) arguments get none.
func PromptArgument(cat *catalog.Catalog, a *prompt.Arg, typed string, given map[string]string) *Completion {
	var values []string
	ordered := false
	switch a.Complete {
	case prompt.CompleteFramework:
		if a.Kind == prompt.Framework {
			values = frameworkIDs(cat)
		}
	case prompt.CompleteSnapshot:
		if a.Kind == prompt.Snapshot {
			values = snapshotIDs(cat, given[a.FrameworkArg])
		}
	case prompt.CompleteGrade:
		if a.Kind == prompt.Text {
			values = gradeLabels(cat, given[a.FrameworkArg])
		}
	case prompt.CompleteLanguage:
		values = languages(cat)
	case prompt.CompleteChoice:
		values, ordered = a.Enum, true
	}
	return rank(values, typed, ordered)
}

// ResourceArgument completes a resource template's framework_id or
// snapshot_id (of the framework_id given so far).
func ResourceArgument(cat *catalog.Catalog, argName, typed string, given map[string]string) *Completion {
	var values []string
	switch argName {
	case "framework_id":
		values = frameworkIDs(cat)
	case "snapshot_id":
		values = snapshotIDs(cat, given["framework_id"])
	}
	return rank(values, typed, false)
}

func frameworkIDs(cat *catalog.Catalog) []string {
	out := make([]string, 0, len(cat.Frameworks))
	for _, f := range cat.Frameworks {
		out = append(out, f.ID)
	}
	return out
}

// snapshotIDs are the snapshots of one framework, or of every framework.
func snapshotIDs(cat *catalog.Catalog, framework string) []string {
	var out []string
	for _, f := range cat.Frameworks {
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
func gradeLabels(cat *catalog.Catalog, framework string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(l string) {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	for _, p := range cat.Packages {
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
func languages(cat *catalog.Catalog) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range commonLanguages {
		seen[l] = true
		out = append(out, l)
	}
	for _, p := range cat.Packages {
		for _, l := range append(append([]string{}, p.Manifest.Framework.Languages...), p.Profile().LanguagePolicy.Languages...) {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	return out
}

// rank ranks the values matching typed: prefix matches, then substring
// matches (case-insensitive), each group sorted unless ordered, cut to
// MaxCompletions.
func rank(values []string, typed string, ordered bool) *Completion {
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
