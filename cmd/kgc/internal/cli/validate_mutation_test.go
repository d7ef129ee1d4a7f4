package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkgtest"
	"github.com/kgc-project/kgc/schema/finding"
)

const (
	english = "kgc-sample-english-grades-1-2"
	maths   = "kgc-sample-mathematics-grades-1-3"
	nodesF  = "delivery/nodes.jsonl"
	relsF   = "delivery/relationships.jsonl"
)

func props(rec map[string]any) map[string]any { return rec["properties"].(map[string]any) }

// statementTypeOf returns the statement types of nodes by ID.
func statementTypes(t *testing.T, f *pkgtest.Fixture) map[string]string {
	types := map[string]string{}
	f.Records(t, nodesF, func(rec map[string]any) []map[string]any {
		if st, ok := props(rec)["statementType"].(string); ok {
			types[rec["identifier"].(string)] = st
		} else {
			types[rec["identifier"].(string)] = rec["labels"].([]any)[0].(string)
		}
		return []map[string]any{rec}
	})
	return types
}

// edgeLike copies a relationship record of the given label and points it at new
// endpoints, keeping the entity key/value properties consistent.
func edgeLike(rec map[string]any, id, src, srcLabel, tgt, tgtLabel string) map[string]any {
	p := map[string]any{}
	for k, v := range props(rec) {
		p[k] = v
	}
	p["identifier"] = id
	keyOf := func(label, nodeID string) (string, string) {
		if label == "LearningComponent" {
			return "identifier", nodeID
		}
		return "caseIdentifierUUID", nodeID
	}
	p["sourceEntity"], p["targetEntity"] = srcLabel, tgtLabel
	p["sourceEntityKey"], p["sourceEntityValue"] = keyOf(srcLabel, src)
	p["targetEntityKey"], p["targetEntityValue"] = keyOf(tgtLabel, tgt)
	delete(p, "resolutionStatus")
	return map[string]any{"identifier": id, "label": rec["label"], "properties": p,
		"source_identifier": src, "source_labels": []any{srcLabel}, "target_identifier": tgt, "target_labels": []any{tgtLabel}, "type": "relationship"}
}

func bumpCount(t *testing.T, f *pkgtest.Fixture, key string, by int) {
	f.Doc(t, "package_manifest.json", func(m map[string]any) {
		c := m["counts"].(map[string]any)
		n, _ := c[key].(interface{ Int64() (int64, error) }).Int64()
		c[key] = n + int64(by)
	})
}

type mutation struct {
	name   string
	pkg    string
	mutate func(t *testing.T, f *pkgtest.Fixture)
	seal   bool // recompute manifest checksums after mutating
	want   finding.Code
}

