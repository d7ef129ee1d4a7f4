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
	"github.com/kgc-project/kgc/kgimg/internal/fbkit"
	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/schema/profile"
)

// Build writes p as a CompiledProfile table into b and returns its offset. Lists
// and optional strings are written exactly when p has them, so Decode gives back
// a profile equal to p (absent and empty lists stay distinct).
func Build(b *flatbuffers.Builder, p *profile.Profile) flatbuffers.UOffsetT {
	w := &builder{fbkit.Builder{B: b}}
	s := w.Str
	id, version, schemaVersion := s(p.ProfileID), s(p.ProfileVersion), s(p.ProfileSchemaVersion)
	frameworks, subject, normSubjects, subjectAliases := w.Strs(p.FrameworkIDs), s(p.LocalSubject), w.Strs(p.NormalizedSubjects), w.Strs(p.SubjectAliases)
	mappingStatus, mappingNote := s(p.SubjectMappingStatus), w.OptStr(p.SubjectMappingNote)
	sv := p.SubjectVocabulary
	vocID, vocVersion, vocValues, vocUnmatched := s(sv.VocabularyID), s(sv.VocabularyVersion), w.Strs(sv.Values), s(sv.UnmatchedValue)
	grades := w.gradeMappings(p.GradeMappings)
	stages := w.stageMappings(p.EducationStageMappings)
	gradeTypes := w.Strs(p.GradeLevelStatementTypes)
	types := w.statementTypes(p.StatementTypes)
	h := p.Hierarchy
	relType, roots, order := s(h.RelationshipType), w.Strs(h.RootStatementTypes), w.Strs(h.StatementTypeOrder)
	cp := p.CodeSearchPolicy
	avail, codeTypes, delims, rules, canon := s(cp.Availability), w.codeTypes(cp.CodeTypes), w.Strs(cp.PrefixDelimiters), w.parentRules(cp.CodeParentRules), w.Strs(cp.CanonicalizationNotes)
	lp := p.LanguagePolicy
	langs, langNotes := w.Strs(lp.Languages), w.Strs(lp.Notes)
	roleNotes := w.Strs(p.SourceRoleCapabilities.RoleNotes)
	rightsPolicy := w.Rights(&p.Rights)
	dims, anomalies, disclosures := w.Strs(p.ComparisonDimensions), w.anomalies(p.KnownSourceAnomalies), w.Strs(p.RequiredDisclosures)
	keys := w.keys(p)
	var reviewBy, reviewAt, reviewNote flatbuffers.UOffsetT
	if r := p.RightsReview; r != nil {
		reviewBy, reviewAt, reviewNote = s(r.ReviewedBy), s(r.ReviewedAt), w.OptStr(r.Note)
	}

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
	kgfb.CompiledProfileAddRights(b, rightsPolicy)
	kgfb.CompiledProfileAddComparisonDimensions(b, dims)
	kgfb.CompiledProfileAddKnownSourceAnomalies(b, anomalies)
	kgfb.CompiledProfileAddRequiredDisclosures(b, disclosures)
	kgfb.CompiledProfileAddKeys(b, keys)
	if r := p.RightsReview; r != nil {
		kgfb.CompiledProfileAddRightsReviewedBy(b, reviewBy)
		kgfb.CompiledProfileAddRightsReviewedAt(b, reviewAt)
		if r.Note != nil {
			kgfb.CompiledProfileAddRightsReviewNote(b, reviewNote)
		}
	}
	return kgfb.CompiledProfileEnd(b)
}

// builder writes the parts of a profile.
type builder struct{ fbkit.Builder }

func (w *builder) gradeMappings(list []profile.GradeMapping) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, g := range list {
		label, aliases, grades := w.Str(g.LocalLabel), w.Strs(g.Aliases), w.Strs(g.NormalizedGrades)
		kgfb.GradeMappingStart(w.B)
		kgfb.GradeMappingAddLocalLabel(w.B, label)
		kgfb.GradeMappingAddAliases(w.B, aliases)
		kgfb.GradeMappingAddNormalizedGrades(w.B, grades)
		offs[i] = kgfb.GradeMappingEnd(w.B)
	}
	return w.Offsets(offs, list != nil)
}

func (w *builder) stageMappings(list []profile.StageMapping) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, g := range list {
		label, stage := w.Str(g.LocalLabel), w.Str(g.NormalizedStage)
		kgfb.StageMappingStart(w.B)
		kgfb.StageMappingAddLocalLabel(w.B, label)
		kgfb.StageMappingAddNormalizedStage(w.B, stage)
		offs[i] = kgfb.StageMappingEnd(w.B)
	}
	return w.Offsets(offs, list != nil)
}

