package manifest

import (
	"slices"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/ids"
)

// supportedDelivery maps each manifest version to the delivery schema versions it
// may declare: 1.0 manifests predate learning progressions (delivery 1.0 for
// standards only, 1.1 with learning components); 1.1 manifests use delivery 1.2.
var supportedDelivery = map[string][]string{
	Version10: {"1.0", "1.1"},
	Version11: {"1.2"},
}

var knownGraphTypes = []string{GraphAcademicStandards, GraphLearningComponents, GraphLearningProgressions}

func (d *decoder) check(m *Manifest) {
	d.checkVersions(m)
	d.checkIdentity(m)
	d.checkArtifacts(m)
	d.checkCounts(m)
	d.checkProgressions(m)
	d.checkValidation(m)
	d.checkSubjectMapping(m)
}

func (d *decoder) checkVersions(m *Manifest) {
	deliveries, ok := supportedDelivery[m.ManifestVersion]
	if !ok {
		if m.ManifestVersion != "" {
			d.add(finding.ManifestVersionUnsupported, "manifestVersion", "manifestVersion %q is not supported (supported: 1.0, 1.1)", m.ManifestVersion)
		}
		return
	}
	if m.DeliverySchemaVersion != "" && !slices.Contains(deliveries, m.DeliverySchemaVersion) {
		d.add(finding.ManifestVersionUnsupported, "deliverySchemaVersion", "deliverySchemaVersion %q is not supported with manifestVersion %s (supported: %s)", m.DeliverySchemaVersion, m.ManifestVersion, strings.Join(deliveries, ", "))
	}
	if m.SourceSchemaVersion != "" && m.SourceSchemaVersion != "1.0" {
		d.add(finding.ManifestVersionUnsupported, "sourceSchemaVersion", "sourceSchemaVersion %q is not supported (supported: 1.0)", m.SourceSchemaVersion)
	}
	if m.DeliverySchemaVersion == "1.0" && m.Includes(GraphLearningComponents) {
		d.add(finding.ManifestVersionUnsupported, "deliverySchemaVersion", "delivery schema 1.0 cannot carry learning components (1.1 or later is needed)")
	}
	if m.ManifestVersion == Version10 && m.Includes(GraphLearningProgressions) {
		d.add(finding.ManifestVersionUnsupported, "manifestVersion", "manifest 1.0 cannot declare learning progressions (1.1 is needed)")
	}
}

