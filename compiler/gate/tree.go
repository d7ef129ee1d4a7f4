package gate

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/manifest"
)

// readFile reads a package-relative regular file through the package root.
func (s *state) readFile(rel string) ([]byte, error) {
	f, err := s.root.Open(rel)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", rel, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	return b, nil
}

// readManifest decodes package_manifest.json and checks the directory names
// against its identity. It reports false when there is no manifest to go on.
func (s *state) readManifest() bool {
	if !s.files[manifest.FileName] {
		s.add(finding.New(finding.ManifestMissing, "the package has no %s", manifest.FileName).At("manifest", manifest.FileName))
		return false
	}
	b, err := s.readFile(manifest.FileName)
	if err != nil {
		s.add(finding.New(finding.ManifestMissing, "%s cannot be read: %v", manifest.FileName, err).At("manifest", manifest.FileName))
		return false
	}
	m, fs := manifest.Decode(b)
	s.add(fs...)
	s.res.ManifestBytes = b
	if m == nil {
		return false
	}
	s.res.Manifest = m
	snap, fw := s.dirNames()
	if m.SnapshotID != "" && m.SnapshotID != snap {
		s.add(finding.New(finding.ManifestIdentityMismatch, "snapshotId %q differs from the snapshot directory name %q", m.SnapshotID, snap).At("manifest", manifest.FileName).In("snapshotId"))
	}
	if m.FrameworkID != "" && m.FrameworkID != fw {
		s.add(finding.New(finding.ManifestIdentityMismatch, "frameworkId %q differs from the framework directory name %q", m.FrameworkID, fw).At("manifest", manifest.FileName).In("frameworkId"))
	}
	return true
}

// checkTree compares the tree with the manifest: every declared artifact must be
// a regular file, and nothing else may exist.
func (s *state) checkTree() {
	m := s.res.Manifest
	declared := map[string]string{}
	s.invalidPaths = map[string]bool{}
	for _, a := range m.Artifacts {
		if ids.CheckArtifactPath(a.Path) != "" || a.Path == manifest.FileName {
			s.invalidPaths[a.Path] = true
			continue
		}
		declared[a.Path] = a.Name
	}
	for _, a := range m.Artifacts {
		if s.invalidPaths[a.Path] || s.files[a.Path] {
			continue
		}
		if s.dirs[a.Path] {
			s.add(finding.New(finding.ArtifactNotRegular, "artifact %s (%s) is a directory, not a file", a.Name, a.Path).At(a.Name, a.Path).WithStage(finding.StageTree))
			continue
		}
		s.add(finding.New(finding.ArtifactMissing, "declared artifact %s (%s) does not exist", a.Name, a.Path).At(a.Name, a.Path))
	}
	var undeclaredDirs []string
	for d := range s.dirs {
		prefix := d + "/"
		used := false
		for p := range declared {
			if strings.HasPrefix(p, prefix) {
				used = true
				break
			}
		}
		if !used {
			undeclaredDirs = append(undeclaredDirs, d)
		}
	}
	sort.Strings(undeclaredDirs)
	under := func(p string) bool {
		for _, d := range undeclaredDirs {
			if strings.HasPrefix(p, d+"/") {
				return true
			}
		}
		return false
	}
	for _, d := range undeclaredDirs {
		if !under(d) {
			s.add(finding.New(finding.TreeUndeclaredDirectory, "directory %s holds no declared artifact", d).At("", d))
		}
	}
	files := make([]string, 0, len(s.files))
	for p := range s.files {
		files = append(files, p)
	}
	sort.Strings(files)
	for _, p := range files {
		if p == manifest.FileName || under(p) {
			continue
		}
		if _, ok := declared[p]; !ok {
			s.add(finding.New(finding.TreeUndeclaredFile, "file %s is not declared by the manifest", p).At("", p))
		}
	}
}

func (s *state) dirNames() (snapshot, framework string) {
	abs := s.root.Name()
	i := strings.LastIndexAny(abs, `/\`)
	snapshot = abs[i+1:]
	rest := abs[:max(i, 0)]
	j := strings.LastIndexAny(rest, `/\`)
	framework = rest[j+1:]
	return snapshot, framework
}
