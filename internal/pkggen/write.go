package pkggen

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/manifest"
)

const (
	provider    = "kgc project"
	license     = "CC0-1.0"
	attribution = "Sample curriculum written by the kgc project for tests and demonstrations; it is not an official curriculum."
)

// encode writes v as JSON (sorted map keys, no HTML escaping), indented or compact.
func encode(v any, indent bool) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("pkggen: encode: %v", err)) // only plain maps and slices are encoded
	}
	if !indent {
		return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	}
	return buf.Bytes()
}

func writeFile(dir, rel string, data []byte) (string, error) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", fmt.Errorf("pkggen: %w", err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return "", fmt.Errorf("pkggen: %w", err)
	}
	return ids.Sha256(data), nil
}

// jsonlWriter streams JSONL to a file while hashing it.
type jsonlWriter struct {
	f   *os.File
	bw  *bufio.Writer
	sum interface {
		Write([]byte) (int, error)
		Sum([]byte) []byte
	}
	n int64
}

func newJSONL(dir, rel string) (*jsonlWriter, error) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("pkggen: %w", err)
	}
	f, err := os.Create(p)
	if err != nil {
		return nil, fmt.Errorf("pkggen: %w", err)
	}
	return &jsonlWriter{f: f, bw: bufio.NewWriterSize(f, 1<<20), sum: sha256.New()}, nil
}

func (w *jsonlWriter) line(v any) []byte {
	b := append(encode(v, false), '\n')
	w.bw.Write(b)
	w.sum.Write(b)
	w.n += int64(len(b))
	return b
}

func (w *jsonlWriter) close() (string, error) {
	if err := w.bw.Flush(); err != nil {
		w.f.Close()
		return "", fmt.Errorf("pkggen: %w", err)
	}
	if err := w.f.Close(); err != nil {
		return "", fmt.Errorf("pkggen: %w", err)
	}
	return "sha256:" + hex.EncodeToString(w.sum.Sum(nil)), nil
}

func quoteList(list []string) string { return string(encode(list, false)) }

func (g *ggraph) nodeRecord(n gnode) map[string]any {
	spec := g.spec
	p := map[string]string{
		"academicSubject": spec.Subject, "attributionStatement": attribution, "identifier": n.id,
		"inLanguage": "en", "license": license, "provider": provider,
	}
	switch n.kind {
	case "LearningComponent":
		p["author"] = "kgc pkggen (synthetic components)"
		p["description"] = n.description
		p["identityKey"] = "lc:" + spec.FrameworkID + ":" + n.id
		p["tags"] = quoteList(n.tags)
	default:
		p["author"] = spec.Authority
		p["adoptionStatus"] = "Adopted"
		p["caseIdentifierUUID"] = n.id
		p["caseIdentifierURI"] = "urn:uuid:" + n.id
		p["isCurrent"] = "true"
		p["jurisdiction"] = spec.Jurisdiction
		if n.kind == "StandardsFramework" {
			p["name"] = spec.Name
		} else {
			p["description"] = n.description
			p["gradeLevel"] = quoteList([]string{n.grade})
			p["normalizedStatementType"] = n.normType
			p["statementType"] = n.statementType
			if n.code != "" {
				p["statementCode"] = n.code
			}
		}
	}
	return map[string]any{"identifier": n.id, "labels": []string{n.kind}, "properties": p, "type": "node"}
}

func endpointKey(n gnode) (string, string) {
	if n.kind == "LearningComponent" {
		return "identifier", n.id
	}
	return "caseIdentifierUUID", n.id
}

func (g *ggraph) relRecord(r grel) map[string]any {
	s, t := g.nodes[r.src], g.nodes[r.tgt]
	sk, sv := endpointKey(s)
	tk, tv := endpointKey(t)
	author := g.spec.Authority
	if r.label != "hasChild" {
		author = "kgc pkggen (synthetic)"
	}
	p := map[string]string{
		"attributionStatement": attribution, "author": author, "identifier": r.id, "license": license,
		"provider": provider, "relationshipType": r.label,
		"description":  "A " + r.label + " relationship generated for the kgc sample data.",
		"sourceEntity": s.kind, "sourceEntityKey": sk, "sourceEntityValue": sv,
		"targetEntity": t.kind, "targetEntityKey": tk, "targetEntityValue": tv,
	}
	if r.fallback {
		p["resolutionStatus"] = "unresolvedRootFallback"
	}
	if r.confidence != "" {
		p["supportConfidence"] = r.confidence
	}
	return map[string]any{"identifier": r.id, "label": r.label, "properties": p,
		"source_identifier": s.id, "source_labels": []string{s.kind},
		"target_identifier": t.id, "target_labels": []string{t.kind}, "type": "relationship"}
}