func (d *decoder) checkIdentity(m *Manifest) {
	if m.SnapshotID != "" && m.FrameworkID != "" && ids.FrameworkOfSnapshot(m.SnapshotID) != m.FrameworkID {
		d.add(finding.ManifestIdentityMismatch, "snapshotId", "snapshotId %q is not namespaced by frameworkId %q (it must start with %q)", m.SnapshotID, m.FrameworkID, m.FrameworkID+"@")
	}
	seen := map[string]bool{}
	for _, t := range m.IncludedGraphTypes {
		if !slices.Contains(knownGraphTypes, t) {
			d.add(finding.ManifestGraphTypes, "includedGraphTypes", "includedGraphTypes names unknown graph type %q", t)
		}
		if seen[t] {
			d.add(finding.ManifestGraphTypes, "includedGraphTypes", "includedGraphTypes repeats %q", t)
		}
		seen[t] = true
	}
	if len(m.IncludedGraphTypes) == 0 && m.GraphType != "" {
		d.add(finding.ManifestGraphTypes, "includedGraphTypes", "includedGraphTypes must name at least one graph type")
	}
	if m.GraphType != "" {
		if !slices.Contains(knownGraphTypes, m.GraphType) {
			d.add(finding.ManifestGraphTypes, "graphType", "graphType %q is not a known graph type", m.GraphType)
		} else if m.GraphType != GraphAcademicStandards {
			d.add(finding.ManifestGraphTypes, "graphType", "graphType %q is not routable: only academic_standards packages are supported", m.GraphType)
		}
		if len(m.IncludedGraphTypes) > 0 && !seen[m.GraphType] {
			d.add(finding.ManifestGraphTypes, "graphType", "graphType %q is not in includedGraphTypes", m.GraphType)
		}
	}
	if m.PackageRevision != 1 && m.PackageRevision != 0 {
		d.add(finding.ManifestGraphPackage, "packageRevision", "packageRevision %d is not supported (supported: 1)", m.PackageRevision)
	} else if m.PackageRevision == 0 && m.GraphPackageID != "" {
		d.add(finding.ManifestGraphPackage, "packageRevision", "packageRevision must be at least 1")
	}
	if m.GraphPackageID != "" && m.SnapshotID != "" && m.GraphType != "" {
		if m.GraphPackageID == m.SnapshotID {
			if len(m.IncludedGraphTypes) != 1 || m.IncludedGraphTypes[0] != m.GraphType {
				d.add(finding.ManifestGraphPackage, "graphPackageId", "the initial package-ID form (graphPackageId = snapshotId) may include only the primary graph type; use %q", versionedPackageID(m.SnapshotID, m.GraphType, m.PackageRevision))
			}
		} else if want := versionedPackageID(m.SnapshotID, m.GraphType, m.PackageRevision); m.GraphPackageID != want {
			d.add(finding.ManifestGraphPackage, "graphPackageId", "graphPackageId %q must equal the snapshot ID or %q", m.GraphPackageID, want)
		}
	}
	pairs := map[[2]string]bool{}
	for i, r := range m.SnapshotRelations {
		field := "snapshotRelations[" + itoa(i) + "]"
		if r.TargetSnapshotID != "" && r.TargetSnapshotID == m.SnapshotID {
			d.add(finding.ManifestSnapshotRelation, field, "a snapshot relation may not target the snapshot itself")
		}
		k := [2]string{r.RelationType, r.TargetSnapshotID}
		if pairs[k] {
			d.add(finding.ManifestSnapshotRelation, field, "snapshot relation (%s, %s) is repeated", r.RelationType, r.TargetSnapshotID)
		}
		pairs[k] = true
	}
}

