package profile

import (
	"slices"
	"strings"

	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/ids"
)

// Compiled holds a profile's compiled code patterns and parent rules.
type Compiled struct {
	// Patterns maps a code type to its compiled patterns.
	Patterns map[string][]*Regex
	// ParentRules holds the compiled regex of each code parent rule, by index.
	ParentRules []*Regex
}

// unique reports exact repeats within one list as profile_duplicate_value.
func (d *decoder) unique(field string, list []string) {
	seen := map[string]bool{}
	for _, s := range list {
		if seen[s] {
			d.add(finding.ProfileDuplicateValue, field, "%s repeats %q", field, s)
		}
		seen[s] = true
	}
}

// facetKeys checks that facet keys (labels and aliases, facet-normalised) resolve
// to one owner each: the same key under two owners makes a filter ambiguous.
type facetKeys struct {
	d     *decoder
	field string
	owner map[string]string
}

func (d *decoder) newFacetKeys(field string) *facetKeys {
	return &facetKeys{d: d, field: field, owner: map[string]string{}}
}

func (f *facetKeys) add(owner string, values ...string) {
	for _, v := range values {
		k := textnorm.Facet(v)
		if k == "" {
			f.d.add(finding.ProfileDuplicateValue, f.field, "%s: %q is blank after facet normalisation", f.field, v)
			continue
		}
		if prev, ok := f.owner[k]; ok && prev != owner {
			f.d.add(finding.ProfileDuplicateValue, f.field, "%s: %q (of %q) collides with %q after facet normalisation", f.field, v, owner, prev)
			continue
		}
		f.owner[k] = owner
	}
}

func (d *decoder) validate(p *Profile) *Compiled {
	if p.ProfileSchemaVersion != "" && !slices.Contains(supportedSchemaVersions, p.ProfileSchemaVersion) {
		d.add(finding.ProfileVersionUnsupported, "profileSchemaVersion", "profileSchemaVersion %q is not supported (supported: %s)", p.ProfileSchemaVersion, strings.Join(supportedSchemaVersions, ", "))
	}
	if len(p.FrameworkIDs) == 0 {
		d.add(finding.SchemaInvalid, "frameworkIds", "frameworkIds must name at least one framework")
	}
	for _, f := range p.FrameworkIDs {
		if why := ids.CheckFramework(f); why != "" {
			d.add(finding.SchemaInvalid, "frameworkIds", "frameworkIds: %s", why)
		}
	}
	d.unique("frameworkIds", p.FrameworkIDs)
	d.validateSubjects(p)
	d.validateGrades(p)
	d.validateStatementTypes(p)
	d.validateHierarchy(p)
	c := d.validateCodePolicy(p)
	if len(p.LanguagePolicy.Languages) == 0 {
		d.add(finding.SchemaInvalid, "languagePolicy.languages", "languagePolicy.languages must name at least one language")
	}
	for _, l := range p.LanguagePolicy.Languages {
		if why := ids.CheckLanguage(l); why != "" {
			d.add(finding.SchemaInvalid, "languagePolicy.languages", "languagePolicy.languages: %s", why)
		}
	}
	d.unique("languagePolicy.languages", p.LanguagePolicy.Languages)
	anomalies := make([]string, 0, len(p.KnownSourceAnomalies))
	for _, a := range p.KnownSourceAnomalies {
		anomalies = append(anomalies, a.AnomalyID)
	}
	d.unique("knownSourceAnomalies.anomalyId", anomalies)
	d.unique("comparisonDimensions", p.ComparisonDimensions)
	d.unique("requiredDisclosures", p.RequiredDisclosures)
	return c
}

