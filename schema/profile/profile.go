// Package profile decodes and validates interpretation profiles
// (docs/reference/profile-format.md):
// the statement types, hierarchy, grade mappings, code-search policy, language
// policy and rights that say how one framework's package is read. Decode reports
// every problem as a finding; Compiled holds the profile's regexes ready to use.
package profile

import (
	"github.com/kgc-project/kgc/schema/rights"
)

// FileName is the profile's file name inside <root>/<profileId>/<profileVersion>/.
const FileName = "profile.json"

// Supported profile schema versions.
var supportedSchemaVersions = []string{"1.0", "1.1"}

// Normalized statement types.
const (
	NormalizedStandard = "Standard"
	NormalizedGrouping = "Standard Grouping"
)

// Profile is a decoded interpretation profile.
type Profile struct {
	ProfileID                string                 `json:"profileId"`
	ProfileVersion           string                 `json:"profileVersion"`
	ProfileSchemaVersion     string                 `json:"profileSchemaVersion"`
	FrameworkIDs             []string               `json:"frameworkIds"`
	LocalSubject             string                 `json:"localSubject"`
	NormalizedSubjects       []string               `json:"normalizedSubjects"`
	SubjectAliases           []string               `json:"subjectAliases"`
	SubjectMappingStatus     string                 `json:"subjectMappingStatus"`
	SubjectMappingNote       *string                `json:"subjectMappingNote"`
	SubjectVocabulary        SubjectVocabulary      `json:"subjectVocabulary"`
	GradeMappings            []GradeMapping         `json:"gradeMappings"`
	EducationStageMappings   []StageMapping         `json:"educationStageMappings"`
	GradeLevelStatementTypes []string               `json:"gradeLevelStatementTypes"`
	StatementTypes           []StatementType        `json:"statementTypes"`
	Hierarchy                Hierarchy              `json:"hierarchy"`
	CodeSearchPolicy         CodeSearchPolicy       `json:"codeSearchPolicy"`
	LanguagePolicy           LanguagePolicy         `json:"languagePolicy"`
	SourceRoleCapabilities   SourceRoleCapabilities `json:"sourceRoleCapabilities"`
	Rights                   rights.Policy          `json:"rights"`
	ComparisonDimensions     []string               `json:"comparisonDimensions"`
	KnownSourceAnomalies     []Anomaly              `json:"knownSourceAnomalies"`
	RequiredDisclosures      []string               `json:"requiredDisclosures"`
	// RightsReview records who reviewed the rights and when (kgc
	// review-rights writes it); nil when the profile records none.
	RightsReview *RightsReview `json:"rightsReview,omitempty"`
}

// RightsReview is who reviewed a profile's rights, when, and why.
type RightsReview struct {
	ReviewedBy string  `json:"reviewedBy"`
	ReviewedAt string  `json:"reviewedAt"`
	Note       *string `json:"note,omitempty"`
}

// SubjectVocabulary is the controlled subject vocabulary.
type SubjectVocabulary struct {
	VocabularyID      string   `json:"vocabularyId"`
	VocabularyVersion string   `json:"vocabularyVersion"`
	Values            []string `json:"values"`
	UnmatchedValue    string   `json:"unmatchedValue"`
}

// GradeMapping maps a local grade label (and aliases) to normalized grades.
type GradeMapping struct {
	LocalLabel       string   `json:"localLabel"`
	Aliases          []string `json:"aliases"`
	NormalizedGrades []string `json:"normalizedGrades"`
}

// StageMapping maps a local stage label to a normalized stage.
type StageMapping struct {
	LocalLabel      string `json:"localLabel"`
	NormalizedStage string `json:"normalizedStage"`
}

// StatementType describes one source statement type.
type StatementType struct {
	SourceStatementType     string            `json:"sourceStatementType"`
	NormalizedStatementType string            `json:"normalizedStatementType"`
	Description             string            `json:"description"`
	Aliases                 []string          `json:"aliases"`
	ControlledValues        []ControlledValue `json:"controlledValues"`
	IsGraphNode             bool              `json:"isGraphNode"`
	IdentityScope           []string          `json:"identityScope"`
	CodeType                *string           `json:"codeType"`
	AllowedParents          []AllowedParent   `json:"allowedParents"`
}

