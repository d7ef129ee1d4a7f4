package gate

import (
	"errors"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/internal/safefile"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/manifest"
)

// Ceilings of the files the gate reads whole (a file over its ceiling is a
// file_too_large finding and is not read): a 2 GB sparse manifest cost 4.57 GB
// when it was read before its size was checked. The largest real detailed
// artifact known is CBSE's 40.9 MB provenance map; the project's million-standard
// benchmark package (90,000 buildsTowards edges) has a 172 MB relationship
// provenance document, so documents may reach 256 MiB. Delivery JSONL is
// streamed (one line at most 8 MiB, delivery's maxLineBytes) and has no ceiling.
const (
	MaxManifestBytes = 8 << 20
	MaxProfileBytes  = 8 << 20
	MaxDocumentBytes = 256 << 20
)

// readFile reads a package-relative regular file through the package root, at
// most max bytes. A file over max, or one that is not (or is no longer) a
// regular file, is reported as a finding about the artifact and gives
// ok false; only an I/O failure is an error.
func (s *state) readFile(artifact, rel string, max int64, stage finding.Stage) (b []byte, ok bool, err error) {
	b, err = safefile.Read(s.root, rel, max)
	if s.fileProblem(artifact, rel, stage, err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", rel, err)
	}
	return b, true, nil
}

// openFile opens a package-relative regular file for streaming, as readFile
// reads one.
func (s *state) openFile(artifact, rel string, stage finding.Stage) (f *os.File, ok bool, err error) {
	f, _, ok, err = s.openSized(artifact, rel, stage)
	return f, ok, err
}

// openSized is openFile, also returning the file's size.
func (s *state) openSized(artifact, rel string, stage finding.Stage) (f *os.File, size int64, ok bool, err error) {
	f, size, err = safefile.Open(s.root, rel, 0)
	if s.fileProblem(artifact, rel, stage, err) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, fmt.Errorf("open %s: %w", rel, err)
	}
	return f, size, true, nil
}

// fileProblem reports err as a finding when it is about the file itself (too
// large, or not a regular file any more) and says whether it did.
func (s *state) fileProblem(artifact, rel string, stage finding.Stage, err error) bool {
	var tl *safefile.TooLargeError
	switch {
	case errors.As(err, &tl):
		s.add(finding.New(finding.FileTooLarge, "%s is %d bytes, over the %d-byte ceiling for this file; it is not read", rel, tl.Size, tl.Max).WithStage(stage).At(artifact, rel))
	case errors.Is(err, safefile.ErrWrongType):
		s.add(finding.New(finding.PathSpecialFile, "%v", err).At(artifact, rel))
	default:
		return false
	}
	return true
}

// readManifest decodes package_manifest.json and checks the directory names
// against its identity. It reports false when there is no manifest to go on.
func (s *state) readManifest() bool {
	if !s.files[manifest.FileName] {
		s.add(finding.New(finding.ManifestMissing, "the package has no %s", manifest.FileName).At("manifest", manifest.FileName))
		return false
	}
	b, ok, err := s.readFile("manifest", manifest.FileName, MaxManifestBytes, finding.StageManifest)
	if err != nil {
		s.add(finding.New(finding.ManifestMissing, "%s cannot be read: %v", manifest.FileName, err).At("manifest", manifest.FileName))
		return false
	}
	if !ok {
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
	// A directory is used when a declared path lies under it: mark every
	// ancestor of every declared path (linear in the paths' segments, not
	// directories times paths).
	used := map[string]bool{}
	for p := range declared {
		if s.dirs[p] {
			used[p] = true // a directory at a declared path: artifact_not_regular says so
		}
		for d := path.Dir(p); d != "." && !used[d]; d = path.Dir(d) {
			used[d] = true
		}
	}
	undeclared := map[string]bool{}
	var undeclaredDirs []string
	for d := range s.dirs {
		if !used[d] {
			undeclared[d] = true
			undeclaredDirs = append(undeclaredDirs, d)
		}
	}
	sort.Strings(undeclaredDirs)
	// under reports whether p lies below an undeclared directory.
	under := func(p string) bool {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if undeclared[d] {
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