func (d *decoder) validateSubjects(p *Profile) {
	v := p.SubjectVocabulary
	if len(v.Values) == 0 {
		d.add(finding.SchemaInvalid, "subjectVocabulary.values", "subjectVocabulary.values must have at least one value")
	}
	for _, s := range v.Values {
		if strings.TrimSpace(s) == "" {
			d.add(finding.SchemaInvalid, "subjectVocabulary.values", "subjectVocabulary.values has a blank value")
		}
	}
	d.unique("subjectVocabulary.values", v.Values)
	if v.UnmatchedValue != "" && !slices.Contains(v.Values, v.UnmatchedValue) {
		d.add(finding.ProfileReferenceInvalid, "subjectVocabulary.unmatchedValue", "unmatchedValue %q is not one of the vocabulary values", v.UnmatchedValue)
	}
	for _, s := range p.NormalizedSubjects {
		if len(v.Values) > 0 && !slices.Contains(v.Values, s) {
			d.add(finding.ProfileReferenceInvalid, "normalizedSubjects", "normalized subject %q is not in the subject vocabulary", s)
		}
	}
	d.unique("normalizedSubjects", p.NormalizedSubjects)
	d.unique("subjectAliases", append([]string{p.LocalSubject}, p.SubjectAliases...))
	switch p.SubjectMappingStatus {
	case "unreviewed":
		if len(p.NormalizedSubjects) > 0 {
			d.add(finding.ProfilePolicyInconsistent, "normalizedSubjects", "an unreviewed subject mapping must not have normalized subjects")
		}
	case "mapped", "other":
		if len(p.NormalizedSubjects) == 0 {
			d.add(finding.ProfilePolicyInconsistent, "normalizedSubjects", "a %s subject mapping needs at least one normalized subject", p.SubjectMappingStatus)
		}
		if p.SubjectMappingStatus == "other" && (p.SubjectMappingNote == nil || strings.TrimSpace(*p.SubjectMappingNote) == "") {
			d.add(finding.ProfilePolicyInconsistent, "subjectMappingNote", "an 'other' subject mapping needs a note")
		}
	case "":
	default:
		d.add(finding.SchemaInvalid, "subjectMappingStatus", "subjectMappingStatus must be mapped, other or unreviewed")
	}
}

func (d *decoder) validateGrades(p *Profile) {
	keys := d.newFacetKeys("gradeMappings")
	labels := make([]string, 0, len(p.GradeMappings))
	for i, g := range p.GradeMappings {
		labels = append(labels, g.LocalLabel)
		keys.add(g.LocalLabel, g.LocalLabel)
		keys.add(g.LocalLabel, g.Aliases...)
		if len(g.NormalizedGrades) == 0 {
			d.add(finding.SchemaInvalid, "gradeMappings", "gradeMappings[%d] must have at least one normalized grade", i)
		}
		d.unique("gradeMappings["+g.LocalLabel+"].normalizedGrades", g.NormalizedGrades)
		d.unique("gradeMappings["+g.LocalLabel+"].aliases", g.Aliases)
	}
	d.unique("gradeMappings.localLabel", labels)
	stages := d.newFacetKeys("educationStageMappings")
	for _, s := range p.EducationStageMappings {
		stages.add(s.LocalLabel+"\x00"+s.NormalizedStage, s.LocalLabel)
	}
	for _, t := range p.GradeLevelStatementTypes {
		if _, ok := p.StatementType(t); !ok {
			d.add(finding.ProfileReferenceInvalid, "gradeLevelStatementTypes", "grade-level statement type %q is not declared", t)
		}
	}
	d.unique("gradeLevelStatementTypes", p.GradeLevelStatementTypes)
}

