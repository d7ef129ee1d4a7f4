// Package profilefb stores an interpretation profile in its compiled form, the
// kgfb.CompiledProfile table of an image: everything the gate decoded and
// validated, plus every facet-normalised key a request is resolved against,
// sorted for binary search. The compiler writes it once (Build); the server
// reads it in place (Keys) and copies it into a profile.Profile only when a
// handler needs the whole profile (Decode), instead of parsing, validating and
// folding profile_json at every start.
package profilefb

import (
	"sort"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/schema/kgfb"
	"github.com/kgc-project/kgc/schema/profile"
)

// Build writes p as a CompiledProfile table into b and returns its offset. Lists
// and optional strings are written exactly when p has them, so Decode gives back
// a profile equal to p (absent and empty lists stay distinct).
func Build(b *flatbuffers.Builder, p *profile.Profile) flatbuffers.UOffsetT {
	w := &builder{b: b}
	s := w.str
	id, version, schemaVersion := s(p.ProfileID), s(p.ProfileVersion), s(p.ProfileSchemaVersion)
	frameworks, subject, normSubjects, subjectAliases := w.strs(p.FrameworkIDs), s(p.LocalSubject), w.strs(p.NormalizedSubjects), w.strs(p.SubjectAliases)
	mappingStatus, mappingNote := s(p.SubjectMappingStatus), w.optStr(p.SubjectMappingNote)
	sv := p.SubjectVocabulary
	vocID, vocVersion, vocValues, vocUnmatched := s(sv.VocabularyID), s(sv.VocabularyVersion), w.strs(sv.Values), s(sv.UnmatchedValue)
	grades := w.gradeMappings(p.GradeMappings)
	stages := w.stageMappings(p.EducationStageMappings)
	gradeTypes := w.strs(p.GradeLevelStatementTypes)
	types := w.statementTypes(p.StatementTypes)
	h := p.Hierarchy
	relType, roots, order := s(h.RelationshipType), w.strs(h.RootStatementTypes), w.strs(h.StatementTypeOrder)
	cp := p.CodeSearchPolicy
	avail, codeTypes, delims, rules, canon := s(cp.Availability), w.codeTypes(cp.CodeTypes), w.strs(cp.PrefixDelimiters), w.parentRules(cp.CodeParentRules), w.strs(cp.CanonicalizationNotes)
	lp := p.LanguagePolicy
	langs, langNotes := w.strs(lp.Languages), w.strs(lp.Notes)
	roleNotes := w.strs(p.SourceRoleCapabilities.RoleNotes)
	r := p.Rights
	lic, licURI, attr, review, deriv := s(r.SourceLicense), w.optStr(r.LicenseURI), s(r.AttributionStatement), s(r.ReviewStatus), s(r.AllowGeneratedDerivatives)
	dims, anomalies, disclosures := w.strs(p.ComparisonDimensions), w.anomalies(p.KnownSourceAnomalies), w.strs(p.RequiredDisclosures)
	keys := w.keys(p)

	kgfb.CompiledProfileStart(b)
	kgfb.CompiledProfileAddProfileId(b, id)
	kgfb.CompiledProfileAddProfileVersion(b, version)
	kgfb.CompiledProfileAddProfileSchemaVersion(b, schemaVersion)
	kgfb.CompiledProfileAddFrameworkIds(b, frameworks)
	kgfb.CompiledProfileAddLocalSubject(b, subject)
	kgfb.CompiledProfileAddNormalizedSubjects(b, normSubjects)
	kgfb.CompiledProfileAddSubjectAliases(b, subjectAliases)
	kgfb.CompiledProfileAddSubjectMappingStatus(b, mappingStatus)
	kgfb.CompiledProfileAddSubjectMappingNote(b, mappingNote)
	kgfb.CompiledProfileAddVocabularyId(b, vocID)
	kgfb.CompiledProfileAddVocabularyVersion(b, vocVersion)
	kgfb.CompiledProfileAddVocabularyValues(b, vocValues)
	kgfb.CompiledProfileAddVocabularyUnmatchedValue(b, vocUnmatched)
	kgfb.CompiledProfileAddGradeMappings(b, grades)
	kgfb.CompiledProfileAddEducationStageMappings(b, stages)
	kgfb.CompiledProfileAddGradeLevelStatementTypes(b, gradeTypes)
	kgfb.CompiledProfileAddStatementTypes(b, types)
	kgfb.CompiledProfileAddAllowMultiParent(b, h.AllowMultiParent)
	kgfb.CompiledProfileAddRelationshipType(b, relType)
	kgfb.CompiledProfileAddRootStatementTypes(b, roots)
	kgfb.CompiledProfileAddStatementTypeOrder(b, order)
	kgfb.CompiledProfileAddCodeAvailability(b, avail)
	kgfb.CompiledProfileAddCodeTypes(b, codeTypes)
	kgfb.CompiledProfileAddCodeCaseSensitive(b, cp.CaseSensitive)
	kgfb.CompiledProfileAddCodeWhitespaceNormalization(b, cp.WhitespaceNormalization)
	kgfb.CompiledProfileAddCodePunctuationNormalization(b, cp.PunctuationNormalization)
	kgfb.CompiledProfileAddCodeAllowPrefix(b, cp.AllowPrefixSearch)
	kgfb.CompiledProfileAddCodePrefixDelimiters(b, delims)
	kgfb.CompiledProfileAddCodeParentRules(b, rules)
	kgfb.CompiledProfileAddCodesAreUniqueIdentifiers(b, cp.CodesAreUniqueIdentifiers)
	kgfb.CompiledProfileAddCanonicalizationNotes(b, canon)
	kgfb.CompiledProfileAddLanguages(b, langs)
	kgfb.CompiledProfileAddLanguageNotes(b, langNotes)
	kgfb.CompiledProfileAddPreserveSourceTerminology(b, lp.PreserveSourceTerminology)
	kgfb.CompiledProfileAddAllowBilingualPairing(b, lp.AllowBilingualPairing)
	src := p.SourceRoleCapabilities
	kgfb.CompiledProfileAddHasOfficialActivities(b, src.HasOfficialActivities)
	kgfb.CompiledProfileAddHasOfficialAssessmentGuidance(b, src.HasOfficialAssessmentGuidance)
	kgfb.CompiledProfileAddHasOfficialResources(b, src.HasOfficialResources)
	kgfb.CompiledProfileAddRoleNotes(b, roleNotes)
	kgfb.CompiledProfileAddSourceLicense(b, lic)
	kgfb.CompiledProfileAddLicenseUri(b, licURI)
	kgfb.CompiledProfileAddAttributionStatement(b, attr)
	kgfb.CompiledProfileAddReviewStatus(b, review)
	kgfb.CompiledProfileAddAllowStandardResources(b, r.AllowStandardResources)
	kgfb.CompiledProfileAddAllowFullText(b, r.AllowFullText)
	kgfb.CompiledProfileAddAllowBulkResource(b, r.AllowBulkResource)
	kgfb.CompiledProfileAddAllowGeneratedDerivatives(b, deriv)
	kgfb.CompiledProfileAddComparisonDimensions(b, dims)
	kgfb.CompiledProfileAddKnownSourceAnomalies(b, anomalies)
	kgfb.CompiledProfileAddRequiredDisclosures(b, disclosures)
	kgfb.CompiledProfileAddKeys(b, keys)
	return kgfb.CompiledProfileEnd(b)
}

