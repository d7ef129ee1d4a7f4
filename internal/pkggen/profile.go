package pkggen

import (
	"fmt"
	"path/filepath"
	"regexp"
)

func rightsOf(spec Spec) map[string]any {
	derivatives := spec.Derivatives
	if derivatives == "" {
		derivatives = "allowed"
	}
	return map[string]any{
		"allowBulkResource": spec.AllowBulk, "allowFullText": !spec.DenyFullText, "allowGeneratedDerivatives": derivatives,
		"allowStandardResources": !spec.DenyStandardResources && !spec.DenyFullText, "attributionStatement": attribution, "licenseUri": "https://creativecommons.org/publicdomain/zero/1.0/",
		"reviewStatus": "approved", "sourceLicense": license,
	}
}

func statementType(source, norm, description string, parents []map[string]any, codeType string, aliases []string) map[string]any {
	st := map[string]any{
		"aliases": aliases, "allowedParents": parents, "controlledValues": []any{}, "description": description,
		"identityScope": []string{}, "isGraphNode": true, "normalizedStatementType": norm, "sourceStatementType": source,
	}
	if codeType != "" {
		st["codeType"] = codeType
	}
	return st
}

func parentOf(t string) []map[string]any {
	return []map[string]any{{"maxCount": 1, "minCount": 1, "parentStatementType": t}}
}

// profileDoc builds the interpretation profile of a spec.
func profileDoc(spec Spec) map[string]any {
	var mappings []map[string]any
	for i, label := range spec.GradeLabels {
		mappings = append(mappings, map[string]any{
			"aliases":    []string{fmt.Sprintf("Year %s", gradeNumber(spec, i)), fmt.Sprintf("G%s", gradeNumber(spec, i))},
			"localLabel": label, "normalizedGrades": []string{gradeNumber(spec, i)},
		})
	}
	code := map[string]any{
		"allowPrefixSearch": false, "availability": "none", "canonicalizationNotes": []string{}, "caseSensitive": false,
		"codeParentRules": []any{}, "codeTypes": []any{}, "codesAreUniqueIdentifiers": false, "prefixDelimiters": []string{},
		"punctuationNormalization": false, "whitespaceNormalization": true,
	}
	csCode, indCode := "", ""
	if spec.Codes {
		csCode, indCode = "content_standard", "indicator"
		p := regexp.QuoteMeta(spec.CodePrefix)
		code = map[string]any{
			"allowPrefixSearch": true, "availability": "partial", "caseSensitive": false,
			"canonicalizationNotes": []string{"Codes are generated as <prefix><grade>.<strand>.<standard>[.<indicator>]."},
			"codeParentRules": []map[string]string{{"childCodeType": "indicator", "method": "regex_substitution",
				"parentCodeType": "content_standard", "regex": `^(` + p + `\d+\.\d+\.\d+)\.\d+$`, "replacement": `\1`}},
			"codeTypes": []map[string]any{
				{"codeType": "content_standard", "patterns": []string{`^` + p + `\d+\.\d+\.\d+$`}, "scopeStatementTypes": []string{}, "statementTypes": []string{typeStandard}},
				{"codeType": "indicator", "patterns": []string{`^` + p + `\d+\.\d+\.\d+\.\d+$`}, "scopeStatementTypes": []string{}, "statementTypes": []string{typeIndicator}},
			},
			"codesAreUniqueIdentifiers": true, "prefixDelimiters": []string{"."},
			"punctuationNormalization": false, "whitespaceNormalization": true,
		}
	}
	return map[string]any{
		"codeSearchPolicy":         code,
		"comparisonDimensions":     []string{"wording", "scope", "granularity", "grade_context"},
		"educationStageMappings":   []any{},
		"frameworkIds":             []string{spec.FrameworkID},
		"gradeLevelStatementTypes": []string{typeGrade},
		"gradeMappings":            mappings,
		"hierarchy": map[string]any{"allowMultiParent": false, "relationshipType": "hasChild",
			"rootStatementTypes": []string{typeGrade}, "statementTypeOrder": []string{typeGrade, typeStrand, typeStandard, typeIndicator}},
		"knownSourceAnomalies": []map[string]string{{"anomalyId": "synthetic_sample",
			"description":        "The package is synthetic sample data written by the kgc project.",
			"requiredDisclosure": "This is sample data for testing, not an official curriculum."}},
		"languagePolicy": map[string]any{"allowBilingualPairing": false, "languages": []string{"en"},
			"notes": []string{"English only."}, "preserveSourceTerminology": true},
		"localSubject": spec.Subject, "normalizedSubjects": []string{spec.Subject},
		"profileId": spec.FrameworkID, "profileSchemaVersion": "1.1", "profileVersion": "1.0",
		"requiredDisclosures": []string{
			"Normalized grades are retrieval facets and do not establish international grade equivalence.",
			"A hasChild hierarchy is not an instructional progression.",
		},
		"rights": rightsOf(spec),
		"sourceRoleCapabilities": map[string]any{"hasOfficialActivities": false, "hasOfficialAssessmentGuidance": false,
			"hasOfficialResources": false, "roleNotes": []string{"Sample data: no official activities, assessments or resources."}},
		"statementTypes": []map[string]any{
			statementType(typeGrade, "Standard Grouping", "A grade of the sample curriculum.", []map[string]any{}, "", []string{"Year"}),
			statementType(typeStrand, "Standard Grouping", "A strand within a grade.", parentOf(typeGrade), "", []string{"Domain"}),
			statementType(typeStandard, "Standard", "A content standard within a strand.", parentOf(typeStrand), csCode, []string{"Standard"}),
			statementType(typeIndicator, "Standard", "An indicator of a content standard.", parentOf(typeStandard), indCode, []string{"Outcome"}),
		},
		"subjectAliases":       []string{},
		"subjectMappingNote":   spec.Subject + " is mapped directly to the vocabulary subject.",
		"subjectMappingStatus": "mapped",
		"subjectVocabulary": map[string]any{"unmatchedValue": "Other", "values": []string{"English Language Arts", "Mathematics", "Science", "Other"},
			"vocabularyId": "kgc-sample-subjects", "vocabularyVersion": "2026-12-01"},
	}
}