func mutations() []mutation {
	return []mutation{
		{name: "changed byte", pkg: english, want: finding.ArtifactChecksumMismatch, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			b := f.Read(t, nodesF)
			b[len(b)/2] ^= 0x01
			f.WriteFile(t, nodesF, b)
		}},
		{name: "extra file", pkg: english, want: finding.TreeUndeclaredFile, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.WriteFile(t, "detailed/notes.txt", []byte("hello\n"))
		}},
		{name: "extra directory", pkg: english, want: finding.TreeUndeclaredDirectory, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			if err := os.MkdirAll(f.Path("scratch/more"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "missing file", pkg: english, want: finding.ArtifactMissing, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			if err := os.Remove(f.Path("detailed/as_unresolved_items.json")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "symlinked artifact", pkg: english, want: finding.PathSymlink, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			p := f.Path("detailed/as_standards_framework.json")
			if err := os.Rename(p, p+".real"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Base(p)+".real", p); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "case-insensitive twin", pkg: english, want: finding.PathCaseCollision, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.WriteFile(t, "Delivery/nodes.jsonl", []byte("{}\n"))
		}},
		{name: "fifo", pkg: english, want: finding.PathSpecialFile, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			if err := syscall.Mkfifo(f.Path("detailed/pipe"), 0o644); err != nil {
				t.Skip("mkfifo:", err)
			}
		}},
		{name: "dot-dot artifact path", pkg: english, want: finding.ManifestArtifactPath, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Doc(t, "package_manifest.json", func(m map[string]any) {
				a := m["artifacts"].(map[string]any)
				c := m["checksums"].(map[string]any)
				c["../outside.json"] = c[a["standardsFramework"].(string)]
				delete(c, a["standardsFramework"].(string))
				a["standardsFramework"] = "../outside.json"
			})
		}},
		{name: "duplicate manifest key", pkg: english, want: finding.JSONDuplicateKey, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			b := f.Read(t, "package_manifest.json")
			f.WriteFile(t, "package_manifest.json", []byte(strings.Replace(string(b), "{", `{"createdAt": "2026-01-01T00:00:00Z",`, 1)))
		}},
		{name: "unknown manifest field", pkg: english, want: finding.SchemaUnknown, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Doc(t, "package_manifest.json", func(m map[string]any) { m["extraField"] = true })
		}},
		{name: "manifest not UTF-8", pkg: english, want: finding.JSONInvalidUTF8, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			b := f.Read(t, "package_manifest.json")
			f.WriteFile(t, "package_manifest.json", []byte(strings.Replace(string(b), "Sampleland", "Sample\xffland", 1)))
		}},
		{name: "numeric string count", pkg: english, want: finding.SchemaWrongType, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Doc(t, "package_manifest.json", func(m map[string]any) { m["counts"].(map[string]any)["itemNodes"] = "30" })
		}},
		{name: "failed status", pkg: english, want: finding.ManifestValidationStatus, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Doc(t, "package_manifest.json", func(m map[string]any) { m["validation"].(map[string]any)["status"] = "failed" })
		}},
		{name: "checksum for undeclared path", pkg: english, want: finding.ManifestChecksumClosure, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Doc(t, "package_manifest.json", func(m map[string]any) {
				m["checksums"].(map[string]any)["detailed/ghost.json"] = "sha256:" + strings.Repeat("0", 64)
			})
		}},
		{name: "count disagrees", pkg: english, want: finding.CountMismatch, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			bumpCount(t, f, "itemNodes", 1)
		}},
		{name: "capability disagrees", pkg: english, want: finding.CapabilityMismatch, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Doc(t, "package_manifest.json", func(m map[string]any) { m["capabilities"].(map[string]any)["multiParent"] = true })
		}},
		{name: "profile byte changed", pkg: english, want: finding.ProfileSha256Mismatch, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			p := filepath.Join(f.Profiles, english, "1.0", "profile.json")
			b, _ := os.ReadFile(p)
			if err := os.WriteFile(p, append(b, ' '), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "invalid JSONL line", pkg: english, seal: true, want: finding.JSONLParsingError, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			b := f.Read(t, nodesF)
			f.WriteFile(t, nodesF, append(b, []byte("{\"identifier\": \n")...))
		}},
		{name: "blank JSONL line", pkg: english, seal: true, want: finding.JSONLParsingError, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			b := f.Read(t, nodesF)
			f.WriteFile(t, nodesF, []byte(strings.Replace(string(b), "\n", "\n\n", 1)))
		}},
		{name: "bad boolean property", pkg: english, seal: true, want: finding.DeliveryPropertyDecoding, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Records(t, nodesF, func(rec map[string]any) []map[string]any {
				props(rec)["isCurrent"] = "yes"
				return []map[string]any{rec}
			})
		}},
		{name: "duplicate node", pkg: english, seal: true, want: finding.NodeIDDuplicate, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			first := true
			f.Records(t, nodesF, func(rec map[string]any) []map[string]any {
				if first && props(rec)["statementType"] == "Indicator" {
					first = false
					return []map[string]any{rec, rec}
				}
				return []map[string]any{rec}
			})
		}},
		{name: "hierarchy cycle", pkg: english, seal: true, want: finding.HierarchyCycle, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			types := statementTypes(t, f)
			parent := map[string]string{}
			var proto map[string]any
			f.Records(t, relsF, func(rec map[string]any) []map[string]any {
				parent[rec["target_identifier"].(string)] = rec["source_identifier"].(string)
				proto = rec
				return []map[string]any{rec}
			})
			// indicator → its grandparent strand closes strand → standard → indicator → strand.
			var ind string
			for id, st := range types {
				if st == "Indicator" && types[parent[id]] == "Content Standard" && (ind == "" || id < ind) {
					ind = id
				}
			}
			strand := parent[parent[ind]]
			f.Records(t, relsF, func(rec map[string]any) []map[string]any {
				if rec["identifier"] == proto["identifier"] {
					return []map[string]any{rec, edgeLike(rec, "cycle-edge", ind, "StandardsFrameworkItem", strand, "StandardsFrameworkItem")}
				}
				return []map[string]any{rec}
			})
			bumpCount(t, f, "relationships", 1)
		}},
		{name: "orphan item", pkg: english, seal: true, want: finding.HierarchyUnreachable, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			types := statementTypes(t, f)
			dropped := false
			f.Records(t, relsF, func(rec map[string]any) []map[string]any {
				if !dropped && types[rec["target_identifier"].(string)] == "Indicator" && props(rec)["resolutionStatus"] == nil {
					dropped = true
					return nil
				}
				return []map[string]any{rec}
			})
			bumpCount(t, f, "relationships", -1)
		}},
		{name: "multi-parent forbidden", pkg: english, seal: true, want: finding.HierarchyMultiParent, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			types := statementTypes(t, f)
			var std []string
			for id, st := range types {
				if st == "Content Standard" {
					std = append(std, id)
				}
			}
			done := false
			f.Records(t, relsF, func(rec map[string]any) []map[string]any {
				tgt := rec["target_identifier"].(string)
				if !done && types[tgt] == "Indicator" && props(rec)["resolutionStatus"] == nil {
					for _, s := range std {
						if s != rec["source_identifier"] {
							done = true
							return []map[string]any{rec, edgeLike(rec, "second-parent", s, "StandardsFrameworkItem", tgt, "StandardsFrameworkItem")}
						}
					}
				}
				return []map[string]any{rec}
			})
			bumpCount(t, f, "relationships", 1)
		}},
		{name: "parent of the wrong type", pkg: english, seal: true, want: finding.HierarchyParentType, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			types := statementTypes(t, f)
			var strand string
			for id, st := range types {
				if st == "Strand" && (strand == "" || id < strand) {
					strand = id
				}
			}
			done := false
			f.Records(t, relsF, func(rec map[string]any) []map[string]any {
				tgt := rec["target_identifier"].(string)
				if !done && types[tgt] == "Indicator" && props(rec)["resolutionStatus"] == nil {
					done = true
					return []map[string]any{edgeLike(rec, rec["identifier"].(string), strand, "StandardsFrameworkItem", tgt, "StandardsFrameworkItem")}
				}
				return []map[string]any{rec}
			})
		}},
		{name: "dangling endpoint", pkg: english, seal: true, want: finding.RelationshipEndpointMissing, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			done := false
			f.Records(t, relsF, func(rec map[string]any) []map[string]any {
				if !done {
					done = true
					rec["target_identifier"] = "no-such-node"
				}
				return []map[string]any{rec}
			})
		}},
		{name: "entity value disagrees", pkg: english, seal: true, want: finding.RelationshipEntityMismatch, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			done := false
			f.Records(t, relsF, func(rec map[string]any) []map[string]any {
				if !done {
					done = true
					props(rec)["targetEntityValue"] = "someone-else"
				}
				return []map[string]any{rec}
			})
		}},
		{name: "unknown resolution status", pkg: english, seal: true, want: finding.RelationshipResolution, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Records(t, relsF, func(rec map[string]any) []map[string]any {
				if props(rec)["resolutionStatus"] != nil {
					props(rec)["resolutionStatus"] = "guessedParent"
				}
				return []map[string]any{rec}
			})
		}},
		{name: "statement code without code search", pkg: english, seal: true, want: finding.StatementCodeNotAllowed, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Records(t, nodesF, func(rec map[string]any) []map[string]any {
				if props(rec)["statementType"] == "Indicator" {
					props(rec)["statementCode"] = "E1.1.1.1"
				}
				return []map[string]any{rec}
			})
		}},
		{name: "report not passed", pkg: english, seal: true, want: finding.ReportNotPassed, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Doc(t, "detailed/as_lc_validation_report.json", func(d map[string]any) { d["passed"] = false })
		}},
		{name: "learning component in hasChild", pkg: maths, seal: true, want: finding.ComponentInHierarchy, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			types := statementTypes(t, f)
			var lc, std string
			for id, st := range types {
				if st == "LearningComponent" && (lc == "" || id < lc) {
					lc = id
				}
				if st == "Content Standard" && (std == "" || id < std) {
					std = id
				}
			}
			done := false
			f.Records(t, relsF, func(rec map[string]any) []map[string]any {
				if !done && rec["label"] == "hasChild" {
					done = true
					return []map[string]any{rec, edgeLike(rec, "lc-child", std, "StandardsFrameworkItem", lc, "LearningComponent")}
				}
				return []map[string]any{rec}
			})
			bumpCount(t, f, "relationships", 1)
		}},
		{name: "unsupported learning component", pkg: maths, seal: true, want: finding.ComponentUnsupported, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			types := statementTypes(t, f)
			var lc string
			for id, st := range types {
				if st == "LearningComponent" && (lc == "" || id < lc) {
					lc = id
				}
			}
			dropped := 0
			f.Records(t, relsF, func(rec map[string]any) []map[string]any {
				if rec["label"] == "supports" && rec["source_identifier"] == lc {
					dropped++
					return nil
				}
				return []map[string]any{rec}
			})
			bumpCount(t, f, "relationships", -dropped)
			bumpCount(t, f, "supportsRelationships", -dropped)
		}},
		{name: "shard disagrees with its index", pkg: maths, seal: true, want: finding.ProgressionIndexInvalid, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			moveShardRecord(t, f, false)
		}},
		{name: "record in the wrong shard", pkg: maths, seal: true, want: finding.ProgressionShardMisplaced, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			moveShardRecord(t, f, true)
		}},
		{name: "shard record missing", pkg: maths, seal: true, want: finding.ProgressionProvenanceMissing, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			for k := 0; k < 64; k++ {
				rel := fmt.Sprintf("additional/lp_relationship_provenance_shard_%02d.json", k)
				removed := false
				f.Doc(t, rel, func(d map[string]any) {
					for id := range d {
						delete(d, id)
						removed = true
						break
					}
				})
				if removed {
					return
				}
			}
		}},
		{name: "buildsTowards cycle", pkg: maths, seal: true, want: finding.ProgressionCycle, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			// Reverse one buildsTowards edge of a chain g1→g2→g3 into g3→g1 with a new pair.
			var chainA, chainC string
			edges := map[string]string{}
			f.Records(t, relsF, func(rec map[string]any) []map[string]any {
				if rec["label"] == "buildsTowards" {
					edges[rec["source_identifier"].(string)] = rec["target_identifier"].(string)
				}
				return []map[string]any{rec}
			})
			for a, b := range edges {
				if c, ok := edges[b]; ok && (chainA == "" || a < chainA) {
					chainA, chainC = a, c
				}
			}
			done := false
			f.Records(t, relsF, func(rec map[string]any) []map[string]any {
				if !done && rec["label"] == "buildsTowards" {
					done = true
					return []map[string]any{rec, edgeLike(rec, "zzzz-cycle", chainC, "StandardsFrameworkItem", chainA, "StandardsFrameworkItem")}
				}
				return []map[string]any{rec}
			})
		}},
		{name: "relatesTo out of canonical order", pkg: maths, seal: true, want: finding.ProgressionRelatesOrder, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			done := false
			f.Records(t, relsF, func(rec map[string]any) []map[string]any {
				if !done && rec["label"] == "relatesTo" {
					done = true
					return []map[string]any{edgeLike(rec, rec["identifier"].(string), rec["target_identifier"].(string), "StandardsFrameworkItem", rec["source_identifier"].(string), "StandardsFrameworkItem")}
				}
				return []map[string]any{rec}
			})
		}},
		{name: "progression self edge", pkg: maths, seal: true, want: finding.RelationshipSelfEdge, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			done := false
			f.Records(t, relsF, func(rec map[string]any) []map[string]any {
				if !done && rec["label"] == "relatesTo" {
					done = true
					s := rec["source_identifier"].(string)
					return []map[string]any{edgeLike(rec, rec["identifier"].(string), s, "StandardsFrameworkItem", s, "StandardsFrameworkItem")}
				}
				return []map[string]any{rec}
			})
		}},
		{name: "final claim without edge", pkg: maths, seal: true, want: finding.ProgressionClaimsMismatch, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Doc(t, "detailed/lp_final_claims.json", func(d map[string]any) {
				for _, c := range d["claims"].([]any) {
					if c.(map[string]any)["decision"] == "no_relation" {
						c.(map[string]any)["decision"] = "relatesTo"
						return
					}
				}
			})
		}},
		{name: "split file disagrees", pkg: maths, seal: true, want: finding.ProgressionSplitMismatch, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Records(t, "detailed/lp_relationships_relates_to.jsonl", func(rec map[string]any) []map[string]any {
				props(rec)["description"] = "edited"
				return []map[string]any{rec}
			})
		}},
		{name: "normalization receipt disagrees", pkg: maths, seal: true, want: finding.ProgressionReceiptMismatch, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Doc(t, "detailed/lp_normalization_receipt.json", func(d map[string]any) { d["asLcRelationshipPrefixBytes"] = 1 })
		}},
		{name: "progression report count disagrees", pkg: maths, seal: true, want: finding.ProgressionReportMismatch, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Doc(t, "detailed/lp_validation_report.json", func(d map[string]any) {
				d["object_counts"].(map[string]any)["relates_to_relationships"] = 1
			})
		}},
		{name: "undeclared provenance shard", pkg: maths, want: finding.ManifestLPDeclaration, mutate: func(t *testing.T, f *pkgtest.Fixture) {
			f.Doc(t, "package_manifest.json", func(m map[string]any) {
				add := m["artifacts"].(map[string]any)["additionalArtifacts"].(map[string]any)
				p := add["learningProgressionProvenanceShard07"].(string)
				delete(add, "learningProgressionProvenanceShard07")
				delete(m["checksums"].(map[string]any), p)
			})
		}},
	}
}

