package profile

import (
	"strings"
	"time"

	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/rights"
)

// Decode decodes profile bytes strictly and validates the profile on its own
// (docs/reference/profile-format.md). It returns the profile (nil when the bytes are not one JSON
// object), its compiled regexes, and every finding. path is the profile's path
// relative to the profile root, used in findings.
func Decode(data []byte, path string) (*Profile, *Compiled, []finding.Finding) {
	d := &decoder{path: path}
	v := manifest.ParseDocument(data, &d.is)
	if v == nil {
		return nil, nil, d.findings()
	}
	o := jsonv.AsObj(v, "", &d.is)
	if !o.Valid() {
		return nil, nil, d.findings()
	}
	p := &Profile{}
	d.read(o, p)
	c := d.validate(p)
	return p, c, d.findings()
}

type decoder struct {
	path  string
	is    jsonv.Issues
	extra []finding.Finding
}

func (d *decoder) add(code finding.Code, field, format string, args ...any) {
	d.extra = append(d.extra, finding.New(code, format, args...).In(field))
}

func (d *decoder) findings() []finding.Finding {
	out := finding.FromIssues(d.is.List, finding.StageProfile, "profile", d.path)
	for _, f := range d.extra {
		out = append(out, f.At("profile", d.path).WithStage(finding.StageProfile))
	}
	return out
}

func strs(o *jsonv.Obj, key string, required bool) []string {
	s, _ := o.Strs(key, required)
	return s
}

func nonBlank(o *jsonv.Obj, key string, required bool) string {
	s, ok := o.Str(key, required)
	if ok && strings.TrimSpace(s) == "" {
		o.Invalid(key, "%s must not be blank", jsonv.Join(o.Path, key))
	}
	return s
}

func objects(o *jsonv.Obj, key string, required bool, each func(*jsonv.Obj)) {
	arr, ok := o.Arr(key, required)
	if !ok {
		return
	}
	for i, el := range arr {
		eo := jsonv.AsObj(el, jsonv.Index(jsonv.Join(o.Path, key), i), o.Is)
		each(eo)
		eo.Done()
	}
}

