package gate_test

import (
	"os"
	"strings"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/schema/finding"
)

const (
	unresolvedF = "detailed/as_unresolved_items.json"
	entityProvF = "detailed/as_entity_provenance.json"
)

// flip changes one byte in the middle of a package file.
func (p *pkg) flip(rel string) {
	b := p.Read(p.t, rel)
	b[len(b)/2] ^= 0x01
	p.WriteFile(p.t, rel, b)
}

func treeProfileCases() []ruleCase {
	prof := loc{artifact: "profile"} // path: p.profileRel()
	atProfile := func(p *pkg, field string) { p.at(loc{path: p.profileRel(), field: field}) }
	return []ruleCase{
		{name: "undeclared file", pkg: english, want: []finding.Code{finding.TreeUndeclaredFile}, at: loc{path: "detailed/notes.txt"},
			mutate: func(p *pkg) { p.WriteFile(p.t, "detailed/notes.txt", []byte("hello\n")) }},
		{name: "undeclared directory", pkg: english, want: []finding.Code{finding.TreeUndeclaredDirectory}, at: loc{path: "scratch"},
			mutate: func(p *pkg) { p.mkdir("scratch/more") }},
		{name: "artifact missing", pkg: english, want: []finding.Code{finding.ArtifactMissing}, at: loc{artifact: "unresolvedItems", path: unresolvedF},
			mutate: func(p *pkg) { p.remove(p.Path(unresolvedF)) }},
		// Once only: it was also reported as a directory holding no declared
		// artifact.
		{name: "artifact is a directory", pkg: english, want: []finding.Code{finding.ArtifactNotRegular},
			at:     loc{artifact: "unresolvedItems", path: unresolvedF},
			mutate: func(p *pkg) { p.remove(p.Path(unresolvedF)); p.mkdir(unresolvedF) }},

		{name: "profile missing", pkg: english, want: []finding.Code{finding.ProfileMissing}, at: prof,
			mutate: func(p *pkg) { p.remove(p.profilePath()); atProfile(p, "") }},
		{name: "profile is a symlink", pkg: english, want: []finding.Code{finding.ProfilePathUnsafe}, at: prof,
			mutate: func(p *pkg) {
				if err := os.Rename(p.profilePath(), p.profilePath()+".real"); err != nil {
					p.t.Fatal(err)
				}
				p.symlink("profile.json.real", p.profilePath())
				atProfile(p, "")
			}},
		// Reported as profile_path_unsafe until it was found by these cases.
		{name: "profile over 8 MiB", pkg: english, want: []finding.Code{finding.FileTooLarge}, stage: finding.StageProfile, at: prof,
			mutate: func(p *pkg) { p.truncate(p.profilePath(), gate.MaxProfileBytes+1); atProfile(p, "") }},
		{name: "profile bytes changed", pkg: english, want: []finding.Code{finding.ProfileSha256Mismatch}, at: prof,
			mutate: func(p *pkg) {
				b, _ := os.ReadFile(p.profilePath())
				if err := os.WriteFile(p.profilePath(), append(b, ' '), 0o644); err != nil {
					p.t.Fatal(err)
				}
				atProfile(p, "")
			}},
		{name: "profile declares another version", pkg: english, want: []finding.Code{finding.ProfileIdentityMismatch}, at: prof,
			mutate: func(p *pkg) { p.profile(func(d map[string]any) { d["profileVersion"] = "2.0" }); atProfile(p, "") }},
		{name: "profile schema unsupported", pkg: english, want: []finding.Code{finding.ProfileVersionUnsupported}, at: prof,
			mutate: func(p *pkg) {
				p.profile(func(d map[string]any) { d["profileSchemaVersion"] = "9.9" })
				atProfile(p, "profileSchemaVersion")
			}},
		{name: "profile repeats a disclosure", pkg: english, want: []finding.Code{finding.ProfileDuplicateValue}, at: prof,
			mutate: func(p *pkg) {
				p.profile(func(d map[string]any) { d["requiredDisclosures"] = []any{"same", "same"} })
				atProfile(p, "requiredDisclosures")
			}},
		{name: "profile parent rule regex", pkg: maths, want: []finding.Code{finding.ProfileRegexInvalid}, at: prof,
			mutate: func(p *pkg) {
				p.profile(func(d map[string]any) {
					obj(d, "codeSearchPolicy")["codeParentRules"].([]any)[0].(map[string]any)["regex"] = "(M"
				})
				atProfile(p, "codeSearchPolicy.codeParentRules[0].regex")
			}},
		{name: "profile orders an undeclared type", pkg: english, want: []finding.Code{finding.ProfileReferenceInvalid}, at: prof,
			mutate: func(p *pkg) {
				p.profile(func(d map[string]any) {
					h := obj(d, "hierarchy")
					h["statementTypeOrder"] = append(h["statementTypeOrder"].([]any), "Nonexistent")
				})
				atProfile(p, "hierarchy.statementTypeOrder")
			}},
		{name: "profile hierarchy relation", pkg: english, want: []finding.Code{finding.ProfilePolicyInconsistent}, at: prof,
			mutate: func(p *pkg) {
				p.profile(func(d map[string]any) { obj(d, "hierarchy")["relationshipType"] = "partOf" })
				atProfile(p, "hierarchy.relationshipType")
			}},
		{name: "profile unknown field", pkg: english, want: []finding.Code{finding.SchemaUnknown}, stage: finding.StageProfile, at: prof,
			mutate: func(p *pkg) { p.profile(func(d map[string]any) { d["extraField"] = 1 }); atProfile(p, "extraField") }},
		// The prompt config repeats the profile's frameworkIds, so it follows.
		{name: "profile lists another framework", pkg: english, want: []finding.Code{finding.ProfileFrameworkMismatch}, at: prof,
			mutate: func(p *pkg) {
				p.profile(func(d map[string]any) { d["frameworkIds"] = []any{"other-framework"} })
				p.prompts(func(d map[string]any) { d["frameworkIds"] = []any{"other-framework"} })
				atProfile(p, "")
			}},
		{name: "manifest subject differs from profile", pkg: english, want: []finding.Code{finding.ProfileManifestMismatch},
			at:     loc{artifact: "manifest", path: manifestF, field: "framework.localSubject"},
			mutate: func(p *pkg) { p.manifest(func(d map[string]any) { obj(d, "framework")["localSubject"] = "English" }) }},

		{name: "detailed artifact changed", pkg: english, want: []finding.Code{finding.ArtifactChecksumMismatch}, at: loc{artifact: "standardsFramework", path: standardsF},
			mutate: func(p *pkg) { p.flip(standardsF); p.raw = true }},
		{name: "delivery artifact changed", pkg: english, want: []finding.Code{finding.ArtifactChecksumMismatch}, at: loc{artifact: "nodes", path: nodesF},
			mutate: func(p *pkg) { p.flip(nodesF); p.raw = true }},
		{name: "additional artifact changed", pkg: english, want: []finding.Code{finding.ArtifactChecksumMismatch}, at: loc{artifact: "notes", path: "detailed/notes.txt"},
			mutate: func(p *pkg) {
				p.WriteFile(p.t, "detailed/notes.txt", []byte("hello\n"))
				p.declare("notes", "detailed/notes.txt")
				p.raw = true
			}},
	}
}