// writeArtifacts writes every artifact of the package into dir.
func writeArtifacts(spec Spec, g *ggraph, dir string) ([]artifactFile, error) {
	var files []artifactFile
	add := func(name, rel string, data []byte) error {
		sum, err := writeFile(dir, rel, data)
		if err != nil {
			return err
		}
		files = append(files, artifactFile{name, rel, sum})
		return nil
	}
	nw, err := newJSONL(dir, "delivery/nodes.jsonl")
	if err != nil {
		return nil, err
	}
	for _, n := range g.nodes {
		nw.line(g.nodeRecord(n))
	}
	sum, err := nw.close()
	if err != nil {
		return nil, err
	}
	files = append(files, artifactFile{"nodes", "delivery/nodes.jsonl", sum})
	rw, err := newJSONL(dir, "delivery/relationships.jsonl")
	if err != nil {
		return nil, err
	}
	split := map[string][]byte{}
	var prefix int64
	for _, r := range g.rels {
		line := rw.line(g.relRecord(r))
		if r.label == "buildsTowards" || r.label == "relatesTo" {
			split[r.label] = append(split[r.label], line...)
		} else {
			prefix = rw.n
		}
	}
	relSum, err := rw.close()
	if err != nil {
		return nil, err
	}
	files = append(files, artifactFile{"relationships", "delivery/relationships.jsonl", relSum})
	root := g.nodes[0]
	if err := add("standardsFramework", "detailed/as_standards_framework.json", encode(map[string]any{
		"academic_subject": spec.Subject, "case_identifier_uri": "urn:uuid:" + root.id, "case_identifier_uuid": root.id,
		"identifier": root.id, "jurisdiction": spec.Jurisdiction, "name": spec.Name, "provider": provider,
	}, true)); err != nil {
		return nil, err
	}
	var unresolved []any
	for _, r := range g.rels {
		if r.fallback {
			unresolved = append(unresolved, map[string]any{"relationship_id": r.id, "target_identifier": g.nodes[r.tgt].id,
				"reason": "the generator attached this indicator to the root to exercise unresolved fallbacks"})
		}
	}
	if unresolved == nil {
		unresolved = []any{}
	}
	if err := add("unresolvedItems", "detailed/as_unresolved_items.json", encode(map[string]any{
		"finalization_exclusion_summary": map[string]int{"excluded_conflict_group_count": 0, "excluded_needs_review_group_count": 0},
		"relationship_unresolved_edges":  unresolved,
	}, true)); err != nil {
		return nil, err
	}
	c := g.counts()
	report := map[string]any{
		"passed": true, "errors": []any{}, "warnings": []any{},
		"validation_checks": []string{"schema", "identity", "endpoints", "hierarchy", "counts"},
		"object_counts": map[string]int{
			"learning_commons_framework_nodes": 1, "learning_commons_item_nodes": c.items,
			"learning_commons_relationships": c.hasChild + c.supports, "learning_commons_unresolved_fallback_relationships": c.unresolved,
		},
	}
	if spec.Components {
		oc := report["object_counts"].(map[string]int)
		oc["learning_commons_learning_component_nodes"] = c.components
		oc["learning_commons_supports_relationships"] = c.supports
	}
	if err := add("validationReport", "detailed/as_lc_validation_report.json", encode(report, true)); err != nil {
		return nil, err
	}
	if !spec.Compact {
		prov := map[string]any{}
		for _, n := range g.nodes {
			if n.kind != "LearningComponent" {
				prov[n.id] = map[string]any{"source": "kgc pkggen", "extraction": "synthetic", "statement_type": n.statementType}
			}
		}
		if err := add("entityProvenance", "detailed/as_entity_provenance.json", encode(prov, true)); err != nil {
			return nil, err
		}
	}
	if spec.Components {
		lcProv := map[string]any{}
		for _, n := range g.nodes {
			if n.kind == "LearningComponent" {
				lcProv[n.id] = map[string]any{"generator": "kgc pkggen", "epistemic_status": "llm_inferred (synthetic sample)"}
			}
		}
		for name, rel := range map[string]string{"learningComponentProvenance": "detailed/lc_entity_provenance.json"} {
			if err := add(name, rel, encode(lcProv, true)); err != nil {
				return nil, err
			}
		}
		if err := add("learningComponentSummary", "detailed/lc_generation_summary.json", encode(map[string]any{
			"learning_component_count": c.components, "supports_relationship_count": c.supports, "generator": "kgc pkggen",
		}, true)); err != nil {
			return nil, err
		}
		if err := add("learningComponentDedupGroups", "detailed/lc_dedup_groups.json", encode(map[string]any{
			"groups": []any{}, "conflicts": []any{}, "conflict_count": 0,
		}, true)); err != nil {
			return nil, err
		}
	}
	if spec.Publisher {
		if err := add("publisherRelations", "delivery/publisher_relations.jsonl", publisherRelations(spec, g)); err != nil {
			return nil, err
		}
	}
	if spec.Progressions {
		lpFiles, err := writeProgressions(spec, g, dir, split, prefix, relSum)
		if err != nil {
			return nil, err
		}
		files = append(files, lpFiles...)
	}
	sortFiles(files)
	return files, nil
}