// versionedPackageID builds `<snapshotId>--<graph-type>--p<revision>`.
func versionedPackageID(snapshot, graphType string, revision int64) string {
	return snapshot + "--" + strings.ReplaceAll(graphType, "_", "-") + "--p" + itoa(int(revision))
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [24]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

func (d *decoder) checkArtifacts(m *Manifest) {
	byPath := map[string]string{}
	for _, a := range m.Artifacts {
		field := "artifacts." + a.Name
		if a.Additional {
			field = "artifacts.additionalArtifacts." + a.Name
		}
		if why := ids.CheckArtifactPath(a.Path); why != "" {
			d.add(finding.ManifestArtifactPath, field, "artifact %s path %q: %s", a.Name, a.Path, why)
		} else if a.Path == FileName {
			d.add(finding.ManifestArtifactPath, field, "artifact %s may not be the manifest itself", a.Name)
		}
		if prev, dup := byPath[a.Path]; dup {
			d.add(finding.ManifestArtifactDuplicate, field, "artifacts %s and %s declare the same path %q", prev, a.Name, a.Path)
		} else {
			byPath[a.Path] = a.Name
		}
		if k, ok := ShardIndex(a.Name); ok && a.Path != ShardPath(k) {
			d.add(finding.ManifestArtifactPath, field, "provenance shard %s must be at %q, not %q", a.Name, ShardPath(k), a.Path)
		}
	}
	var missing, extra []string
	for p := range byPath {
		if _, ok := m.Checksums[p]; !ok {
			missing = append(missing, p)
		}
	}
	for p := range m.Checksums {
		if _, ok := byPath[p]; !ok {
			extra = append(extra, p)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	for _, p := range missing {
		d.add(finding.ManifestChecksumClosure, "checksums", "declared artifact %s (%q) has no checksum", byPath[p], p)
	}
	for _, p := range extra {
		d.add(finding.ManifestChecksumClosure, "checksums", "checksum for %q names no declared artifact", p)
	}
}

func (d *decoder) checkCounts(m *Manifest) {
	c := m.Counts
	if c.FrameworkNodes != 1 {
		d.add(finding.ManifestCountsInvalid, "counts.frameworkNodes", "counts.frameworkNodes must be exactly 1, not %d", c.FrameworkNodes)
	}
	if sum := c.SupportsRelationships + c.BuildsTowardsRelationships + c.RelatesToRelationships; sum > c.Relationships {
		d.add(finding.ManifestCountsInvalid, "counts.relationships", "supports + buildsTowards + relatesTo (%d) exceed relationships (%d)", sum, c.Relationships)
	}
	if c.LearningComponentNodes > 0 && !m.Includes(GraphLearningComponents) {
		d.add(finding.ManifestCountsInvalid, "counts.learningComponentNodes", "learning components are counted but learning_components is not in includedGraphTypes")
	}
}

func (d *decoder) checkProgressions(m *Manifest) {
	lp := m.Includes(GraphLearningProgressions)
	c := m.Capabilities
	if lp {
		for _, name := range lpNames {
			if _, ok := m.Artifact(name); !ok {
				d.add(finding.ManifestLPDeclaration, "artifacts."+name, "learning_progressions is included but artifact %s is not declared", name)
			}
		}
		for k := 0; k < ShardCount; k++ {
			if _, ok := m.Artifact(ShardName(k)); !ok {
				d.add(finding.ManifestLPDeclaration, "artifacts.additionalArtifacts."+ShardName(k), "learning_progressions is included but provenance shard %s is not declared", ShardName(k))
			}
		}
		if !c.HasLearningProgressions || !c.HasLearningProgressionProvenance {
			d.add(finding.ManifestLPDeclaration, "capabilities", "learning_progressions is included, so hasLearningProgressions and hasLearningProgressionProvenance must be true")
		}
		return
	}
	for _, a := range m.Artifacts {
		if _, shard := ShardIndex(a.Name); IsLP(a.Name) || shard {
			d.add(finding.ManifestLPDeclaration, "artifacts."+a.Name, "artifact %s is declared but learning_progressions is not included", a.Name)
		}
	}
	if m.Counts.BuildsTowardsRelationships != 0 || m.Counts.RelatesToRelationships != 0 {
		d.add(finding.ManifestLPDeclaration, "counts", "learning-progression counts must be 0 when learning_progressions is not included")
	}
	if c.HasLearningProgressions || c.HasLearningProgressionProvenance {
		d.add(finding.ManifestLPDeclaration, "capabilities", "hasLearningProgressions and hasLearningProgressionProvenance must be false when learning_progressions is not included")
	}
}

func (d *decoder) checkValidation(m *Manifest) {
	switch m.Validation.Status {
	case "pending":
		if m.Validation.ValidatedAt != "" {
			d.add(finding.ManifestValidationStatus, "validation.validatedAt", "a pending package must not have validatedAt")
		}
	case "passed":
		if m.Validation.ValidatedAt == "" {
			d.add(finding.ManifestValidationStatus, "validation.validatedAt", "status passed requires validatedAt")
		}
	case "failed", "quarantined":
		d.add(finding.ManifestValidationStatus, "validation.status", "the package's status is %s: it cannot be accepted", m.Validation.Status)
	case "":
	default:
		d.add(finding.ManifestValidationStatus, "validation.status", "validation.status %q must be pending, passed, failed or quarantined", m.Validation.Status)
	}
}

func (d *decoder) checkSubjectMapping(m *Manifest) {
	f := m.Framework
	switch f.SubjectMappingStatus {
	case "unreviewed":
		if len(f.NormalizedSubjects) > 0 {
			d.add(finding.ManifestSubjectMapping, "framework.normalizedSubjects", "an unreviewed subject mapping must not have normalized subjects")
		}
	case "mapped", "other":
		if len(f.NormalizedSubjects) == 0 {
			d.add(finding.ManifestSubjectMapping, "framework.normalizedSubjects", "a %s subject mapping needs at least one normalized subject", f.SubjectMappingStatus)
		}
		if f.SubjectMappingStatus == "other" && (f.SubjectMappingNote == nil || strings.TrimSpace(*f.SubjectMappingNote) == "") {
			d.add(finding.ManifestSubjectMapping, "framework.subjectMappingNote", "an 'other' subject mapping needs a note")
		}
	}
}