func reportDeliveryCases() []ruleCase {
	rep := func(field string) loc { return loc{artifact: "validationReport", path: reportF, field: field} }
	std := loc{artifact: "standardsFramework", path: standardsF}
	report := func(edit func(d map[string]any)) func(p *pkg) { return func(p *pkg) { p.doc(reportF, edit) } }
	return []ruleCase{
		{name: "report not passed", pkg: english, want: []finding.Code{finding.ReportNotPassed}, at: rep("passed"),
			mutate: report(func(d map[string]any) { d["passed"] = false })},
		{name: "report item count", pkg: english, want: []finding.Code{finding.ReportCountMismatch}, at: rep("object_counts.learning_commons_item_nodes"),
			mutate: func(p *pkg) { p.bumpObjectCount(reportF, "learning_commons_item_nodes", -1) }},
		{name: "report without counts", pkg: english, want: []finding.Code{finding.SchemaMissing}, stage: finding.StageReport, at: rep("object_counts"),
			mutate: report(func(d map[string]any) { delete(d, "object_counts") })},
		{name: "report count is a string", pkg: english, want: []finding.Code{finding.SchemaWrongType}, stage: finding.StageReport,
			at:     rep("object_counts.learning_commons_item_nodes"),
			mutate: report(func(d map[string]any) { obj(d, "object_counts")["learning_commons_item_nodes"] = "54" })},
		{name: "report without checks", pkg: english, want: []finding.Code{finding.SchemaInvalid}, stage: finding.StageReport, at: rep("validation_checks"),
			mutate: report(func(d map[string]any) { d["validation_checks"] = []any{} })},
		{name: "report is an array", pkg: english, want: []finding.Code{finding.SchemaWrongType}, stage: finding.StageReport, at: rep(""),
			mutate: func(p *pkg) { p.WriteFile(p.t, reportF, []byte("[]\n")) }},
		{name: "detailed document not JSON", pkg: english, want: []finding.Code{finding.JSONSyntax}, stage: finding.StageReport, at: std,
			mutate: func(p *pkg) { p.WriteFile(p.t, standardsF, []byte("{\n")) }},
		{name: "detailed document not UTF-8", pkg: english, want: []finding.Code{finding.JSONInvalidUTF8}, stage: finding.StageReport, at: std,
			mutate: func(p *pkg) { p.WriteFile(p.t, standardsF, []byte("{\"name\": \"\xff\"}\n")) }},
		{name: "detailed document over 256 MiB", pkg: english, want: []finding.Code{finding.FileTooLarge}, stage: finding.StageReport, at: std,
			mutate: func(p *pkg) { p.truncate(p.Path(standardsF), gate.MaxDocumentBytes+1); p.raw = true }},
		{name: "entity provenance is an array", pkg: english, want: []finding.Code{finding.SchemaWrongType}, stage: finding.StageReport,
			at:     loc{artifact: "entityProvenance", path: entityProvF},
			mutate: func(p *pkg) { p.WriteFile(p.t, entityProvF, []byte("[]\n")) }},

		{name: "blank delivery line", pkg: english, want: []finding.Code{finding.JSONLParsingError}, at: loc{artifact: "nodes", path: nodesF, line: 2},
			mutate: func(p *pkg) {
				p.WriteFile(p.t, nodesF, []byte(strings.Replace(string(p.Read(p.t, nodesF)), "\n", "\n\n", 1)))
			}},
		// readJSONL reports detailed JSONL lines in the artifact's stage
		// (progressions); the registry puts jsonl_parsing_error in delivery.
		{name: "blank line in a split progression file", pkg: maths, want: []finding.Code{finding.JSONLParsingError}, stage: finding.StageProgressions,
			at:     loc{artifact: "learningProgressionRelatesTo", path: relatesF, line: 1},
			mutate: func(p *pkg) { p.WriteFile(p.t, relatesF, append([]byte("\n"), p.Read(p.t, relatesF)...)) }},
		{name: "duplicate key in a delivery record", pkg: english, want: []finding.Code{finding.JSONDuplicateKey}, stage: finding.StageDelivery,
			at: loc{artifact: "nodes", path: nodesF, line: 1},
			mutate: func(p *pkg) {
				p.WriteFile(p.t, nodesF, []byte(strings.Replace(string(p.Read(p.t, nodesF)), `{"identifier":`, `{"type":"node","identifier":`, 1)))
			}},
		// An added record: a broken envelope leaves it out of the graph.
		{name: "unknown envelope field", pkg: english, want: []finding.Code{finding.JSONLEnvelopeInvalid},
			at: loc{artifact: "relationships", path: relsF, record: "extra-edge", field: "bogus"},
			mutate: func(p *pkg) {
				rec, _ := p.find(relsF, plainChild)
				rec["identifier"], rec["bogus"] = "extra-edge", true
				props(rec)["identifier"] = "extra-edge"
				p.at(loc{line: p.insertAfter(relsF, p.lastMatch(relsF, any2), rec)})
			}},
		{name: "isCurrent not a boolean", pkg: english, want: []finding.Code{finding.DeliveryPropertyDecoding}, at: loc{field: "properties.isCurrent"},
			mutate: func(p *pkg) {
				p.atNode(p.node(labelled("StandardsFramework"), func(rec map[string]any) { props(rec)["isCurrent"] = "yes" }))
			}},
		{name: "progression edge without progressions", pkg: english, want: []finding.Code{finding.DeliverySchemaRecord},
			mutate: func(p *pkg) {
				rec, _ := p.find(relsF, plainChild)
				ind := p.nodeIDs("Indicator")
				p.atRel("extra-edge", p.insertAfter(relsF, p.lastMatch(relsF, any2), edgeLike(rec, "extra-edge", ind[0], "StandardsFrameworkItem", ind[1], "StandardsFrameworkItem")))
				p.Records(p.t, relsF, func(rec map[string]any) []map[string]any {
					if rec["identifier"] == "extra-edge" {
						rec["label"], props(rec)["relationshipType"] = "buildsTowards", "buildsTowards"
					}
					return []map[string]any{rec}
				})
				p.bump("relationships", 1)
			}},
		// Provisional: the added component would be counted; and it supports
		// nothing, which is reported too.
		{name: "learning component without components", pkg: english, want: []finding.Code{finding.DeliverySchemaRecord, finding.ComponentUnsupported},
			mutate: func(p *pkg) {
				p.opts.Provisional = true
				rec := map[string]any{"identifier": "lc-1", "labels": []any{"LearningComponent"}, "type": "node",
					"properties": map[string]any{"identifier": "lc-1", "description": "A component."}}
				p.atNode("lc-1", p.insertAfter(nodesF, p.lastMatch(nodesF, any2), rec))
			}},
	}
}

// any2 matches every record.
func any2(map[string]any) bool { return true }
