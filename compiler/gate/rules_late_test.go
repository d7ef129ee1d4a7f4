package gate_test

import (
	"bytes"
	"fmt"
	"os"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/schema/finding"
)

const (
	buildsF      = "detailed/lp_relationships_builds_towards.jsonl"
	relatesF     = "detailed/lp_relationships_relates_to.jsonl"
	claimsF      = "detailed/lp_final_claims.json"
	originalF    = "detailed/lp_relationship_provenance.json"
	indexF       = "detailed/lp_relationship_provenance_index.json"
	lpValidF     = "detailed/lp_validation_report.json"
	lpSummaryF   = "detailed/lp_generation_summary.json"
	lpReceiptF   = "detailed/lp_normalization_receipt.json"
	lpUnresolveF = "detailed/lp_unresolved_items.json"
	lastID       = "ffffffff-ffff-5fff-8fff-fffffffffff0" // sorts after every generated ID
)

func shardName(k int) string { return fmt.Sprintf("learningProgressionProvenanceShard%02d", k) }
func shardPath(k int) string {
	return fmt.Sprintf("additional/lp_relationship_provenance_shard_%02d.json", k)
}

// resplit rewrites the split progression files from the relationships file.
func (p *pkg) resplit() {
	var builds, relates []byte
	for _, line := range bytes.SplitAfter(p.Read(p.t, relsF), []byte("\n")) {
		switch {
		case bytes.Contains(line, []byte(`"label":"buildsTowards"`)):
			builds = append(builds, line...)
		case bytes.Contains(line, []byte(`"label":"relatesTo"`)):
			relates = append(relates, line...)
		}
	}
	p.WriteFile(p.t, buildsF, builds)
	p.WriteFile(p.t, relatesF, relates)
}

// provenance edits the provenance record of relationship id in its shard and
// in the original map (edit gets a fresh copy for each).
func (p *pkg) provenance(id string, edit func(rec map[string]any)) {
	for _, rel := range []string{shardPath(gate.Partition(id)), originalF} {
		p.doc(rel, func(d map[string]any) { edit(d[id].(map[string]any)) })
	}
}

// addProvenance stores rec as the provenance record of id in its shard and the
// original map, and counts it.
func (p *pkg) addProvenance(id string, rec map[string]any) {
	k := gate.Partition(id)
	for _, rel := range []string{shardPath(k), originalF} {
		p.doc(rel, func(d map[string]any) { d[id] = clone(rec) })
	}
	p.indexCount(k, 1)
	p.lpCounts(map[string]int{"relationship_provenance": 1})
}

func (p *pkg) indexCount(k, by int) {
	p.doc(indexF, func(d map[string]any) {
		part := obj(d, "partitions", shardName(k))
		part["entryCount"] = num(part["entryCount"]) + int64(by)
	})
}

// lpCounts bumps object counts of the progression validation report and
// generation summary.
func (p *pkg) lpCounts(by map[string]int) {
	for _, rel := range []string{lpValidF, lpSummaryF} {
		for k, n := range by {
			p.bumpObjectCount(rel, k, n)
		}
	}
}

// firstEdge returns the first progression edge of a type.
func (p *pkg) firstEdge(label string) (map[string]any, int) { return p.find(relsF, withLabel(label)) }

