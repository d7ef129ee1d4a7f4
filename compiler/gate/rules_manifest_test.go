package gate_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/schema/finding"
)

const standardsF = "detailed/as_standards_framework.json"

// rename moves the package to <root>/packages/<framework>/<snapshot>.
func (p *pkg) rename(framework, snapshot string) {
	dir := filepath.Join(p.Root, "packages", framework, snapshot)
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.Rename(p.Dir, dir); err != nil {
		p.t.Fatal(err)
	}
	p.Dir, p.dir = dir, dir
}

func discoveryCases() []ruleCase {
	return []ruleCase{
		// A framework directory name is also the snapshot's prefix and the
		// manifest's frameworkId: renaming it breaks both.
		{name: "framework dir invalid", pkg: english, want: []finding.Code{finding.FrameworkDirInvalid, finding.SnapshotNotNamespaced, finding.ManifestIdentityMismatch},
			mutate: func(p *pkg) { p.rename("Bad_Framework", p.Snapshot) }},
		{name: "snapshot dir invalid", pkg: english, want: []finding.Code{finding.SnapshotDirInvalid, finding.ManifestIdentityMismatch},
			mutate: func(p *pkg) { p.rename(english, english+"@bad") }},
		{name: "snapshot not namespaced", pkg: english, want: []finding.Code{finding.SnapshotNotNamespaced, finding.ManifestIdentityMismatch},
			mutate: func(p *pkg) { p.rename("other-framework", p.Snapshot) }},
		{name: "symlink in the tree", pkg: english, want: []finding.Code{finding.PathSymlink}, at: loc{path: "detailed/link.json"},
			mutate: func(p *pkg) { p.symlink("as_standards_framework.json", p.Path("detailed/link.json")) }},
		{name: "package reached through a symlink", pkg: english, want: []finding.Code{finding.PathSymlink},
			mutate: func(p *pkg) {
				p.dir = filepath.Join(filepath.Dir(p.Dir), english+"@2026+000000000000")
				p.symlink(p.Dir, p.dir)
			}},
		{name: "fifo in the tree", pkg: english, want: []finding.Code{finding.PathSpecialFile}, at: loc{path: "detailed/pipe"},
			mutate: func(p *pkg) {
				if err := syscall.Mkfifo(p.Path("detailed/pipe"), 0o644); err != nil {
					p.t.Skip("mkfifo:", err)
				}
			}},
		// The twin is declared, so the collision is the only problem.
		{name: "case-insensitive twin", pkg: english, want: []finding.Code{finding.PathCaseCollision}, at: loc{path: standardsF},
			mutate: func(p *pkg) {
				p.WriteFile(p.t, "detailed/AS_standards_framework.json", p.Read(p.t, standardsF))
				p.declare("caseTwin", "detailed/AS_standards_framework.json")
			}},
		{name: "backslash in a name", pkg: english, want: []finding.Code{finding.PathNameUnsafe}, at: loc{path: `detailed/bad\name.json`},
			mutate: func(p *pkg) { p.WriteFile(p.t, `detailed/bad\name.json`, []byte("{}\n")) }},
	}
}

