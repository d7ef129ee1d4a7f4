package manifest

import (
	"bytes"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/rights"
)

// FileName is the manifest's file name at the package root.
const FileName = "package_manifest.json"

// Decode decodes manifest bytes and checks every invariant of the manifest on its
// own (identity forms, graph types, artifacts, checksum closure, counts, the
// learning-progression declaration rule, validation status, subject mapping). It
// returns the manifest (nil only when the bytes are not one JSON object) and all
// findings, each with Artifact "manifest".
func Decode(data []byte) (*Manifest, []finding.Finding) {
	d := decoder{}
	v := ParseDocument(data, &d.is)
	if v == nil {
		return nil, d.findings()
	}
	o := jsonv.AsObj(v, "", &d.is)
	if !o.Valid() {
		return nil, d.findings()
	}
	m := &Manifest{}
	d.read(o, m)
	d.check(m)
	return m, d.findings()
}

// ParseDocument parses one strict JSON document: UTF-8 without BOM, duplicate
// keys reported. It returns nil when the bytes are not JSON.
func ParseDocument(data []byte, is *jsonv.Issues) *jsonv.Value {
	if !encodingOK(data, is) {
		return nil
	}
	v, errs := jsonv.Parse(data)
	is.FromParse(errs)
	return v
}

// ScanDocument checks a document as ParseDocument does, reporting the same
// issues, but hands it out part by part with ps.Scan (split and fn as Scan
// takes them) instead of returning its tree: a caller that gets any issue
// discards what it took from the parts. It returns the kind of the
// top-level value.
func ScanDocument(ps *jsonv.Parser, data []byte, is *jsonv.Issues, split func(key string) bool, fn func(jsonv.Part)) jsonv.Kind {
	if !encodingOK(data, is) {
		return jsonv.Null
	}
	top, errs := ps.Scan(data, split, fn)
	is.FromParse(errs)
	return top
}

// encodingOK reports a byte-order mark or invalid UTF-8 as ParseDocument
// does, and says whether there was neither.
func encodingOK(data []byte, is *jsonv.Issues) bool {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		is.Add(jsonv.CodeSyntax, "", 0, "the document starts with a byte-order mark")
		return false
	}
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		is.Add(jsonv.CodeInvalidUTF8, "", off, "the document is not valid UTF-8 (first bad byte at offset %d)", off)
		return false
	}
	return true
}

type decoder struct {
	is    jsonv.Issues
	extra []finding.Finding
}

func (d *decoder) add(code finding.Code, field, format string, args ...any) {
	d.extra = append(d.extra, finding.New(code, format, args...).In(field))
}

func (d *decoder) findings() []finding.Finding {
	out := finding.FromIssues(d.is.List, finding.StageManifest, "manifest", FileName)
	for _, f := range d.extra {
		out = append(out, f.At("manifest", FileName).WithStage(finding.StageManifest))
	}
	return out
}

func (d *decoder) idField(o *jsonv.Obj, key string, check func(string) string) string {
	s, ok := o.Str(key, true)
	if !ok {
		return ""
	}
	if why := check(s); why != "" {
		o.Invalid(key, "%s: %s", jsonv.Join(o.Path, key), why)
	}
	return s
}

func (d *decoder) read(o *jsonv.Obj, m *Manifest) {
	m.ManifestVersion, _ = o.Str("manifestVersion", true)
	v11 := m.ManifestVersion == Version11
	m.FrameworkID = d.idField(o, "frameworkId", ids.CheckFramework)
	m.SnapshotID = d.idField(o, "snapshotId", ids.CheckSnapshot)
	m.GraphPackageID = d.idField(o, "graphPackageId", ids.CheckGraphPackage)
	m.GraphType, _ = o.Str("graphType", true)
	m.IncludedGraphTypes, _ = o.Strs("includedGraphTypes", true)
	m.PackageRevision, _ = o.Int("packageRevision", true)
	m.DeliverySchemaVersion, _ = o.Str("deliverySchemaVersion", true)
	m.SourceSchemaVersion, _ = o.Str("sourceSchemaVersion", true)
	if s, ok := o.Str("createdAt", true); ok {
		if !timestamp(s) {
			o.Invalid("createdAt", "createdAt must be an RFC 3339 timestamp with a time zone")
		}
		m.CreatedAt = s
	}
	d.readFramework(o.Object("framework", true), &m.Framework)
	p := o.Object("profile", true)
	m.Profile.ProfileID = d.idField(p, "profileId", ids.CheckProfileID)
	m.Profile.ProfileVersion = d.idField(p, "profileVersion", ids.CheckVersion)
	m.Profile.Sha256 = d.idField(p, "sha256", ids.CheckSha256)
	p.Done()
	d.readArtifacts(o.Object("artifacts", true), m)
	d.readChecksums(o.Object("checksums", true), m)
	d.readCounts(o.Object("counts", true), &m.Counts)
	d.readCapabilities(o.Object("capabilities", true), &m.Capabilities, v11)
	m.Rights = rights.Decode(o.Object("rights", true))
	val := o.Object("validation", true)
	m.Validation.Status, _ = val.Str("status", true)
	if s, present, isNull := val.NullStr("validatedAt", false); present && !isNull {
		if !timestamp(s) {
			val.Invalid("validatedAt", "validation.validatedAt must be an RFC 3339 timestamp with a time zone")
		}
		m.Validation.ValidatedAt = s
	}
	val.Done()
	if rels, ok := o.Arr("snapshotRelations", false); ok {
		for i, rv := range rels {
			ro := jsonv.AsObj(rv, jsonv.Index("snapshotRelations", i), &d.is)
			var r SnapshotRelation
			r.RelationType, _ = ro.Str("relationType", true)
			r.TargetSnapshotID = d.idField(ro, "targetSnapshotId", ids.CheckSnapshot)
			r.Evidence, _ = ro.Str("evidence", true)
			ro.Done()
			m.SnapshotRelations = append(m.SnapshotRelations, r)
		}
	}
	o.Done()
}