func (d *decoder) validateStatementTypes(p *Profile) {
	if len(p.StatementTypes) == 0 {
		d.add(finding.SchemaInvalid, "statementTypes", "statementTypes must declare at least one statement type")
	}
	var names []string
	keys := d.newFacetKeys("statementTypes")
	for _, st := range p.StatementTypes {
		names = append(names, st.SourceStatementType)
		keys.add(st.SourceStatementType, st.SourceStatementType)
		keys.add(st.SourceStatementType, st.Aliases...)
	}
	d.unique("statementTypes.sourceStatementType", names)
	for _, st := range p.StatementTypes {
		field := "statementTypes[" + st.SourceStatementType + "]"
		d.unique(field+".aliases", st.Aliases)
		values := d.newFacetKeys(field + ".controlledValues")
		for _, v := range st.ControlledValues {
			values.add(v.CanonicalValue, v.CanonicalValue)
			values.add(v.CanonicalValue, v.Aliases...)
		}
		for _, s := range st.IdentityScope {
			if _, ok := p.StatementType(s); !ok {
				d.add(finding.ProfileReferenceInvalid, field+".identityScope", "identity scope %q is not a declared statement type", s)
			}
		}
		parents := make([]string, 0, len(st.AllowedParents))
		for _, ap := range st.AllowedParents {
			parents = append(parents, ap.ParentStatementType)
			pt, ok := p.StatementType(ap.ParentStatementType)
			switch {
			case !ok:
				d.add(finding.ProfileReferenceInvalid, field+".allowedParents", "allowed parent %q is not a declared statement type", ap.ParentStatementType)
			case !pt.IsGraphNode:
				d.add(finding.ProfileReferenceInvalid, field+".allowedParents", "allowed parent %q is not a graph-node statement type", ap.ParentStatementType)
			}
		}
		d.unique(field+".allowedParents", parents)
		if !st.IsGraphNode && len(st.AllowedParents) > 0 {
			d.add(finding.ProfilePolicyInconsistent, field+".allowedParents", "statement type %q is not a graph node but declares allowed parents", st.SourceStatementType)
		}
		if !p.Hierarchy.AllowMultiParent {
			required := 0
			for _, ap := range st.AllowedParents {
				if ap.MaxCount != 1 && ap.MaxCount != 0 {
					d.add(finding.ProfilePolicyInconsistent, field+".allowedParents", "allowed parent %q permits more than one parent but the hierarchy forbids multi-parent items", ap.ParentStatementType)
				}
				if ap.MinCount > 0 {
					required++
				}
			}
			if required > 1 {
				d.add(finding.ProfilePolicyInconsistent, field+".allowedParents", "statement type %q requires parents of %d types but the hierarchy forbids multi-parent items", st.SourceStatementType, required)
			}
		}
		if st.CodeType != nil {
			if why := ids.CheckCodeType(*st.CodeType); why != "" {
				d.add(finding.SchemaInvalid, field+".codeType", "%s", why)
			} else if _, ok := p.CodeTypeNamed(*st.CodeType); !ok {
				d.add(finding.ProfileReferenceInvalid, field+".codeType", "code type %q is not declared in codeSearchPolicy.codeTypes", *st.CodeType)
			}
		}
	}
}

func (d *decoder) validateHierarchy(p *Profile) {
	h := p.Hierarchy
	if h.RelationshipType != "hasChild" {
		d.add(finding.ProfilePolicyInconsistent, "hierarchy.relationshipType", "hierarchy.relationshipType %q is not supported (supported: hasChild)", h.RelationshipType)
	}
	if len(h.RootStatementTypes) == 0 {
		d.add(finding.SchemaInvalid, "hierarchy.rootStatementTypes", "hierarchy.rootStatementTypes must name at least one statement type")
	}
	for _, t := range h.RootStatementTypes {
		st, ok := p.StatementType(t)
		switch {
		case !ok:
			d.add(finding.ProfileReferenceInvalid, "hierarchy.rootStatementTypes", "root statement type %q is not declared", t)
		case !st.IsGraphNode:
			d.add(finding.ProfileReferenceInvalid, "hierarchy.rootStatementTypes", "root statement type %q is not a graph node", t)
		}
	}
	d.unique("hierarchy.rootStatementTypes", h.RootStatementTypes)
	for _, t := range h.StatementTypeOrder {
		if _, ok := p.StatementType(t); !ok {
			d.add(finding.ProfileReferenceInvalid, "hierarchy.statementTypeOrder", "ordered statement type %q is not declared", t)
		}
	}
	d.unique("hierarchy.statementTypeOrder", h.StatementTypeOrder)
}

