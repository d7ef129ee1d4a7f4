package caseimport

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kgc-project/kgc/internal/natural"
	"github.com/kgc-project/kgc/schema/profile"
	"github.com/kgc-project/kgc/schema/rights"
)

// derived is what the profile and the exports share.
type derived struct {
	profile                        profile.Profile
	rights                         rights.Policy
	normalized                     map[string]string // statement type → Standard | Standard Grouping
	gradeOf                        map[string]string // folded education level → normalized grade
	isCurrent, jurisdiction        string
	subject, docLang, openLicence  string
	frameworkID, profileVersion    string
	versionToken, jurisdictionType string
	createdAt                      string // the packages' createdAt (RFC 3339, UTC; "" when unknown)
}

var (
	langRe  = regexp.MustCompile(`^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$`)
	slugRe  = regexp.MustCompile(`[^a-z0-9]+`)
	tokenRe = regexp.MustCompile(`[^a-z0-9._-]+`)
	idRe    = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
	tokRe   = regexp.MustCompile(`^[a-z0-9]+(?:[._-][a-z0-9]+)*$`)
)

// slug makes a lowercase kebab-case ID of at most max characters.
func slug(s string, max int) string {
	s = strings.Trim(slugRe.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > max {
		s = strings.TrimRight(s[:max], "-")
	}
	return s
}

// grades maps education levels to normalized grades, once each, in order.
func (p *derived) grades(levels []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range levels {
		g := p.gradeOf[strings.ToLower(l)]
		if g != "" && !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}

// normalizeGrade maps a CASE (CEDS) education level to kgc's grade facet:
// "01"…"13" → "1"…"13", KG/K → "K", anything else upper-cased as given.
func normalizeGrade(l string) string {
	u := strings.ToUpper(strings.TrimSpace(l))
	if n, err := strconv.Atoi(u); err == nil && n >= 0 && n <= 13 {
		return strconv.Itoa(n)
	}
	if u == "KG" || u == "K" {
		return "K"
	}
	return u
}

func gradeAliases(g string) []string {
	switch {
	case g == "K":
		return []string{"Kindergarten"}
	case g == "PK":
		return []string{"Pre-Kindergarten"}
	}
	if _, err := strconv.Atoi(g); err == nil {
		return []string{"Grade " + g}
	}
	return nil
}

// facetKey folds a label as the profile checker does, closely enough to
// keep labels and aliases distinct.
func facetKey(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// Options are the choices the caller makes; everything else is derived.
type Options struct {
	FrameworkID      string // default: from the CFDocument's title
	ProfileVersion   string // default 1.0
	VersionToken     string // default: CFDocument.version, else its lastChangeDateTime date, else "undated"
	Jurisdiction     string // default: the publisher, else the creator
	JurisdictionType string // default "unspecified"
	// CreatedAt is the packages' createdAt (RFC 3339); default: the
	// CFDocument's lastChangeDateTime.
	CreatedAt string
}

// checkOptions reports the options that are not what the package format
// takes (checked once, before any document is read: a finding about the
// whole input).
func checkOptions(o Options) []Finding {
	var fnd []Finding
	bad := func(flag, format string, a ...any) {
		fnd = append(fnd, Finding{Code: codeInvalidValue, Where: flag, Message: fmt.Sprintf(format, a...)})
	}
	if id := o.FrameworkID; id != "" && (!idRe.MatchString(id) || len(id) < 3 || len(id) > 200) {
		bad("--framework-id", "%q is not a framework ID (3–200 characters, lowercase kebab case)", id)
	}
	if v := o.ProfileVersion; v != "" && (!tokRe.MatchString(v) || len(v) > 64) {
		bad("--profile-version", "%q is not a version (lowercase letters and digits, separated by . _ -)", v)
	}
	if v := o.VersionToken; v != "" && (!tokRe.MatchString(v) || len(v) > 96) {
		bad("--version-token", "%q is not a version token (lowercase letters and digits, separated by . _ -; at most 96)", v)
	}
	if v := o.CreatedAt; v != "" {
		if _, err := time.Parse(time.RFC3339, v); err != nil {
			bad("--created-at", "%q is not an RFC 3339 timestamp", v)
		}
	}
	return fnd
}

// derive builds the starter profile from the model (after arrange).
func (m *model) derive(order []*item, o Options) *derived {
	d := m.in.doc.raw
	p := &derived{normalized: map[string]string{}, gradeOf: map[string]string{}}
	p.frameworkID = o.FrameworkID
	if p.frameworkID == "" {
		p.frameworkID = slug(m.title, 200)
		if len(p.frameworkID) < 3 {
			p.frameworkID = slug("case-"+m.docID, 200)
		}
	}
	p.profileVersion = firstNonEmpty(o.ProfileVersion, "1.0")
	p.versionToken = o.VersionToken
	if p.versionToken == "" {
		p.versionToken = strings.Trim(tokenRe.ReplaceAllString(strings.ToLower(str(d, "version")), "-"), "._-")
		if !tokRe.MatchString(p.versionToken) || len(p.versionToken) > 96 {
			p.versionToken = ""
			if t := str(d, "lastChangeDateTime"); len(t) >= 10 && regexp.MustCompile(`^\d{4}-\d{2}-\d{2}`).MatchString(t) {
				p.versionToken = t[:10]
			} else {
				p.versionToken = "undated"
			}
		}
	}
	p.createdAt = o.CreatedAt
	if p.createdAt == "" {
		if t, err := time.Parse(time.RFC3339, str(d, "lastChangeDateTime")); err == nil {
			p.createdAt = t.UTC().Format(time.RFC3339)
		}
	} else if t, err := time.Parse(time.RFC3339, p.createdAt); err == nil {
		p.createdAt = t.UTC().Format(time.RFC3339)
	}
	p.jurisdiction = firstNonEmpty(o.Jurisdiction, str(d, "publisher"), str(d, "creator"), "unspecified")
	p.jurisdictionType = firstNonEmpty(o.JurisdictionType, "unspecified")
	p.isCurrent = "true"
	switch strings.ToLower(str(d, "adoptionStatus")) {
	case "deprecated", "retired", "superseded", "withdrawn":
		p.isCurrent = "false"
	}
	subjects, _ := strs(d, "subject")
	if len(subjects) > 0 {
		p.subject = subjects[0]
	}
	// Languages: the document's, else the items' (most used first).
	p.docLang = str(d, "language")
	if !langRe.MatchString(p.docLang) {
		p.docLang = ""
	}
	langs := []string{}
	if p.docLang != "" {
		langs = append(langs, p.docLang)
	}
	langCount := map[string]int{}
	for _, it := range order {
		if langRe.MatchString(it.lang) && !strings.EqualFold(it.lang, p.docLang) {
			langCount[it.lang]++
		}
	}
	more := sortedKeys(langCount)
	sort.SliceStable(more, func(i, j int) bool { return langCount[more[i]] > langCount[more[j]] })
	langs = append(langs, more...)
	langNote := "Languages as the CASE package declares them."
	if len(langs) == 0 {
		langs, langNote = []string{"und"}, "The CASE package declares no language (und): set the real one."
	}
	p.rights = m.rights(p)
	note := "Imported from CASE: map the subject to your vocabulary and set subjectMappingStatus."
	p.profile = profile.Profile{
		ProfileSchemaVersion: "1.1", ProfileID: p.frameworkID, ProfileVersion: p.profileVersion, FrameworkIDs: []string{p.frameworkID},
		LocalSubject: firstNonEmpty(p.subject, "Unspecified"), NormalizedSubjects: []string{}, SubjectMappingStatus: "unreviewed",
		SubjectMappingNote:   &note,
		SubjectAliases:       append([]string{}, subjects[min(1, len(subjects)):]...),
		SubjectVocabulary:    profile.SubjectVocabulary{VocabularyID: "kgc-case-import", VocabularyVersion: "1.0", Values: []string{"Other"}, UnmatchedValue: "Other"},
		ComparisonDimensions: []string{"wording", "scope", "grade_context"},
		LanguagePolicy:       profile.LanguagePolicy{Languages: langs, PreserveSourceTerminology: true, Notes: []string{langNote}},
		Rights:               p.rights,
		SourceRoleCapabilities: profile.SourceRoleCapabilities{
			RoleNotes: []string{"A CASE package holds standards only: no activities, assessments or resources."}},
		RequiredDisclosures: []string{
			"Imported from the CASE package " + m.docID + " by kgc import case; the interpretation profile is a starter derived from the package and has not been reviewed.",
			"Normalized grades are retrieval facets and do not establish grade equivalence between systems."},
	}
	if m.rep.RootFallbacks > 0 {
		p.profile.KnownSourceAnomalies = append(p.profile.KnownSourceAnomalies, profile.Anomaly{AnomalyID: "case_root_fallbacks",
			Description:        fmt.Sprintf("%d items have no isChildOf parent of a type the hierarchy allows under the framework; they hang under the framework as unresolved root fallbacks.", m.rep.RootFallbacks),
			RequiredDisclosure: "Some items' place in the hierarchy was not resolved from the CASE package."})
	}
	m.grades(p, order)
	m.types(p, order)
	m.codes(p, order)
	return p
}

// grades derives gradeMappings from the items' education levels, in school
// order (PK, K, 1, 2, … 12, numeric labels by number, then the rest), not in
// the order the items first use them.
func (m *model) grades(p *derived, order []*item) {
	var labels []string
	seen := map[string]bool{}
	for _, it := range order {
		for _, l := range it.levels {
			if k := strings.ToLower(l); !seen[k] {
				seen[k] = true
				labels = append(labels, l)
			}
		}
	}
	sort.SliceStable(labels, func(i, j int) bool { return natural.CompareGrades(labels[i], labels[j]) < 0 })
	used := map[string]bool{}
	p.profile.GradeMappings = nil
	for _, l := range labels {
		k := strings.ToLower(l)
		g := normalizeGrade(l)
		p.gradeOf[k] = g
		if used[facetKey(l)] {
			continue // a label already an alias of another (its spelling folded)
		}
		used[facetKey(l)] = true
		gm := profile.GradeMapping{LocalLabel: l, NormalizedGrades: []string{g}}
		for _, a := range append([]string{g}, gradeAliases(g)...) {
			if !used[facetKey(a)] {
				used[facetKey(a)] = true
				gm.Aliases = append(gm.Aliases, a)
			}
		}
		p.profile.GradeMappings = append(p.profile.GradeMappings, gm)
		m.rep.Grades = append(m.rep.Grades, l+" → "+g)
	}
}