// moveShardRecord moves one provenance record to the next shard. With
// fixIndex, the index is updated to match the shards (so only the partition rule
// is broken); without, only the shards change.
func moveShardRecord(t *testing.T, f *pkgtest.Fixture, fixIndex bool) {
	var moved map[string]any
	var id string
	from := -1
	for k := 0; k < 63 && moved == nil; k++ {
		f.Doc(t, fmt.Sprintf("additional/lp_relationship_provenance_shard_%02d.json", k), func(d map[string]any) {
			for rid, rec := range d {
				id, moved, from = rid, rec.(map[string]any), k
				delete(d, rid)
				return
			}
		})
	}
	f.Doc(t, fmt.Sprintf("additional/lp_relationship_provenance_shard_%02d.json", from+1), func(d map[string]any) { d[id] = moved })
	if fixIndex {
		f.Seal(t)
		sums := map[string]any{}
		f.Doc(t, "package_manifest.json", func(m map[string]any) { sums = m["checksums"].(map[string]any) })
		f.Doc(t, "detailed/lp_relationship_provenance_index.json", func(d map[string]any) {
			parts := d["partitions"].(map[string]any)
			for _, k := range []int{from, from + 1} {
				p := parts[fmt.Sprintf("learningProgressionProvenanceShard%02d", k)].(map[string]any)
				p["sha256"] = sums[p["artifactPath"].(string)]
				n, _ := p["entryCount"].(interface{ Int64() (int64, error) }).Int64()
				if k == from {
					p["entryCount"] = n - 1
				} else {
					p["entryCount"] = n + 1
				}
			}
		})
	}
}