func (d *decoder) validateCodePolicy(p *Profile) *Compiled {
	cp := p.CodeSearchPolicy
	c := &Compiled{Patterns: map[string][]*Regex{}}
	if cp.Availability == "none" {
		if len(cp.CodeTypes) > 0 || len(cp.CodeParentRules) > 0 || cp.AllowPrefixSearch {
			d.add(finding.ProfilePolicyInconsistent, "codeSearchPolicy", "availability none allows no code types, parent rules or prefix search")
		}
	} else if cp.Availability != "" && len(cp.CodeTypes) == 0 {
		d.add(finding.ProfilePolicyInconsistent, "codeSearchPolicy.codeTypes", "availability %s needs at least one code type", cp.Availability)
	}
	if cp.AllowPrefixSearch && len(cp.PrefixDelimiters) == 0 {
		d.add(finding.ProfilePolicyInconsistent, "codeSearchPolicy.prefixDelimiters", "prefix search needs at least one prefix delimiter")
	}
	d.unique("codeSearchPolicy.prefixDelimiters", cp.PrefixDelimiters)
	normDelims := map[string]string{}
	for _, del := range cp.PrefixDelimiters {
		n := foldCode(cp, del)
		if n == "" {
			d.add(finding.ProfilePolicyInconsistent, "codeSearchPolicy.prefixDelimiters", "prefix delimiter %q normalises to nothing", del)
			continue
		}
		if prev, dup := normDelims[n]; dup && prev != del {
			d.add(finding.ProfilePolicyInconsistent, "codeSearchPolicy.prefixDelimiters", "prefix delimiters %q and %q normalise to the same %q", prev, del, n)
		}
		normDelims[n] = del
	}
	var names []string
	for _, ct := range cp.CodeTypes {
		field := "codeSearchPolicy.codeTypes[" + ct.CodeType + "]"
		names = append(names, ct.CodeType)
		if why := ids.CheckCodeType(ct.CodeType); why != "" {
			d.add(finding.SchemaInvalid, field, "%s", why)
		}
		if len(ct.Patterns) == 0 {
			d.add(finding.SchemaInvalid, field+".patterns", "code type %q needs at least one pattern", ct.CodeType)
		}
		for _, pat := range ct.Patterns {
			re, err := CompileRegex(pat)
			if err != nil {
				d.add(finding.ProfileRegexInvalid, field+".patterns", "pattern %q does not compile: %v", pat, err)
				continue
			}
			c.Patterns[ct.CodeType] = append(c.Patterns[ct.CodeType], re)
		}
		if len(ct.StatementTypes) == 0 {
			d.add(finding.SchemaInvalid, field+".statementTypes", "code type %q needs at least one statement type", ct.CodeType)
		}
		for _, t := range ct.StatementTypes {
			st, ok := p.StatementType(t)
			switch {
			case !ok:
				d.add(finding.ProfileReferenceInvalid, field+".statementTypes", "statement type %q is not declared", t)
			case st.CodeType == nil || *st.CodeType != ct.CodeType:
				d.add(finding.ProfileReferenceInvalid, field+".statementTypes", "statement type %q does not name code type %q", t, ct.CodeType)
			}
		}
		for _, t := range ct.ScopeStatementTypes {
			if _, ok := p.StatementType(t); !ok {
				d.add(finding.ProfileReferenceInvalid, field+".scopeStatementTypes", "scope statement type %q is not declared", t)
			}
		}
	}
	d.unique("codeSearchPolicy.codeTypes.codeType", names)
	for i, r := range cp.CodeParentRules {
		field := "codeSearchPolicy.codeParentRules[" + itoa(i) + "]"
		for _, ref := range []string{r.ChildCodeType, r.ParentCodeType} {
			if _, ok := p.CodeTypeNamed(ref); !ok && ref != "" {
				d.add(finding.ProfileReferenceInvalid, field, "code type %q is not declared", ref)
			}
		}
		if r.Method != "" && r.Method != "regex_substitution" {
			d.add(finding.SchemaInvalid, field+".method", "method %q is not supported (supported: regex_substitution)", r.Method)
		}
		re, err := CompileRegex(r.Regex)
		if err != nil && r.Regex != "" {
			d.add(finding.ProfileRegexInvalid, field+".regex", "regex %q does not compile: %v", r.Regex, err)
		}
		if _, err := pythonReplacement(r.Replacement); err != nil {
			d.add(finding.ProfileRegexInvalid, field+".replacement", "replacement %q: %v", r.Replacement, err)
		}
		c.ParentRules = append(c.ParentRules, re)
	}
	return c
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