// builder writes the parts of a profile. A zero offset leaves a field absent
// (the Add functions of an offset field skip 0).
type builder struct{ b *flatbuffers.Builder }

// str writes a string; the empty string is left absent (it reads back as "").
func (w *builder) str(s string) flatbuffers.UOffsetT {
	if s == "" {
		return 0
	}
	return w.b.CreateString(s)
}

// optStr writes an optional string, present (even empty) exactly when s is not nil.
func (w *builder) optStr(s *string) flatbuffers.UOffsetT {
	if s == nil {
		return 0
	}
	return w.b.CreateString(*s)
}

// strs writes a string vector, present (even empty) exactly when list is not nil.
func (w *builder) strs(list []string) flatbuffers.UOffsetT {
	if list == nil {
		return 0
	}
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, s := range list {
		offs[i] = w.b.CreateString(s)
	}
	return w.tables(offs, true)
}

// tables writes a vector of offsets; present exactly when present is true.
func (w *builder) tables(offs []flatbuffers.UOffsetT, present bool) flatbuffers.UOffsetT {
	if !present {
		return 0
	}
	w.b.StartVector(4, len(offs), 4)
	for i := len(offs) - 1; i >= 0; i-- {
		w.b.PrependUOffsetT(offs[i])
	}
	return w.b.EndVector(len(offs))
}