func optStr(o *jsonv.Obj, key string) *string {
	s, present, isNull := o.NullStr(key, true)
	if !present || isNull {
		return nil
	}
	return &s
}

func (d *decoder) nonBlank(o *jsonv.Obj, key string) string {
	s, ok := o.Str(key, true)
	if ok && strings.TrimSpace(s) == "" {
		o.Invalid(key, "%s must not be blank", jsonv.Join(o.Path, key))
	}
	return s
}

func (d *decoder) uniqueStrs(o *jsonv.Obj, key string, min int) []string {
	list, ok := o.Strs(key, true)
	if !ok {
		return list
	}
	if len(list) < min {
		o.Invalid(key, "%s must have at least %d value(s)", jsonv.Join(o.Path, key), min)
	}
	seen := map[string]bool{}
	for _, s := range list {
		if seen[s] {
			o.Invalid(key, "%s repeats %q", jsonv.Join(o.Path, key), s)
		}
		seen[s] = true
		if strings.TrimSpace(s) == "" {
			o.Invalid(key, "%s has a blank value", jsonv.Join(o.Path, key))
		}
	}
	return list
}

func (d *decoder) readFramework(o *jsonv.Obj, f *Framework) {
	f.Name = d.nonBlank(o, "name")
	f.Jurisdiction = d.nonBlank(o, "jurisdiction")
	f.JurisdictionType = optStr(o, "jurisdictionType")
	f.IssuingAuthority = optStr(o, "issuingAuthority")
	f.Provider = optStr(o, "provider")
	f.Languages = d.uniqueStrs(o, "languages", 1)
	for _, l := range f.Languages {
		if why := ids.CheckLanguage(l); why != "" {
			o.Invalid("languages", "framework.languages: %s", why)
		}
	}
	f.LocalSubject = d.nonBlank(o, "localSubject")
	f.NormalizedSubjects = d.uniqueStrs(o, "normalizedSubjects", 0)
	f.LocalGradesOrStages = d.uniqueStrs(o, "localGradesOrStages", 0)
	f.NormalizedGrades = d.uniqueStrs(o, "normalizedGrades", 0)
	f.AdoptionStatus = optStr(o, "adoptionStatus")
	f.IsCurrent, _ = o.Bool("isCurrent", true)
	f.SourceVersion = d.nonBlank(o, "sourceVersion")
	f.SourcePublicationDate = optStr(o, "sourcePublicationDate")
	if f.SourcePublicationDate != nil {
		if _, err := time.Parse("2006-01-02", *f.SourcePublicationDate); err != nil {
			o.Invalid("sourcePublicationDate", "framework.sourcePublicationDate must be an ISO date (YYYY-MM-DD)")
		}
	}
	f.SourceDocumentSha256 = optStr(o, "sourceDocumentSha256")
	if f.SourceDocumentSha256 != nil {
		if why := ids.CheckSha256(*f.SourceDocumentSha256); why != "" {
			o.Invalid("sourceDocumentSha256", "framework.sourceDocumentSha256: %s", why)
		}
	}
	if s, ok := o.Str("subjectMappingStatus", true); ok {
		if s != "mapped" && s != "other" && s != "unreviewed" {
			o.Invalid("subjectMappingStatus", "framework.subjectMappingStatus must be mapped, other or unreviewed")
		}
		f.SubjectMappingStatus = s
	}
	f.SubjectMappingNote = optStr(o, "subjectMappingNote")
	o.Done()
}