// addBuilds adds a complete buildsTowards edge src → tgt (node IDs, which are
// the items' CASE UUIDs): the record, its split line, its provenance record,
// its final claim, and every count of it.
func (p *pkg) addBuilds(src, tgt string) {
	rec, _ := p.firstEdge("buildsTowards")
	p.atRel(lastID, p.insertAfter(relsF, p.lastMatch(relsF, withLabel("buildsTowards")), edgeLike(rec, lastID, src, item, tgt, item)))
	p.resplit()
	prov := p.get(shardPath(gate.Partition(rec["identifier"].(string))))[rec["identifier"].(string)].(map[string]any)
	claim := obj(prov, "claim")
	claim["source_sfi_uuid"], claim["target_sfi_uuid"] = src, tgt
	p.addProvenance(lastID, prov)
	p.doc(claimsF, func(d map[string]any) {
		d["claims"] = append(d["claims"].([]any), map[string]any{"pair_id": "extra-pair", "first_sfi_uuid": src, "second_sfi_uuid": tgt,
			"decision": "buildsTowards", "direction": "first_to_second"})
	})
	p.bump("relationships", 1)
	p.bump("buildsTowardsRelationships", 1)
	p.lpCounts(map[string]int{"relationships": 1, "builds_towards_relationships": 1, "final_claims": 1, "builds_towards_claims": 1, "accepted_claims": 1})
	p.doc(lpReceiptF, func(d map[string]any) { d["buildsTowardsRelationships"] = num(d["buildsTowardsRelationships"]) + 1 })
}

// firstShard returns the first non-empty shard below 63 and one of its records.
func (p *pkg) firstShard() (int, string) {
	for k := 0; k < 63; k++ {
		for id := range p.get(shardPath(k)) {
			return k, id
		}
	}
	p.t.Fatal("no provenance record")
	return 0, ""
}

