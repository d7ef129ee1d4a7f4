package gate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/internal/safefile"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/profile"
	"github.com/kgc-project/kgc/schema/promptcfg"
)

// openConfig opens <root>/<id>/<version>/<file> treating root as a trust
// boundary: every component below it must be a real directory or regular file,
// never a symbolic link. It returns the file's bytes, or found=false when the
// file does not exist, or unsafe with a reason.
func openConfig(root, id, version, file string, maxBytes int64) (data []byte, found bool, unsafe string, err error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, "", nil
		}
		return nil, false, "", fmt.Errorf("open %s: %w", root, err)
	}
	defer r.Close()
	rel := ""
	for i, part := range []string{id, version, file} {
		rel = path.Join(rel, part)
		fi, err := r.Lstat(rel)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, "", nil
		}
		if err != nil {
			return nil, false, "", fmt.Errorf("stat %s: %w", rel, err)
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			return nil, true, rel + " is a symbolic link", nil
		case i < 2 && !fi.IsDir():
			return nil, true, rel + " is not a directory", nil
		case i == 2 && !fi.Mode().IsRegular():
			return nil, true, rel + " is not a regular file", nil
		case i == 2 && maxBytes > 0 && fi.Size() > maxBytes:
			return nil, true, fmt.Sprintf("%s is %d bytes; the limit is %d", rel, fi.Size(), maxBytes), nil
		}
	}
	data, err = safefile.Read(r, rel, maxBytes)
	var tl *safefile.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, true, tl.Error(), nil
	case errors.Is(err, safefile.ErrWrongType):
		return nil, true, err.Error(), nil
	case err != nil:
		return nil, false, "", fmt.Errorf("read %s: %w", rel, err)
	}
	return data, true, "", nil
}

// bindProfile loads the profile the manifest binds, checks the binding by the
// SHA-256 of its exact bytes, validates it, and compares the manifest with it.
func (s *state) bindProfile() error {
	ref := s.res.Manifest.Profile
	if ids.CheckProfileID(ref.ProfileID) != "" || ids.CheckVersion(ref.ProfileVersion) != "" {
		return nil // reported by the manifest stage
	}
	rel := path.Join(ref.ProfileID, ref.ProfileVersion, profile.FileName)
	s.res.ProfilePath = rel
	data, found, unsafe, err := openConfig(s.opts.ProfileRoot, ref.ProfileID, ref.ProfileVersion, profile.FileName, MaxProfileBytes)
	if err != nil {
		return err
	}
	switch {
	case unsafe != "":
		f := finding.New(finding.ProfilePathUnsafe, "profile %s: %s", rel, unsafe)
		if strings.Contains(unsafe, "limit") {
			// As the registry says, like an oversized manifest.
			f = finding.New(finding.FileTooLarge, "profile %s: %s; it is not read", rel, unsafe).WithStage(finding.StageProfile)
		}
		s.add(f.At("profile", rel))
		return nil
	case !found:
		s.add(finding.New(finding.ProfileMissing, "profile %s/%s is not in the profile root %s (there is no %s); give the root that holds <profileId>/<profileVersion>/profile.json with --profiles DIR (or KGC_PROFILES)",
			ref.ProfileID, ref.ProfileVersion, s.opts.ProfileRoot, filepath.Join(s.opts.ProfileRoot, filepath.FromSlash(rel))).At("profile", rel))
		return nil
	}
	if got := digest(data); ref.Sha256 != "" && got != ref.Sha256 {
		s.add(finding.New(finding.ProfileSha256Mismatch, "profile %s has SHA-256 %s but the manifest binds %s", rel, got, ref.Sha256).At("profile", rel))
		return nil
	}
	p, c, fs := profile.Decode(data, rel)
	s.add(fs...)
	if p == nil {
		return nil
	}
	if p.ProfileID != ref.ProfileID || p.ProfileVersion != ref.ProfileVersion {
		s.add(finding.New(finding.ProfileIdentityMismatch, "profile at %s declares %s/%s", rel, p.ProfileID, p.ProfileVersion).At("profile", rel))
	}
	s.res.Profile, s.res.Compiled, s.res.ProfileBytes = p, c, data
	s.compareManifest(p)
	return nil
}