func (w *builder) gradeMappings(list []profile.GradeMapping) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, g := range list {
		label, aliases, grades := w.str(g.LocalLabel), w.strs(g.Aliases), w.strs(g.NormalizedGrades)
		kgfb.GradeMappingStart(w.b)
		kgfb.GradeMappingAddLocalLabel(w.b, label)
		kgfb.GradeMappingAddAliases(w.b, aliases)
		kgfb.GradeMappingAddNormalizedGrades(w.b, grades)
		offs[i] = kgfb.GradeMappingEnd(w.b)
	}
	return w.tables(offs, list != nil)
}

func (w *builder) stageMappings(list []profile.StageMapping) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, g := range list {
		label, stage := w.str(g.LocalLabel), w.str(g.NormalizedStage)
		kgfb.StageMappingStart(w.b)
		kgfb.StageMappingAddLocalLabel(w.b, label)
		kgfb.StageMappingAddNormalizedStage(w.b, stage)
		offs[i] = kgfb.StageMappingEnd(w.b)
	}
	return w.tables(offs, list != nil)
}

func (w *builder) statementTypes(list []profile.StatementType) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, st := range list {
		src, norm, desc, aliases := w.str(st.SourceStatementType), w.str(st.NormalizedStatementType), w.str(st.Description), w.strs(st.Aliases)
		values := w.controlledValues(st.ControlledValues)
		scope, codeType, parents := w.strs(st.IdentityScope), w.optStr(st.CodeType), w.allowedParents(st.AllowedParents)
		kgfb.ProfileStatementTypeStart(w.b)
		kgfb.ProfileStatementTypeAddSource(w.b, src)
		kgfb.ProfileStatementTypeAddNormalized(w.b, norm)
		kgfb.ProfileStatementTypeAddDescription(w.b, desc)
		kgfb.ProfileStatementTypeAddAliases(w.b, aliases)
		kgfb.ProfileStatementTypeAddControlledValues(w.b, values)
		kgfb.ProfileStatementTypeAddIsGraphNode(w.b, st.IsGraphNode)
		kgfb.ProfileStatementTypeAddIdentityScope(w.b, scope)
		kgfb.ProfileStatementTypeAddCodeType(w.b, codeType)
		kgfb.ProfileStatementTypeAddAllowedParents(w.b, parents)
		offs[i] = kgfb.ProfileStatementTypeEnd(w.b)
	}
	return w.tables(offs, list != nil)
}

func (w *builder) controlledValues(list []profile.ControlledValue) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, v := range list {
		canonical, aliases := w.str(v.CanonicalValue), w.strs(v.Aliases)
		kgfb.ControlledValueStart(w.b)
		kgfb.ControlledValueAddCanonicalValue(w.b, canonical)
		kgfb.ControlledValueAddAliases(w.b, aliases)
		offs[i] = kgfb.ControlledValueEnd(w.b)
	}
	return w.tables(offs, list != nil)
}

func (w *builder) allowedParents(list []profile.AllowedParent) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, a := range list {
		parent := w.str(a.ParentStatementType)
		kgfb.AllowedParentStart(w.b)
		kgfb.AllowedParentAddParentStatementType(w.b, parent)
		kgfb.AllowedParentAddMinCount(w.b, a.MinCount)
		kgfb.AllowedParentAddMaxCount(w.b, a.MaxCount)
		offs[i] = kgfb.AllowedParentEnd(w.b)
	}
	return w.tables(offs, list != nil)
}

func (w *builder) codeTypes(list []profile.CodeType) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, c := range list {
		name, patterns, types, scopes := w.str(c.CodeType), w.strs(c.Patterns), w.strs(c.StatementTypes), w.strs(c.ScopeStatementTypes)
		kgfb.CodeTypeStart(w.b)
		kgfb.CodeTypeAddCodeType(w.b, name)
		kgfb.CodeTypeAddPatterns(w.b, patterns)
		kgfb.CodeTypeAddStatementTypes(w.b, types)
		kgfb.CodeTypeAddScopeStatementTypes(w.b, scopes)
		offs[i] = kgfb.CodeTypeEnd(w.b)
	}
	return w.tables(offs, list != nil)
}