// TestMutatedPackagesAreRefused applies one defect to a fresh copy of a shipped
// package and checks that kgc validate refuses it with the expected finding code
// and exit code 1, and writes nothing anywhere.
func TestMutatedPackagesAreRefused(t *testing.T) {
	imgtest.Heavy(t) // single-threaded computation; make test's race-free pass runs it
	for _, m := range mutations() {
		t.Run(m.name, func(t *testing.T) {
			f := pkgtest.Sample(t, m.pkg)
			m.mutate(t, f)
			if m.seal {
				f.Seal(t)
			}
			before := pkgtest.Snapshot(t, f.Root)
			code, rep := validateJSON(t, "--profiles", f.Profiles, f.Dir)
			if after := pkgtest.Snapshot(t, f.Root); after != before {
				t.Errorf("kgc validate changed files:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			if code != exitFindings {
				t.Fatalf("exit %d, want %d; findings: %+v", code, exitFindings, rep.Packages[0].Findings)
			}
			got := codes(rep.Packages[0].Findings)
			t.Logf("findings: %v", got)
			if got[m.want] == 0 {
				t.Fatalf("no %s finding; got %v", m.want, got)
			}
		})
	}
}

// TestSymlinkedPackageRootIsRefused covers a package reached through a link.
func TestSymlinkedPackageRootIsRefused(t *testing.T) {
	f := pkgtest.Sample(t, english)
	link := filepath.Join(filepath.Dir(f.Dir), f.Snapshot[:len(f.Snapshot)-12]+"000000000000")
	if err := os.Symlink(f.Dir, link); err != nil {
		t.Fatal(err)
	}
	code, rep := validateJSON(t, "--profiles", f.Profiles, link)
	if code != exitFindings || codes(rep.Packages[0].Findings)[finding.PathSymlink] == 0 {
		t.Fatalf("exit %d, findings %+v", code, rep.Packages[0].Findings)
	}
}
