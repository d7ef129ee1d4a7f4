package pack

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
	"github.com/kgc-project/kgc/schema/rights"
)

// content is what pack reads from the delivery files before the gate runs:
// the framework node (its metadata) and which graph types the data holds.
type content struct {
	framework     *delivery.Node
	hasComponents bool
	hasLP         bool
	items         int
}

// readContent decodes the delivery files. Their problems are the gate's to
// report in full; here only what the manifest needs is taken.
func readContent(nodes, rels string) (*content, error) {
	c := &content{}
	f, err := openInput(nodes)
	if err != nil {
		return nil, fmt.Errorf("nodes %s: %w", nodes, err)
	}
	res, err := delivery.Decode(f, delivery.NodesFile, manifest.Nodes, nodes)
	f.Close()
	if err != nil {
		return nil, err
	}
	for _, n := range res.Nodes {
		for _, l := range n.Labels {
			switch l {
			case delivery.LabelFramework:
				if c.framework == nil {
					c.framework = n
				}
			case delivery.LabelComponent:
				c.hasComponents = true
			case delivery.LabelItem:
				c.items++
			}
		}
	}
	if c.framework == nil {
		return nil, fmt.Errorf("nodes %s: no StandardsFramework node (the framework's metadata comes from it)", nodes)
	}
	f, err = openInput(rels)
	if err != nil {
		return nil, fmt.Errorf("relationships %s: %w", rels, err)
	}
	rres, err := delivery.Decode(f, delivery.RelationshipsFile, manifest.Relationships, rels)
	f.Close()
	if err != nil {
		return nil, err
	}
	for _, r := range rres.Relationships {
		if delivery.IsProgression(r.Label) {
			c.hasLP = true
			break
		}
	}
	return c, nil
}

// plan is everything the manifest is built from.
type plan struct {
	spec          *Spec
	frameworkID   string
	snapshotID    string
	profile       *profile.Profile
	profileDigest string
	content       *content
	inputs        []input
	sourceDocSum  string
	// createdAt is the manifest's; createdAtSource says where it came from.
	createdAt       string
	createdAtSource string
}

func (p *plan) includedTypes() []string {
	t := []string{manifest.GraphAcademicStandards}
	if p.content.hasComponents {
		t = append(t, manifest.GraphLearningComponents)
	}
	if p.hasLP() {
		t = append(t, manifest.GraphLearningProgressions)
	}
	return t
}

func (p *plan) hasLP() bool {
	if p.content.hasLP {
		return true
	}
	for _, in := range p.inputs {
		if manifest.IsLP(in.name) {
			return true
		}
	}
	return false
}

// graphPackageID is the snapshot ID for a package of one graph type, the
// versioned form otherwise (docs/reference/package-format.md, graphPackageId).
func (p *plan) graphPackageID() string {
	if len(p.includedTypes()) == 1 {
		return p.snapshotID
	}
	return p.snapshotID + "--academic-standards--p1"
}

