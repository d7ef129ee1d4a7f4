package profilefb

import (
	"github.com/kgc-project/kgc/kgimg/internal/fbkit"
	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/schema/profile"
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
	cpComparisonDimensions     = 40
	cpAnomalies                = 41
	cpRequiredDisclosures      = 42

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

// Decode copies a compiled profile into a profile.Profile, equal to the one
// Build was given. It allocates only what it returns and never points into
// cp's buffer.
func Decode(cp *kgfb.CompiledProfile) *profile.Profile {
	t := cp.Table()
	p := &profile.Profile{
		ProfileID:            string(cp.ProfileId()),
		ProfileVersion:       string(cp.ProfileVersion()),
		ProfileSchemaVersion: string(cp.ProfileSchemaVersion()),
		FrameworkIDs:         fbkit.StrsAt(t, cpFrameworkIDs),
		LocalSubject:         string(cp.LocalSubject()),
		NormalizedSubjects:   fbkit.StrsAt(t, cpNormalizedSubjects),
		SubjectAliases:       fbkit.StrsAt(t, cpSubjectAliases),
		SubjectMappingStatus: string(cp.SubjectMappingStatus()),
		SubjectMappingNote:   fbkit.OptStr(cp.SubjectMappingNote()),
		SubjectVocabulary: profile.SubjectVocabulary{
			VocabularyID:      string(cp.VocabularyId()),
			VocabularyVersion: string(cp.VocabularyVersion()),
			Values:            fbkit.StrsAt(t, cpVocabularyValues),
			UnmatchedValue:    string(cp.VocabularyUnmatchedValue()),
		},
		GradeLevelStatementTypes: fbkit.StrsAt(t, cpGradeLevelStatementTypes),
		Hierarchy: profile.Hierarchy{
			AllowMultiParent:   cp.AllowMultiParent(),
			RelationshipType:   string(cp.RelationshipType()),
			RootStatementTypes: fbkit.StrsAt(t, cpRootStatementTypes),
			StatementTypeOrder: fbkit.StrsAt(t, cpStatementTypeOrder),
		},
		CodeSearchPolicy: profile.CodeSearchPolicy{
			Availability:              string(cp.CodeAvailability()),
			CaseSensitive:             cp.CodeCaseSensitive(),
			WhitespaceNormalization:   cp.CodeWhitespaceNormalization(),
			PunctuationNormalization:  cp.CodePunctuationNormalization(),
			AllowPrefixSearch:         cp.CodeAllowPrefix(),
			PrefixDelimiters:          fbkit.StrsAt(t, cpPrefixDelimiters),
			CodesAreUniqueIdentifiers: cp.CodesAreUniqueIdentifiers(),
			CanonicalizationNotes:     fbkit.StrsAt(t, cpCanonicalizationNotes),
		},
		LanguagePolicy: profile.LanguagePolicy{
			Languages:                 fbkit.StrsAt(t, cpLanguages),
			Notes:                     fbkit.StrsAt(t, cpLanguageNotes),
			PreserveSourceTerminology: cp.PreserveSourceTerminology(),
			AllowBilingualPairing:     cp.AllowBilingualPairing(),
		},
		SourceRoleCapabilities: profile.SourceRoleCapabilities{
			HasOfficialActivities:         cp.HasOfficialActivities(),
			HasOfficialAssessmentGuidance: cp.HasOfficialAssessmentGuidance(),
			HasOfficialResources:          cp.HasOfficialResources(),
			RoleNotes:                     fbkit.StrsAt(t, cpRoleNotes),
		},
		Rights:               fbkit.Rights(cp.Rights(nil)),
		ComparisonDimensions: fbkit.StrsAt(t, cpComparisonDimensions),
		RequiredDisclosures:  fbkit.StrsAt(t, cpRequiredDisclosures),
	}
	if by := cp.RightsReviewedBy(); by != nil {
		p.RightsReview = &profile.RightsReview{ReviewedBy: string(by), ReviewedAt: string(cp.RightsReviewedAt()), Note: fbkit.OptStr(cp.RightsReviewNote())}
	}
	p.GradeMappings = fbkit.Slice[profile.GradeMapping](t, cpGradeMappings)
	var gm kgfb.GradeMapping
	for i := range p.GradeMappings {
		cp.GradeMappings(&gm, i)
		gt := gm.Table()
		p.GradeMappings[i] = profile.GradeMapping{LocalLabel: string(gm.LocalLabel()), Aliases: fbkit.StrsAt(gt, gmAliases), NormalizedGrades: fbkit.StrsAt(gt, gmGrades)}
	}
	p.EducationStageMappings = fbkit.Slice[profile.StageMapping](t, cpStageMappings)
	var sm kgfb.StageMapping
	for i := range p.EducationStageMappings {
		cp.EducationStageMappings(&sm, i)
		p.EducationStageMappings[i] = profile.StageMapping{LocalLabel: string(sm.LocalLabel()), NormalizedStage: string(sm.NormalizedStage())}
	}
	p.StatementTypes = fbkit.Slice[profile.StatementType](t, cpStatementTypes)
	for i := range p.StatementTypes {
		p.StatementTypes[i] = statementType(cp, i)
	}
	p.CodeSearchPolicy.CodeTypes = fbkit.Slice[profile.CodeType](t, cpCodeTypes)
	var ct kgfb.CodeType
	for i := range p.CodeSearchPolicy.CodeTypes {
		cp.CodeTypes(&ct, i)
		tt := ct.Table()
		p.CodeSearchPolicy.CodeTypes[i] = profile.CodeType{CodeType: string(ct.CodeType()), Patterns: fbkit.StrsAt(tt, ctPatterns),
			StatementTypes: fbkit.StrsAt(tt, ctStatementTypes), ScopeStatementTypes: fbkit.StrsAt(tt, ctScopes)}
	}
	p.CodeSearchPolicy.CodeParentRules = fbkit.Slice[profile.CodeParentRule](t, cpParentRules)
	var r kgfb.CodeParentRule
	for i := range p.CodeSearchPolicy.CodeParentRules {
		cp.CodeParentRules(&r, i)
		p.CodeSearchPolicy.CodeParentRules[i] = profile.CodeParentRule{ChildCodeType: string(r.ChildCodeType()), ParentCodeType: string(r.ParentCodeType()),
			Method: string(r.Method()), Regex: string(r.Regex()), Replacement: string(r.Replacement())}
	}
	p.KnownSourceAnomalies = fbkit.Slice[profile.Anomaly](t, cpAnomalies)
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
		Aliases:                 fbkit.StrsAt(t, stAliases),
		IsGraphNode:             st.IsGraphNode(),
		IdentityScope:           fbkit.StrsAt(t, stIdentityScope),
		CodeType:                fbkit.OptStr(st.CodeType()),
	}
	out.ControlledValues = fbkit.Slice[profile.ControlledValue](t, stControlledValues)
	var cv kgfb.ControlledValue
	for j := range out.ControlledValues {
		st.ControlledValues(&cv, j)
		out.ControlledValues[j] = profile.ControlledValue{CanonicalValue: string(cv.CanonicalValue()), Aliases: fbkit.StrsAt(cv.Table(), cvAliases)}
	}
	out.AllowedParents = fbkit.Slice[profile.AllowedParent](t, stAllowedParents)
	var ap kgfb.AllowedParent
	for j := range out.AllowedParents {
		st.AllowedParents(&ap, j)
		out.AllowedParents[j] = profile.AllowedParent{ParentStatementType: string(ap.ParentStatementType()), MinCount: ap.MinCount(), MaxCount: ap.MaxCount()}
	}
	return out
}