type counts struct {
	items, components, hasChild, supports, builds, relates, coded, unresolved int
}

func (g *ggraph) counts() counts {
	var c counts
	for _, n := range g.nodes {
		switch n.kind {
		case "StandardsFrameworkItem":
			c.items++
			if n.code != "" {
				c.coded++
			}
		case "LearningComponent":
			c.components++
		}
	}
	for _, r := range g.rels {
		switch r.label {
		case "hasChild":
			c.hasChild++
			if r.fallback {
				c.unresolved++
			}
		case "supports":
			c.supports++
		case "buildsTowards":
			c.builds++
		case "relatesTo":
			c.relates++
		}
	}
	return c
}

func includedTypes(spec Spec) []string {
	t := []string{"academic_standards"}
	if spec.Components {
		t = append(t, "learning_components")
	}
	if spec.Progressions {
		t = append(t, "learning_progressions")
	}
	return t
}

// writeManifest writes package_manifest.json and returns the snapshot ID, whose
// hash part is the first 12 hex digits of the SHA-256 over the artifact
// checksums (path, digest) and the profile binding.
func writeManifest(spec Spec, g *ggraph, dir string, files []artifactFile, profileBytes []byte) (string, error) {
	profileDigest := ids.Sha256(profileBytes)
	sums := map[string]string{}
	for _, f := range files {
		sums[f.path] = f.sum
	}
	snapshot := spec.FrameworkID + "@" + spec.VersionToken + "+" + manifest.SnapshotHash(sums, profileDigest)
	types := includedTypes(spec)
	pkgID := snapshot
	if len(types) > 1 {
		pkgID = snapshot + "--academic-standards--p1"
	}
	artifacts := map[string]any{}
	additional := map[string]string{}
	checksums := map[string]string{}
	for _, f := range files {
		checksums[f.path] = f.sum
		if strings.HasPrefix(f.name, "learningProgressionProvenanceShard") {
			additional[f.name] = f.path
		} else {
			artifacts[f.name] = f.path
		}
	}
	artifacts["additionalArtifacts"] = additional
	c := g.counts()
	grades := make([]string, len(spec.GradeLabels))
	for i := range grades {
		grades[i] = gradeNumber(spec, i)
	}
	version, delivery := "1.0", "1.0"
	if spec.Components {
		delivery = "1.1"
	}
	capabilities := map[string]any{
		"codeSearch": availability(spec, c), "hasDetailedProvenance": !spec.Compact, "hasOfficialActivities": false,
		"hasOfficialAssessmentGuidance": false, "hasUnresolvedRelationships": c.unresolved > 0, "multiParent": false, "textSearch": true,
	}
	countsDoc := map[string]any{
		"additionalCounts": map[string]int{"codedItems": c.coded, "multiParentTargets": 0, "unresolvedRelationships": c.unresolved},
		"frameworkNodes":   1, "itemNodes": c.items, "relationships": len(g.rels),
	}
	if spec.Components {
		countsDoc["learningComponentNodes"] = c.components
		countsDoc["supportsRelationships"] = c.supports
	}
	if spec.Progressions {
		version, delivery = "1.1", "1.2"
		capabilities["hasLearningProgressions"] = true
		capabilities["hasLearningProgressionProvenance"] = true
		countsDoc["buildsTowardsRelationships"] = c.builds
		countsDoc["relatesToRelationships"] = c.relates
	}
	m := map[string]any{
		"artifacts": artifacts, "capabilities": capabilities, "checksums": checksums, "counts": countsDoc,
		"createdAt": "2026-12-01T00:00:00Z", "deliverySchemaVersion": delivery,
		"framework": map[string]any{
			"adoptionStatus": "Adopted", "isCurrent": true, "issuingAuthority": spec.Authority, "jurisdiction": spec.Jurisdiction,
			"jurisdictionType": "sample", "languages": []string{"en"}, "localGradesOrStages": spec.GradeLabels,
			"localSubject": spec.Subject, "name": spec.Name, "normalizedGrades": grades, "normalizedSubjects": []string{spec.Subject},
			"provider": provider, "sourceDocumentSha256": nil, "sourcePublicationDate": nil, "sourceVersion": spec.VersionToken,
			"subjectMappingNote": spec.Subject + " is mapped directly to the vocabulary subject.", "subjectMappingStatus": "mapped",
		},
		"frameworkId": spec.FrameworkID, "graphPackageId": pkgID, "graphType": "academic_standards",
		"includedGraphTypes": types, "manifestVersion": version, "packageRevision": 1,
		"profile":    map[string]string{"profileId": spec.FrameworkID, "profileVersion": "1.0", "sha256": profileDigest},
		"rights":     rightsOf(spec),
		"snapshotId": snapshot, "snapshotRelations": []any{}, "sourceSchemaVersion": "1.0",
		"validation": map[string]string{"status": "passed", "validatedAt": "2026-12-01T00:00:00Z"},
	}
	if _, err := writeFile(dir, "package_manifest.json", encode(m, true)); err != nil {
		return "", err
	}
	return snapshot, nil
}