// ControlledValue is a canonical value with aliases.
type ControlledValue struct {
	CanonicalValue string   `json:"canonicalValue"`
	Aliases        []string `json:"aliases"`
}

// AllowedParent bounds how many parents of one type an item may have.
type AllowedParent struct {
	ParentStatementType string `json:"parentStatementType"`
	MinCount            int64  `json:"minCount"`
	// MaxCount is -1 when unbounded.
	MaxCount int64 `json:"maxCount"`
}

// Hierarchy is the hierarchy policy.
type Hierarchy struct {
	AllowMultiParent   bool     `json:"allowMultiParent"`
	RelationshipType   string   `json:"relationshipType"`
	RootStatementTypes []string `json:"rootStatementTypes"`
	StatementTypeOrder []string `json:"statementTypeOrder"`
}

// CodeSearchPolicy governs statement-code search.
type CodeSearchPolicy struct {
	Availability              string           `json:"availability"`
	CodeTypes                 []CodeType       `json:"codeTypes"`
	CaseSensitive             bool             `json:"caseSensitive"`
	WhitespaceNormalization   bool             `json:"whitespaceNormalization"`
	PunctuationNormalization  bool             `json:"punctuationNormalization"`
	AllowPrefixSearch         bool             `json:"allowPrefixSearch"`
	PrefixDelimiters          []string         `json:"prefixDelimiters"`
	CodeParentRules           []CodeParentRule `json:"codeParentRules"`
	CodesAreUniqueIdentifiers bool             `json:"codesAreUniqueIdentifiers"`
	CanonicalizationNotes     []string         `json:"canonicalizationNotes"`
}

// CodeType is one kind of statement code.
type CodeType struct {
	CodeType            string   `json:"codeType"`
	Patterns            []string `json:"patterns"`
	StatementTypes      []string `json:"statementTypes"`
	ScopeStatementTypes []string `json:"scopeStatementTypes"`
}

// CodeParentRule derives a parent code from a child code.
type CodeParentRule struct {
	ChildCodeType  string `json:"childCodeType"`
	ParentCodeType string `json:"parentCodeType"`
	Method         string `json:"method"`
	Regex          string `json:"regex"`
	Replacement    string `json:"replacement"`
}

// LanguagePolicy is the profile's language policy.
type LanguagePolicy struct {
	Languages                 []string `json:"languages"`
	Notes                     []string `json:"notes"`
	PreserveSourceTerminology bool     `json:"preserveSourceTerminology"`
	AllowBilingualPairing     bool     `json:"allowBilingualPairing"`
}

// SourceRoleCapabilities says which official source roles the framework carries.
type SourceRoleCapabilities struct {
	HasOfficialActivities         bool     `json:"hasOfficialActivities"`
	HasOfficialAssessmentGuidance bool     `json:"hasOfficialAssessmentGuidance"`
	HasOfficialResources          bool     `json:"hasOfficialResources"`
	RoleNotes                     []string `json:"roleNotes"`
}

// Anomaly is a known source anomaly with its required disclosure.
type Anomaly struct {
	AnomalyID          string `json:"anomalyId"`
	Description        string `json:"description"`
	RequiredDisclosure string `json:"requiredDisclosure"`
}

// StatementType returns the statement type named source.
func (p *Profile) StatementType(source string) (*StatementType, bool) {
	for i := range p.StatementTypes {
		if p.StatementTypes[i].SourceStatementType == source {
			return &p.StatementTypes[i], true
		}
	}
	return nil, false
}

// IsRootType reports whether t is a root statement type.
func (p *Profile) IsRootType(t string) bool {
	for _, r := range p.Hierarchy.RootStatementTypes {
		if r == t {
			return true
		}
	}
	return false
}

// CodeTypeNamed returns the code type with key name.
func (p *Profile) CodeTypeNamed(name string) (*CodeType, bool) {
	for i := range p.CodeSearchPolicy.CodeTypes {
		if p.CodeSearchPolicy.CodeTypes[i].CodeType == name {
			return &p.CodeSearchPolicy.CodeTypes[i], true
		}
	}
	return nil, false
}

// NormalizedGrades returns the unique normalized grades of all grade mappings, in
// mapping order.
func (p *Profile) NormalizedGrades() []string {
	seen := map[string]bool{}
	var out []string
	for _, g := range p.GradeMappings {
		for _, n := range g.NormalizedGrades {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}
