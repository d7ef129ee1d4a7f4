package profilefb

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/schema/kgfb"
	"github.com/kgc-project/kgc/schema/profile"
	"github.com/kgc-project/kgc/schema/rights"
)

// Field numbers (vtable slots, in schema order) of the list fields Decode
// reads through presence: an absent list decodes to nil, a present one (even
// empty) to a non-nil slice, as the JSON decoder does. The round-trip test
// catches a wrong number.
const (
	cpFrameworkIDs             = 3
	cpNormalizedSubjects       = 5
	cpSubjectAliases           = 6
	cpVocabularyValues         = 11
	cpGradeMappings            = 13
	cpStageMappings            = 14
	cpGradeLevelStatementTypes = 15
	cpStatementTypes           = 16
	cpRootStatementTypes       = 19
	cpStatementTypeOrder       = 20
	cpCodeTypes                = 22
	cpPrefixDelimiters         = 27
	cpParentRules              = 28
	cpCanonicalizationNotes    = 30
	cpLanguages                = 31
	cpLanguageNotes            = 32
	cpRoleNotes                = 38
	cpComparisonDimensions     = 47
	cpAnomalies                = 48
	cpRequiredDisclosures      = 49

	gmAliases = 1
	gmGrades  = 2

	cvAliases = 1

	stAliases          = 3
	stControlledValues = 4
	stIdentityScope    = 6
	stAllowedParents   = 8

	ctPatterns       = 1
	ctStatementTypes = 2
	ctScopes         = 3
)

// vtable returns the vtable offset of field number n.
func vtable(n int) flatbuffers.VOffsetT { return flatbuffers.VOffsetT(4 + 2*n) }

// strsAt copies the string vector in field n of t: nil when absent.
func strsAt(t flatbuffers.Table, n int) []string {
	o := flatbuffers.UOffsetT(t.Offset(vtable(n)))
	if o == 0 {
		return nil
	}
	start, l := t.Vector(o), t.VectorLen(o)
	out := make([]string, l)
	for i := range out {
		out[i] = string(t.ByteVector(start + flatbuffers.UOffsetT(i*4)))
	}
	return out
}

// count returns the length of the vector in field n of t and whether it is present.
func count(t flatbuffers.Table, n int) (int, bool) {
	o := flatbuffers.UOffsetT(t.Offset(vtable(n)))
	if o == 0 {
		return 0, false
	}
	return t.VectorLen(o), true
}

// slice returns a slice of n elements, nil when the vector was absent.
func slice[T any](n int, present bool) []T {
	if !present {
		return nil
	}
	return make([]T, n)
}

func optStr(b []byte) *string {
	if b == nil {
		return nil
	}
	s := string(b)
	return &s
}