func (d *decoder) read(o *jsonv.Obj, p *Profile) {
	p.ProfileID, _ = o.Str("profileId", true)
	if why := ids.CheckProfileID(p.ProfileID); p.ProfileID != "" && why != "" {
		o.Invalid("profileId", "profileId: %s", why)
	}
	p.ProfileVersion, _ = o.Str("profileVersion", true)
	if why := ids.CheckVersion(p.ProfileVersion); p.ProfileVersion != "" && why != "" {
		o.Invalid("profileVersion", "profileVersion: %s", why)
	}
	p.ProfileSchemaVersion, _ = o.Str("profileSchemaVersion", true)
	p.FrameworkIDs = strs(o, "frameworkIds", true)
	p.LocalSubject = nonBlank(o, "localSubject", true)
	p.NormalizedSubjects = strs(o, "normalizedSubjects", true)
	p.SubjectAliases = strs(o, "subjectAliases", false)
	p.SubjectMappingStatus, _ = o.Str("subjectMappingStatus", true)
	if s, present, isNull := o.NullStr("subjectMappingNote", false); present && !isNull {
		p.SubjectMappingNote = &s
	}
	sv := o.Object("subjectVocabulary", true)
	p.SubjectVocabulary = SubjectVocabulary{
		VocabularyID:      nonBlank(sv, "vocabularyId", true),
		VocabularyVersion: nonBlank(sv, "vocabularyVersion", true),
		Values:            strs(sv, "values", true),
		UnmatchedValue:    nonBlank(sv, "unmatchedValue", true),
	}
	sv.Done()
	objects(o, "gradeMappings", true, func(g *jsonv.Obj) {
		p.GradeMappings = append(p.GradeMappings, GradeMapping{
			LocalLabel:       nonBlank(g, "localLabel", true),
			Aliases:          strs(g, "aliases", false),
			NormalizedGrades: strs(g, "normalizedGrades", true),
		})
	})
	objects(o, "educationStageMappings", false, func(g *jsonv.Obj) {
		p.EducationStageMappings = append(p.EducationStageMappings, StageMapping{
			LocalLabel:      nonBlank(g, "localLabel", true),
			NormalizedStage: nonBlank(g, "normalizedStage", true),
		})
	})
	p.GradeLevelStatementTypes = strs(o, "gradeLevelStatementTypes", false)
	objects(o, "statementTypes", true, func(s *jsonv.Obj) { p.StatementTypes = append(p.StatementTypes, readStatementType(s)) })
	h := o.Object("hierarchy", true)
	p.Hierarchy.AllowMultiParent, _ = h.Bool("allowMultiParent", true)
	p.Hierarchy.RelationshipType = "hasChild"
	if s, ok := h.Str("relationshipType", false); ok {
		p.Hierarchy.RelationshipType = s
	}
	p.Hierarchy.RootStatementTypes = strs(h, "rootStatementTypes", true)
	p.Hierarchy.StatementTypeOrder = strs(h, "statementTypeOrder", false)
	h.Done()
	p.CodeSearchPolicy = readCodePolicy(o.Object("codeSearchPolicy", true))
	lp := o.Object("languagePolicy", true)
	p.LanguagePolicy.Languages = strs(lp, "languages", true)
	p.LanguagePolicy.Notes = strs(lp, "notes", false)
	p.LanguagePolicy.PreserveSourceTerminology, _ = lp.Bool("preserveSourceTerminology", false)
	p.LanguagePolicy.AllowBilingualPairing, _ = lp.Bool("allowBilingualPairing", false)
	lp.Done()
	sr := o.Object("sourceRoleCapabilities", true)
	p.SourceRoleCapabilities.HasOfficialActivities, _ = sr.Bool("hasOfficialActivities", true)
	p.SourceRoleCapabilities.HasOfficialAssessmentGuidance, _ = sr.Bool("hasOfficialAssessmentGuidance", true)
	p.SourceRoleCapabilities.HasOfficialResources, _ = sr.Bool("hasOfficialResources", true)
	p.SourceRoleCapabilities.RoleNotes = strs(sr, "roleNotes", false)
	sr.Done()
	p.Rights = rights.Decode(o.Object("rights", true))
	p.ComparisonDimensions = strs(o, "comparisonDimensions", false)
	objects(o, "knownSourceAnomalies", false, func(a *jsonv.Obj) {
		p.KnownSourceAnomalies = append(p.KnownSourceAnomalies, Anomaly{
			AnomalyID:          nonBlank(a, "anomalyId", true),
			Description:        nonBlank(a, "description", true),
			RequiredDisclosure: nonBlank(a, "requiredDisclosure", true),
		})
	})
	p.RequiredDisclosures = strs(o, "requiredDisclosures", false)
	if rr := o.Object("rightsReview", false); rr.Valid() {
		r := &RightsReview{ReviewedBy: nonBlank(rr, "reviewedBy", true)}
		if at, ok := rr.Str("reviewedAt", true); ok {
			r.ReviewedAt = at
			if _, err := time.Parse(time.RFC3339, at); err != nil {
				if _, err := time.Parse("2006-01-02", at); err != nil {
					rr.Invalid("reviewedAt", "%s must be an RFC 3339 timestamp or a YYYY-MM-DD date", jsonv.Join(rr.Path, "reviewedAt"))
				}
			}
		}
		if n, ok := rr.Str("note", false); ok {
			r.Note = &n
		}
		rr.Done()
		p.RightsReview = r
	}
	o.Field("progressionHeuristics", false) // legacy, unused
	o.Done()
}