func progressionCases() []ruleCase {
	doc := func(name, path, field string) loc { return loc{artifact: name, path: path, field: field} }
	return []ruleCase{
		{name: "buildsTowards from a component", pkg: maths, want: []finding.Code{finding.ProgressionEndpointInvalid},
			mutate: func(p *pkg) {
				rec, _ := p.firstEdge("buildsTowards")
				lc, std := p.nodeIDs("LearningComponent")[0], p.nodeIDs("Indicator")[0]
				p.atRel(lastID, p.insertAfter(relsF, p.lastMatch(relsF, withLabel("buildsTowards")), edgeLike(rec, lastID, lc, "LearningComponent", std, item)))
				p.bump("relationships", 1)
			}},
		// A relatesTo claim names its pair in canonical order, so a reversed
		// edge matches no claim (and the claim no edge).
		{name: "relatesTo reversed", pkg: maths, want: []finding.Code{finding.ProgressionRelatesOrder, finding.ProgressionClaimsMismatch},
			mutate: func(p *pkg) {
				rec, _ := p.firstEdge("relatesTo")
				id, src, tgt := rec["identifier"].(string), rec["source_identifier"].(string), rec["target_identifier"].(string)
				p.atRel(p.rel(withID(id), func(r map[string]any) {
					for k, v := range edgeLike(r, id, tgt, item, src, item) {
						r[k] = v
					}
				}))
				p.resplit()
				p.provenance(id, func(r map[string]any) {
					c := obj(r, "claim")
					c["source_sfi_uuid"], c["target_sfi_uuid"] = tgt, src
				})
			}},
		// A second claim on a judged pair; the reports count it.
		{name: "pair judged twice", pkg: maths, want: []finding.Code{finding.ProgressionDuplicatePair},
			mutate: func(p *pkg) {
				n := 0
				p.doc(claimsF, func(d map[string]any) {
					claims := d["claims"].([]any)
					for _, c := range claims {
						if c.(map[string]any)["decision"] == "no_relation" {
							dup := clone(c.(map[string]any))
							dup["pair_id"] = "extra-pair"
							d["claims"], n = append(claims, dup), len(claims)
							break
						}
					}
				})
				p.lpCounts(map[string]int{"final_claims": 1, "no_relation_claims": 1, "nonpublishing_claims": 1})
				p.at(doc("learningProgressionFinalClaims", claimsF, fmt.Sprintf("claims[%d]", n)))
			}},
		// a → b → c plus a complete c → a.
		{name: "buildsTowards cycle", pkg: maths, want: []finding.Code{finding.ProgressionCycle},
			mutate: func(p *pkg) {
				next := map[string]string{}
				p.each(relsF, func(_ int, rec map[string]any) {
					if rec["label"] == "buildsTowards" {
						next[rec["source_identifier"].(string)] = rec["target_identifier"].(string)
					}
				})
				var a string
				for x, y := range next {
					if _, ok := next[y]; ok && (a == "" || x < a) {
						a = x
					}
				}
				b, c := next[a], next[next[a]]
				p.addBuilds(c, a)
				first := min(a, b, c)
				p.want = loc{artifact: "relationships", path: relsF, record: first}
			}},
		{name: "progression records out of order", pkg: maths, want: []finding.Code{finding.ProgressionRecordOrder},
			mutate: func(p *pkg) {
				var held map[string]any
				p.records(relsF, func(l int, rec map[string]any) []map[string]any {
					switch {
					case rec["label"] != "buildsTowards" || held == nil && p.want.line != 0:
					case held == nil:
						held = rec
						return nil
					default:
						p.atRel(held["identifier"].(string), l+1)
						out := []map[string]any{rec, held}
						held = nil
						return out
					}
					return []map[string]any{rec}
				})
				p.resplit()
			}},
		{name: "split file differs", pkg: maths, want: []finding.Code{finding.ProgressionSplitMismatch},
			mutate: func(p *pkg) {
				rec, _ := p.firstEdge("relatesTo")
				p.at(loc{artifact: "learningProgressionRelatesTo", path: relatesF, line: 1, record: rec["identifier"].(string)})
				p.Records(p.t, relatesF, func(r map[string]any) []map[string]any {
					props(r)["description"] = "edited"
					return []map[string]any{r}
				})
			}},
		{name: "claim without direction", pkg: maths, want: []finding.Code{finding.ProgressionClaimsMismatch},
			mutate: func(p *pkg) {
				p.doc(claimsF, func(d map[string]any) {
					for i, c := range d["claims"].([]any) {
						if c.(map[string]any)["decision"] == "buildsTowards" {
							c.(map[string]any)["direction"] = "sideways"
							p.at(doc("learningProgressionFinalClaims", claimsF, fmt.Sprintf("claims[%d]", i)))
							return
						}
					}
				})
			}},
		{name: "record in the wrong shard", pkg: maths, want: []finding.Code{finding.ProgressionShardMisplaced},
			mutate: func(p *pkg) {
				k, id := p.firstShard()
				rec := p.get(shardPath(k))[id]
				p.doc(shardPath(k), func(d map[string]any) { delete(d, id) })
				p.doc(shardPath(k+1), func(d map[string]any) { d[id] = rec })
				p.indexCount(k, -1)
				p.indexCount(k+1, 1)
				p.at(loc{artifact: shardName(k + 1), path: shardPath(k + 1), record: id})
			}},
		// The copy is necessarily in a wrong shard too.
		{name: "record in two shards", pkg: maths, want: []finding.Code{finding.ProgressionShardDuplicate, finding.ProgressionShardMisplaced},
			mutate: func(p *pkg) {
				k, id := p.firstShard()
				rec := p.get(shardPath(k))[id]
				p.doc(shardPath(k+1), func(d map[string]any) { d[id] = rec })
				p.indexCount(k+1, 1)
				p.at(loc{artifact: shardName(k + 1), path: shardPath(k + 1), record: id})
			}},
		{name: "edge without provenance", pkg: maths, want: []finding.Code{finding.ProgressionProvenanceMissing},
			mutate: func(p *pkg) {
				rec, line := p.firstEdge("buildsTowards")
				id := rec["identifier"].(string)
				for _, rel := range []string{shardPath(gate.Partition(id)), originalF} {
					p.doc(rel, func(d map[string]any) { delete(d, id) })
				}
				p.indexCount(gate.Partition(id), -1)
				p.lpCounts(map[string]int{"relationship_provenance": -1})
				p.atRel(id, line)
			}},
		{name: "provenance for no edge", pkg: maths, want: []finding.Code{finding.ProgressionProvenanceUnknown},
			mutate: func(p *pkg) {
				_, id := p.firstShard()
				p.addProvenance("ghost-edge", p.get(originalF)[id].(map[string]any))
				k := gate.Partition("ghost-edge")
				p.at(loc{artifact: shardName(k), path: shardPath(k), record: "ghost-edge"})
			}},
		{name: "provenance decision differs", pkg: maths, want: []finding.Code{finding.ProgressionProvenanceMismatch},
			mutate: func(p *pkg) {
				rec, line := p.firstEdge("buildsTowards")
				p.provenance(rec["identifier"].(string), func(r map[string]any) { obj(r, "claim", "judgment")["decision"] = "relatesTo" })
				p.atRel(rec["identifier"].(string), line)
			}},
		// A non-empty shard: the reports' counts are not judged against the
		// shards that could be read (that added two false mismatches).
		{name: "shard is an array", pkg: maths, want: []finding.Code{finding.SchemaWrongType}, stage: finding.StageProgressions,
			mutate: func(p *pkg) {
				for k := 0; k < 64; k++ {
					if len(p.get(shardPath(k))) > 0 {
						p.WriteFile(p.t, shardPath(k), []byte("[]\n"))
						p.at(loc{artifact: shardName(k), path: shardPath(k)})
						return
					}
				}
			}},
		{name: "original provenance is an array", pkg: maths, want: []finding.Code{finding.SchemaWrongType}, stage: finding.StageProgressions,
			at:     loc{artifact: "learningProgressionProvenance", path: originalF},
			mutate: func(p *pkg) { p.WriteFile(p.t, originalF, []byte("[]\n")) }},
		{name: "index format version", pkg: maths, want: []finding.Code{finding.ProgressionIndexInvalid},
			at:     doc("learningProgressionProvenanceIndex", indexF, "formatVersion"),
			mutate: func(p *pkg) { p.doc(indexF, func(d map[string]any) { d["formatVersion"] = "2.0" }) }},
		{name: "original map differs from shards", pkg: maths, want: []finding.Code{finding.ProgressionUnionMismatch},
			mutate: func(p *pkg) {
				_, id := p.firstShard()
				p.doc(originalF, func(d map[string]any) { obj(d, id)["note"] = "edited" })
				p.at(loc{artifact: "learningProgressionProvenance", path: originalF, record: id})
			}},
		{name: "progression report not passed", pkg: maths, want: []finding.Code{finding.ProgressionReportMismatch},
			at:     doc("learningProgressionValidation", lpValidF, "passed"),
			mutate: func(p *pkg) { p.doc(lpValidF, func(d map[string]any) { d["passed"] = false }) }},
		{name: "receipt format version", pkg: maths, want: []finding.Code{finding.ProgressionReceiptMismatch},
			at:     doc("learningProgressionNormalization", lpReceiptF, "formatVersion"),
			mutate: func(p *pkg) { p.doc(lpReceiptF, func(d map[string]any) { d["formatVersion"] = "2.0" }) }},
		{name: "needs-review total", pkg: maths, want: []finding.Code{finding.ProgressionUnresolvedMismatch},
			at:     doc("learningProgressionUnresolved", lpUnresolveF, "total_needs_review"),
			mutate: func(p *pkg) { p.doc(lpUnresolveF, func(d map[string]any) { d["total_needs_review"] = 2 }) }},
		{name: "summary count not a progression count", pkg: maths, want: []finding.Code{finding.ProgressionSummaryMismatch},
			at:     doc("learningProgressionSummary", lpSummaryF, "object_counts.bogus"),
			mutate: func(p *pkg) { p.doc(lpSummaryF, func(d map[string]any) { obj(d, "object_counts")["bogus"] = 1 }) }},
		{name: "summary eligible row of an unknown type", pkg: maths, want: []finding.Code{finding.ProgressionSummaryMismatch},
			at: doc("learningProgressionSummary", lpSummaryF, "eligible_sfis_per_relationship[1]"),
			mutate: func(p *pkg) {
				p.doc(lpSummaryF, func(d map[string]any) {
					d["eligible_sfis_per_relationship"] = []any{[]any{"buildsTowards", 120}, []any{"isPartOf", 3}}
				})
			}},
		{name: "summary exclusion row with a negative count", pkg: maths, want: []finding.Code{finding.ProgressionSummaryMismatch},
			at: doc("learningProgressionSummary", lpSummaryF, "exclusion_reason_counts[0]"),
			mutate: func(p *pkg) {
				p.doc(lpSummaryF, func(d map[string]any) { d["exclusion_reason_counts"] = []any{[]any{"buildsTowards", "too_far", -1}} })
			}},
		{name: "summary exclusion table not an array", pkg: maths, want: []finding.Code{finding.ProgressionSummaryMismatch},
			at: doc("learningProgressionSummary", lpSummaryF, "exclusion_reason_counts"),
			mutate: func(p *pkg) {
				p.doc(lpSummaryF, func(d map[string]any) { d["exclusion_reason_counts"] = map[string]any{} })
			}},
	}
}