// manifest builds package_manifest.json. obs, when known, gives the counts and
// the graph facts; before the first gate run they are zero.
func (p *plan) manifest(obs *gate.Observed) []byte {
	if obs == nil {
		obs = &gate.Observed{Counts: manifest.Counts{FrameworkNodes: 1}}
	}
	c := obs.Counts
	types := p.includedTypes()
	lc, lp := p.content.hasComponents, p.hasLP()
	version, deliveryVersion := manifest.Version10, "1.0"
	if lc {
		deliveryVersion = "1.1"
	}
	if lp {
		version, deliveryVersion = manifest.Version11, "1.2"
	}
	artifacts := map[string]any{}
	additional := map[string]string{}
	checksums := map[string]string{}
	hasProvenance := false
	for _, in := range p.inputs {
		checksums[in.path] = in.sum
		if in.additional {
			additional[in.name] = in.path
		} else {
			artifacts[in.name] = in.path
		}
		hasProvenance = hasProvenance || in.name == manifest.EntityProvenance
	}
	artifacts["additionalArtifacts"] = additional
	prof := p.profile
	counts := map[string]any{
		"additionalCounts": map[string]int64{"codedItems": c.CodedItems, "multiParentTargets": c.MultiParentTargets, "unresolvedRelationships": c.UnresolvedRelationships},
		"frameworkNodes":   c.FrameworkNodes, "itemNodes": c.ItemNodes, "relationships": c.Relationships,
	}
	capabilities := map[string]any{
		"codeSearch": prof.CodeSearchPolicy.Availability, "hasDetailedProvenance": hasProvenance,
		"hasOfficialActivities": prof.SourceRoleCapabilities.HasOfficialActivities, "hasOfficialAssessmentGuidance": prof.SourceRoleCapabilities.HasOfficialAssessmentGuidance,
		"hasUnresolvedRelationships": c.UnresolvedRelationships > 0, "multiParent": c.MultiParentTargets > 0, "textSearch": obs.TextItems > 0 || c.ItemNodes == 0,
	}
	if lc {
		counts["learningComponentNodes"] = c.LearningComponentNodes
		counts["supportsRelationships"] = c.SupportsRelationships
	}
	if lp {
		counts["buildsTowardsRelationships"] = c.BuildsTowardsRelationships
		counts["relatesToRelationships"] = c.RelatesToRelationships
		capabilities["hasLearningProgressions"] = true
		capabilities["hasLearningProgressionProvenance"] = true
	}
	relations := make([]any, 0, len(p.spec.SnapshotRelations))
	for _, r := range p.spec.SnapshotRelations {
		relations = append(relations, r)
	}
	m := map[string]any{
		"artifacts": artifacts, "capabilities": capabilities, "checksums": checksums, "counts": counts,
		"createdAt": p.createdAt, "deliverySchemaVersion": deliveryVersion,
		"framework": p.frameworkMetadata(), "frameworkId": p.frameworkID, "graphPackageId": p.graphPackageID(),
		"graphType": manifest.GraphAcademicStandards, "includedGraphTypes": types, "manifestVersion": version,
		"packageRevision": 1,
		"profile":         map[string]string{"profileId": prof.ProfileID, "profileVersion": prof.ProfileVersion, "sha256": p.profileDigest},
		"rights":          rightsDoc(prof.Rights),
		"snapshotId":      p.snapshotID, "snapshotRelations": relations, "sourceSchemaVersion": "1.0",
		"validation": map[string]string{"status": "pending"},
	}
	return encode(m)
}

// frameworkMetadata is FrameworkMetadata: the framework node's own
// properties, the profile's subject, grades and languages, and the spec's
// jurisdiction type, version and source document.
func (p *plan) frameworkMetadata() map[string]any {
	n, prof := p.content.framework, p.profile
	opt := func(prop delivery.NodeProp) any {
		if v, ok := n.Prop(prop); ok && v != "" {
			return v
		}
		return nil
	}
	languages := prof.LanguagePolicy.Languages
	if len(languages) == 0 {
		if l, ok := n.Prop(delivery.NInLanguage); ok && l != "" {
			languages = []string{l}
		}
	}
	var labels, grades []string
	seen := map[string]bool{}
	for _, g := range prof.GradeMappings {
		labels = append(labels, g.LocalLabel)
		for _, ng := range g.NormalizedGrades {
			if !seen[ng] {
				seen[ng] = true
				grades = append(grades, ng)
			}
		}
	}
	if len(labels) == 0 {
		for _, s := range prof.EducationStageMappings {
			labels = append(labels, s.LocalLabel)
		}
	}
	var pubDate, docSum any
	if p.spec.SourcePublicationDate != "" {
		pubDate = p.spec.SourcePublicationDate
	}
	if p.sourceDocSum != "" {
		docSum = p.sourceDocSum
	}
	return map[string]any{
		"adoptionStatus": opt(delivery.NAdoptionStatus), "isCurrent": n.Has(delivery.NIsCurrent) && n.IsCurrent,
		"issuingAuthority": opt(delivery.NAuthor), "jurisdiction": n.Str(delivery.NJurisdiction), "jurisdictionType": p.spec.JurisdictionType,
		"languages": nonNil(languages), "localGradesOrStages": nonNil(labels), "localSubject": prof.LocalSubject,
		"name": n.Str(delivery.NName), "normalizedGrades": nonNil(grades), "normalizedSubjects": nonNil(prof.NormalizedSubjects),
		"provider": opt(delivery.NProvider), "sourceDocumentSha256": docSum, "sourcePublicationDate": pubDate,
		"sourceVersion": p.spec.VersionToken, "subjectMappingNote": prof.SubjectMappingNote, "subjectMappingStatus": prof.SubjectMappingStatus,
	}
}

// rightsDoc is the profile's rights policy as the manifest states it.
func rightsDoc(r rights.Policy) any {
	b, err := json.Marshal(r)
	if err != nil {
		panic(fmt.Sprintf("pack: encoding rights: %v", err))
	}
	var v any
	json.Unmarshal(b, &v)
	return v
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// encode writes a manifest the way the shipped packages are written: sorted
// keys, two-space indent, no HTML escaping, a final newline.
func encode(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("pack: encoding the manifest: %v", err)) // plain maps and slices only
	}
	return buf.Bytes()
}