func promptDoc(spec Spec) map[string]any {
	block := func(lines ...string) map[string]any { return map[string]any{"mode": "append", "instructions": lines} }
	return map[string]any{
		"frameworkIds": []string{spec.FrameworkID}, "profileId": spec.FrameworkID, "profileVersion": "1.0",
		"promptConfigId": spec.FrameworkID + "-guidance", "promptConfigSchemaVersion": "1.1", "promptConfigVersion": "1.0.0",
		"shared": map[string]any{
			"languageGuidance":     block("Use plain English suited to the grade named in the request."),
			"localContextGuidance": block("Prefer everyday contexts any classroom can reach without special materials."),
			"outputGuidance":       block("Cite the exact statement codes and node IDs you used."),
			"terminologyGuidance":  block("Keep the sample curriculum's own terms: Grade, Strand, Content Standard, Indicator."),
			"warningGuidance":      block("Remind readers that this is sample data, not an official curriculum."),
		},
		"prompts": map[string]any{
			"teacherGuideDraft": map[string]any{
				"lessonStructureGuidance": block("Open with a short warm-up, then guided practice, then independent work."),
			},
		},
	}
}

// writeProfile writes the spec's profile (and prompt config) and returns the
// profile bytes.
func writeProfile(spec Spec, profilesRoot string) ([]byte, error) {
	dir := filepath.Join(profilesRoot, spec.FrameworkID)
	b := encode(profileDoc(spec), true)
	if _, err := writeFile(dir, "1.0/profile.json", b); err != nil {
		return nil, err
	}
	if !spec.Compact && !spec.NoPromptConfig {
		if _, err := writeFile(dir, "1.0/prompts.json", encode(promptDoc(spec), true)); err != nil {
			return nil, err
		}
	}
	return b, nil
}