func (w *builder) statementTypes(list []profile.StatementType) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, st := range list {
		src, norm, desc, aliases := w.Str(st.SourceStatementType), w.Str(st.NormalizedStatementType), w.Str(st.Description), w.Strs(st.Aliases)
		values := w.controlledValues(st.ControlledValues)
		scope, codeType, parents := w.Strs(st.IdentityScope), w.OptStr(st.CodeType), w.allowedParents(st.AllowedParents)
		kgfb.ProfileStatementTypeStart(w.B)
		kgfb.ProfileStatementTypeAddSource(w.B, src)
		kgfb.ProfileStatementTypeAddNormalized(w.B, norm)
		kgfb.ProfileStatementTypeAddDescription(w.B, desc)
		kgfb.ProfileStatementTypeAddAliases(w.B, aliases)
		kgfb.ProfileStatementTypeAddControlledValues(w.B, values)
		kgfb.ProfileStatementTypeAddIsGraphNode(w.B, st.IsGraphNode)
		kgfb.ProfileStatementTypeAddIdentityScope(w.B, scope)
		kgfb.ProfileStatementTypeAddCodeType(w.B, codeType)
		kgfb.ProfileStatementTypeAddAllowedParents(w.B, parents)
		offs[i] = kgfb.ProfileStatementTypeEnd(w.B)
	}
	return w.Offsets(offs, list != nil)
}

func (w *builder) controlledValues(list []profile.ControlledValue) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, v := range list {
		canonical, aliases := w.Str(v.CanonicalValue), w.Strs(v.Aliases)
		kgfb.ControlledValueStart(w.B)
		kgfb.ControlledValueAddCanonicalValue(w.B, canonical)
		kgfb.ControlledValueAddAliases(w.B, aliases)
		offs[i] = kgfb.ControlledValueEnd(w.B)
	}
	return w.Offsets(offs, list != nil)
}

func (w *builder) allowedParents(list []profile.AllowedParent) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, a := range list {
		parent := w.Str(a.ParentStatementType)
		kgfb.AllowedParentStart(w.B)
		kgfb.AllowedParentAddParentStatementType(w.B, parent)
		kgfb.AllowedParentAddMinCount(w.B, a.MinCount)
		kgfb.AllowedParentAddMaxCount(w.B, a.MaxCount)
		offs[i] = kgfb.AllowedParentEnd(w.B)
	}
	return w.Offsets(offs, list != nil)
}

func (w *builder) codeTypes(list []profile.CodeType) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, c := range list {
		name, patterns, types, scopes := w.Str(c.CodeType), w.Strs(c.Patterns), w.Strs(c.StatementTypes), w.Strs(c.ScopeStatementTypes)
		kgfb.CodeTypeStart(w.B)
		kgfb.CodeTypeAddCodeType(w.B, name)
		kgfb.CodeTypeAddPatterns(w.B, patterns)
		kgfb.CodeTypeAddStatementTypes(w.B, types)
		kgfb.CodeTypeAddScopeStatementTypes(w.B, scopes)
		offs[i] = kgfb.CodeTypeEnd(w.B)
	}
	return w.Offsets(offs, list != nil)
}

func (w *builder) parentRules(list []profile.CodeParentRule) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, r := range list {
		child, parent, method, re, repl := w.Str(r.ChildCodeType), w.Str(r.ParentCodeType), w.Str(r.Method), w.Str(r.Regex), w.Str(r.Replacement)
		kgfb.CodeParentRuleStart(w.B)
		kgfb.CodeParentRuleAddChildCodeType(w.B, child)
		kgfb.CodeParentRuleAddParentCodeType(w.B, parent)
		kgfb.CodeParentRuleAddMethod(w.B, method)
		kgfb.CodeParentRuleAddRegex(w.B, re)
		kgfb.CodeParentRuleAddReplacement(w.B, repl)
		offs[i] = kgfb.CodeParentRuleEnd(w.B)
	}
	return w.Offsets(offs, list != nil)
}

func (w *builder) anomalies(list []profile.Anomaly) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, a := range list {
		id, desc, disclosure := w.Str(a.AnomalyID), w.Str(a.Description), w.Str(a.RequiredDisclosure)
		kgfb.AnomalyStart(w.B)
		kgfb.AnomalyAddAnomalyId(w.B, id)
		kgfb.AnomalyAddDescription(w.B, desc)
		kgfb.AnomalyAddRequiredDisclosure(w.B, disclosure)
		offs[i] = kgfb.AnomalyEnd(w.B)
	}
	return w.Offsets(offs, list != nil)
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
		s := w.B.CreateString(k.key)
		kgfb.ProfileKeyStart(w.B)
		kgfb.ProfileKeyAddKind(w.B, k.kind)
		kgfb.ProfileKeyAddKey(w.B, s)
		kgfb.ProfileKeyAddTarget(w.B, k.target)
		offs[i] = kgfb.ProfileKeyEnd(w.B)
	}
	return w.Offsets(offs, true)
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