func sameSet(a, b []string) bool {
	x := append([]string(nil), a...)
	y := append([]string(nil), b...)
	sort.Strings(x)
	sort.Strings(y)
	return strings.Join(x, "\x00") == strings.Join(y, "\x00")
}

// compareManifest reports where the manifest's framework metadata and rights
// disagree with the profile it binds.
func (s *state) compareManifest(p *profile.Profile) {
	m := s.res.Manifest
	mismatch := func(field, format string, args ...any) {
		s.add(finding.New(finding.ProfileManifestMismatch, format, args...).At("manifest", "package_manifest.json").In(field))
	}
	found := false
	for _, f := range p.FrameworkIDs {
		found = found || f == m.FrameworkID
	}
	if !found && m.FrameworkID != "" {
		s.add(finding.New(finding.ProfileFrameworkMismatch, "framework %s is not one of the profile's frameworkIds %v", m.FrameworkID, p.FrameworkIDs).At("profile", s.res.ProfilePath))
	}
	f := m.Framework
	if f.LocalSubject != p.LocalSubject {
		mismatch("framework.localSubject", "framework.localSubject %q differs from the profile's %q", f.LocalSubject, p.LocalSubject)
	}
	if !sameSet(f.NormalizedSubjects, p.NormalizedSubjects) {
		mismatch("framework.normalizedSubjects", "framework.normalizedSubjects %v differ from the profile's %v", f.NormalizedSubjects, p.NormalizedSubjects)
	}
	if f.SubjectMappingStatus != p.SubjectMappingStatus {
		mismatch("framework.subjectMappingStatus", "framework.subjectMappingStatus %q differs from the profile's %q", f.SubjectMappingStatus, p.SubjectMappingStatus)
	}
	if !sameSet(f.Languages, p.LanguagePolicy.Languages) {
		mismatch("framework.languages", "framework.languages %v differ from the profile's language policy %v", f.Languages, p.LanguagePolicy.Languages)
	}
	if !sameSet(f.NormalizedGrades, p.NormalizedGrades()) {
		mismatch("framework.normalizedGrades", "framework.normalizedGrades %v differ from the profile's grade mappings %v", f.NormalizedGrades, p.NormalizedGrades())
	}
	var labels []string
	for _, g := range p.GradeMappings {
		labels = append(labels, g.LocalLabel)
	}
	for _, st := range p.EducationStageMappings {
		labels = append(labels, st.LocalLabel)
	}
	for _, l := range f.LocalGradesOrStages {
		ok := false
		for _, x := range labels {
			ok = ok || x == l
		}
		if !ok {
			mismatch("framework.localGradesOrStages", "local grade or stage %q has no grade or stage mapping in the profile", l)
		}
	}
	for _, field := range m.Rights.Differences(p.Rights) {
		mismatch("rights."+field, "rights.%s differs between the manifest and the profile", field)
	}
}

// loadPrompts loads and validates the prompt config beside the bound profile,
// when there is one.
func (s *state) loadPrompts() error {
	p := s.res.Profile
	if p == nil {
		return nil
	}
	rel := path.Join(p.ProfileID, p.ProfileVersion, promptcfg.FileName)
	data, found, unsafe, err := openConfig(s.opts.PromptRoot, p.ProfileID, p.ProfileVersion, promptcfg.FileName, promptcfg.MaxBytes)
	if err != nil {
		return err
	}
	switch {
	case unsafe != "":
		code := finding.PromptConfigPathUnsafe
		if strings.Contains(unsafe, "limit") {
			code = finding.PromptConfigTooLarge
		}
		s.add(finding.New(code, "prompt config %s: %s", rel, unsafe).At("promptConfig", rel))
		return nil
	case !found:
		return nil
	}
	c, fs := promptcfg.Decode(data, rel, p.ProfileID, p.ProfileVersion, p.FrameworkIDs)
	s.add(fs...)
	if c != nil {
		s.res.Prompts, s.res.PromptBytes, s.res.PromptPath = c, data, rel
	}
	return nil
}