func (w *builder) parentRules(list []profile.CodeParentRule) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, r := range list {
		child, parent, method, re, repl := w.str(r.ChildCodeType), w.str(r.ParentCodeType), w.str(r.Method), w.str(r.Regex), w.str(r.Replacement)
		kgfb.CodeParentRuleStart(w.b)
		kgfb.CodeParentRuleAddChildCodeType(w.b, child)
		kgfb.CodeParentRuleAddParentCodeType(w.b, parent)
		kgfb.CodeParentRuleAddMethod(w.b, method)
		kgfb.CodeParentRuleAddRegex(w.b, re)
		kgfb.CodeParentRuleAddReplacement(w.b, repl)
		offs[i] = kgfb.CodeParentRuleEnd(w.b)
	}
	return w.tables(offs, list != nil)
}

func (w *builder) anomalies(list []profile.Anomaly) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, a := range list {
		id, desc, disclosure := w.str(a.AnomalyID), w.str(a.Description), w.str(a.RequiredDisclosure)
		kgfb.AnomalyStart(w.b)
		kgfb.AnomalyAddAnomalyId(w.b, id)
		kgfb.AnomalyAddDescription(w.b, desc)
		kgfb.AnomalyAddRequiredDisclosure(w.b, disclosure)
		offs[i] = kgfb.AnomalyEnd(w.b)
	}
	return w.tables(offs, list != nil)
}

// key is one facet-normalised key before it is written.
type key struct {
	kind   kgfb.ProfileKeyKind
	key    string
	target uint32
}

// keys writes every facet-normalised key of p, sorted by (kind, key bytes,
// target) without repeats: the order Keys searches.
func (w *builder) keys(p *profile.Profile) flatbuffers.UOffsetT {
	list := keysOf(p)
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, k := range list {
		s := w.b.CreateString(k.key)
		kgfb.ProfileKeyStart(w.b)
		kgfb.ProfileKeyAddKind(w.b, k.kind)
		kgfb.ProfileKeyAddKey(w.b, s)
		kgfb.ProfileKeyAddTarget(w.b, k.target)
		offs[i] = kgfb.ProfileKeyEnd(w.b)
	}
	return w.tables(offs, true)
}

// keysOf folds every name a request can use for p (grade labels and aliases,
// normalized grades, statement types and aliases, the subject and its aliases,
// normalized subjects) with textnorm.Facet, sorted and without repeats. Blank
// keys are left out: a blank request value never matches.
func keysOf(p *profile.Profile) []key {
	var out []key
	add := func(kind kgfb.ProfileKeyKind, target int, names ...string) {
		for _, n := range names {
			if k := textnorm.Facet(n); k != "" {
				out = append(out, key{kind, k, uint32(target)})
			}
		}
	}
	for i, g := range p.GradeMappings {
		add(kgfb.ProfileKeyKindGradeName, i, g.LocalLabel)
		add(kgfb.ProfileKeyKindGradeName, i, g.Aliases...)
		add(kgfb.ProfileKeyKindNormalizedGrade, i, g.NormalizedGrades...)
	}
	for i, st := range p.StatementTypes {
		add(kgfb.ProfileKeyKindStatementTypeName, i, st.SourceStatementType)
		add(kgfb.ProfileKeyKindStatementTypeName, i, st.Aliases...)
	}
	add(kgfb.ProfileKeyKindSubjectName, 0, p.LocalSubject)
	add(kgfb.ProfileKeyKindSubjectName, 0, p.SubjectAliases...)
	for i, s := range p.NormalizedSubjects {
		add(kgfb.ProfileKeyKindNormalizedSubject, i, s)
	}
	sort.Slice(out, func(i, j int) bool { return keyLess(out[i], out[j]) })
	uniq := out[:0]
	for i, k := range out {
		if i == 0 || k != out[i-1] {
			uniq = append(uniq, k)
		}
	}
	return uniq
}

func keyLess(a, b key) bool {
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	if a.key != b.key {
		return a.key < b.key
	}
	return a.target < b.target
}