func availability(spec Spec, c counts) string {
	if !spec.Codes {
		return "none"
	}
	return "partial"
}

// publisherRelations writes the publisher relations of spec.Publisher.
func publisherRelations(spec Spec, g *ggraph) []byte {
	var b strings.Builder
	line := func(v map[string]any) {
		j, _ := json.Marshal(v)
		b.Write(j)
		b.WriteByte('\n')
	}
	node := func(i int) map[string]any { return map[string]any{"nodeId": g.nodes[i].id} }
	for gi := range spec.GradeLabels {
		for si := 0; si < spec.Strands; si++ {
			for ki := 0; ki < spec.Standards; ki++ {
				k := [3]int{gi, si, ki}
				if o := spec.AlignTo; o != nil && gi < len(o.GradeLabels) && si < o.Strands && ki < o.Standards {
					other := uuidFor(fmt.Sprintf("%s:g%d:s%d:k%d", o.FrameworkID, gi, si, ki))
					line(map[string]any{"identifier": uuidFor(fmt.Sprintf("%s:match:%v", spec.FrameworkID, k)), "associationType": "exactMatchOf",
						"origin": node(g.standardIndex[k]), "destination": map[string]any{"uri": "urn:uuid:" + other, "identifier": other, "title": "Destination Node"}})
				}
				for ii := 0; ii+1 < spec.Indicators; ii++ {
					a, okA := g.indicators[[4]int{gi, si, ki, ii}]
					c, okC := g.indicators[[4]int{gi, si, ki, ii + 1}]
					if !okA || !okC || g.nodes[a].fallback || g.nodes[c].fallback {
						continue
					}
					line(map[string]any{"identifier": uuidFor(fmt.Sprintf("%s:precedes:%v:%d", spec.FrameworkID, k, ii)), "associationType": "precedes",
						"origin": node(a), "destination": node(c), "sequenceNumber": ii + 1})
				}
			}
		}
	}
	return []byte(b.String())
}