// Decode copies a compiled profile into a profile.Profile, equal to the one
// Build was given. It allocates only what it returns and never points into
// cp's buffer.
func Decode(cp *kgfb.CompiledProfile) *profile.Profile {
	t := cp.Table()
	p := &profile.Profile{
		ProfileID:            string(cp.ProfileId()),
		ProfileVersion:       string(cp.ProfileVersion()),
		ProfileSchemaVersion: string(cp.ProfileSchemaVersion()),
		FrameworkIDs:         strsAt(t, cpFrameworkIDs),
		LocalSubject:         string(cp.LocalSubject()),
		NormalizedSubjects:   strsAt(t, cpNormalizedSubjects),
		SubjectAliases:       strsAt(t, cpSubjectAliases),
		SubjectMappingStatus: string(cp.SubjectMappingStatus()),
		SubjectMappingNote:   optStr(cp.SubjectMappingNote()),
		SubjectVocabulary: profile.SubjectVocabulary{
			VocabularyID:      string(cp.VocabularyId()),
			VocabularyVersion: string(cp.VocabularyVersion()),
			Values:            strsAt(t, cpVocabularyValues),
			UnmatchedValue:    string(cp.VocabularyUnmatchedValue()),
		},
		GradeLevelStatementTypes: strsAt(t, cpGradeLevelStatementTypes),
		Hierarchy: profile.Hierarchy{
			AllowMultiParent:   cp.AllowMultiParent(),
			RelationshipType:   string(cp.RelationshipType()),
			RootStatementTypes: strsAt(t, cpRootStatementTypes),
			StatementTypeOrder: strsAt(t, cpStatementTypeOrder),
		},
		CodeSearchPolicy: profile.CodeSearchPolicy{
			Availability:              string(cp.CodeAvailability()),
			CaseSensitive:             cp.CodeCaseSensitive(),
			WhitespaceNormalization:   cp.CodeWhitespaceNormalization(),
			PunctuationNormalization:  cp.CodePunctuationNormalization(),
			AllowPrefixSearch:         cp.CodeAllowPrefix(),
			PrefixDelimiters:          strsAt(t, cpPrefixDelimiters),
			CodesAreUniqueIdentifiers: cp.CodesAreUniqueIdentifiers(),
			CanonicalizationNotes:     strsAt(t, cpCanonicalizationNotes),
		},
		LanguagePolicy: profile.LanguagePolicy{
			Languages:                 strsAt(t, cpLanguages),
			Notes:                     strsAt(t, cpLanguageNotes),
			PreserveSourceTerminology: cp.PreserveSourceTerminology(),
			AllowBilingualPairing:     cp.AllowBilingualPairing(),
		},
		SourceRoleCapabilities: profile.SourceRoleCapabilities{
			HasOfficialActivities:         cp.HasOfficialActivities(),
			HasOfficialAssessmentGuidance: cp.HasOfficialAssessmentGuidance(),
			HasOfficialResources:          cp.HasOfficialResources(),
			RoleNotes:                     strsAt(t, cpRoleNotes),
		},
		Rights: rights.Policy{
			SourceLicense:             string(cp.SourceLicense()),
			LicenseURI:                optStr(cp.LicenseUri()),
			AttributionStatement:      string(cp.AttributionStatement()),
			ReviewStatus:              string(cp.ReviewStatus()),
			AllowStandardResources:    cp.AllowStandardResources(),
			AllowFullText:             cp.AllowFullText(),
			AllowBulkResource:         cp.AllowBulkResource(),
			AllowGeneratedDerivatives: string(cp.AllowGeneratedDerivatives()),
		},
		ComparisonDimensions: strsAt(t, cpComparisonDimensions),
		RequiredDisclosures:  strsAt(t, cpRequiredDisclosures),
	}
	p.GradeMappings = slice[profile.GradeMapping](count(t, cpGradeMappings))
	var gm kgfb.GradeMapping
	for i := range p.GradeMappings {
		cp.GradeMappings(&gm, i)
		gt := gm.Table()
		p.GradeMappings[i] = profile.GradeMapping{LocalLabel: string(gm.LocalLabel()), Aliases: strsAt(gt, gmAliases), NormalizedGrades: strsAt(gt, gmGrades)}
	}
	p.EducationStageMappings = slice[profile.StageMapping](count(t, cpStageMappings))
	var sm kgfb.StageMapping
	for i := range p.EducationStageMappings {
		cp.EducationStageMappings(&sm, i)
		p.EducationStageMappings[i] = profile.StageMapping{LocalLabel: string(sm.LocalLabel()), NormalizedStage: string(sm.NormalizedStage())}
	}
	p.StatementTypes = slice[profile.StatementType](count(t, cpStatementTypes))
	for i := range p.StatementTypes {
		p.StatementTypes[i] = statementType(cp, i)
	}
	p.CodeSearchPolicy.CodeTypes = slice[profile.CodeType](count(t, cpCodeTypes))
	var ct kgfb.CodeType
	for i := range p.CodeSearchPolicy.CodeTypes {
		cp.CodeTypes(&ct, i)
		tt := ct.Table()
		p.CodeSearchPolicy.CodeTypes[i] = profile.CodeType{CodeType: string(ct.CodeType()), Patterns: strsAt(tt, ctPatterns),
			StatementTypes: strsAt(tt, ctStatementTypes), ScopeStatementTypes: strsAt(tt, ctScopes)}
	}
	p.CodeSearchPolicy.CodeParentRules = slice[profile.CodeParentRule](count(t, cpParentRules))
	var r kgfb.CodeParentRule
	for i := range p.CodeSearchPolicy.CodeParentRules {
		cp.CodeParentRules(&r, i)
		p.CodeSearchPolicy.CodeParentRules[i] = profile.CodeParentRule{ChildCodeType: string(r.ChildCodeType()), ParentCodeType: string(r.ParentCodeType()),
			Method: string(r.Method()), Regex: string(r.Regex()), Replacement: string(r.Replacement())}
	}
	p.KnownSourceAnomalies = slice[profile.Anomaly](count(t, cpAnomalies))
	var a kgfb.Anomaly
	for i := range p.KnownSourceAnomalies {
		cp.KnownSourceAnomalies(&a, i)
		p.KnownSourceAnomalies[i] = profile.Anomaly{AnomalyID: string(a.AnomalyId()), Description: string(a.Description()), RequiredDisclosure: string(a.RequiredDisclosure())}
	}
	return p
}

func statementType(cp *kgfb.CompiledProfile, i int) profile.StatementType {
	var st kgfb.ProfileStatementType
	cp.StatementTypes(&st, i)
	t := st.Table()
	out := profile.StatementType{
		SourceStatementType:     string(st.Source()),
		NormalizedStatementType: string(st.Normalized()),
		Description:             string(st.Description()),
		Aliases:                 strsAt(t, stAliases),
		IsGraphNode:             st.IsGraphNode(),
		IdentityScope:           strsAt(t, stIdentityScope),
		CodeType:                optStr(st.CodeType()),
	}
	out.ControlledValues = slice[profile.ControlledValue](count(t, stControlledValues))
	var cv kgfb.ControlledValue
	for j := range out.ControlledValues {
		st.ControlledValues(&cv, j)
		out.ControlledValues[j] = profile.ControlledValue{CanonicalValue: string(cv.CanonicalValue()), Aliases: strsAt(cv.Table(), cvAliases)}
	}
	out.AllowedParents = slice[profile.AllowedParent](count(t, stAllowedParents))
	var ap kgfb.AllowedParent
	for j := range out.AllowedParents {
		st.AllowedParents(&ap, j)
		out.AllowedParents[j] = profile.AllowedParent{ParentStatementType: string(ap.ParentStatementType()), MinCount: ap.MinCount(), MaxCount: ap.MaxCount()}
	}
	return out
}