func (d *decoder) readArtifacts(o *jsonv.Obj, m *Manifest) {
	if !o.Valid() {
		return
	}
	for _, mem := range o.V.Obj {
		if mem.Key == additionalArtifactsMemberName {
			continue
		}
		if !IsBuiltin(mem.Key) {
			continue // reported by Done as an unknown field
		}
		if s, ok := o.Str(mem.Key, false); ok {
			m.Artifacts = append(m.Artifacts, Artifact{Name: mem.Key, Path: s})
		}
	}
	o.Field(Nodes, true)
	o.Field(Relationships, true)
	add := o.Object(additionalArtifactsMemberName, true)
	if add.Valid() {
		for _, mem := range add.V.Obj {
			s, ok := add.Str(mem.Key, false)
			if !ok {
				continue
			}
			field := jsonv.Join(add.Path, mem.Key)
			if why := ids.CheckArtifactName(mem.Key); why != "" {
				d.add(finding.ManifestArtifactName, field, "additional artifact name %q: %s", mem.Key, why)
			} else if IsBuiltin(mem.Key) {
				d.add(finding.ManifestArtifactName, field, "additional artifact name %q is reserved for a built-in artifact", mem.Key)
			}
			m.Artifacts = append(m.Artifacts, Artifact{Name: mem.Key, Path: s, Additional: true})
		}
		add.Done()
	}
	o.Done()
	sort.Slice(m.Artifacts, func(i, j int) bool { return m.Artifacts[i].Name < m.Artifacts[j].Name })
	m.Index()
}

func (d *decoder) readChecksums(o *jsonv.Obj, m *Manifest) {
	m.Checksums = map[string]string{}
	if !o.Valid() {
		return
	}
	for _, mem := range o.V.Obj {
		s, ok := o.Str(mem.Key, false)
		if !ok {
			continue
		}
		if why := ids.CheckSha256(s); why != "" {
			o.Invalid(mem.Key, "checksum of %q: %s", mem.Key, why)
		}
		m.Checksums[mem.Key] = s
	}
	o.Done()
}

func (d *decoder) count(o *jsonv.Obj, key string, required bool) int64 {
	n, ok := o.Int(key, required)
	if ok && n < 0 {
		o.Invalid(key, "%s must not be negative", jsonv.Join(o.Path, key))
	}
	return n
}

func (d *decoder) readCounts(o *jsonv.Obj, c *Counts) {
	c.FrameworkNodes = d.count(o, "frameworkNodes", true)
	c.ItemNodes = d.count(o, "itemNodes", true)
	c.LearningComponentNodes = d.count(o, "learningComponentNodes", false)
	c.Relationships = d.count(o, "relationships", true)
	c.SupportsRelationships = d.count(o, "supportsRelationships", false)
	c.BuildsTowardsRelationships = d.count(o, "buildsTowardsRelationships", false)
	c.RelatesToRelationships = d.count(o, "relatesToRelationships", false)
	ac := o.Object("additionalCounts", true)
	c.CodedItems = d.count(ac, "codedItems", true)
	c.MultiParentTargets = d.count(ac, "multiParentTargets", true)
	c.UnresolvedRelationships = d.count(ac, "unresolvedRelationships", true)
	ac.Done()
	o.Done()
}

func (d *decoder) readCapabilities(o *jsonv.Obj, c *Capabilities, v11 bool) {
	c.TextSearch = true
	if b, ok := o.Bool("textSearch", false); ok {
		c.TextSearch = b
	}
	if s, ok := o.Str("codeSearch", true); ok {
		if s != "complete" && s != "partial" && s != "none" {
			o.Invalid("codeSearch", "capabilities.codeSearch must be complete, partial or none")
		}
		c.CodeSearch = s
	}
	c.MultiParent, _ = o.Bool("multiParent", true)
	c.HasDetailedProvenance, _ = o.Bool("hasDetailedProvenance", true)
	c.HasUnresolvedRelationships, _ = o.Bool("hasUnresolvedRelationships", true)
	c.HasOfficialActivities, _ = o.Bool("hasOfficialActivities", true)
	c.HasOfficialAssessmentGuidance, _ = o.Bool("hasOfficialAssessmentGuidance", true)
	if v11 {
		c.HasLearningProgressions, _ = o.Bool("hasLearningProgressions", true)
		c.HasLearningProgressionProvenance, _ = o.Bool("hasLearningProgressionProvenance", true)
	}
	o.Done()
}

// timestamp reports whether s is an RFC 3339 timestamp with an explicit zone.
func timestamp(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}