func reconcilePromptCases() []ruleCase {
	man := func(field string) loc { return loc{artifact: "manifest", path: manifestF, field: field} }
	atPrompts := func(p *pkg, field string) { p.at(loc{artifact: "promptConfig", path: p.promptsRel(), field: field}) }
	prompts := func(field string, edit func(d map[string]any)) func(p *pkg) {
		return func(p *pkg) { p.prompts(edit); atPrompts(p, field) }
	}
	return []ruleCase{
		{name: "item count differs", pkg: english, want: []finding.Code{finding.CountMismatch}, at: man("counts.itemNodes"),
			mutate: func(p *pkg) { p.bump("itemNodes", 1) }},
		{name: "multiParent capability without multi-parent items", pkg: english, want: []finding.Code{finding.CapabilityMismatch},
			at:     man("capabilities.multiParent"),
			mutate: func(p *pkg) { p.manifest(func(m map[string]any) { obj(m, "capabilities")["multiParent"] = true }) }},
		{name: "codeSearch differs from profile", pkg: maths, want: []finding.Code{finding.CapabilityMismatch}, at: man("capabilities.codeSearch"),
			mutate: func(p *pkg) { p.manifest(func(m map[string]any) { obj(m, "capabilities")["codeSearch"] = "complete" }) }},

		{name: "prompt config for another profile version", pkg: english, want: []finding.Code{finding.PromptConfigIdentity},
			mutate: prompts("profileId", func(d map[string]any) { d["profileVersion"] = "2.0" })},
		{name: "prompt config schema unsupported", pkg: english, want: []finding.Code{finding.PromptConfigVersion},
			mutate: prompts("promptConfigSchemaVersion", func(d map[string]any) { d["promptConfigSchemaVersion"] = "9.9" })},
		{name: "prompt config repeats an instruction", pkg: english, want: []finding.Code{finding.PromptConfigDuplicate},
			mutate: prompts("shared.languageGuidance.instructions", func(d map[string]any) {
				obj(d, "shared", "languageGuidance")["instructions"] = []any{"Say it once.", "Say it once."}
			})},
		{name: "prompt config without instructions", pkg: english, want: []finding.Code{finding.PromptConfigEmpty},
			mutate: prompts("", func(d map[string]any) { d["shared"], d["prompts"] = map[string]any{}, map[string]any{} })},
		{name: "prompt config over 64 KiB", pkg: english, want: []finding.Code{finding.PromptConfigTooLarge},
			mutate: func(p *pkg) {
				b, err := os.ReadFile(p.promptsPath())
				if err != nil {
					p.t.Fatal(err)
				}
				if err := os.WriteFile(p.promptsPath(), append(b, bytes.Repeat([]byte(" "), 70000)...), 0o644); err != nil {
					p.t.Fatal(err)
				}
				atPrompts(p, "")
			}},
		{name: "prompt config is a symlink", pkg: english, want: []finding.Code{finding.PromptConfigPathUnsafe},
			mutate: func(p *pkg) {
				if err := os.Rename(p.promptsPath(), p.promptsPath()+".real"); err != nil {
					p.t.Fatal(err)
				}
				p.symlink("prompts.json.real", p.promptsPath())
				atPrompts(p, "")
			}},
	}
}