func readStatementType(s *jsonv.Obj) StatementType {
	st := StatementType{
		SourceStatementType: nonBlank(s, "sourceStatementType", true),
		IsGraphNode:         true,
	}
	if n, ok := s.Str("normalizedStatementType", true); ok {
		if n != NormalizedStandard && n != NormalizedGrouping {
			s.Invalid("normalizedStatementType", "%s must be %q or %q", jsonv.Join(s.Path, "normalizedStatementType"), NormalizedStandard, NormalizedGrouping)
		}
		st.NormalizedStatementType = n
	}
	st.Description, _ = s.Str("description", false)
	st.Aliases = strs(s, "aliases", false)
	objects(s, "controlledValues", false, func(c *jsonv.Obj) {
		st.ControlledValues = append(st.ControlledValues, ControlledValue{
			CanonicalValue: nonBlank(c, "canonicalValue", true),
			Aliases:        strs(c, "aliases", false),
		})
	})
	if b, ok := s.Bool("isGraphNode", false); ok {
		st.IsGraphNode = b
	}
	st.IdentityScope = strs(s, "identityScope", false)
	if c, present, isNull := s.NullStr("codeType", false); present && !isNull {
		st.CodeType = &c
	}
	objects(s, "allowedParents", false, func(a *jsonv.Obj) {
		ap := AllowedParent{ParentStatementType: nonBlank(a, "parentStatementType", true), MaxCount: -1}
		if n, ok := a.Int("minCount", false); ok {
			if n < 0 {
				a.Invalid("minCount", "%s must not be negative", jsonv.Join(a.Path, "minCount"))
			}
			ap.MinCount = n
		}
		if n, present, isNull := a.NullInt("maxCount", false); present && !isNull {
			if n < 1 || n < ap.MinCount {
				a.Invalid("maxCount", "%s must be null or at least max(1, minCount)", jsonv.Join(a.Path, "maxCount"))
			}
			ap.MaxCount = n
		}
		st.AllowedParents = append(st.AllowedParents, ap)
	})
	return st
}

func readCodePolicy(c *jsonv.Obj) CodeSearchPolicy {
	var cp CodeSearchPolicy
	if s, ok := c.Str("availability", true); ok {
		if s != "complete" && s != "partial" && s != "none" {
			c.Invalid("availability", "codeSearchPolicy.availability must be complete, partial or none")
		}
		cp.Availability = s
	}
	objects(c, "codeTypes", false, func(t *jsonv.Obj) {
		cp.CodeTypes = append(cp.CodeTypes, CodeType{
			CodeType:            nonBlank(t, "codeType", true),
			Patterns:            strs(t, "patterns", true),
			StatementTypes:      strs(t, "statementTypes", true),
			ScopeStatementTypes: strs(t, "scopeStatementTypes", false),
		})
	})
	cp.CaseSensitive, _ = c.Bool("caseSensitive", false)
	cp.WhitespaceNormalization, _ = c.Bool("whitespaceNormalization", false)
	cp.PunctuationNormalization, _ = c.Bool("punctuationNormalization", false)
	cp.AllowPrefixSearch, _ = c.Bool("allowPrefixSearch", false)
	cp.PrefixDelimiters = strs(c, "prefixDelimiters", false)
	objects(c, "codeParentRules", false, func(r *jsonv.Obj) {
		cp.CodeParentRules = append(cp.CodeParentRules, CodeParentRule{
			ChildCodeType:  nonBlank(r, "childCodeType", true),
			ParentCodeType: nonBlank(r, "parentCodeType", true),
			Method:         nonBlank(r, "method", true),
			Regex:          nonBlank(r, "regex", true),
			Replacement:    func() string { s, _ := r.Str("replacement", true); return s }(),
		})
	})
	cp.CodesAreUniqueIdentifiers, _ = c.Bool("codesAreUniqueIdentifiers", false)
	cp.CanonicalizationNotes = strs(c, "canonicalizationNotes", false)
	c.Done()
	return cp
}