func manifestCases() []ruleCase {
	m := loc{artifact: "manifest", path: manifestF}
	in := func(field string) loc { l := m; l.field = field; return l }
	set := func(key string, v any) func(p *pkg) {
		return func(p *pkg) { p.manifest(func(d map[string]any) { d[key] = v }) }
	}
	return []ruleCase{
		{name: "manifest missing", pkg: english, want: []finding.Code{finding.ManifestMissing}, at: m,
			mutate: func(p *pkg) { p.remove(p.Path(manifestF)); p.raw = true }},
		{name: "manifest not JSON", pkg: english, want: []finding.Code{finding.JSONSyntax}, stage: finding.StageManifest, at: m,
			mutate: func(p *pkg) { p.WriteFile(p.t, manifestF, []byte("{\"manifestVersion\": \n")); p.raw = true }},
		{name: "manifest not UTF-8", pkg: english, want: []finding.Code{finding.JSONInvalidUTF8}, stage: finding.StageManifest, at: m,
			mutate: func(p *pkg) {
				b := p.Read(p.t, manifestF)
				p.WriteFile(p.t, manifestF, []byte(strings.Replace(string(b), "Sampleland", "Sample\xffland", 1)))
				p.raw = true
			}},
		{name: "manifest duplicate key", pkg: english, want: []finding.Code{finding.JSONDuplicateKey}, stage: finding.StageManifest, at: m,
			mutate: func(p *pkg) {
				p.Seal(p.t)
				b := p.Read(p.t, manifestF)
				p.WriteFile(p.t, manifestF, []byte(strings.Replace(string(b), "{", `{"createdAt": "2026-01-01T00:00:00Z",`, 1)))
				p.raw = true
			}},
		{name: "manifest unknown field", pkg: english, want: []finding.Code{finding.SchemaUnknown}, stage: finding.StageManifest, at: in("extraField"),
			mutate: set("extraField", true)},
		{name: "manifest missing field", pkg: english, want: []finding.Code{finding.SchemaMissing}, stage: finding.StageManifest, at: in("createdAt"),
			mutate: func(p *pkg) { p.manifest(func(d map[string]any) { delete(d, "createdAt") }) }},
		{name: "manifest numeric string", pkg: english, want: []finding.Code{finding.SchemaWrongType}, stage: finding.StageManifest, at: in("createdAt"),
			mutate: set("createdAt", 20260101)},
		{name: "manifest bad timestamp", pkg: english, want: []finding.Code{finding.SchemaInvalid}, stage: finding.StageManifest, at: in("createdAt"),
			mutate: set("createdAt", "yesterday")},
		{name: "manifest over 8 MiB", pkg: english, want: []finding.Code{finding.FileTooLarge}, stage: finding.StageManifest, at: m,
			mutate: func(p *pkg) { p.truncate(p.Path(manifestF), gate.MaxManifestBytes+1); p.raw = true }},
		{name: "source schema unsupported", pkg: english, want: []finding.Code{finding.ManifestVersionUnsupported}, at: in("sourceSchemaVersion"),
			mutate: set("sourceSchemaVersion", "2.0")},
		// Another snapshot of the same framework, with its package ID.
		{name: "snapshotId differs from the directory", pkg: english, want: []finding.Code{finding.ManifestIdentityMismatch}, at: in("snapshotId"),
			mutate: func(p *pkg) {
				snap := english + "@2026+000000000000"
				p.manifest(func(d map[string]any) {
					d["snapshotId"], d["graphPackageId"] = snap, snap+"--academic-standards--p1"
				})
			}},
		{name: "package revision unsupported", pkg: english, want: []finding.Code{finding.ManifestGraphPackage}, at: in("packageRevision"),
			mutate: set("packageRevision", 2)},
		// maths: english uses the initial package-ID form, which allows one type only.
		{name: "graph type repeated", pkg: maths, want: []finding.Code{finding.ManifestGraphTypes}, at: in("includedGraphTypes"),
			mutate: set("includedGraphTypes", []any{"academic_standards", "learning_components", "learning_progressions", "academic_standards"})},
		{name: "snapshot relation to itself", pkg: english, want: []finding.Code{finding.ManifestSnapshotRelation}, at: in("snapshotRelations[0]"),
			mutate: func(p *pkg) {
				p.manifest(func(d map[string]any) {
					d["snapshotRelations"] = []any{map[string]any{"relationType": "supersedes", "targetSnapshotId": d["snapshotId"], "evidence": "test"}}
				})
			}},
		// An extra declared artifact with an unsafe path: the tree stage skips it.
		{name: "artifact path escapes", pkg: english, want: []finding.Code{finding.ManifestArtifactPath}, at: in("artifacts.additionalArtifacts.notes"),
			mutate: func(p *pkg) { p.declare("notes", "../notes.json") }},
		{name: "artifact path declared twice", pkg: english, want: []finding.Code{finding.ManifestArtifactDuplicate}, at: in("artifacts.standardsFramework"),
			mutate: func(p *pkg) { p.declare("frameworkCopy", standardsF) }},
		{name: "artifact name reserved", pkg: english, want: []finding.Code{finding.ManifestArtifactName}, at: in("artifacts.additionalArtifacts.validationReport"),
			mutate: func(p *pkg) {
				p.WriteFile(p.t, "detailed/extra.json", []byte("{}\n"))
				p.declare("validationReport", "detailed/extra.json")
			}},
		{name: "checksum for an undeclared path", pkg: english, want: []finding.Code{finding.ManifestChecksumClosure}, at: in("checksums"),
			mutate: func(p *pkg) {
				p.manifest(func(d map[string]any) {
					obj(d, "checksums")["detailed/ghost.json"] = "sha256:" + strings.Repeat("0", 64)
				})
			}},
		// Provisional: the reconciliation would also compare the count.
		{name: "two framework nodes counted", pkg: english, want: []finding.Code{finding.ManifestCountsInvalid}, at: in("counts.frameworkNodes"),
			mutate: func(p *pkg) { p.opts.Provisional = true; p.bump("frameworkNodes", 1) }},
		{name: "progressions without provenance capability", pkg: maths, want: []finding.Code{finding.ManifestLPDeclaration}, at: in("capabilities"),
			mutate: func(p *pkg) {
				p.manifest(func(d map[string]any) { obj(d, "capabilities")["hasLearningProgressionProvenance"] = false })
			}},
		{name: "validation status failed", pkg: english, want: []finding.Code{finding.ManifestValidationStatus}, at: in("validation.status"),
			mutate: func(p *pkg) { p.manifest(func(d map[string]any) { obj(d, "validation")["status"] = "failed" }) }},
		// The profile says "other" too, so only the missing note is wrong.
		{name: "other subject mapping without note", pkg: english, want: []finding.Code{finding.ManifestSubjectMapping}, at: in("framework.subjectMappingNote"),
			mutate: func(p *pkg) {
				p.profile(func(d map[string]any) { d["subjectMappingStatus"] = "other" })
				p.manifest(func(d map[string]any) {
					f := obj(d, "framework")
					f["subjectMappingStatus"], f["subjectMappingNote"] = "other", nil
				})
			}},
	}
}
